//! The diff's sections on synthetic data: rendered resources compared by name (a moved one is no
//! change), a changed one's unified diff, findings counted by identity, the markdown cap.

use std::collections::BTreeSet;

use serde_json::json;

use super::rendered::{self, Change};
use super::{MARKDOWN_CAP, Side, diff, findings, markdown};
use crate::model::Object;
use crate::model::facts::Ident;
use crate::render::{DataPlane, Rendered, RenderedGateway, RenderedResource};
use crate::source::Span;

fn resource(section: &'static str, name: &str, value: serde_json::Value) -> RenderedResource {
    RenderedResource {
        section,
        kind: "route",
        name: name.to_string(),
        value,
    }
}

fn gateway(resources: Vec<RenderedResource>) -> Rendered {
    let object = Object {
        id: Ident {
            group: "gateway.networking.k8s.io".into(),
            kind: "Gateway".into(),
            namespace: "shop".into(),
            namespace_known: true,
            name: "public".into(),
            file: 0,
            span: Span::default(),
            name_span: Span::default(),
        },
        value: json!({}),
        written: None,
    };
    let mut g = RenderedGateway::new(&object, DataPlane::Envoy);
    g.resources = resources;
    Rendered {
        gateways: vec![g],
        ..Rendered::default()
    }
}

fn route(filters: serde_json::Value) -> serde_json::Value {
    json!({"name": "listener~80", "virtualHosts": [{"name": "shop", "routes": [{"match": {"prefix": "/"}, "filters": filters}]}]})
}

#[test]
fn a_resource_that_moved_in_the_list_is_no_change() {
    let a = resource("Routes", "listener~80", route(json!([])));
    let b = resource(
        "Clusters",
        "kube_shop_payments_8080",
        json!({"connectTimeout": "5s"}),
    );
    let base = rendered::of_rendered(gateway(vec![a.clone(), b.clone()]));
    let head = rendered::of_rendered(gateway(vec![b, a]));
    assert_eq!(rendered::compare(&base, &head), vec![]);
}

#[test]
fn keys_written_in_another_order_are_no_change() {
    // Each side keeps its rendering as text; equal values whose keys were inserted in another
    // order have different texts and are still equal.
    let base = rendered::of_rendered(gateway(vec![resource(
        "Clusters",
        "kube_shop_payments_8080",
        json!({"name": "kube_shop_payments_8080", "connectTimeout": "5s"}),
    )]));
    let head = rendered::of_rendered(gateway(vec![resource(
        "Clusters",
        "kube_shop_payments_8080",
        json!({"connectTimeout": "5s", "name": "kube_shop_payments_8080"}),
    )]));
    assert_ne!(base, head);
    assert_eq!(rendered::compare(&base, &head), vec![]);
}

#[test]
fn a_changed_resource_has_a_unified_diff_of_its_yaml() {
    let base = rendered::of_rendered(gateway(vec![resource(
        "Routes",
        "listener~80",
        route(json!([])),
    )]));
    let head = rendered::of_rendered(gateway(vec![resource(
        "Routes",
        "listener~80",
        route(json!([{"cors": {"allowOrigins": ["https://shop.example"]}}])),
    )]));
    let changes = rendered::compare(&base, &head);
    assert_eq!(changes.len(), 1);
    assert_eq!(changes[0].gateway, "Gateway/shop/public");
    let r = &changes[0].changes[0];
    assert_eq!(
        (r.section.as_str(), r.name.as_str(), r.change),
        ("Routes", "listener~80", Change::Changed)
    );
    insta::assert_snapshot!(r.diff);
}

