//! Predicted policy statuses and the merge findings, on the targets of `tests.rs`.

use super::MergeOptions;
use super::tests_fixture::{GW, HTTP, ROUTE, RULE, policy, run_with};

const OTHER: &str =
    "[{group: gateway.networking.k8s.io, kind: Gateway, name: gw, sectionName: other}]";

fn tp(name: &str, targets: &str, fields: &str) -> String {
    policy("TrafficPolicy", name, "", targets, fields)
}

/// `policy -> ancestor: Accepted reason / Attached reason`, one line per status.
fn statuses(docs: &[String]) -> Vec<String> {
    run_with(docs, &MergeOptions::default(), false)
        .policy_statuses
        .iter()
        .map(|s| {
            format!(
                "{} -> {} {}: {} / {}",
                s.policy.name,
                s.ancestor.kind,
                s.ancestor.name,
                s.accepted.reason,
                s.attached.reason
            )
        })
        .collect()
}

/// `code policy: message`, for the GW31x findings.
fn findings(docs: &[String]) -> Vec<String> {
    run_with(docs, &MergeOptions::default(), false)
        .diagnostics
        .iter()
        .filter(|d| d.code.as_str().starts_with("GW31"))
        .map(|d| {
            let who = d.resource.as_ref().map(|r| r.name.as_str()).unwrap_or("");
            format!("{} {who}: {}", d.code, d.message)
        })
        .collect()
}

#[test]
fn alone_on_its_target_a_policy_is_attached() {
    assert_eq!(
        statuses(&[tp("g", GW, "  cors: {maxAge: 1}")]),
        ["g -> Gateway gw: Valid / Attached"]
    );
}

#[test]
fn route_and_rule_policies_merge_into_one_route_configuration() {
    // The reference's traffic-policy/merge case: every policy supplies something, so each is
    // Merged; the route policy's transformation loses to the rule's.
    let docs = [
        tp(
            "ru",
            RULE,
            "  cors: {allowOrigins: ['https://a']}\n  transformation: {response: {}}",
        ),
        tp(
            "r",
            ROUTE,
            "  rateLimit: {local: {}}\n  transformation: {request: {}}",
        ),
    ];
    assert_eq!(
        statuses(&docs),
        [
            "ru -> Gateway gw: Valid / Merged",
            "r -> Gateway gw: Valid / Merged"
        ]
    );
}

#[test]
fn a_policy_that_supplies_nothing_where_it_attaches_is_overridden() {
    // The winner of a conflict supplies every field of the merged result: Attached (the
    // reference counts the fields each policy is an origin of: all, some or none).
    let docs = [
        tp("a", ROUTE, "  timeouts: {request: 1s}"),
        tp("b", ROUTE, "  timeouts: {request: 2s}"),
    ];
    assert_eq!(
        statuses(&docs),
        [
            "a -> Gateway gw: Valid / Attached",
            "b -> Gateway gw: Valid / Overridden"
        ]
    );
}

#[test]
fn two_policies_setting_different_fields_are_each_merged() {
    // Each supplies one of the two fields of the route's merged policy: some, not all.
    let docs = [
        tp("a", ROUTE, "  timeouts: {request: 1s}"),
        tp("b", ROUTE, "  cors: {allowOrigins: ['https://a']}"),
    ];
    assert_eq!(
        statuses(&docs),
        [
            "a -> Gateway gw: Valid / Merged",
            "b -> Gateway gw: Valid / Merged"
        ]
    );
}

/// A Gateway `tls` with an HTTPS listener `secure` and an HTTP listener `plain`, and a route on
/// both.
const TLS_GATEWAY: &str = "---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: tls}
spec:
  gatewayClassName: kgateway
  listeners:
  - {name: secure, protocol: HTTPS, port: 443, tls: {certificateRefs: [{name: cert}]}}
  - {name: plain, protocol: HTTP, port: 80}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: both}
spec:
  parentRefs: [{name: tls}]
  rules: [{backendRefs: [{name: svc, port: 80}]}]
";

#[test]
fn on_an_https_listener_the_gateways_policies_and_the_listeners_merge() {
    // An HTTPS listener has its own route configuration, where the Gateway's policies and the
    // listener's merge: the listener's wins the field, the Gateway's is overridden there.
    let on = |section: &str| {
        format!(
            "[{{group: gateway.networking.k8s.io, kind: Gateway, name: tls, sectionName: {section}}}]"
        )
    };
    let gateway = "[{group: gateway.networking.k8s.io, kind: Gateway, name: tls}]";
    let docs = [
        TLS_GATEWAY.to_string(),
        tp("g", gateway, "  cors: {maxAge: 1}"),
        tp("l", &on("secure"), "  cors: {maxAge: 2}"),
    ];
    assert_eq!(
        statuses(&docs),
        [
            "g -> Gateway tls: Valid / Overridden",
            "l -> Gateway tls: Valid / Attached"
        ]
    );
    // An HTTP listener shares its port's route configuration, where the Gateway's policy stays
    // whole; the listener's applies to its virtual hosts.
    let docs = [
        TLS_GATEWAY.to_string(),
        tp("g", gateway, "  cors: {maxAge: 1}"),
        tp("l", &on("plain"), "  cors: {maxAge: 2}"),
    ];
    assert_eq!(
        statuses(&docs),
        [
            "g -> Gateway tls: Valid / Attached",
            "l -> Gateway tls: Valid / Attached"
        ]
    );
}

