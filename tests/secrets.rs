//! No output format shows a secret value: Secret data, htpasswd lines, inline JWKS, API keys.
//! Every value below holds a `MARKER...` string and sits on a field with a finding, so that a
//! snippet or a message quoting it would print the marker.

use predicates::prelude::*;

#[allow(dead_code)] // each test file uses a part of the helpers
#[path = "cli/support.rs"]
mod support;

use support::*;

const SECRETS: &str = r#"apiVersion: v1
kind: Secret
metadata:
  name: creds
type: Opaque
data:
  token: MARKERDATA!!
  other: [MARKERLIST]
stringData:
  password: "MARKERSTRING"
  notes: 42
---
apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata:
  name: web
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: web
  basicAuth:
    users:
    - "alice:MARKERHTPASSWD"
    - 12345678
---
apiVersion: agentgateway.dev/v1alpha1
kind: AiGatewayPolicy
metadata:
  name: llm
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: llm
  traffic:
    jwtAuthentication:
      providers:
      - issuer: https://issuer.example.com
        jwks:
          inline: '{"keys": [{"kty": "EC", "crv": "P-256", "x": "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU", "y": "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0", "d": "MARKERPRIVATE"}]}'
"#;

/// The findings on the secret-bearing fields, as `short` prints them: still reported, just masked.
const EXPECTED: &[&str] = &[
    "s.yaml:7:10: error[GW111]",
    "s.yaml:8:10: error[GW103]",
    "s.yaml:11:10: error[GW103]",
    "s.yaml:24:8: error[GW124]",
    "s.yaml:25:7: error[GW103]",
    "s.yaml:41:19: warning[GW123]",
];

/// What the tree does not hold: the second value of a duplicate key, a Secret that does not parse.
const BROKEN: &str = "apiVersion: v1
kind: Secret
metadata:
  name: dup
data:
  token: MARKERFIRST
  token: MARKERSECOND
---
apiVersion: v1
kind: Secret
metadata:
  name: broken