#[test]
fn added_and_removed_resources_diff_against_nothing() {
    let cluster = resource(
        "Clusters",
        "kube_shop_payments_8080",
        json!({"connectTimeout": "5s"}),
    );
    let base = rendered::of_rendered(gateway(vec![]));
    let head = rendered::of_rendered(gateway(vec![cluster]));
    let added = rendered::compare(&base, &head);
    assert_eq!(added[0].changes[0].change, Change::Added);
    assert_eq!(
        added[0].changes[0].diff,
        "--- a/Clusters/kube_shop_payments_8080\n+++ b/Clusters/kube_shop_payments_8080\n@@ -0,0 +1 @@\n+connectTimeout: 5s\n"
    );
    let removed = rendered::compare(&head, &base);
    assert_eq!(removed[0].changes[0].change, Change::Removed);
}

const POLICY: &str = "apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata:
  name: NAME
  namespace: shop
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: missing
  timeouts:
    request: 5s
";

/// A route, so that references to routes are checked one by one.
const ROUTE: &str = "apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: checkout
  namespace: shop
spec:
  rules:
  - backendRefs: []
";

fn findings_of(files: &[(&str, String)]) -> findings::Findings {
    let files = files
        .iter()
        .enumerate()
        .map(|(i, (name, text))| crate::source::SourceFile::new(i, *name, text.as_str()))
        .collect();
    findings::of_run(&crate::lint::lint_sources(
        files,
        &crate::lint::LintOptions::default(),
    ))
}

#[test]
fn findings_are_known_by_what_they_say_not_where() {
    let a = POLICY.replace("NAME", "a");
    let b = POLICY.replace("NAME", "b");
    let base = findings_of(&[("one.yaml", format!("{a}---\n{ROUTE}"))]);
    // The same policy moved down another file, and a second one with the same defect.
    let head = findings_of(&[
        ("other.yaml", ROUTE.to_string()),
        ("two.yaml", format!("{b}---\n\n\n{a}")),
    ]);
    let d = findings::compare(&base, &head);
    assert_eq!(d.unchanged, 1);
    assert_eq!(d.fixed, vec![]);
    let introduced: Vec<(&str, Option<&str>, Option<&str>)> = d
        .introduced
        .iter()
        .map(|f| (f.code, f.resource.as_deref(), f.location.as_deref()))
        .collect();
    assert_eq!(
        introduced,
        vec![(
            "GW301",
            Some("TrafficPolicy shop/b"),
            Some("two.yaml:10:11")
        )]
    );
    let back = findings::compare(&head, &base);
    assert_eq!(
        (back.unchanged, back.introduced.len(), back.fixed.len()),
        (1, 0, 1)
    );
}

#[test]
fn markdown_keeps_under_its_cap_and_counts_what_it_left_out() {
    let many: Vec<RenderedResource> = (0..100)
        .map(|i| resource("Clusters", &format!("cluster-{i:03}"), json!({"port": i})))
        .collect();
    let base = Side {
        rendered: rendered::of_rendered(gateway(vec![])),
        ..Side::default()
    };
    let head = Side {
        rendered: rendered::of_rendered(gateway(many)),
        ..Side::default()
    };
    let d = diff(&base, &head);
    assert!(d.changes_effect());
    assert_eq!(d.resource_changes(), 100);
    let full = markdown(&d, MARKDOWN_CAP);
    assert_eq!(full.matches("```diff").count(), 100);
    assert!(!full.contains("not shown"));
    let capped = markdown(&d, 3_000);
    assert!(capped.len() <= 3_000, "{}", capped.len());
    let shown = capped.matches("```diff").count();
    assert!(shown > 0 && shown < 100, "{shown}");
    assert!(
        capped.ends_with(&format!(
            "_{} more changes not shown (over 3000 characters); `gwctl diff -o json` has them all._\n",
            100 - shown
        )),
        "{capped}"
    );
    // The sections stay closed: every <details> has its </details>.
    assert_eq!(
        capped.matches("<details>").count(),
        capped.matches("</details>").count()
    );
}

#[test]
fn a_finding_quoting_a_line_is_the_same_finding_when_the_text_moves() {
    let doc = "apiVersion: v1\nkind: Service\nmetadata:\n  name: a\n  namespace: shop\n  name: b\nspec:\n  ports:\n  - port: 80\n";
    let base = findings_of(&[("a.yaml", doc.to_string())]);
    let head = findings_of(&[("a.yaml", format!("# moved down\n\n\n{doc}"))]);
    let d = findings::compare(&base, &head);
    assert_eq!((d.unchanged, d.introduced.len(), d.fixed.len()), (1, 0, 0));
}

