//! The diff's sections on synthetic data: rendered resources compared by name (a moved one is no
//! change), a changed one's unified diff, findings counted by identity, the markdown cap.

use serde_json::json;

use super::rendered::{self, Change};
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
            name: "public".into(),
            file: 0,
            span: Span::default(),
            name_span: Span::default(),
        },
        value: json!({}),
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
    let base = rendered::of_rendered(&gateway(vec![a.clone(), b.clone()]));
    let head = rendered::of_rendered(&gateway(vec![b, a]));
    assert_eq!(rendered::compare(&base, &head), vec![]);
}

#[test]
fn a_changed_resource_has_a_unified_diff_of_its_yaml() {
    let base = rendered::of_rendered(&gateway(vec![resource(
        "Routes",
        "listener~80",
        route(json!([])),
    )]));
    let head = rendered::of_rendered(&gateway(vec![resource(
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
    let base = rendered::of_rendered(&gateway(vec![]));
    let head = rendered::of_rendered(&gateway(vec![cluster]));
    let added = rendered::compare(&base, &head);
    assert_eq!(added[0].changes[0].change, Change::Added);
    assert_eq!(
        added[0].changes[0].diff,
        "--- a/Clusters/kube_shop_payments_8080\n+++ b/Clusters/kube_shop_payments_8080\n@@ -0,0 +1 @@\n+connectTimeout: 5s\n"
    );
    let removed = rendered::compare(&head, &base);
    assert_eq!(removed[0].changes[0].change, Change::Removed);
}
