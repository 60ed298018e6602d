//! Statuses of delegated routes: which child a delegating backendRef selects, its parents and
//! conditions, cycles.

use serde_json::{Value, json};

use super::tests::{GATEWAY, conditions, statuses, triples};

const PARENT: &str = "
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: parent, namespace: default}
spec:
  parentRefs: [{name: gw}]
  rules:
  - matches: [{path: {type: PathPrefix, value: /a}}]
    backendRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: '*', namespace: team}]
";

fn child(name: &str, path: &str) -> String {
    format!(
        "
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {{name: {name}, namespace: team}}
spec:
  rules:
  - matches: [{{path: {{type: PathPrefix, value: {path}}}}}]
    backendRefs: [{{name: svc, namespace: default, port: 80}}]
"
    )
}

#[test]
fn a_delegated_child_route_has_its_parent_route_as_parent() {
    let s = statuses(&[GATEWAY, PARENT, &child("c", "/a/1"), &child("off", "/b")]);
    let parents = &s["httpRoutes"]["team/c"]["parents"];
    assert_eq!(
        parents[0]["parentRef"],
        json!({"group": "gateway.networking.k8s.io", "kind": "HTTPRoute", "name": "parent", "namespace": "default"})
    );
    // The child's backend is in another namespace without a ReferenceGrant.
    assert_eq!(
        conditions(&parents[0]["conditions"]),
        triples(&[
            ("ResolvedRefs", "False", "RefNotPermitted"),
            ("Accepted", "True", "Accepted"),
        ])
    );
    // A child whose paths lie outside the parent's match is not delegated to.
    assert_eq!(s["httpRoutes"].get("team/off"), None);
}

/// The child's ResolvedRefs is the resolve stage's outcome, not read from its findings: a
/// suppressed finding on the backendRef changes nothing in the status.
#[test]
fn a_delegated_childs_resolved_refs_does_not_depend_on_its_findings() {
    let suppressed = child("c", "/a/1").replace(
        "metadata: {name: c, namespace: team}",
        "metadata: {name: c, namespace: team, annotations: {gwctl.dev/ignore: GW208}}",
    );
    assert!(suppressed.contains("GW208"));
    let s = statuses(&[GATEWAY, PARENT, &suppressed]);
    let c = &s["httpRoutes"]["team/c"]["parents"][0]["conditions"][0];
    assert_eq!(
        (&c["reason"], &c["message"]),
        (
            &json!("RefNotPermitted"),
            &json!(
                "reference to Service default/svc from namespace team needs a ReferenceGrant in namespace default"
            )
        )
    );
}

#[test]
fn a_delegation_to_no_child_does_not_resolve() {
    let s = statuses(&[GATEWAY, PARENT, &child("off", "/b")]);
    let c = &s["httpRoutes"]["default/parent"]["parents"][0]["conditions"][0];
    assert_eq!(c["reason"], "BackendNotFound");
    assert_eq!(
        c["message"],
        "gateway.networking.k8s.io/HTTPRoute/team/*: unresolved reference"
    );
}