#[test]
fn markdown_shares_its_room_fairly_between_sections() {
    use super::markdown::fair_shares;
    assert_eq!(fair_shares(&[100, 5_000, 50], 1_000), vec![100, 850, 50]);
    assert_eq!(fair_shares(&[900, 5_000, 50], 1_000), vec![475, 475, 50]);
    assert_eq!(fair_shares(&[10, 20], 1_000), vec![10, 20]);
    assert_eq!(fair_shares(&[], 1_000), Vec::<usize>::new());
}

#[test]
fn targets_with_the_same_changes_are_printed_once() {
    use super::effective::{FieldChange, PlaceChange, grouped, targets_text};
    let change = |field: &str| FieldChange {
        family: "TrafficPolicy",
        via: None,
        field: field.to_string(),
        before: None,
        after: None,
    };
    let place = |target: &str, field: &str| PlaceChange {
        target: target.to_string(),
        changes: vec![change(field)],
    };
    let places = [
        place("HTTPRoute/shop/a", "cors"),
        place("HTTPRoute/shop/a:0", "cors"),
        place("HTTPRoute/shop/b", "timeouts"),
        place("HTTPRoute/shop/b:0", "cors"),
    ];
    let groups: Vec<Vec<&str>> = grouped(&places).into_iter().map(|(t, _)| t).collect();
    assert_eq!(
        groups,
        vec![
            vec![
                "HTTPRoute/shop/a",
                "HTTPRoute/shop/a:0",
                "HTTPRoute/shop/b:0"
            ],
            vec!["HTTPRoute/shop/b"],
        ]
    );
    let quote = |t: &str| format!("`{t}`");
    assert_eq!(targets_text(&["a"], 2, quote), "`a`");
    assert_eq!(targets_text(&["a", "b"], 2, quote), "`a` and `b`");
    assert_eq!(
        targets_text(&["a", "b", "c"], 2, quote),
        "`a`, `b` and 1 more"
    );
}

#[test]
fn statuses_refusals_and_shared_resources_are_compared_too() {
    let mut base = gateway(vec![]);
    base.gateways[0].statuses = json!({"gateways": [{"accepted": true}]});
    base.shared = vec![resource(
        "output",
        "backend/shop/llm",
        json!({"timeout": "20s"}),
    )];
    base.clusters = vec![resource(
        "Clusters",
        "kube_shop_web_80",
        json!({"connectTimeout": "5s"}),
    )];
    let mut head = gateway(vec![]);
    head.gateways[0].statuses = json!({"gateways": [{"accepted": false}]});
    head.shared = vec![resource(
        "output",
        "backend/shop/llm",
        json!({"timeout": "25s"}),
    )];
    head.clusters = vec![resource(
        "Clusters",
        "kube_shop_web_80",
        json!({"connectTimeout": "6s"}),
    )];
    let changes = rendered::compare(&rendered::of_rendered(base), &rendered::of_rendered(head));
    let what: Vec<(&str, &str, &str, Change)> = changes
        .iter()
        .flat_map(|g| {
            g.changes.iter().map(|r| {
                (
                    g.gateway.as_str(),
                    r.section.as_str(),
                    r.name.as_str(),
                    r.change,
                )
            })
        })
        .collect();
    assert_eq!(
        what,
        vec![
            ("Gateway/shop/public", "Statuses", "", Change::Changed),
            ("shared", "Clusters", "kube_shop_web_80", Change::Changed),
            ("shared", "output", "backend/shop/llm", Change::Changed),
        ]
    );
    assert_eq!(
        changes[0].changes[0].diff,
        "--- a/Statuses\n+++ b/Statuses\n@@ -1,2 +1,2 @@\n gateways:\n-  - accepted: true\n+  - accepted: false\n"
    );
}

