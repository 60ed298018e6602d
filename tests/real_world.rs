//! Issue 18: no false findings on what real manifests do (`testdata/real-world/`, each file a
//! case the reference controller accepts), the mistakes people make (the same object twice,
//! conflicting route rules), and findings at the value that is wrong.

mod common;

use std::path::PathBuf;

use common::cli::dir_with;
use common::{describe, lint_text, lint_texts, positioned};
use gwctl::lint::{LintOptions, LintRun, lint_paths};

/// A file of `testdata/real-world/`.
fn real_world(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/real-world")
        .join(name)
}

fn lint_file(name: &str) -> LintRun {
    lint_paths(&[real_world(name)], &LintOptions::default()).expect("lint runs")
}

/// The text of a file of `testdata/real-world/`.
fn text_of(name: &str) -> String {
    std::fs::read_to_string(real_world(name)).expect("readable")
}

/// How many findings of rule `code` linting `text` gives.
fn count_of(text: &str, code: &str) -> usize {
    findings(&lint_text(text))
        .into_iter()
        .filter(|f| f.contains(code))
        .count()
}

/// `line:col severity code message` of every finding.
fn findings(run: &LintRun) -> Vec<String> {
    run.diagnostics
        .iter()
        .map(|d| {
            let lc = d
                .location
                .as_ref()
                .map(|l| run.files[l.file].line_col(l.span.start));
            format!(
                "{}:{} {} {} {}",
                lc.map_or(0, |c| c.line),
                lc.map_or(0, |c| c.column),
                d.severity.as_str(),
                d.code,
                d.message
            )
        })
        .collect()
}

/// An HTTPRoute `r` in namespace `apps` with the given `rules:` items (indented two spaces).
fn http_route(rules: &str) -> String {
    format!(
        "apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {{name: r, namespace: apps}}
spec:
  rules:
{rules}"
    )
}

#[test]
fn cross_namespace_references_the_controller_does_not_check_need_no_grant() {
    // A TrafficPolicy extensionRef and an AiGatewayPolicy global rate limit backendRef to
    // another namespace, without a ReferenceGrant.
    let run = lint_file("cross-namespace-extension.yaml");
    assert_eq!(findings(&run), Vec::<String>::new());
}

#[test]
fn a_selector_on_the_namespace_name_label_admits_the_named_namespace() {
    let run = lint_file("namespace-name-selector.yaml");
    assert_eq!(findings(&run), Vec::<String>::new());
    // Another namespace is still refused, by the same label.
    let text = text_of("namespace-name-selector.yaml")
        .replace("values: [storefront]", "values: [checkout]");
    assert_eq!(count_of(&text, "GW203"), 1);
}

