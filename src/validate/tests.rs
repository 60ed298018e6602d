//! Structural checks on real Gateway API and core kinds: exact code, message and line:column.

use crate::diag::Diagnostic;
use crate::lint::{LintOptions, lint_sources};
use crate::source::SourceFile;

/// Renders findings as `line:col CODE message` (plus ` [help]` when there is one).
pub(super) fn render(file: &SourceFile, diags: &[Diagnostic]) -> Vec<String> {
    diags
        .iter()
        .map(|d| {
            let lc = d
                .location
                .as_ref()
                .map(|l| file.line_col(l.span.start))
                .map_or("-".to_string(), |lc| format!("{}:{}", lc.line, lc.column));
            let help = d.help.as_ref().map_or(String::new(), |h| format!(" [{h}]"));
            format!("{lc} {} {}{help}", d.code, d.message)
        })
        .collect()
}

/// Lints one YAML text through the whole pipeline.
pub(super) fn lint(yaml: &str) -> Vec<String> {
    let run = lint_sources(
        vec![SourceFile::new(0, "t.yaml", yaml)],
        &LintOptions::default(),
    );
    // Reference (GW2xx) and security (GW4xx) findings come from the same pipeline but are tested
    // on their own; these tests are about the schema.
    let schema: Vec<_> = run
        .diagnostics
        .into_iter()
        .filter(|d| !d.code.as_str().starts_with("GW2") && !d.code.as_str().starts_with("GW4"))
        .collect();
    render(&run.files[0], &schema)
}

/// Lints `yaml` with only `crd` registered, through the schema walk (no other stage): the
/// findings rendered as `line:col CODE message`. The CRD's schema must compile without problems.
pub(super) fn lint_with_crd(crd: &serde_json::Value, yaml: &str) -> Vec<String> {
    use crate::model::resources_of;
    use crate::parse::{Limits, parse_file};
    use crate::schema::{Lookup, Registry};
    let mut registry = Registry::default();
    registry.add_crd(crd).expect("test CRD imports");
    let file = SourceFile::new(0, "t.yaml", yaml);
    let parsed = parse_file(&file, &Limits::default());
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    let mut out = Vec::new();
    for doc in &parsed.documents {
        let (resources, _) = resources_of(&file, doc);
        for r in resources {
            let Lookup::Found(schema) = registry.lookup(r.group, r.version, r.kind) else {
                panic!("{} not found", r.kind);
            };
            assert!(
                schema.schema.problems.is_empty(),
                "{:?}",
                schema.schema.problems
            );
            out.extend(super::validate_resource(&r, schema));
        }
    }
    out.sort_by_key(|d| d.location.as_ref().map(|l| l.span.start));
    render(&file, &out)
}

const GATEWAY: &str = "\
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: gw
spec:
  gatewayClassName: example
  listeners:
  - name: http
    protocol: HTTP
    port: 80
";