#[test]
fn overridden_on_one_rule_is_overridden_for_the_gateway() {
    // The worst state over the places counts: the route's policy supplies the field on the
    // unnamed rule (Attached there) and nothing on rule `a`, where the rule's policy wins.
    let docs = [
        tp("r", ROUTE, "  timeouts: {request: 1s}"),
        tp("ru", RULE, "  timeouts: {request: 2s}"),
    ];
    assert_eq!(
        statuses(&docs),
        [
            "r -> Gateway gw: Valid / Overridden",
            "ru -> Gateway gw: Valid / Attached"
        ]
    );
}

#[test]
fn a_gateway_policy_overridden_by_routes_keeps_its_status_but_is_dead() {
    // The controller judges the Gateway policy on the Gateway (Attached); on every rule of the
    // only route a more specific policy supplies the field, so it has no effect (GW311).
    let docs = [
        tp("g", GW, "  cors: {maxAge: 1}"),
        tp("l", HTTP, "  cors: {maxAge: 2}"),
        tp("o", OTHER, "  cors: {maxAge: 3}"),
    ];
    assert_eq!(
        statuses(&docs),
        [
            "g -> Gateway gw: Valid / Attached",
            "l -> Gateway gw: Valid / Attached",
            "o -> Gateway gw: Valid / Attached"
        ]
    );
    assert_eq!(
        findings(&docs),
        [
            "GW311 g: TrafficPolicy default/g has no effect: every field it sets is overridden on every target (for example by TrafficPolicy default/o)"
        ]
    );
    // A listener without routes is a place of its own: there the Gateway policy applies.
    assert_eq!(findings(&docs[..2]), Vec::<String>::new());
}

#[test]
fn an_invalid_policy_is_not_accepted() {
    let s = run_with(
        &[tp("bad", ROUTE, "  timeouts: {request: 12}")],
        &MergeOptions::default(),
        false,
    );
    let st = &s.policy_statuses[0];
    assert_eq!(
        (st.accepted.reason, st.attached.reason),
        ("Invalid", "Pending")
    );
    assert!(!st.accepted.status);
}

#[test]
fn name_order_tie_is_reported_once_per_pair_and_field() {
    let docs = [
        tp("b", ROUTE, "  timeouts: {request: 1s}\n  cors: {}"),
        tp("a", ROUTE, "  timeouts: {request: 2s}"),
    ];
    assert_eq!(
        findings(&docs),
        [
            "GW310 b: TrafficPolicy default/a and TrafficPolicy default/b set timeouts at the same level with the same weight and creation time; TrafficPolicy default/a wins only by name order (in a cluster, creation order decides)"
        ]
    );
}

#[test]
fn a_disable_with_nothing_below_is_reported() {
    let docs = [tp("r", ROUTE, "  extAuth: {disable: {}}")];
    assert_eq!(
        findings(&docs),
        [
            "GW312 r: extAuth.disable cancels nothing: no less specific or lower-ranked policy sets extAuth where TrafficPolicy default/r applies"
        ]
    );
    let cancels = [
        tp("g", GW, "  extAuth: {extensionRef: {name: auth}}"),
        tp("r", ROUTE, "  extAuth: {disable: {}}"),
    ];
    assert_eq!(findings(&cancels), Vec::<String>::new());
}

#[test]
fn pre_and_post_routing_on_one_feature_is_reported() {
    let docs = [
        policy(
            "AiGatewayPolicy",
            "pre",
            "",
            GW,
            "  traffic: {phase: PreRouting, extAuth: {backendRef: {name: svc, port: 80}}}",
        ),
        policy(
            "AiGatewayPolicy",
            "post",
            "",
            ROUTE,
            "  traffic: {extAuth: {backendRef: {name: svc, port: 9000}}}",
        ),
    ];
    assert_eq!(
        findings(&docs),
        [
            "GW313 post: AiGatewayPolicy default/post configures traffic.extAuth in PostRouting while AiGatewayPolicy default/pre configures it in PreRouting: the two phases never merge, so the feature runs twice"
        ]
    );
}

#[test]
fn a_malformed_template_is_the_proxys_error_the_controller_accepts_the_policy() {
    // GW127 is an error, but only the proxy finds it: the policy is Accepted and merged; one
    // with an error the controller finds (an unknown field) is not.
    let template = "  transformation:\n    request:\n      set: [{name: x-a, value: '{{ a }'}]";
    let docs = [
        tp("t", GW, template),
        tp("u", HTTP, "  timeouts: {request: 1s}\n  nope: 1"),
    ];
    assert_eq!(
        statuses(&docs),
        [
            "t -> Gateway gw: Valid / Attached",
            "u -> Gateway gw: Invalid / Pending"
        ]
    );
}