/// A Gateway named `ns/name` with one route resource.
fn named_gateway(ns: &str, name: &str, value: serde_json::Value) -> RenderedGateway {
    let mut g = gateway(vec![resource("Routes", "listener~80", value)])
        .gateways
        .remove(0);
    g.namespace = ns.to_string();
    g.name = name.to_string();
    g
}

#[test]
fn a_head_compared_as_it_is_rendered_says_what_two_whole_renderings_say() {
    // Changed (b), removed (c, only in base), added (a, only in head), unchanged (d), and a
    // shared cluster changed; the head's Gateways come in another order than the base's.
    let base_gateways = vec![
        named_gateway("shop", "b", route(json!([]))),
        named_gateway("shop", "c", route(json!([]))),
        named_gateway("shop", "d", route(json!([]))),
    ];
    let head_gateways = vec![
        named_gateway("shop", "d", route(json!([]))),
        named_gateway("shop", "b", route(json!([{"name": "cors"}]))),
        named_gateway("shop", "a", route(json!([]))),
    ];
    let cluster = |timeout: &str| Rendered {
        clusters: vec![resource(
            "Clusters",
            "kube_shop_web_80",
            json!({"connectTimeout": timeout}),
        )],
        ..Rendered::default()
    };
    let whole = |gateways: Vec<RenderedGateway>, rest: Rendered| {
        rendered::of_rendered(Rendered { gateways, ..rest })
    };
    let base = whole(base_gateways, cluster("5s"));
    let expected = rendered::compare(&base, &whole(head_gateways.clone(), cluster("6s")));

    let mut against = rendered::Against::new(base.clone(), BTreeSet::new());
    for g in head_gateways {
        against.add_gateways(vec![g]);
    }
    against.add_rest(cluster("6s"));
    let (changes, seen) = against.finish();

    assert_eq!(changes, expected);
    let what: Vec<(&str, Change)> = changes
        .iter()
        .map(|g| (g.gateway.as_str(), g.changes[0].change))
        .collect();
    assert_eq!(
        what,
        vec![
            ("Gateway/shop/a", Change::Added),
            ("Gateway/shop/b", Change::Changed),
            ("Gateway/shop/c", Change::Removed),
            ("shared", Change::Changed),
        ]
    );
    assert!(seen.contains("Gateway/shop/d") && !seen.contains("Gateway/shop/c"));
}

#[test]
fn renderings_taken_apart_in_chunks_say_what_one_at_a_time_says() {
    // Handed on in chunks of 16, as the renderer does; every seventh changed, and Gateway 90
    // rendered twice in different chunks (its later rendering, unchanged, is the side's).
    let filters = |i: usize, changed: bool| {
        if changed && i.is_multiple_of(7) {
            json!([{"name": format!("cors-{i}")}])
        } else {
            json!([])
        }
    };
    let side = |changed: bool| -> Vec<RenderedGateway> {
        let mut gs: Vec<RenderedGateway> = (0..100)
            .map(|i| named_gateway("shop", &format!("g{i:03}"), route(filters(i, changed))))
            .collect();
        gs.insert(
            1,
            named_gateway("shop", "g090", route(json!([{"name": "x"}]))),
        );
        gs
    };
    let whole = |gateways| {
        rendered::of_rendered(Rendered {
            gateways,
            ..Rendered::default()
        })
    };
    let base = whole(side(false));

    let chunks = |gateways: Vec<RenderedGateway>| -> Vec<Vec<RenderedGateway>> {
        gateways.chunks(16).map(<[_]>::to_vec).collect()
    };
    let mut collect = rendered::Collect::default();
    for chunk in chunks(side(false)) {
        collect.add_gateways(chunk);
    }
    assert_eq!(collect.finish(Rendered::default()), base);

    let mut against = rendered::Against::new(
        base.clone(),
        BTreeSet::from(["Gateway/shop/g090".to_string()]),
    );
    for chunk in chunks(side(true)) {
        against.add_gateways(chunk);
    }
    let (changes, seen) = against.finish();
    assert_eq!(changes, rendered::compare(&base, &whole(side(true))));
    let changed: Vec<&str> = changes.iter().map(|c| c.gateway.as_str()).collect();
    let expected: Vec<String> = (0..100)
        .step_by(7)
        .map(|i| format!("Gateway/shop/g{i:03}"))
        .collect();
    assert_eq!(changed, expected);
    assert_eq!(seen.len(), 100);
}