/// A child with parentRefs is delegated to only by a parent route they name (the reference
/// controller's rule, which the merge stage applies too): one whose parentRefs are all
/// Gateways is a standalone route, not a child.
#[test]
fn a_child_whose_parent_refs_are_gateways_only_is_not_delegated_to() {
    let with_parents = |name: &str, refs: &str| {
        child(name, "/a/1").replace(
            "spec:\n  rules:",
            &format!("spec:\n  parentRefs: {refs}\n  rules:"),
        )
    };
    let standalone = with_parents("c", "[{name: gw, namespace: default}]");
    assert!(standalone.contains("parentRefs"));
    let s = statuses(&[GATEWAY, PARENT, &standalone]);
    let parents = s["httpRoutes"]["team/c"]["parents"].as_array().map(|p| {
        p.iter()
            .map(|p| p["parentRef"]["kind"].clone())
            .collect::<Vec<_>>()
    });
    // A Gateway parentRef is shown as written: without a kind.
    assert_eq!(parents, Some(vec![json!("")]));
    let c = &s["httpRoutes"]["default/parent"]["parents"][0]["conditions"][0];
    assert_eq!(
        (&c["reason"], &c["message"]),
        (
            &json!("BackendNotFound"),
            &json!("gateway.networking.k8s.io/HTTPRoute/team/*: unresolved reference")
        )
    );
    // Naming the parent route beside the Gateway makes it a child too.
    let both = with_parents(
        "c",
        "[{name: gw, namespace: default}, {kind: HTTPRoute, name: parent, namespace: default}]",
    );
    let s = statuses(&[GATEWAY, PARENT, &both]);
    let kinds: Vec<Value> = s["httpRoutes"]["team/c"]["parents"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|p| p["parentRef"]["kind"].clone())
        .collect();
    assert_eq!(kinds, [json!(""), json!("HTTPRoute")]);
    assert_eq!(
        conditions(&s["httpRoutes"]["default/parent"]["parents"][0]["conditions"]),
        triples(&[
            ("Accepted", "True", "Accepted"),
            ("ResolvedRefs", "True", "ResolvedRefs"),
        ])
    );
}

/// An HTTPRoute (namespace, name) whose one rule on `path` delegates to HTTPRoutes (namespace,
/// name or `'*'`).
fn delegating((ns, name): (&str, &str), path: &str, (to_ns, to): (&str, &str)) -> String {
    format!(
        "
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {{name: {name}, namespace: {ns}}}
spec:
  rules:
  - matches: [{{path: {{type: PathPrefix, value: {path}}}}}]
    backendRefs: [{{group: gateway.networking.k8s.io, kind: HTTPRoute, name: {to}, namespace: {to_ns}}}]
"
    )
}

/// A child that delegates to itself (its parentRefs name no route, so it accepts itself as a
/// parent) closes a cycle of one route, as in the reference's `cyclic1` case.
#[test]
fn a_child_delegating_to_itself_is_a_cycle() {
    let child = delegating(("team", "back"), "/a/b", ("team", "back"));
    let s = statuses(&[GATEWAY, PARENT, &child]);
    let c = &s["httpRoutes"]["team/back"]["parents"][0]["conditions"][0];
    assert_eq!(
        (&c["reason"], &c["message"]),
        (
            &json!("RefNotPermitted"),
            &json!(
                "gateway.networking.k8s.io/HTTPRoute/team/back: ignoring child route team/back for parent team/back: cyclic reference detected while evaluating delegated routes"
            )
        )
    );
}

/// A cycle among child routes (the root, attached to the Gateway, is no child: its parentRefs
/// name no route), as in the reference's `cyclic2` case.
#[test]
fn a_delegation_cycle_is_reported_on_the_route_that_closes_it() {
    let back = delegating(("team", "back"), "/a/b", ("other", "loop"));
    let closing = delegating(("other", "loop"), "/a/b/1", ("team", "'*'"));
    let s = statuses(&[GATEWAY, PARENT, &back, &closing]);
    let c = &s["httpRoutes"]["other/loop"]["parents"][0]["conditions"][0];
    assert_eq!(c["reason"], "RefNotPermitted");
    assert_eq!(
        c["message"],
        "gateway.networking.k8s.io/HTTPRoute/team/*: ignoring child route team/back for parent other/loop: cyclic reference detected while evaluating delegated routes"
    );
    // Delegating back to the root is no cycle: the root names only the Gateway as its parent,
    // so it is no route's child, and the delegation finds no child at all.
    let to_root = delegating(("team", "back"), "/a/b", ("default", "parent"));
    let s = statuses(&[GATEWAY, PARENT, &to_root]);
    let c = &s["httpRoutes"]["team/back"]["parents"][0]["conditions"][0];
    assert_eq!(
        (&c["reason"], &c["message"]),
        (
            &json!("BackendNotFound"),
            &json!("gateway.networking.k8s.io/HTTPRoute/default/parent: unresolved reference")
        )
    );
}