#[test]
fn a_catch_all_redirect_to_https_is_not_reported_but_one_to_another_host_is() {
    let route = |redirect: &str| {
        format!(
            "apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {{name: edge, namespace: store}}
spec:
  gatewayClassName: kgateway
  listeners: [{{name: http, protocol: HTTP, port: 80}}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {{name: to-https, namespace: store}}
spec:
  parentRefs: [{{name: edge}}]
  rules:
  - filters: [{{type: RequestRedirect, requestRedirect: {redirect}}}]
"
        )
    };
    assert_eq!(
        count_of(&route("{scheme: https, statusCode: 301}"), "GW406"),
        0
    );
    let elsewhere = route("{scheme: https, hostname: elsewhere.example.com}");
    assert_eq!(count_of(&elsewhere, "GW406"), 1);
}

#[test]
fn another_controllers_backend_kind_is_left_to_it() {
    let manifests = |controller: &str| {
        format!(
            "apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {{name: other}}
spec: {{controllerName: {controller}}}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {{name: gw, namespace: apps}}
spec:
  gatewayClassName: other
  listeners: [{{name: http, protocol: HTTP, port: 80, hostname: a.example.com}}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {{name: r, namespace: apps}}
spec:
  parentRefs: [{{name: gw}}]
  rules: [{{backendRefs: [{{group: gateway.envoyproxy.io, kind: Backend, name: ext}}]}}]
"
        )
    };
    let other = lint_text(&manifests("gateway.envoyproxy.io/gatewayclass-controller"));
    assert_eq!(findings(&other), Vec::<String>::new());
    // The same route on a kgateway Gateway names a kind its controller cannot route to.
    let ours = findings(&lint_text(&manifests("kgateway.dev/kgateway")));
    assert_eq!(
        ours,
        [
            "18:26 error GW207 backendRef kind \"Backend\" in group \"gateway.envoyproxy.io\" is not a backend kind (Service, Backend or AiGatewayBackend)"
        ]
    );
}

#[test]
fn another_projects_backend_kind_is_judged_only_where_this_apis_controller_is_known() {
    let route = |backend: &str| {
        format!(
            "apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {{name: gw, namespace: apps}}
spec:
  gatewayClassName: gke-l7-global-external-managed
  listeners: [{{name: http, protocol: HTTP, port: 80, hostname: a.example.com}}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {{name: r, namespace: apps}}
spec:
  parentRefs: [{{name: gw}}]
  rules: [{{backendRefs: [{backend}]}}]
"
        )
    };
    // The GatewayClass is not in the inputs: whose controller serves the route is unknown, so a
    // multi-cluster ServiceImport (or another implementation's backend) may be its backend.
    let import = "{group: net.gke.io, kind: ServiceImport, name: web, port: 80}";
    assert_eq!(findings(&lint_text(&route(import))), Vec::<String>::new());
    let alone = http_route(
        "  - backendRefs: [{group: net.gke.io, kind: ServiceImport, name: web, port: 80}]\n",
    );
    assert_eq!(findings(&lint_text(&alone)), Vec::<String>::new());
    // A Kubernetes kind is no backend on any implementation.
    let deployment = "{group: apps, kind: Deployment, name: web, port: 80}";
    assert_eq!(
        findings(&lint_text(&route(deployment))),
        [
            "13:26 error GW207 backendRef kind \"Deployment\" in group \"apps\" is not a backend kind (Service, Backend or AiGatewayBackend)"
        ]
    );
}

#[test]
fn a_filter_naming_a_kind_filters_cannot_name_is_an_error() {
    let route = |kind: &str| {
        format!(
            "apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {{name: r, namespace: apps}}
spec:
  rules:
  - filters:
    - {{type: ExtensionRef, extensionRef: {{group: gateway.kgateway.dev, kind: {kind}, name: x}}}}
"
        )
    };
    assert_eq!(
        findings(&lint_text(&route("InferenceExtension"))),
        [
            "7:42 error GW209 an ExtensionRef filter names kind InferenceExtension of group gateway.kgateway.dev, which a filter cannot name (it can name DirectResponse or TrafficPolicy)"
        ]
    );
    // A kind a filter can name, not in this fragment: not checked (a route linted alone).
    assert_eq!(
        findings(&lint_text(&route("DirectResponse"))),
        Vec::<String>::new()
    );
}

#[test]
fn a_backends_direct_response_is_no_second_one_of_its_rule() {
    let route = |backend_filter: bool| {
        let dr = "{type: ExtensionRef, extensionRef: {group: gateway.kgateway.dev, kind: DirectResponse, name: dr}}";
        let second = if backend_filter {
            format!("    backendRefs: [{{name: svc, port: 80, filters: [{dr}]}}]")
        } else {
            format!("    - {dr}")
        };
        format!(
            "apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {{name: r, namespace: apps}}
spec:
  rules:
  - filters:
    - {dr}
{second}
"
        )
    };
    assert_eq!(count_of(&route(false), "GW217"), 1);
    assert_eq!(count_of(&route(true), "GW217"), 0);
}

#[test]
fn a_direct_response_after_a_missing_one_is_the_first_applied() {
    // The controller applies the first DirectResponse that exists: one that does not exist sets
    // no action, so the next is no second one (the missing one is GW209's).
    let text = |first: &str| {
        let filter = |name: &str| {
            format!(
                "    - {{type: ExtensionRef, extensionRef: {{group: gateway.kgateway.dev, kind: DirectResponse, name: {name}}}}}\n"
            )
        };
        let route = http_route(&format!("  - filters:\n{}{}", filter(first), filter("dr")));
        format!(
            "{route}---
apiVersion: gateway.kgateway.dev/v1alpha1
kind: DirectResponse
metadata: {{name: dr, namespace: apps}}
spec: {{status: 503}}
"
        )
    };
    assert_eq!(
        findings(&lint_text(&text("gone"))),
        ["7:42 error GW209 DirectResponse apps/gone not found"]
    );
    assert_eq!(
        findings(&lint_text(&text("dr"))),
        [
            "8:42 error GW217 DirectResponse dr is the rule's second DirectResponse filter: the controller cannot apply it after the first and replaces the rule with a direct response 500"
        ]
    );
}

#[test]
fn a_mistyped_api_group_is_an_error_and_another_projects_group_is_not_checked() {
    let object = |api_version: &str, kind: &str| {
        format!(
            "apiVersion: {api_version}
kind: {kind}
metadata: {{name: x, namespace: apps}}
spec: {{}}
"
        )
    };
    let run = lint_text(&object("gateway.kgateway.io/v1alpha1", "TrafficPolicy"));
    assert_eq!(
        findings(&run),
        [
            "1:13 error GW006 no kind \"TrafficPolicy\" in API group \"gateway.kgateway.io\", which gwctl does not know"
        ]
    );
    assert_eq!(
        run.diagnostics
            .first()
            .and_then(|d| d.help.clone())
            .as_deref(),
        Some("did you mean API group \"gateway.kgateway.dev\"?")
    );
    let other = lint_text(&object("gateway.envoyproxy.io/v1alpha1", "Backend"));
    assert_eq!(findings(&other), Vec::<String>::new());
}

#[test]
fn the_gateway_apis_retired_group_is_an_error() {
    let run = lint_text(
        "apiVersion: networking.x-k8s.io/v1alpha1
kind: HTTPRoute
metadata: {name: store, namespace: shop}
spec:
  rules:
  - forwardTo: [{serviceName: store, port: 8080}]
",
    );
    assert_eq!(
        findings(&run),
        [
            "1:13 error GW006 API group \"networking.x-k8s.io\" is the Gateway API's group before v0.4.0: no current release serves kind \"HTTPRoute\" in it"
        ]
    );
    // A kind the current group does not have stays another project's, not checked.
    let other =
        "apiVersion: networking.x-k8s.io/v1alpha1\nkind: BackendPolicy\nmetadata: {name: b}\n";
    assert_eq!(findings(&lint_text(other)), Vec::<String>::new());
}

#[test]
fn a_grant_is_still_required_where_the_controller_checks_one() {
    // A GatewayExtension's backendRef (a table row that requires a grant) to another namespace.
    let run = lint_text(
        r#"apiVersion: gateway.kgateway.dev/v1alpha1
kind: GatewayExtension
metadata:
  name: auth
  namespace: shop
spec:
  extAuth:
    grpcService:
      backendRef:
        name: authz
        namespace: infra
        port: 9000
---
apiVersion: v1
kind: Service
metadata:
  name: authz
  namespace: infra
spec:
  ports:
  - port: 9000
"#,
    );
    assert_eq!(
        findings(&run),
        [
            "10:9 error GW208 reference to Service infra/authz from namespace shop needs a ReferenceGrant in namespace infra"
        ]
    );
}

#[test]
fn a_policy_using_an_extension_whose_grant_cannot_be_known_is_not_refused() {
    // A fragment: the extension's Service in another namespace, and every ReferenceGrant, are
    // applied by another team.
    let fragment = r#"apiVersion: gateway.kgateway.dev/v1alpha1
kind: GatewayExtension
metadata: {name: ext, namespace: shop}
spec:
  extAuth:
    httpService:
      backendRef: {name: authz, namespace: infra, port: 8080}
---
apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata: {name: auth, namespace: shop}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: web}]
  extAuth: {extensionRef: {name: ext}}
"#;
    assert_eq!(count_of(fragment, "GW208"), 0);
    // With the Service in the inputs, the missing grant is known: the extension's reference and
    // the policy using it are both refused.
    let whole = format!(
        "{fragment}---\napiVersion: v1\nkind: Service\nmetadata: {{name: authz, namespace: infra}}\nspec: {{ports: [{{port: 8080}}]}}\n"
    );
    let run = lint_text(&whole);
    let refused: Vec<String> = findings(&run)
        .into_iter()
        .filter(|f| f.contains("GW208"))
        .collect();
    assert_eq!(
        refused,
        [
            "7:19 error GW208 reference to Service infra/authz from namespace shop needs a ReferenceGrant in namespace infra",
            "14:27 error GW208 GatewayExtension shop/ext cannot be used: its reference to Service infra/authz needs a ReferenceGrant in namespace infra, so the controller does not accept this policy",
        ]
    );
}

#[test]
fn sections_of_kinds_gwctl_does_not_check_are_not_judged() {
    // A BackendTLSPolicy on a mesh ServiceEntry with sectionName: no GW302, no GW304.
    let run = lint_file("mesh-service-entry.yaml");
    assert_eq!(findings(&run), Vec::<String>::new());
}

#[test]
fn catch_all_rules_are_reported_only_under_a_listener_without_hostname() {
    // A route under a listener with a hostname, a mesh route (Service parent) and a delegated
    // child reached through a parent route with hostnames.
    let run = lint_file("catch-all-routes.yaml");
    assert_eq!(findings(&run), Vec::<String>::new());
    // The same route under a listener without a hostname is reported, with the listener.
    let text = text_of("catch-all-routes.yaml");
    let open = text.replacen("    hostname: shop.example.com\n", "", 1);
    let run = lint_text(&open);
    assert_eq!(
        findings(&run),
        [
            "25:5 warning GW406 spec.rules[0]: the route has no hostnames and this rule matches every path, so it forwards to its backends for \"/\" on every hostname of listener \"http\" of Gateway store/edge"
        ]
    );
    assert_eq!(positioned(&run, "GW406"), ["25:5 warning GW406 -> 12:5"]);
}

#[test]
fn a_newer_kind_of_a_known_group_is_a_warning_and_a_typo_an_error() {
    let run = lint_file("newer-kind.yaml");
    assert_eq!(
        findings(&run),
        [
            "3:7 warning GW006 kind \"AgentgatewayParameters\" of API group \"agentgateway.dev\" is not checked: gwctl does not know this kind"
        ]
    );
    assert_eq!(
        run.stats
            .not_checked
            .get("agentgateway.dev/v1alpha1/AgentgatewayParameters"),
        Some(&1)
    );
    let run = lint_text(
        "apiVersion: gateway.kgateway.dev/v1alpha1\nkind: TrafficPolcy\nmetadata:\n  name: p\n",
    );
    assert_eq!(
        findings(&run),
        ["2:7 error GW006 no kind \"TrafficPolcy\" in API group \"gateway.kgateway.dev\""]
    );
    assert_eq!(
        run.diagnostics[0].help.as_deref(),
        Some("did you mean \"TrafficPolicy\"?")
    );
}

#[test]
fn a_kind_of_an_earlier_release_is_not_taken_for_a_typo_of_a_kind_like_it() {
    // BackendLBPolicy is two edits from BackendTLSPolicy, close enough for a typo by letters.
    let run = lint_file("earlier-kind.yaml");
    assert_eq!(
        findings(&run),
        [
            "4:7 warning GW006 kind \"BackendLBPolicy\" of API group \"gateway.networking.k8s.io\" is not checked: gwctl does not know this kind"
        ]
    );
    assert_eq!(
        run.stats
            .not_checked
            .get("gateway.networking.k8s.io/v1alpha2/BackendLBPolicy"),
        Some(&1)
    );
    // Its letters in another order, an acronym is a misspelling still.
    let run = lint_text(
        "apiVersion: gateway.networking.k8s.io/v1\nkind: GRCPRoute\nmetadata:\n  name: r\n",
    );
    assert_eq!(
        findings(&run),
        ["2:7 error GW006 no kind \"GRCPRoute\" in API group \"gateway.networking.k8s.io\""]
    );
}

#[test]
fn a_user_crd_without_root_properties_still_accepts_api_version_kind_and_metadata() {
    let crd = "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.example.com
spec:
  group: example.com
  names: {kind: Gadget, plural: gadgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
";
    let gadget = "apiVersion: example.com/v1\nkind: Gadget\nmetadata:\n  name: g\n  labels: {a: b}\nsize: 3\n";
    let dir = dir_with(&[
        ("crd.yaml", crd.as_bytes()),
        ("gadget.yaml", gadget.as_bytes()),
    ]);
    let (crd, manifest) = (dir.path().join("crd.yaml"), dir.path().join("gadget.yaml"));
    let (registry, _) = gwctl::crds::load_crds(
        &[crd],
        &Default::default(),
        &gwctl::schema::ApiGroups::default(),
    )
    .expect("CRDs load");
    let options = LintOptions {
        registry: Some(std::sync::Arc::new(registry)),
        ..LintOptions::default()
    };
    let run = lint_paths(&[manifest], &options).expect("lint runs");
    // `size` is not in the schema; the envelope is.
    assert_eq!(
        findings(&run),
        ["6:1 error GW101 unknown field \"size\""],
        "{:#?}",
        describe(&run)
    );
}

const TWO_POLICIES: &str = r#"apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata:
  name: kgateway
spec:
  controllerName: kgateway.dev/kgateway
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: edge
spec:
  gatewayClassName: kgateway
  listeners:
  - name: http
    protocol: HTTP
    port: 80
    hostname: shop.example.com
---
apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata:
  name: timeouts
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: Gateway
    name: edge
  cors:
    maxAge: 10
"#;

#[test]
fn the_same_object_twice_is_one_error_and_the_last_definition_is_used() {
    let copy = TWO_POLICIES
        .split("---\n")
        .nth(2)
        .expect("third document")
        .replace("maxAge: 10", "maxAge: 20");
    let run = lint_texts(&[("a.yaml", TWO_POLICIES), ("b.yaml", &copy)]);
    // One finding, on the first definition, pointing at the one used; no merge finding of the
    // policy with itself (GW310, GW311).
    assert_eq!(
        findings(&run),
        [
            "23:9 error GW013 TrafficPolicy default/timeouts is defined more than once; only the last definition in input order is used (as kubectl apply would leave it), this one is ignored"
        ],
        "{:#?}",
        describe(&run)
    );
    assert_eq!(positioned(&run, "GW013"), ["23:9 error GW013 -> 4:9"]);
    assert_eq!(run.diagnostics[0].related[0].location.file, 1);
    // The policy is accepted: the finding is on the definition the controller never sees.
    let statuses: Vec<_> = run
        .policy_statuses
        .iter()
        .map(|s| (s.policy.name.as_str(), s.accepted.status))
        .collect();
    assert_eq!(statuses, [("timeouts", true)]);
}

#[test]
fn later_stages_use_the_last_definition() {
    let copy = TWO_POLICIES
        .split("---\n")
        .nth(2)
        .expect("third document")
        .replace("name: edge", "name: edgy");
    // The first definition targets the Gateway; the last (used) one targets a Gateway that is
    // not there: its GW301 shows which definition the resolve stage used.
    let run = lint_texts(&[("a.yaml", TWO_POLICIES), ("b.yaml", &copy)]);
    let codes: Vec<&str> = run.diagnostics.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, ["GW013", "GW301"], "{:#?}", describe(&run));
    assert_eq!(
        run.diagnostics[1]
            .location
            .as_ref()
            .map(|l| run.files[l.file].name.as_str()),
        Some("b.yaml")
    );
}

/// Four mistakes in one set: a targetRef name, a targetRef sectionName, a parentRef sectionName
/// and a backendRef port.
const MISTYPED: &str = r#"apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata:
  name: kgateway
spec:
  controllerName: kgateway.dev/kgateway
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: edge
spec:
  gatewayClassName: kgateway
  listeners:
  - name: http
    protocol: HTTP
    port: 80
    hostname: shop.example.com
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: checkout
spec:
  parentRefs:
  - name: edge
    sectionName: http
  - name: edge
    sectionName: htp
  hostnames:
  - shop.example.com
  rules:
  - name: pay
    backendRefs:
    - name: checkout
      port: 9090
---
apiVersion: v1
kind: Service
metadata:
  name: checkout
spec:
  ports:
  - port: 8080
---
apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata:
  name: retries
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: checkuot
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: checkout
    sectionName: payy
  timeouts:
    request: 10s
"#;

#[test]
fn findings_on_a_mistyped_reference_point_at_the_wrong_value() {
    let run = lint_text(MISTYPED);
    let got: Vec<String> = findings(&run)
        .into_iter()
        .filter(|f| !f.contains("GW304"))
        .collect();
    assert_eq!(
        got,
        [
            "29:18 warning GW202 Gateway default/edge has no listener named \"htp\" (listeners: http); did you mean \"http\"?",
            "36:13 error GW206 Service default/checkout has no port 9090 (ports: 8080)",
            "54:11 error GW301 policy target HTTPRoute default/checkuot not found (did you mean \"checkout\"?)",
            "58:18 error GW302 sectionName \"payy\" matches no rule of HTTPRoute default/checkout; it has: pay",
        ],
        "{:#?}",
        describe(&run)
    );
    // Primary span on the value; the reference's list item, then the object, as secondary labels.
    assert_eq!(
        positioned(&run, "GW20"),
        [
            "29:18 warning GW202 -> 28:5 -> 11:9",
            "36:13 error GW206 -> 35:7 -> 41:9",
        ]
    );
    assert_eq!(
        positioned(&run, "GW30"),
        [
            "54:11 error GW301 -> 52:5 -> 23:9",
            "58:18 error GW302 -> 55:5 -> 23:9",
        ]
    );
}

const CONFLICT_GATEWAY: &str = r#"apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata:
  name: kgateway
spec:
  controllerName: kgateway.dev/kgateway
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: edge
spec:
  gatewayClassName: kgateway
  listeners:
  - name: http
    protocol: HTTP
    port: 80
---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  ports:
  - port: 80
"#;

/// An HTTPRoute `name` on `edge` with `hostnames` and `matches` (YAML of one rule's matches).
fn conflict_route(name: &str, created: Option<&str>, hostnames: &str, matches: &str) -> String {
    let created = created
        .map(|c| format!("  creationTimestamp: \"{c}\"\n"))
        .unwrap_or_default();
    format!(
        "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: {name}\n{created}spec:\n  parentRefs:\n  - name: edge\n  hostnames: {hostnames}\n  rules:\n  - matches:\n{matches}    backendRefs:\n    - name: web\n      port: 80\n"
    )
}

const API: &str = "    - path: {type: PathPrefix, value: /api}\n";

#[test]
fn a_rule_whose_every_match_loses_is_reported_with_the_winner() {
    let older = conflict_route("a", Some("2025-01-01T00:00:00Z"), "[x.example.com]", API);
    let newer = conflict_route("b", Some("2025-02-01T00:00:00Z"), "[x.example.com]", API);
    // The newer route comes first in the input: input order decides nothing.
    let run = lint_texts(&[
        ("gw.yaml", CONFLICT_GATEWAY),
        ("b.yaml", &newer),
        ("a.yaml", &older),
    ]);
    assert_eq!(
        findings(&run),
        [
            "11:5 warning GW213 this rule never receives traffic: its match (PathPrefix /api) on listener \"http\" of Gateway default/edge for host \"x.example.com\" is also a match of HTTPRoute default/a spec.rules[0], which wins because its route is older (2025-01-01T00:00:00Z before 2025-02-01T00:00:00Z)"
        ],
        "{:#?}",
        describe(&run)
    );
    assert_eq!(
        run.files[run.diagnostics[0].location.as_ref().map_or(0, |l| l.file)].name,
        "b.yaml"
    );
    assert_eq!(positioned(&run, "GW213"), ["11:5 warning GW213 -> 11:5"]);
    assert_eq!(run.diagnostics[0].related[0].location.file, 2);
    // Without creation times the name decides, and the message says that the real order is
    // not fixed by the manifests.
    let a = conflict_route("a", None, "[x.example.com]", API);
    let b = conflict_route("b", None, "[x.example.com]", API);
    let run = lint_texts(&[
        ("gw.yaml", CONFLICT_GATEWAY),
        ("a.yaml", &a),
        ("b.yaml", &b),
    ]);
    let messages: Vec<&str> = run.diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(messages.len(), 1, "{messages:#?}");
    assert!(
        messages[0].ends_with("which wins because its route comes first by namespace/name; the controller orders by creation time first, which the manifests do not fix"),
        "{messages:#?}"
    );
}

#[test]
fn rules_that_still_win_somewhere_or_serve_other_hosts_are_not_reported() {
    let a = conflict_route("a", None, "[x.example.com]", API);
    // One of two matches is taken by route a: the rule still receives /web.
    let partly = conflict_route(
        "b",
        None,
        "[x.example.com]",
        &format!("{API}    - path: {{type: PathPrefix, value: /web}}\n"),
    );
    let other_host = conflict_route("c", None, "[y.example.com]", API);
    let with_header = conflict_route(
        "d",
        None,
        "[x.example.com]",
        "    - path: {type: PathPrefix, value: /api}\n      headers: [{name: x-v, value: '2'}]\n",
    );
    let run = lint_texts(&[
        ("gw.yaml", CONFLICT_GATEWAY),
        ("a.yaml", &a),
        ("b.yaml", &partly),
        ("c.yaml", &other_host),
        ("d.yaml", &with_header),
    ]);
    assert_eq!(findings(&run), Vec::<String>::new());
}

#[test]
fn session_persistence_as_released_gateway_api_versions_write_it_is_valid() {
    let route = |persistence: &str| http_route(&format!("  - sessionPersistence: {persistence}\n"));
    // Released versions (and the reference controller's inputs): sessionName, cookieConfig.
    for released in [
        "{sessionName: Session-A, type: Cookie, absoluteTimeout: 1h, cookieConfig: {lifetimeType: Permanent}}",
        "{sessionName: Session-B, type: Header, idleTimeout: 30m}",
        "{type: Cookie}",
    ] {
        assert_eq!(findings(&lint_text(&route(released))), Vec::<String>::new());
    }
    // The development shape of the Gateway API CRDs is accepted too.
    let development = "{type: Header, header: {name: x-session}}";
    assert_eq!(
        findings(&lint_text(&route(development))),
        Vec::<String>::new()
    );
    assert_eq!(
        findings(&lint_text(&route(
            "{cookieConfig: {lifetimeType: Forever}}"
        ))),
        [
            "6:55 error GW104 spec.rules[0].sessionPersistence.cookieConfig.lifetimeType: Unsupported value: \"Forever\": supported values: \"Permanent\", \"Session\""
        ]
    );
}

#[test]
fn a_helm_template_named_outside_its_chart_is_one_note() {
    let template = "{{- if .Values.gateway.enabled }}
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: {{ .Release.Name }}
spec:
  gatewayClassName: {{ .Values.gateway.className | quote }}
{{- end }}
";
    assert_eq!(
        findings(&lint_text(template)),
        ["1:1 info GW008 skipped: the file holds Go template actions (a Helm template), not YAML"]
    );
    // A template of the data plane's own in a value is YAML: the file is linted.
    let transformation = "apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata: {name: t, namespace: apps}
spec:
  transformation:
    request:
      set: [{name: x-user, value: '{{ header(\"x-id\") }}'}]
  timeout: 3
";
    assert_eq!(
        findings(&lint_text(transformation)),
        ["8:3 error GW101 unknown field \"spec.timeout\""]
    );
}

#[test]
fn the_references_names_of_renamed_fields_and_kinds_say_this_apis_names() {
    let run = lint_text(
        "apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata: {name: tp, namespace: a}
spec:
  jwtAuth: {}
---
apiVersion: agentgateway.dev/v1alpha1
kind: AgentgatewayBackend
metadata: {name: b, namespace: a}
spec: {}
",
    );
    assert_eq!(
        findings(&run),
        [
            "5:3 error GW101 unknown field \"spec.jwtAuth\"",
            "8:7 error GW006 no kind \"AgentgatewayBackend\" in API group \"agentgateway.dev\"",
        ]
    );
    let helps: Vec<Option<&str>> = run.diagnostics.iter().map(|d| d.help.as_deref()).collect();
    assert_eq!(
        helps,
        [
            Some("renamed in this API: \"jwt\" (was \"jwtAuth\")"),
            Some("renamed in this API: \"AiGatewayBackend\" (was \"AgentgatewayBackend\")"),
        ]
    );
    // A backendRef naming the kind by the reference's name.
    let backend = lint_text(&http_route(
        "  - backendRefs: [{group: agentgateway.dev, kind: AgentgatewayBackend, name: b}]\n",
    ));
    let helps: Vec<Option<&str>> = backend
        .diagnostics
        .iter()
        .map(|d| d.help.as_deref())
        .collect();
    assert_eq!(
        helps,
        [Some(
            "renamed in this API: \"AiGatewayBackend\" (was \"AgentgatewayBackend\")"
        )]
    );
    // The fix renames the field to this API's name, not to the closest one ("extAuth"), and
    // the kind to this API's kind.
    let fixes: Vec<Option<&str>> = run
        .diagnostics
        .iter()
        .map(|d| d.fix.as_ref().map(|f| f.title.as_str()))
        .collect();
    assert_eq!(
        fixes,
        [
            Some("rename to \"jwt\""),
            Some("rename the kind to \"AiGatewayBackend\"")
        ]
    );
    // So for an enum value.
    let run = lint_text(
        "apiVersion: gateway.kgateway.dev/v1alpha1
kind: Backend
metadata: {name: b, namespace: a}
spec:
  type: AWS
  cloud: {accountId: \"123456789012\", function: {functionName: f}}
",
    );
    let found: Vec<(String, Option<&str>, Option<&str>)> = run
        .diagnostics
        .iter()
        .map(|d| {
            let fix = d.fix.as_ref().map(|f| f.title.as_str());
            (d.message.clone(), d.help.as_deref(), fix)
        })
        .collect();
    assert_eq!(
        found,
        [(
            "spec.type: Unsupported value: \"AWS\": supported values: \"Cloud\", \"Static\", \"DynamicForwardProxy\"".to_string(),
            Some("renamed in this API: \"Cloud\" (was \"AWS\")"),
            Some("replace with \"Cloud\"")
        )]
    );
}

#[test]
fn a_disable_on_a_route_whose_gateway_is_not_in_the_inputs_is_not_reported() {
    // The Gateway's own policy (in the cluster, or here) may set what the route disables.
    let text = |gateway: &str| {
        format!(
            "{gateway}apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata: {{name: route-ext-auth-disabled, namespace: apps}}
spec:
  targetRefs: [{{group: gateway.networking.k8s.io, kind: HTTPRoute, name: r}}]
  extAuth: {{disable: {{}}}}
---
{}",
            http_route("  - backendRefs: [{name: web, port: 80}]\n").replace(
                "spec:\n",
                "spec:\n  parentRefs: [{name: edge, namespace: infra}]\n"
            )
        )
    };
    assert_eq!(count_of(&text(""), "GW312"), 0);
    // With its Gateway in the inputs and nothing setting extAuth there, the disable cancels
    // nothing.
    let gateway = "apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec:
  gatewayClassName: kgateway
  listeners: [{name: http, protocol: HTTP, port: 80, allowedRoutes: {namespaces: {from: All}}}]
---
";
    assert_eq!(count_of(&text(gateway), "GW312"), 1);
}
