//! Policy attachment on hand-written sets (`testdata/resolve/`): every GW3xx finding with its
//! code, severity, position and related positions.

mod common;

use std::path::Path;

use gwctl::lint::{LintOptions, LintRun, lint_paths};

fn run(file: &str) -> LintRun {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/resolve")
        .join(file);
    lint_paths(&[path], &LintOptions::default()).expect("lint runs")
}

/// The GW301-GW309 findings with positions (the merge stage's GW31x, which these fixtures also
/// give, are asserted by the merge tests).
fn findings(run: &LintRun) -> Vec<String> {
    common::positioned(run, "GW30")
}

fn messages(run: &LintRun, code: &str) -> Vec<String> {
    run.diagnostics
        .iter()
        .filter(|d| d.code.as_str() == code)
        .map(|d| d.message.clone())
        .collect()
}

#[test]
fn policy_attachment() {
    let run = run("policies.yaml");
    assert_eq!(findings(&run), EXPECTED, "{:#?}", common::describe(&run));
}

#[test]
fn a_missing_gateway_class_is_one_note_per_gateway_and_no_data_plane_finding() {
    let run = run("no-class.yaml");
    // Two policies of different families reach the Gateway: one note, at its gatewayClassName,
    // related to the Gateway's name; neither policy is said to have no effect.
    assert_eq!(
        findings(&run),
        ["8:21 info GW306 -> 6:9"],
        "{:#?}",
        common::describe(&run)
    );
}

#[test]
fn data_plane_messages_name_the_gateway_that_decides() {
    let run = run("policies.yaml");
    assert_eq!(
        messages(&run, "GW305"),
        [
            "AiGatewayPolicy configures the AI data plane but its target uses the proxy-based data plane (HTTPRoute default/checkout is served by Gateway default/public): the policy has no effect there",
            "TrafficPolicy configures the proxy-based data plane but its target uses the AI data plane (Gateway default/llm): the policy has no effect there",
        ]
    );
    assert_eq!(
        messages(&run, "GW307"),
        [
            "Backend default/hello is a cloud function backend, which the AI data plane of Gateway default/llm does not support"
        ]
    );
}

#[test]
fn conflicts_name_the_winner_and_why_it_wins() {
    let run = run("policies.yaml");
    assert_eq!(
        messages(&run, "GW308"),
        [
            "connectTimeout on Service default/checkout is not applied: BackendConfigPolicy default/heavy also sets it and ranks first because its kgateway.dev/policy-weight 10 is higher than 1",
            "connectTimeout on Service default/billing is not applied: BackendConfigPolicy default/z-older also sets it and ranks first because it is older (2024-01-01T00:00:00Z before 2025-06-01T00:00:00Z)",
            "perConnectionBufferLimitBytes on Service default/billing is not applied: BackendConfigPolicy default/m-undated also sets it and ranks first because of name order only; the controller orders by creation time, which the manifests do not fix",
        ]
    );
}

/// GW301 typo (related: the route with the close name; no GW304 beside it); GW302 sectionName
/// (related: the route); GW303 selector; GW304 without targets; GW305 AiGatewayPolicy on a
/// proxy route (related: the Gateway, the route) and TrafficPolicy on the AI Gateway (its
/// targetRef to the Gateway of an absent class gives nothing: GW209 covers that class); GW307
/// cloud Backend behind the AI Gateway (related: the Backend, the Gateway); GW308 by weight, by
/// age and by name (related: the winning field, the Service); GW309 backend.ai on an MCP backend.
const EXPECTED: &[&str] = &[
    "73:7 error GW307 -> 89:9 -> 32:9",
    "107:11 error GW301 -> 105:5 -> 54:9",
    "121:18 error GW302 -> 118:5 -> 54:9",
    "132:5 warning GW303",
    "142:9 error GW304",
    "154:5 warning GW305 -> 19:9 -> 54:9",
    "170:5 warning GW305 -> 32:9",
    "191:3 warning GW308 -> 205:3 -> 80:9",
    "227:3 warning GW308 -> 239:3 -> 212:9",
    "261:3 warning GW308 -> 250:3 -> 212:9",
    "287:5 warning GW309 -> 267:9",
];

/// A GatewayClass `NAME` of `CONTROLLER` and a Gateway `NAME` of it with one HTTP listener.
fn gateway(name: &str, controller: &str) -> String {
    format!(
        "apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata:
  name: {name}
spec:
  controllerName: {controller}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: {name}
spec:
  gatewayClassName: {name}
  listeners:
  - name: http
    protocol: HTTP
    port: 80
---
"
    )
}

const AI_POLICY_ON_CHAT: &str = "apiVersion: agentgateway.dev/v1alpha1
kind: AiGatewayPolicy
metadata:
  name: limits
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: chat
  traffic:
    rateLimit:
      local:
      - requests: 100
        unit: Minutes
";

