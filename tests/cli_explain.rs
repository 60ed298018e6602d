//! `gwctl explain` end to end: snapshots of the human output for a Gateway, a listener, a route,
//! a rule, a Backend and an AI provider of `testdata/explain/`, the data formats, colour, and
//! the errors (unknown kind, unknown target with the closest names, unknown section).

mod common;

use common::cli::{dir_with, gwctl, outcome};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/explain");

fn explain(args: &[&str]) -> (i32, String, String) {
    outcome(
        gwctl()
            .arg("explain")
            .args(args)
            .arg(DIR)
            .env("COLUMNS", "100"),
    )
}

fn human(target: &str) -> String {
    let (code, stdout, stderr) = explain(&[target, "-n", "shop"]);
    assert_eq!((code, stderr.as_str()), (0, ""), "{target}");
    stdout
}

#[test]
fn gateway() {
    insta::assert_snapshot!(human("gw/public"));
}

#[test]
fn listener() {
    insta::assert_snapshot!(human("Gateway/public:admin"));
}

#[test]
fn route() {
    insta::assert_snapshot!(human("httproute/checkout"));
}

#[test]
fn rule() {
    insta::assert_snapshot!(human("route/checkout:pay"));
}

#[test]
fn backend() {
    insta::assert_snapshot!(human("svc/payments"));
}

#[test]
fn ai_provider() {
    insta::assert_snapshot!(human("aigatewaybackend/llm:primary"));
}

#[test]
fn json_is_the_same_facts_as_data() {
    let (code, stdout, _) = explain(&["route/checkout:1", "-n", "shop", "-o", "json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap_or_default();
    assert_eq!(v["target"], "HTTPRoute shop/checkout:rule 1");
    let fields = v["effective"][0]["fields"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let timeouts = fields
        .iter()
        .find(|f| f["field"] == "timeouts")
        .cloned()
        .unwrap_or_default();
    assert_eq!(timeouts["value"], serde_json::json!({"request": "10s"}));
    assert_eq!(timeouts["source"]["name"], "checkout-limits");
    assert_eq!(timeouts["source"]["level"], "route");
    assert_eq!(timeouts["losers"][0]["source"]["name"], "checkout-slow");
    assert_eq!(timeouts["losers"][0]["reason"], "heavierWeight");
    // The Gateway's timeouts configure no route: they are no loser either.
    assert_eq!(timeouts["losers"].as_array().map(Vec::len), Some(1));
}

#[test]
fn yaml_is_the_same_facts_as_data() {
    let (code, stdout, _) = explain(&["gw/public", "-n", "shop", "-o", "yaml"]);
    assert_eq!(code, 0);
    assert!(
        stdout.starts_with("target: Gateway shop/public\nhierarchy:\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("      - field: cors\n        value:\n          allowOrigins:\n"),
        "{stdout}"
    );
}

#[test]
fn losers_are_dimmed_only_with_colour() {
    let (_, plain, _) = explain(&["route/checkout", "-n", "shop", "--color", "never"]);
    assert!(!plain.contains('\x1b'));
    let (_, coloured, _) = explain(&["route/checkout", "-n", "shop", "--color", "always"]);
    assert!(
        coloured.contains(
            "\x1b[2m    # lost: TrafficPolicy shop/checkout-slow @route (heavier weight)"
        ),
        "{coloured}"
    );
}

#[test]
fn unknown_target_lists_the_closest_names() {
    let (code, stdout, stderr) = explain(&["svc/paymnts", "-n", "shop"]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert_eq!(
        stderr,
        "gwctl: error: Service shop/paymnts not found; closest: shop/payments\n"
    );
    let (code, _, stderr) = explain(&["svc/payments"]);
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        "gwctl: error: Service default/payments not found; closest: shop/payments\n"
    );
}

#[test]
fn unknown_section_and_kind_are_usage_errors() {
    let (code, _, stderr) = explain(&["route/checkout:nope", "-n", "shop"]);
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        "gwctl: error: HTTPRoute shop/checkout has no section \"nope\"; it has: pay, rule 1\n"
    );
    let (code, _, stderr) = explain(&["widget/x"]);
    assert_eq!(code, 2);
    assert!(
        stderr.starts_with("gwctl: error: unknown kind \"widget\" in the target"),
        "{stderr}"
    );
    let (code, _, stderr) = explain(&["checkout"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("is not KIND/NAME[:SECTION]"), "{stderr}");
}

#[test]
fn every_route_at_once_is_a_list() {
    let (code, stdout, _) = explain(&["route/*", "-A", "-o", "json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap_or_default();
    let targets: Vec<&str> = v
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|e| e["target"].as_str())
        .collect();
    assert_eq!(
        targets,
        [
            "HTTPRoute shop/checkout",
            "HTTPRoute shop/checkout:pay",
            "HTTPRoute shop/checkout:rule 1"
        ]
    );
    // Without -A, the namespace applies: nothing in `default`.
    let (code, stdout, _) = explain(&["route/*", "-o", "json"]);
    assert_eq!((code, stdout.as_str()), (0, "[]\n"));
}

/// Listeners `a` and `b` on one port with different hostnames, a route for `a`'s hostname and
/// a policy on listener `b`: the route hangs from `a` only (the hostname intersection of route
/// attachment), so `b`'s policy is not effective on it.
const TWO_HOSTNAMES: &str = "\
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata:
  name: kgateway
spec:
  controllerName: kgateway.dev/kgateway
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: gw
  namespace: shop
spec:
  gatewayClassName: kgateway
  listeners:
  - name: a
    port: 80
    protocol: HTTP
    hostname: a.example.com
  - name: b
    port: 80
    protocol: HTTP
    hostname: b.example.com
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: web
  namespace: shop
spec:
  parentRefs:
  - name: gw
  hostnames:
  - a.example.com
  rules:
  - backendRefs:
    - name: web
      port: 80
---
apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: shop
spec:
  ports:
  - port: 80
---
apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata:
  name: on-b
  namespace: shop
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: Gateway
    name: gw
    sectionName: b
  timeouts:
    request: 5s
";

#[test]
fn a_route_hangs_only_from_the_listeners_whose_hostname_it_matches() {
    let dir = dir_with(&[("gw.yaml", TWO_HOSTNAMES.as_bytes())]);
    let (code, stdout, stderr) = outcome(gwctl().current_dir(dir.path()).args([
        "explain",
        "route/web",
        "-n",
        "shop",
        "-o",
        "json",
        "gw.yaml",
    ]));
    assert_eq!(code, 0, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap_or_default();
    assert_eq!(
        v["hierarchy"],
        serde_json::json!(["Gateway shop/gw > listener a > HTTPRoute shop/web > rules 0"]),
    );
    assert_eq!(v["attached"], serde_json::json!([]));
    assert_eq!(v["effective"], serde_json::json!([]));
}