#[test]
fn markdown_holds_its_cap_exactly_when_names_are_escaped() {
    // Forty policies whose names hold control characters, each escaped to four bytes (`\x1b`):
    // their findings' resources and messages grow when escaped, and the cap must count that.
    let policies: Vec<String> = (0..40)
        .map(|i| {
            POLICY.replace(
                "NAME",
                &format!("\"p{i:02}\\e\\e\\e\\e\\e\\a\\a\\a\\a\\a\""),
            )
        })
        .collect();
    let base = Side::default();
    let head = Side {
        findings: findings_of(&[("p.yaml", policies.join("---\n"))]),
        ..Side::default()
    };
    let d = diff(&base, &head);
    let introduced = &d.findings.introduced;
    assert!(introduced.len() >= 40, "{introduced:?}");
    assert!(
        introduced
            .iter()
            .all(|f| f.resource.as_deref().is_some_and(|r| r.contains('\u{1b}'))),
        "{introduced:?}"
    );
    let full = markdown(&d, MARKDOWN_CAP);
    assert!(full.contains(r"\x1b\x1b\x1b\x1b\x1b\x07"), "{full}");
    for cap in (600..6_000).step_by(7) {
        let capped = markdown(&d, cap);
        assert!(capped.len() <= cap, "cap {cap}: {} bytes", capped.len());
        assert!(!capped.contains(['\u{1b}', '\u{7}']), "cap {cap}: {capped}");
    }
}

#[test]
fn shared_resources_handed_on_one_batch_at_a_time_say_what_a_whole_rendering_says() {
    use crate::render::Sink;
    // The AI data plane's shared resources as the renderer streams them: a batch at a time after
    // the rest. Changed (b), removed (c), added (d), unchanged (a), a name repeated (the first is
    // served), and the statuses last.
    let output = |name: &str, v: i64| resource("output", name, json!({"v": v}));
    let base_shared = vec![output("a", 1), output("b", 1), output("c", 1)];
    let head_shared = vec![
        output("d", 1),
        output("b", 2),
        output("a", 1),
        output("b", 1),
    ];
    let whole = |shared: Vec<RenderedResource>, status: &str| {
        rendered::of_rendered(Rendered {
            shared,
            shared_statuses: json!({"policies": [status]}),
            ..Rendered::default()
        })
    };
    let base = whole(base_shared.clone(), "ok");
    let mut collect = rendered::Collect::default();
    collect.rest(Rendered::default());
    collect.shared_batch(base_shared[..2].to_vec());
    collect.shared(base_shared[2].clone());
    collect.shared_statuses(json!({"policies": ["ok"]}));
    assert_eq!(collect.into_map(), base);

    let mut against = rendered::Against::new(base.clone(), BTreeSet::new());
    against.rest(Rendered::default());
    against.shared_batch(head_shared[..3].to_vec());
    against.shared_batch(head_shared[3..].to_vec());
    against.shared_statuses(json!({"policies": ["lost"]}));
    let (changes, _) = against.finish();
    assert_eq!(
        changes,
        rendered::compare(&base, &whole(head_shared, "lost"))
    );
    let what: Vec<(&str, Change)> = changes[0]
        .changes
        .iter()
        .map(|c| (c.name.as_str(), c.change))
        .collect();
    assert_eq!(
        what,
        vec![
            ("", Change::Changed),
            ("b", Change::Changed),
            ("c", Change::Removed),
            ("d", Change::Added),
        ]
    );
}