/// The GW301-GW309 codes of a run (the merge stage's GW31x are the merge tests').
fn codes(run: &LintRun) -> Vec<&'static str> {
    run.diagnostics
        .iter()
        .map(|d| d.code.as_str())
        .filter(|c| c.starts_with("GW30"))
        .collect()
}

#[test]
fn a_route_served_by_both_data_planes_takes_policies_of_both_families() {
    let route = |parents: &str| {
        format!(
            "apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: chat
spec:
  parentRefs:
{parents}  hostnames:
  - chat.example.com
---
"
        )
    };
    let proxy = gateway("proxy", "kgateway.dev/kgateway");
    let ai = gateway("ai", "agentgateway.dev/agentgateway");
    let both = format!(
        "{proxy}{ai}{}{AI_POLICY_ON_CHAT}",
        route("  - name: proxy\n  - name: ai\n")
    );
    let run = common::lint_text(&both);
    assert_eq!(
        codes(&run),
        Vec::<&str>::new(),
        "{:#?}",
        common::describe(&run)
    );
    let proxy_only = format!(
        "{proxy}{ai}{}{AI_POLICY_ON_CHAT}",
        route("  - name: proxy\n")
    );
    assert_eq!(codes(&common::lint_text(&proxy_only)), ["GW305"]);
}

#[test]
fn a_route_under_a_listener_set_is_served_by_the_listener_sets_gateway() {
    let text = format!(
        "{}apiVersion: gateway.networking.x-k8s.io/v1alpha1
kind: XListenerSet
metadata:
  name: extra
spec:
  parentRef:
    group: gateway.networking.k8s.io
    kind: Gateway
    name: proxy
  listeners:
  - name: extra
    protocol: HTTP
    port: 8080
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: chat
spec:
  parentRefs:
  - group: gateway.networking.x-k8s.io
    kind: XListenerSet
    name: extra
  hostnames:
  - chat.example.com
---
{AI_POLICY_ON_CHAT}",
        gateway("proxy", "kgateway.dev/kgateway")
    );
    let run = common::lint_text(&text);
    assert_eq!(codes(&run), ["GW305"], "{:#?}", common::describe(&run));
}

#[test]
fn the_ai_controller_name_comes_from_the_config() {
    let text = format!(
        "{}apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: chat
spec:
  parentRefs:
  - name: edge
  hostnames:
  - chat.example.com
---
{AI_POLICY_ON_CHAT}",
        gateway("edge", "example.com/ai")
    );
    let lint = |ai: &str| {
        let mut options = LintOptions::default();
        options.config.controllers.ai = ai.to_string();
        let files = vec![gwctl::source::SourceFile::new(
            0,
            "test.yaml",
            text.as_str(),
        )];
        codes(&gwctl::lint::lint_sources(files, &options))
    };
    assert_eq!(lint("agentgateway.dev/agentgateway"), ["GW305"]);
    assert_eq!(lint("example.com/ai"), Vec::<&str>::new());
}

#[test]
fn a_policy_reaching_a_target_twice_conflicts_once_per_field() {
    let bcp = |name: &str, targets: &str, timeout: &str| {
        format!(
            "apiVersion: gateway.kgateway.dev/v1alpha1
kind: BackendConfigPolicy
metadata:
  name: {name}
spec:
{targets}  connectTimeout: {timeout}
---
"
        )
    };
    let text = format!(
        "apiVersion: v1
kind: Service
metadata:
  name: chat
  labels:
    app: chat
spec:
  ports:
  - port: 8080
---
{}{}",
        bcp(
            "a-first",
            "  targetRefs:\n  - group: \"\"\n    kind: Service\n    name: chat\n",
            "1s"
        ),
        bcp(
            "b-twice",
            "  targetSelectors:\n  - group: \"\"\n    kind: Service\n    matchLabels:\n      app: chat\n",
            "5s"
        )
        .replace(
            "  targetSelectors:",
            "  targetRefs:\n  - group: \"\"\n    kind: Service\n    name: chat\n  targetSelectors:"
        ),
    );
    let run = common::lint_text(&text);
    assert_eq!(codes(&run), ["GW308"], "{:#?}", common::describe(&run));
}

#[test]
fn timeouts_on_a_gateway_configure_nothing() {
    let text = r#"apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: default}
spec:
  gatewayClassName: kgateway
  listeners: [{name: http, protocol: HTTP, port: 80}]
---
apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata: {name: slow, namespace: default}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw}]
  timeouts: {request: 60s}
  cors: {maxAge: 60}
"#;
    let run = common::lint_text(text);
    assert_eq!(
        messages(&run, "GW309"),
        ["timeouts applies only to HTTPRoute targets: on Gateway default/gw it configures nothing"]
    );
    assert_eq!(
        common::positioned(&run, "GW309"),
        ["13:3 warning GW309 -> 3:18"]
    );
}
