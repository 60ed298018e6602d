//! Policies on ListenerSet listeners: a TrafficPolicy targeting an XListenerSet (the whole set,
//! or one listener by sectionName) applies on the set's listeners, which are the parent
//! Gateway's listeners: Gateway < set and set listener (listener level) < route < rule.

use super::Family;
use super::MergeOptions;
use super::tests_fixture::{GW, effective, policy};

/// A listener set of Gateway `gw` with two listeners, and a route attached to its `extra` one.
const SET: &str = r#"---
apiVersion: gateway.networking.x-k8s.io/v1alpha1
kind: XListenerSet
metadata: {name: set}
spec:
  parentRef: {group: gateway.networking.k8s.io, kind: Gateway, name: gw}
  listeners:
  - {name: extra, protocol: HTTP, port: 9090}
  - {name: spare, protocol: HTTP, port: 9091}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: on-set}
spec:
  parentRefs: [{group: gateway.networking.x-k8s.io, kind: XListenerSet, name: set, sectionName: extra}]
  rules:
  - backendRefs: [{name: svc, port: 80}]
"#;

const WHOLE_SET: &str = "[{group: gateway.networking.x-k8s.io, kind: XListenerSet, name: set}]";
const SET_EXTRA: &str =
    "[{group: gateway.networking.x-k8s.io, kind: XListenerSet, name: set, sectionName: extra}]";
const ON_SET: &str = "[{group: gateway.networking.k8s.io, kind: HTTPRoute, name: on-set}]";

fn effective_cors(docs: &[String], at: &str) -> Vec<String> {
    let mut all = vec![SET.to_string()];
    all.extend(docs.iter().cloned());
    effective(&all, &MergeOptions::default(), at, Family::TrafficPolicy)
}

fn tp(name: &str, targets: &str, request: &str) -> String {
    policy(
        "TrafficPolicy",
        name,
        "",
        targets,
        &format!("  cors: {{maxAge: {}}}", request.trim_end_matches('s')),
    )
}

#[test]
fn a_policy_on_the_whole_set_applies_on_each_of_its_listeners_over_the_gateways() {
    let docs = [tp("g", GW, "1s"), tp("s", WHOLE_SET, "2s")];
    for listener in ["XListenerSet/set:extra", "XListenerSet/set:spare"] {
        assert_eq!(
            effective_cors(&docs, listener),
            [
                r#"cors = {"maxAge":2} <- TrafficPolicy default/s @listener | lost: TrafficPolicy default/g @gateway (more specific level)"#
            ],
            "{listener}"
        );
    }
}

#[test]
fn a_policy_on_one_listener_of_the_set_applies_there_only() {
    let docs = [tp("g", GW, "1s"), tp("x", SET_EXTRA, "3s")];
    assert_eq!(
        effective_cors(&docs, "XListenerSet/set:extra"),
        [
            r#"cors = {"maxAge":3} <- TrafficPolicy default/x @listener | lost: TrafficPolicy default/g @gateway (more specific level)"#
        ]
    );
    assert_eq!(
        effective_cors(&docs, "XListenerSet/set:spare"),
        [r#"cors = {"maxAge":1} <- TrafficPolicy default/g @gateway"#]
    );
}

#[test]
fn a_route_on_a_set_listener_has_the_gateway_and_the_set_above_it() {
    let docs = [tp("g", GW, "1s"), tp("s", WHOLE_SET, "2s")];
    assert_eq!(
        effective_cors(&docs, "HTTPRoute/on-set:0"),
        [
            r#"cors = {"maxAge":2} <- TrafficPolicy default/s @listener | lost: TrafficPolicy default/g @gateway (more specific level)"#
        ]
    );
    let with_route = [
        tp("g", GW, "1s"),
        tp("s", WHOLE_SET, "2s"),
        tp("r", ON_SET, "4s"),
    ];
    assert_eq!(
        effective_cors(&with_route, "HTTPRoute/on-set:0"),
        [
            r#"cors = {"maxAge":4} <- TrafficPolicy default/r @route | lost: TrafficPolicy default/s @listener (more specific level) | lost: TrafficPolicy default/g @gateway (more specific level)"#
        ]
    );
}

#[test]
fn explain_names_the_set_listener_a_route_hangs_from() {
    let docs = [SET.to_string(), tp("s", WHOLE_SET, "2s")];
    let run = super::tests_fixture::run(&docs, &MergeOptions::default());
    let Some(model) = &run.model else {
        panic!("the run keeps its model");
    };
    let merged = model.merge();
    let Some(route) = model.facts.iter().position(|f| f.id.name == "on-set") else {
        panic!("route on-set is in the facts");
    };
    let statuses = super::explain::status_index(&run.policy_statuses);
    let e = super::explain::explain(&model.facts, &merged, &statuses, super::Place::Route(route));
    assert_eq!(
        e.hierarchy,
        ["XListenerSet default/set > listener extra > HTTPRoute default/on-set > rules 0"]
    );
}