#[test]
fn valid_documents_have_no_findings() {
    assert_eq!(lint(GATEWAY), Vec::<String>::new());
    let route = "\
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: r
  namespace: default
  labels: {app.kubernetes.io/name: web, tier: ''}
  annotations: {example.com/note: 'any text at all'}
spec:
  parentRefs: [{name: gw, sectionName: http}]
  hostnames: [\"*.example.com\"]
  rules:
  - matches: [{path: {type: PathPrefix, value: /api}, method: GET}]
    filters:
    - type: RequestHeaderModifier
      requestHeaderModifier: {set: [{name: X-A, value: b}], remove: [X-B]}
    backendRefs: [{name: svc, port: 8080, weight: 1}]
    timeouts: {request: 10s, backendRequest: 2s}
";
    assert_eq!(lint(route), Vec::<String>::new());
    let class = "\
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: example}
spec: {controllerName: example.com/gateway-controller}
";
    assert_eq!(lint(class), Vec::<String>::new());
}

#[test]
fn unknown_field_with_suggestion() {
    let yaml = GATEWAY.replace("    port: 80", "    port: 80\n    prot: 1");
    assert_eq!(
        lint(&yaml),
        [r#"11:5 GW101 unknown field "spec.listeners[0].prot" [did you mean "protocol"?]"#]
    );
}

#[test]
fn required_field_at_the_key_of_the_object_lacking_it() {
    let yaml = GATEWAY.replace("    protocol: HTTP\n", "");
    assert_eq!(
        lint(&yaml),
        ["8:5 GW102 spec.listeners[0].protocol: Required value"]
    );
    let yaml = GATEWAY.replace("  gatewayClassName: example\n", "");
    assert_eq!(
        lint(&yaml),
        ["5:1 GW102 spec.gatewayClassName: Required value"]
    );
}

#[test]
fn null_of_a_required_field_is_pruned_then_missing() {
    let yaml = GATEWAY.replace("gatewayClassName: example", "gatewayClassName: null");
    assert_eq!(
        lint(&yaml),
        ["5:1 GW102 spec.gatewayClassName: Required value"]
    );
}

#[test]
fn wrong_type() {
    let yaml = GATEWAY.replace("port: 80", "port: \"80\"");
    assert_eq!(
        lint(&yaml),
        [
            r#"10:11 GW103 spec.listeners[0].port: Invalid value: "string": spec.listeners[0].port in body must be of type integer: "string""#
        ]
    );
    let yaml = GATEWAY.replace("  listeners:\n", "  listeners: {}\n  x:\n");
    let found = lint(&yaml);
    assert!(
        found.contains(&r#"7:14 GW103 spec.listeners: Invalid value: "object": spec.listeners in body must be of type array: "object""#.to_string()),
        "{found:?}"
    );
}

#[test]
fn integral_float_is_an_integer() {
    let yaml = GATEWAY.replace("port: 80", "port: 80.0");
    assert_eq!(lint(&yaml), Vec::<String>::new());
}

#[test]
fn unsupported_enum_value() {
    let yaml = "\
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r}
spec:
  rules:
  - matches:
    - method: NOTREAL
";
    assert_eq!(
        lint(yaml),
        [
            r#"7:15 GW104 spec.rules[0].matches[0].method: Unsupported value: "NOTREAL": supported values: "GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH""#
        ]
    );
}

#[test]
fn pattern_mismatch() {
    let yaml = GATEWAY.replace("name: http", "name: bad>");
    assert_eq!(
        lint(&yaml),
        [
            r#"8:11 GW105 spec.listeners[0].name: Invalid value: "bad>": spec.listeners[0].name in body should match '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$'"#
        ]
    );
}

#[test]
fn string_lengths() {
    let yaml = GATEWAY.replace("gatewayClassName: example", "gatewayClassName: ''");
    assert_eq!(
        lint(&yaml),
        [
            r#"6:21 GW106 spec.gatewayClassName: Invalid value: "": spec.gatewayClassName in body should be at least 1 chars long"#
        ]
    );
    let long = "a".repeat(254);
    let yaml = GATEWAY.replace(
        "gatewayClassName: example",
        &format!("gatewayClassName: {long}"),
    );
    assert_eq!(
        lint(&yaml),
        ["6:21 GW106 spec.gatewayClassName: Too long: may not be more than 253 bytes"]
    );
}

#[test]
fn number_bounds() {
    let yaml = GATEWAY.replace("port: 80", "port: 0");
    assert_eq!(
        lint(&yaml),
        [
            "10:11 GW107 spec.listeners[0].port: Invalid value: 0: spec.listeners[0].port in body should be greater than or equal to 1"
        ]
    );
    let yaml = GATEWAY.replace("port: 80", "port: 65536");
    assert_eq!(
        lint(&yaml),
        [
            "10:11 GW107 spec.listeners[0].port: Invalid value: 65536: spec.listeners[0].port in body should be less than or equal to 65535"
        ]
    );
}

#[test]
fn collection_sizes() {
    let hosts: Vec<String> = (0..17).map(|i| format!("h{i}.example.com")).collect();
    let yaml = format!(
        "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {{name: r}}\nspec:\n  hostnames: [{}]\n",
        hosts.join(", ")
    );
    assert_eq!(
        lint(&yaml),
        ["5:14 GW108 spec.hostnames: Too many: 17: must have at most 16 items"]
    );
    let yaml = GATEWAY.replace(
        "  listeners:\n  - name: http\n    protocol: HTTP\n    port: 80\n",
        "  listeners: []\n",
    );
    assert_eq!(
        lint(&yaml),
        [
            "7:14 GW108 spec.listeners: Invalid value: 0: spec.listeners in body should have at least 1 items"
        ]
    );
}

#[test]
fn duplicate_set_item_and_map_key() {
    let yaml = "\
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r}
spec:
  rules:
  - filters:
    - type: RequestHeaderModifier
      requestHeaderModifier:
        remove: [foo, foo]
";
    assert_eq!(
        lint(yaml),
        [
            r#"9:23 GW109 spec.rules[0].filters[0].requestHeaderModifier.remove[1]: Duplicate value: "foo""#
        ]
    );
    let yaml = format!("{GATEWAY}  - name: http\n    protocol: HTTP\n    port: 8080\n");
    let run = lint_sources(
        vec![SourceFile::new(0, "t.yaml", yaml.as_str())],
        &LintOptions::default(),
    );
    let dup: Vec<_> = run
        .diagnostics
        .iter()
        .filter(|d| d.code == crate::rules::GW109)
        .collect();
    // The API server reports both the list-map duplicate and the CEL rule.
    assert_eq!(
        render(&run.files[0], &run.diagnostics),
        [
            r#"7:3 GW112 spec.listeners: Invalid value: "array": Listener name must be unique within the Gateway"#,
            r#"11:5 GW109 spec.listeners[1]: Duplicate value: {"name":"http"}"#,
        ]
    );
    let related = &dup[0].related[0].location;
    assert_eq!(run.files[0].line_col(related.span.start).line, 8);
}

#[test]
fn address_formats_through_one_of_and_any_of() {
    let yaml = format!(
        "{GATEWAY}  addresses:\n  - value: 1.2.3.4:8080\n  - type: Hostname\n    value: example.com\n  - type: IPAddress\n    value: \"::1\"\n"
    );
    assert_eq!(
        lint(&yaml),
        [
            r#"12:5 GW114 "spec.addresses[0]" must validate one and only one schema (oneOf). Found none valid"#,
            r#"12:12 GW111 spec.addresses[0].value: Invalid value: "1.2.3.4:8080": spec.addresses[0].value in body must be of type ipv4: "1.2.3.4:8080""#,
            r#"12:12 GW114 "spec.addresses[0].value" must validate at least one schema (anyOf)"#,
        ]
    );
}

#[test]
fn yaml11_booleans() {
    let yaml = "\
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r}
spec:
  rules:
  - matches:
    - headers:
      - name: X-Debug
        value: on
";
    assert_eq!(
        lint(yaml),
        [
            r#"9:16 GW110 spec.rules[0].matches[0].headers[0].value: plain scalar "on" is the boolean true to the Kubernetes API server (YAML 1.1); quote it to keep a string"#
        ]
    );
    let secret = "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nimmutable: yes\n";
    assert_eq!(
        lint(secret),
        [
            r#"4:12 GW110 immutable: plain scalar "yes" is the boolean true to the Kubernetes API server (YAML 1.1); write true to say so in YAML 1.2 too"#
        ]
    );
}

#[test]
fn core_kinds() {
    let service = "\
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  type: Magic
  selector: {app: web}
  ports:
  - {name: http, port: 80, targetPort: http}
  - {name: http2, port: 80}
  - {name: dns, port: 53, protocol: UDP, targetPort: 5353}
  - {port: 70000, targetPort: true}
";
    assert_eq!(
        lint(service),
        [
            r#"5:9 GW104 spec.type: Unsupported value: "Magic": supported values: "ClusterIP", "NodePort", "LoadBalancer", "ExternalName""#,
            r#"9:5 GW109 spec.ports[1]: Duplicate value: {"port":80,"protocol":"TCP"}"#,
            "11:12 GW107 spec.ports[3].port: Invalid value: 70000: spec.ports[3].port in body should be less than or equal to 65535",
            r#"11:31 GW103 spec.ports[3].targetPort: Invalid value: "boolean": spec.ports[3].targetPort in body must be of type integer: "boolean""#,
            r#"11:31 GW114 "spec.ports[3].targetPort" must validate at least one schema (anyOf)"#,
        ]
    );
    let secret = "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata: {a: aGVsbG8=, b: 'not base64!'}\n";
    // A Secret's value is secret: the lint stage scrubs it from the message it is quoted in.
    assert_eq!(
        lint(secret),
        [
            r#"4:24 GW111 data.b: Invalid value: "****": data.b in body must be of type byte: "****""#
        ]
    );
    let cm = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: '1'}\n";
    assert_eq!(lint(cm), Vec::<String>::new());
}

#[test]
fn metadata_checks() {
    let base = "apiVersion: gateway.networking.k8s.io/v1\nkind: GatewayClass\n";
    let spec = "spec: {controllerName: example.com/c}\n";
    assert_eq!(
        lint(&format!("{base}{spec}")),
        ["2:1 GW102 metadata.name: Required value: name or generateName is required"]
    );
    assert_eq!(
        lint(&format!("{base}metadata:\n  name: Foo_bar\n{spec}")),
        [
            r#"4:9 GW115 metadata.name: Invalid value: "Foo_bar": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"#
        ]
    );
    assert_eq!(
        lint(&format!(
            "{base}metadata:\n  name: ok\n  namespace: default\n  lables: {{}}\n{spec}"
        )),
        [
            "5:3 GW115 metadata.namespace: GatewayClass is cluster-scoped; the API server ignores the namespace",
            r#"6:3 GW101 unknown field "metadata.lables" [did you mean "labels"?]"#,
        ]
    );
    let gw = GATEWAY.replace(
        "  name: gw\n",
        "  name: gw\n  namespace: Bad_NS\n  labels:\n    version: 1\n    bad key: x\n",
    );
    assert_eq!(
        lint(&gw),
        [
            r#"5:14 GW115 metadata.namespace: Invalid value: "Bad_NS": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"#,
            "7:14 GW115 metadata.labels.version: Invalid value: 1: must be of type string",
            r#"8:5 GW115 metadata.labels: Invalid value: "bad key": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"#,
        ]
    );
    let svc = "apiVersion: v1\nkind: Service\nmetadata: {name: 1web}\n";
    assert_eq!(
        lint(svc),
        [
            r#"3:18 GW115 metadata.name: Invalid value: "1web": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"#
        ]
    );
}

#[test]
fn status_is_not_validated_when_it_is_a_subresource() {
    let yaml = format!("{GATEWAY}status:\n  anything: [1, 2]\n");
    assert_eq!(lint(&yaml), Vec::<String>::new());
}

#[test]
fn v1alpha2_routes_of_the_experimental_channel() {
    let yaml = "\
apiVersion: gateway.networking.k8s.io/v1alpha2
kind: TCPRoute
metadata: {name: t}
spec:
  parentRefs: [{name: gw}]
  rules: [{backendRefs: [{name: svc, port: 9000}]}]
";
    assert_eq!(lint(yaml), Vec::<String>::new());
}

#[test]
fn a_listener_protocol_the_gateway_api_reserves_is_reported() {
    let gateway = |protocols: &[&str]| {
        let listeners: Vec<String> = protocols
            .iter()
            .enumerate()
            .map(|(i, p)| format!("  - {{name: l{i}, protocol: {p}, port: {}}}", 8000 + i))
            .collect();
        format!(
            "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {{name: gw}}\nspec:\n  gatewayClassName: c\n  listeners:\n{}\n",
            listeners.join("\n")
        )
    };
    let ok = ["HTTP", "HTTPS", "TCP", "UDP", "example.com/h3", "HBONE"];
    assert_eq!(lint(&gateway(&ok)), Vec::<String>::new());
    assert_eq!(
        lint(&gateway(&["GRPC", "https"])),
        [
            "7:26 GW128 protocol \"GRPC\" is neither a Gateway API protocol (HTTP, HTTPS, TLS, TCP, UDP) nor domain-prefixed: no implementation accepts the listener [serve gRPC and HTTP/2 with protocol HTTP or HTTPS (GRPCRoutes attach there); an implementation's own protocol is domain-prefixed]",
            "8:26 GW128 protocol \"https\" is neither a Gateway API protocol (HTTP, HTTPS, TLS, TCP, UDP) nor domain-prefixed: no implementation accepts the listener [protocol names are case-sensitive: write HTTPS]",
        ]
    );
}

#[test]
fn the_htpasswd_file_of_a_secret_is_checked_line_by_line() {
    let secret =
        |data: &str| format!("apiVersion: v1\nkind: Secret\nmetadata: {{name: creds}}\n{data}\n");
    let good = "stringData:\n  .htpasswd: |\n    alice:{SHA}W6ph5Mm5Pz8GgiULbPgzG37mj9g=\n    bob:{SHA}W6ph5Mm5Pz8GgiULbPgzG37mj9g=";
    assert_eq!(lint(&secret(good)), Vec::<String>::new());
    let escaped = "stringData:\n  .htpasswd: alice:{SHA}W6ph5Mm5Pz8GgiULbPgzG37mj9g=\\nbob:{SHA}W6ph5Mm5Pz8GgiULbPgzG37mj9g=";
    assert_eq!(
        lint(&secret(escaped)),
        [
            "5:14 GW124 stringData[.htpasswd]: htpasswd hash of user \"alice\" is not a well-formed {SHA} hash [the value holds a backslash and an n, not a line break (YAML turns \\n into one only in double quotes): write the lines in a block scalar (|)]"
        ]
    );
    // base64 of "carol:secret\n": a plain-text password, reported at the encoded value.
    let encoded = format!(
        "data:\n  .htpasswd: {}",
        crate::base64::encode(b"carol:secret\n")
    );
    assert_eq!(
        lint(&secret(&encoded)),
        [
            "5:14 GW124 data[.htpasswd]: htpasswd hash of user \"carol\" is in no known scheme (a plain-text password?); use {SHA}, $apr1$, bcrypt ($2y$), $5$/$6$ or crypt"
        ]
    );
    // Another key is not an htpasswd file.
    assert_eq!(
        lint(&secret("stringData:\n  password: carol:secret")),
        Vec::<String>::new()
    );
}

#[test]
fn a_substitution_placeholder_is_checked_once_substituted() {
    let gateway = |value: &str, port: &str| {
        format!(
            "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {{name: gw}}\nspec:\n  gatewayClassName: c\n  addresses: [{{type: IPAddress, value: {value}}}]\n  listeners: [{{name: h, protocol: HTTP, port: {port}, hostname: '*.${{DOMAIN}}'}}]\n"
        )
    };
    // Flux's post-build substitution (and envsubst) replace these before the object is applied.
    assert_eq!(
        lint(&gateway("'${LB_IP}'", "'${PORT:=8080}'")),
        Vec::<String>::new()
    );
    // A value without one is still checked; `$` alone or `${}` is no placeholder.
    let codes: Vec<String> = lint(&gateway("'10.0.0.300'", "80"))
        .iter()
        .filter_map(|f| f.split(' ').nth(1).map(str::to_string))
        .collect();
    assert_eq!(codes, ["GW114", "GW111", "GW114"]);
    assert!(!super::walk_scalars::has_placeholder(
        "$HOME or ${} or ${1X}"
    ));
    assert!(super::walk_scalars::has_placeholder("app.${SECRET_DOMAIN}"));
}

#[test]
fn an_allowed_route_kind_the_protocol_cannot_carry_is_reported() {
    let gateway = |protocol: &str, kinds: &str| {
        format!(
            "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {{name: gw}}\nspec:\n  gatewayClassName: c\n  listeners:\n  - name: l\n    protocol: {protocol}\n    port: 8443\n    allowedRoutes:\n      kinds: {kinds}\n"
        )
    };
    assert_eq!(
        lint(&gateway("HTTPS", "[{kind: HTTPRoute}, {kind: TLSRoute}]")),
        [
            "11:41 GW130 protocol HTTPS cannot carry TLSRoutes (it carries HTTPRoute and GRPCRoute): the listener's ResolvedRefs is False (InvalidRouteKinds) and no TLSRoute attaches to it"
        ]
    );
    // What the protocol carries, and another group's kinds (the implementation's to judge).
    for (protocol, kinds) in [
        ("HTTPS", "[{kind: GRPCRoute}]"),
        ("TCP", "[{kind: TCPRoute}]"),
        ("HTTP", "[{group: example.com, kind: Special}]"),
        ("example.com/h3", "[{kind: TLSRoute}]"),
    ] {
        assert_eq!(
            lint(&gateway(protocol, kinds)),
            Vec::<String>::new(),
            "{protocol}"
        );
    }
}