stringData:
  password: |
    MARKERBLOCK
  apiKey: [MARKERUNCLOSED
";

#[test]
fn no_format_prints_a_secret() {
    let dir = dir_with(&[
        ("s.yaml", SECRETS.as_bytes()),
        ("broken.yaml", BROKEN.as_bytes()),
    ]);
    for format in ["human", "json", "short", "sarif", "github", "junit"] {
        let out = stdout_of(
            gwctl()
                .args(["lint", "--color", "never", "--format", format])
                .arg(dir.path()),
            1,
        );
        assert!(!out.contains("MARKER"), "{format} leaks a secret:\n{out}");
        assert!(
            out.contains("GW124") && out.contains("GW123"),
            "{format}:\n{out}"
        );
    }
    let short = stdout_of(
        gwctl().args(["lint", "--format", "short"]).arg(dir.path()),
        1,
    );
    for want in EXPECTED {
        assert!(short.contains(want), "missing {want}:\n{short}");
    }
}

#[test]
fn human_snippet_shows_the_key_and_masks_the_value() {
    let dir = dir_with(&[("s.yaml", SECRETS.as_bytes())]);
    gwctl()
        .args(["lint", "--color", "never"])
        .arg(dir.path())
        .assert()
        .code(1)
        .stdout(predicate::str::contains("token: ************"))
        .stdout(predicate::str::contains("MARKER").not());
}

#[test]
fn selector_keys_are_not_masked() {
    // `key` outside `auth` is a label selector's key, not a credential.
    let text = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\nimmutable: nope\nselector:\n  key: visiblekey\n";
    let dir = dir_with(&[("s.yaml", text.as_bytes())]);
    let out = stdout_of(
        gwctl().args(["lint", "--color", "never"]).arg(dir.path()),
        1,
    );
    assert!(out.contains("  key: visiblekey"), "{out}");
    assert!(out.contains("immutable: nope"), "{out}");
}

/// Every kind of secret-bearing field, with a distinctive value per field (`tag` makes BASE's and
/// HEAD's differ, so that a diff has an old and a new value for each). Secret `data` is written
/// as base64, as Kubernetes wants it. Returns the manifests and the values in clear.
fn every_kind(tag: &str) -> (String, Vec<String>) {
    let v = |name: &str| format!("Zq{name}{tag}Vx");
    let b64 = |s: &str| gwctl::base64::encode(s.as_bytes());
    // A well-formed {SHA} hash (base64 of 20 bytes) that holds the marker.
    let sha = |name: &str| format!("{{SHA}}{:x<26}A=", v(name));
    // A listener's certificate and key are PEM (the controller refuses other data).
    let pem = |kind: &str, name: &str| {
        format!(
            "-----BEGIN {kind}-----\n{}\n-----END {kind}-----\n",
            v(name)
        )
    };
    let values = vec![
        pem("CERTIFICATE", "tlscrt"),
        pem("PRIVATE KEY", "tlskey"),
        format!("carol:{}", sha("htpasswdsecret")),
        format!("alice:{}", sha("htpasswdroute")),
        format!("bob:{}", sha("htpasswdgateway")),
        format!("Bearer {}", v("authheader")),
        format!("session={}", v("cookie")),
        v("apikeyheader"),
        format!("Bearer {}", v("routefilter")),
        v("routematch"),
        v("jwkoct"),
        v("jwkprivate"),
        v("aikeyinline"),
        v("aikeypolicy"),
        format!("Bearer {}", v("aikeysecret")),
        v("configmappassword"),
        v("aijwkprivate"),
        format!("dave:{}", sha("aihtpasswd")),
    ];
    let text = format!(
        r#"apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {{name: proxy}}
spec: {{controllerName: kgateway.dev/kgateway}}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {{name: edge, namespace: apps}}
spec:
  gatewayClassName: proxy
  listeners:
  - {{name: http, protocol: HTTP, port: 80}}
  - name: https
    protocol: HTTPS
    port: 443
    tls:
      mode: Terminate
      certificateRefs:
      - name: edge-cert
---
apiVersion: v1
kind: Secret
metadata: {{name: edge-cert, namespace: apps}}
type: kubernetes.io/tls
data:
  tls.crt: {tlscrt}
  tls.key: {tlskey}
---
apiVersion: v1
kind: Secret
metadata: {{name: htpasswd, namespace: apps}}
stringData:
  .htpasswd: "{htsecret}"
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {{name: web, namespace: apps}}
spec:
  parentRefs: [{{name: edge}}]
  rules:
  - name: main
    matches:
    - headers:
      - {{name: Authorization, value: "{routematch}"}}
    filters:
    - type: RequestHeaderModifier
      requestHeaderModifier:
        set:
        - {{name: Authorization, value: "{routefilter}"}}
    backendRefs: [{{name: web, port: 80}}]
---
apiVersion: v1
kind: Service
metadata: {{name: web, namespace: apps}}
spec:
  ports: [{{port: 80}}]
---
apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata: {{name: route-auth, namespace: apps}}
spec:
  targetRefs:
  - {{group: gateway.networking.k8s.io, kind: HTTPRoute, name: web}}
  basicAuth:
    users: ["{htroute}"]
  headerModifiers:
    request:
      set:
      - {{name: Authorization, value: "{authheader}"}}
      - {{name: Cookie, value: "{cookie}"}}
      - {{name: X-API-Key, value: "{apikeyheader}"}}
  jwt:
    extensionRef: {{name: jwt}}
---
apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata: {{name: gateway-auth, namespace: apps}}
spec:
  targetRefs:
  - {{group: gateway.networking.k8s.io, kind: Gateway, name: edge}}
  basicAuth:
    users: ["{htgateway}"]
---
apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata: {{name: listener-auth, namespace: apps}}
spec:
  targetRefs:
  - {{group: gateway.networking.k8s.io, kind: Gateway, name: edge, sectionName: https}}
  basicAuth:
    secretRef: {{name: htpasswd}}
---
apiVersion: gateway.kgateway.dev/v1alpha1
kind: GatewayExtension
metadata: {{name: jwt, namespace: apps}}
spec:
  jwt:
    providers:
    - name: local
      issuer: https://issuer.example.com
      jwks:
        local:
          inline: '{{"keys": [{{"kty": "oct", "k": "{jwkoct}"}}, {{"kty": "EC", "crv": "P-256", "x": "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU", "y": "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0", "d": "{jwkprivate}"}}]}}'
---
apiVersion: v1
kind: ConfigMap
metadata: {{name: settings, namespace: apps}}
data:
  db-password: {cmpassword}
---
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {{name: ai}}
spec: {{controllerName: agentgateway.dev/agentgateway}}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {{name: llm-edge, namespace: apps}}
spec:
  gatewayClassName: ai
  listeners:
  - {{name: http, protocol: HTTP, port: 8080}}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {{name: llm, namespace: apps}}
spec:
  parentRefs: [{{name: llm-edge}}]
  rules:
  - backendRefs:
    - {{group: agentgateway.dev, kind: AiGatewayBackend, name: openai}}
  - backendRefs:
    - {{group: agentgateway.dev, kind: AiGatewayBackend, name: anthropic}}
---
apiVersion: agentgateway.dev/v1alpha1
kind: AiGatewayBackend
metadata: {{name: openai, namespace: apps}}
spec:
  ai:
    provider:
      chatCompletionsVendor: {{model: gpt-4o-mini}}
  policies:
    auth:
      key: {aikeyinline}
---
apiVersion: agentgateway.dev/v1alpha1
kind: AiGatewayBackend
metadata: {{name: anthropic, namespace: apps}}
spec:
  ai:
    provider:
      chatCompletionsVendor: {{model: claude}}
  policies:
    auth:
      secretRef: {{name: anthropic-key}}
---
apiVersion: v1
kind: Secret
metadata: {{name: anthropic-key, namespace: apps}}
data:
  Authorization: {aikeysecret}
---
apiVersion: agentgateway.dev/v1alpha1
kind: AiGatewayPolicy
metadata: {{name: llm-auth, namespace: apps}}
spec:
  targetRefs:
  - {{group: agentgateway.dev, kind: AiGatewayBackend, name: openai}}
  backend:
    auth:
      key: {aikeypolicy}
---
apiVersion: agentgateway.dev/v1alpha1
kind: AiGatewayPolicy
metadata: {{name: llm-traffic, namespace: apps}}
spec:
  targetRefs:
  - {{group: gateway.networking.k8s.io, kind: HTTPRoute, name: llm}}
  traffic:
    basicAuthentication:
      users: ["{aihtpasswd}"]
    jwtAuthentication:
      providers:
      - issuer: https://issuer.example.com
        jwks:
          inline: '{{"keys": [{{"kty": "EC", "crv": "P-256", "x": "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU", "y": "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0", "d": "{aijwkprivate}"}}]}}'
"#,
        tlscrt = b64(&values[0]),
        tlskey = b64(&values[1]),
        htsecret = values[2],
        htroute = values[3],
        htgateway = values[4],
        authheader = values[5],
        cookie = values[6],
        apikeyheader = values[7],
        routefilter = values[8],
        routematch = values[9],
        jwkoct = values[10],
        jwkprivate = values[11],
        aikeyinline = values[12],
        aikeypolicy = values[13],
        aikeysecret = b64(&values[14]),
        cmpassword = values[15],
        aijwkprivate = values[16],
        aihtpasswd = values[17],
    );
    (text, values)
}

/// Documents that do not parse: a one-line flow-style Secret and a JSON Secret, each with a
/// syntax error, and a YAML 1.1 boolean as a Secret's value (GW110 quotes such values).
fn broken_kinds() -> (String, String, Vec<String>) {
    let values = vec![
        "ZqflowpasswordVx".to_string(),
        "ZqflowlistVx".to_string(),
        "ZqjsontokenVx".to_string(),
    ];
    let flow = format!(
        "{{apiVersion: v1, kind: Secret, metadata: {{name: flow}}, stringData: {{password: {}, other: [{}, }}\n",
        values[0], values[1]
    );
    let json = format!(
        "{{\"apiVersion\": \"v1\", \"kind\": \"Secret\", \"metadata\": {{\"name\": \"json\"}}, \"data\": {{\"token\": \"{}\" \"x\": 1}}\n",
        gwctl::base64::encode(values[2].as_bytes())
    );
    (flow, json, values)
}

/// Panics when `out` shows any of `values`, its base64, or the distinctive part of it.
#[track_caller]
fn assert_hidden(what: &str, out: &str, values: &[String]) {
    for value in values {
        // `Zq...Vx`, the distinctive part of each value.
        let marker = value
            .find("Zq")
            .and_then(|start| Some(&value[start..start + value[start..].find("Vx")? + 2]))
            .unwrap_or(value);
        for form in [
            value.clone(),
            gwctl::base64::encode(value.as_bytes()),
            marker.to_string(),
        ] {
            assert!(!out.contains(&form), "{what} shows {form:?}:\n{out}");
        }
    }
}

#[test]
fn no_command_prints_a_secret_of_any_kind() {
    let (base, base_values) = every_kind("b");
    let (head, head_values) = every_kind("h");
    let (flow, json, broken_values) = broken_kinds();
    let dir = dir_with(&[
        ("base/all.yaml", base.as_bytes()),
        ("head/all.yaml", head.as_bytes()),
        ("broken/flow.yaml", flow.as_bytes()),
        ("broken/json.json", json.as_bytes()),
    ]);
    let all: Vec<String> = [&base_values[..], &head_values[..], &broken_values[..]].concat();
    let path = |p: &str| dir.path().join(p);

    for format in ["human", "json", "short", "sarif", "github", "junit"] {
        let out = output_of(
            gwctl()
                .args(["lint", "--color", "never", "--format", format])
                .arg(path("base"))
                .arg(path("broken")),
        );
        assert_hidden(&format!("lint --format {format}"), &out, &all);
        // The findings on them are still there (GW403 on the ConfigMap, GW002 on the broken ones).
        assert!(
            out.contains("GW403") && out.contains("GW002"),
            "{format}:\n{out}"
        );
    }

    for target in ["route/*", "gw/*", "aibackend/*"] {
        for format in ["human", "yaml", "json"] {
            let out = output_of(
                gwctl()
                    .args(["explain", target, "-A", "--color", "never", "-o", format])
                    .arg(path("base")),
            );
            assert_hidden(&format!("explain {target} -o {format}"), &out, &all);
            assert!(
                out.contains("<secret hmac:"),
                "explain {target} -o {format}:\n{out}"
            );
        }
    }

    for format in ["yaml", "json"] {
        for check in [false, true] {
            let mut cmd = gwctl();
            cmd.args(["render", "-o", format]).arg(path("base"));
            if check {
                cmd.arg("--check");
            }
            let out = output_of(&mut cmd);
            assert_hidden(&format!("render -o {format} (check {check})"), &out, &all);
            assert!(
                out.contains("localJwks") && out.contains("<secret hmac:"),
                "render -o {format}:\n{out}"
            );
        }
    }

    for format in ["human", "json", "markdown"] {
        let out = output_of(
            gwctl()
                .args(["diff", "--color", "never", "-o", format])
                .arg(path("base"))
                .arg(path("head")),
        );
        assert_hidden(&format!("diff -o {format}"), &out, &all);
        assert!(out.contains("<secret hmac:"), "diff -o {format}:\n{out}");
    }
}

#[test]
fn a_finding_on_a_short_secret_does_not_quote_it() {
    // GW110 quotes a plain `yes`; too short to scrub everywhere, it is scrubbed where the finding
    // points at it.
    let text = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\nstringData:\n  flag: yes\n";
    let dir = dir_with(&[("s.yaml", text.as_bytes())]);
    let out = stdout_of(
        gwctl()
            .args(["lint", "--format", "short", "--fail-on", "warning"])
            .arg(dir.path()),
        1,
    );
    assert!(
        out.contains("s.yaml:6:9: warning[GW110] stringData.flag: plain scalar \"****\" is"),
        "{out}"
    );
    assert!(!out.contains("\"yes\""), "{out}");
}

#[test]
fn digests_differ_between_runs() {
    // The key is drawn per run: the same secret shows another digest in another run.
    let text = "apiVersion: gateway.kgateway.dev/v1alpha1\nkind: TrafficPolicy\nmetadata: {name: p, namespace: x}\n\
                spec:\n  targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: r}]\n  basicAuth: {users: ['u:{SHA}ZqsamevalueVxxxxxxxxxxxxxxA=']}\n---\n\
                apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: r, namespace: x}\nspec: {rules: [{}]}\n";
    let dir = dir_with(&[("s.yaml", text.as_bytes())]);
    let digests = || {
        let out = output_of(
            gwctl()
                .args(["explain", "route/r", "-n", "x", "-o", "json"])
                .arg(dir.path()),
        );
        let start = out.find("<secret hmac:").expect("a digest");
        out[start..start + "<secret hmac:0123456789abcdef>".len()].to_string()
    };
    let (first, second) = (digests(), digests());
    assert!(first.ends_with('>'), "{first}");
    assert_ne!(first, second, "the key is the same in two runs");
}
