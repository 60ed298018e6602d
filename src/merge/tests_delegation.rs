//! Route delegation: a child route's rules inherit the policies of the rules and routes that
//! delegate to them, as the parent route's `kgateway.dev/inherited-policy-priority` says.

use super::MergeOptions;
use super::tests_fixture::{effective, policy, run_with};
use super::{Family, Place};
use crate::lint::Model;

/// A route `p` on the Gateway whose rule `d` delegates to every route of namespace `default`
/// (`*`), with `annotation` as its inherited-policy-priority; a child `c` delegating its rule
/// `d` to `g` (by name); the grandchild `g`.
fn routes(annotation: &str) -> String {
    let annotations = if annotation.is_empty() {
        String::new()
    } else {
        format!(", annotations: {{kgateway.dev/inherited-policy-priority: {annotation}}}")
    };
    format!(
        r#"---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {{name: p{annotations}}}
spec:
  parentRefs: [{{name: gw, sectionName: http}}]
  rules:
  - name: d
    matches: [{{path: {{type: PathPrefix, value: /a}}}}]
    backendRefs: [{{group: gateway.networking.k8s.io, kind: HTTPRoute, name: c}}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {{name: c}}
spec:
  rules:
  - name: d
    matches: [{{path: {{type: PathPrefix, value: /a/b}}}}]
    backendRefs: [{{group: gateway.networking.k8s.io, kind: HTTPRoute, name: g}}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {{name: g}}
spec:
  rules:
  - backendRefs: [{{name: svc, port: 80}}]
"#
    )
}

fn on(route: &str, fields: &str) -> String {
    let target = format!("[{{group: gateway.networking.k8s.io, kind: HTTPRoute, name: {route}}}]");
    policy("TrafficPolicy", &format!("on-{route}"), "", &target, fields)
}

const TRANSFORM: &str = "  transformation: {response: {add: [{name: x, value: ";
fn transformation(value: &str) -> String {
    format!("{TRANSFORM}{value}}}]}}}}")
}

/// The child `c`'s rule as reached through `p`'s rule `d`.
const CHILD: &str = "HTTPRoute/c:d@HTTPRoute/p:d";

#[test]
fn the_child_wins_by_default_and_inherits_what_it_does_not_set() {
    let docs = vec![
        routes(""),
        on(
            "p",
            &format!("{}\n  timeouts: {{request: 5s}}", transformation("p")),
        ),
        on("c", &transformation("c")),
    ];
    let got = effective(
        &docs,
        &MergeOptions::default(),
        CHILD,
        Family::TrafficPolicy,
    );
    assert_eq!(
        got,
        [
            r#"transformation = {"response":{"add":[{"name":"x","value":"c"}]}} <- TrafficPolicy default/on-c @route | lost: TrafficPolicy default/on-p @route (inherited, 1 up) (child route preferred (inherited-policy-priority))"#,
            r#"timeouts = {"request":"5s"} <- TrafficPolicy default/on-p @route (inherited, 1 up)"#,
        ]
    );
}

#[test]
fn a_parent_preferring_its_own_settings_wins() {
    let docs = vec![
        routes("ShallowMergePreferParent"),
        on("p", &transformation("p")),
        on(
            "c",
            &format!("{}\n  timeouts: {{request: 5s}}", transformation("c")),
        ),
    ];
    let got = effective(
        &docs,
        &MergeOptions::default(),
        CHILD,
        Family::TrafficPolicy,
    );
    assert_eq!(
        got,
        [
            r#"transformation = {"response":{"add":[{"name":"x","value":"p"}]}} <- TrafficPolicy default/on-p @route (inherited, 1 up) | lost: TrafficPolicy default/on-c @route (parent route preferred (inherited-policy-priority))"#,
            r#"timeouts = {"request":"5s"} <- TrafficPolicy default/on-c @route"#,
        ]
    );
}

#[test]
fn a_deep_merge_combines_transformations_preferred_side_first() {
    let docs = vec![
        routes("DeepMergePreferParent"),
        on("p", &transformation("p")),
        on("c", &transformation("c")),
    ];
    let got = effective(
        &docs,
        &MergeOptions::default(),
        CHILD,
        Family::TrafficPolicy,
    );
    assert_eq!(
        got,
        [
            r#"transformation = {"response":{"add":[{"name":"x","value":"p"},{"name":"x","value":"c"}]}} <- TrafficPolicy default/on-p @route (inherited, 1 up) + TrafficPolicy default/on-c @route"#,
        ]
    );
}

#[test]
fn each_level_of_a_chain_applies_its_own_priority() {
    // `p` prefers its own; `c` (default) lets `g` win over it: `p` still wins over both.
    let docs = vec![
        routes("ShallowMergePreferParent"),
        on("p", &transformation("p")),
        on(
            "c",
            &format!("{}\n  timeouts: {{request: 7s}}", transformation("c")),
        ),
        on("g", "  timeouts: {request: 9s}"),
    ];
    let got = effective(
        &docs,
        &MergeOptions::default(),
        "HTTPRoute/g:0@HTTPRoute/c:d",
        Family::TrafficPolicy,
    );
    assert_eq!(
        got,
        [
            r#"timeouts = {"request":"9s"} <- TrafficPolicy default/on-g @route | lost: TrafficPolicy default/on-c @route (inherited, 1 up) (child route preferred (inherited-policy-priority))"#,
            r#"transformation = {"response":{"add":[{"name":"x","value":"p"}]}} <- TrafficPolicy default/on-p @route (inherited, 2 up) | lost: TrafficPolicy default/on-c @route (inherited, 1 up) (parent route preferred (inherited-policy-priority))"#,
        ]
    );
}

#[test]
fn delegated_routes_hang_from_the_gateway_of_their_parents() {
    let docs = vec![
        routes("ShallowMergePreferParent"),
        on("p", &transformation("p")),
        on("c", &transformation("c")),
    ];
    let run = run_with(&docs, &MergeOptions::default(), true);
    let Some(model) = &run.model else {
        panic!("no model");
    };
    let merged = model.merge();
    let index = |name: &str| model.facts.iter().position(|f| f.id.name == name);
    let (Some(gw), Some(p), Some(c), Some(g)) = (index("gw"), index("p"), index("c"), index("g"))
    else {
        panic!("missing objects");
    };
    let h = &merged.hierarchy;
    assert_eq!(h.delegators.get(&c), Some(&vec![Place::Rule(p, 0)]));
    assert_eq!(h.delegators.get(&g), Some(&vec![Place::Rule(c, 0)]));
    assert_eq!(h.gateways(Place::Rule(g, 0)), [gw]);
    // The child's own policy loses its only field to the parent's on every route it reaches.
    let statuses: Vec<String> = Model::statuses(&merged, &run)
        .iter()
        .filter(|s| s.policy.name.starts_with("on-"))
        .map(|s| {
            format!(
                "{} -> {}: {}",
                s.policy.name, s.ancestor.name, s.attached.reason
            )
        })
        .collect();
    assert_eq!(statuses, ["on-p -> gw: Attached", "on-c -> gw: Overridden"]);
}

/// A child route with parentRefs is delegated to only by a parent route they name; one whose
/// parentRefs are all Gateways is a standalone route and inherits nothing from a route that
/// selects it (the reference controller's rule; the status stage decides with the same function).
#[test]
fn a_child_whose_parent_refs_are_gateways_only_inherits_nothing() {
    let with_parents = |refs: &str| {
        routes("").replace(
            "metadata: {name: c}\nspec:\n",
            &format!("metadata: {{name: c}}\nspec:\n  parentRefs: {refs}\n"),
        )
    };
    let on_p = on("p", "  timeouts: {request: 5s}");
    let standalone = vec![
        with_parents("[{name: gw, sectionName: http}]"),
        on_p.clone(),
    ];
    assert!(standalone[0].contains("name: c}\nspec:\n  parentRefs: [{name: gw"));
    let got = effective(
        &standalone,
        &MergeOptions::default(),
        CHILD,
        Family::TrafficPolicy,
    );
    assert_eq!(got, Vec::<String>::new());
    let named = with_parents("[{name: gw, sectionName: http}, {kind: HTTPRoute, name: p}]");
    let got = effective(
        &[named, on_p],
        &MergeOptions::default(),
        CHILD,
        Family::TrafficPolicy,
    );
    assert_eq!(
        got,
        [r#"timeouts = {"request":"5s"} <- TrafficPolicy default/on-p @route (inherited, 1 up)"#]
    );
}
