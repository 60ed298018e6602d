//! Rendering only the Gateways whose inputs differ: a change to each kind of input marks the
//! Gateway that reads it (and not the other one), the diff is the one a rendering of every
//! Gateway gives, and a change no Gateway reads renders nothing.

use std::collections::BTreeSet;
use std::sync::Arc;

use super::inputs::{self, Inputs};
use super::{Diff, Head, Side, diff_head};
use crate::lint::{LintOptions, LintRun, lint_sources};
use crate::render::{RenderOptions, diff_options};
use crate::source::SourceFile;

/// Two Gateways: `edge/public` (HTTPS with a certificate, routes from the namespaces labelled
/// `shop`, a route in `apps` to a Service in `backend` through a ReferenceGrant, a policy by
/// targetRef and one by targetSelectors) and `other/internal` (its own class, route and
/// Service). `lonely` is a Service no route sends to.
const SHOP: &str = r#"apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata:
  name: kgateway
spec:
  controllerName: kgateway.dev/kgateway
---
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata:
  name: internal
spec:
  controllerName: kgateway.dev/kgateway
---
apiVersion: v1
kind: Namespace
metadata:
  name: apps
  labels:
    shop: "true"
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: public
  namespace: edge
spec:
  gatewayClassName: kgateway
  listeners:
  - name: https
    protocol: HTTPS
    port: 443
    tls:
      mode: Terminate
      certificateRefs:
      - name: public-cert
    allowedRoutes:
      namespaces:
        from: Selector
        selector:
          matchLabels:
            shop: "true"
---
apiVersion: v1
kind: Secret
metadata:
  name: public-cert
  namespace: edge
type: kubernetes.io/tls
data:
  tls.crt: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tClkyVnlkR2xtYVdOaGRHVT0KLS0tLS1FTkQgQ0VSVElGSUNBVEUtLS0tLQo=
  tls.key: LS0tLS1CRUdJTiBQUklWQVRFIEtFWS0tLS0tCmEyVjUKLS0tLS1FTkQgUFJJVkFURSBLRVktLS0tLQo=
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: store
  namespace: apps
  labels:
    tier: gold
spec:
  parentRefs:
  - name: public
    namespace: edge
  rules:
  - matches:
    - path:
        type: PathPrefix
        value: /store
    backendRefs:
    - name: payments
      namespace: backend
      port: 8080
---
apiVersion: gateway.networking.k8s.io/v1beta1
kind: ReferenceGrant
metadata:
  name: from-apps
  namespace: backend
spec:
  from:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    namespace: apps
  to:
  - group: ""
    kind: Service
---
apiVersion: v1
kind: Service
metadata:
  name: payments
  namespace: backend
spec:
  ports:
  - name: http
    port: 8080
---
apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata:
  name: store-timeout
  namespace: apps
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: store
  timeouts:
    request: 5s
---
apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata:
  name: gold-retries
  namespace: apps
spec:
  targetSelectors:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    matchLabels:
      tier: gold
  retry:
    attempts: 3
    statusCodes: [503]
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: internal
  namespace: other
spec:
  gatewayClassName: internal
  listeners:
  - name: http
    protocol: HTTP
    port: 80
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: admin
  namespace: other
spec:
  parentRefs:
  - name: internal
  rules:
  - backendRefs:
    - name: admin
      port: 9000
---
apiVersion: v1
kind: Service
metadata:
  name: admin
  namespace: other
spec:
  ports:
  - port: 9000
---
apiVersion: v1
kind: Service
metadata:
  name: lonely
  namespace: backend
spec:
  ports:
  - port: 7000
"#;

/// The default options, with the AI data plane's controller named.
fn options() -> RenderOptions {
    RenderOptions {
        ai_controller: "agentgateway.dev/agentgateway".to_string(),
        ..RenderOptions::default()
    }
}

fn run(text: &str) -> LintRun {
    let options = diff_options(LintOptions::default());
    lint_sources(
        vec![SourceFile::new(0, "shop.yaml".to_string(), text)],
        &options,
    )
}

/// The diff of two texts, the head rendering `only` the given Gateways (`None`: every Gateway)
/// as `gwctl diff` does: the base rendered whole, then kept to those Gateways.
fn diff_of(base: &LintRun, head: &LintRun, only: Option<BTreeSet<(String, String)>>) -> Diff {
    let mut base = Side::of_run(base, &options(), false);
    if let Some(only) = &only {
        super::rendered::keep_only(&mut base.rendered, only);
    }
    let options = RenderOptions {
        only: only.map(Arc::new),
        ..options()
    };
    let merged = head.model.as_ref().map(|m| m.merge());
    let head = Head::of_run(&mut base, head, merged, None, &options, false);
    diff_head(&base, head)
}

/// The Gateways whose inputs differ after replacing `from` with `to` (which must occur), and
/// the diff: the one every Gateway's rendering gives.
fn changed(from: &str, to: &str) -> (Vec<String>, Diff) {
    assert!(SHOP.contains(from), "{from}");
    let (base, head) = (run(SHOP), run(&SHOP.replacen(from, to, 1)));
    let options = options();
    let only = inputs::changed(
        &Inputs::of_run(&base, &options, None),
        &Inputs::of_run(&head, &options, None),
    )
    .expect("no object of an unknown kind changed");
    let full = diff_of(&base, &head, None);
    let selective = diff_of(&base, &head, Some(only.clone()));
    assert_eq!(
        serde_json::to_value(&selective).ok(),
        serde_json::to_value(&full).ok(),
        "{from} -> {to}"
    );
    let names = only.iter().map(|(ns, name)| format!("{ns}/{name}"));
    (names.collect(), selective)
}

/// The Gateways whose rendering the diff lists.
fn rendered(d: &Diff) -> Vec<&str> {
    d.rendered.iter().map(|g| g.gateway.as_str()).collect()
}

#[test]
fn a_change_to_each_kind_of_input_renders_the_gateway_that_reads_it() {
    let cases = [
        ("route", "value: /store", "value: /shop"),
        ("policy by targetRef", "request: 5s", "request: 9s"),
        (
            "policy by targetSelectors label",
            "tier: gold\nspec",
            "tier: silver\nspec",
        ),
        ("backend Service port", "port: 8080\n---", "port: 8081\n---"),
        (
            "Secret",
            "tls.crt: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tClkyVnlkR2xtYVdOaGRHVT0KLS0tLS1FTkQgQ0VSVElGSUNBVEUtLS0tLQo=",
            "tls.crt: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCmIzUm9aWEk9Ci0tLS0tRU5EIENFUlRJRklDQVRFLS0tLS0K",
        ),
        (
            "ReferenceGrant",
            "namespace: apps\n  to:",
            "namespace: shop\n  to:",
        ),
        (
            "Namespace label",
            "shop: \"true\"\n---",
            "shop: \"false\"\n---",
        ),
    ];
    for (what, from, to) in cases {
        let (gateways, d) = changed(from, to);
        assert_eq!(gateways, ["edge/public"], "{what}");
        assert_eq!(
            rendered(&d),
            ["Gateway/edge/public"],
            "{what}: {}",
            super::json(&d)
        );
    }
}

#[test]
fn a_label_no_stage_reads_renders_nothing() {
    // Labels on objects read from their typed facts, which keep none of a Secret's, a
    // policy's or a GatewayClass's (nothing selects them by label): in a block of their own or
    // in flow style, before or after the name.
    let cases = [
        (
            "  name: public-cert\n  namespace: edge\n",
            "  name: public-cert\n  labels:\n    team: web\n  namespace: edge\n",
        ),
        (
            "  name: store-timeout\n",
            "  labels:\n    team: web\n  name: store-timeout\n",
        ),
        (
            "  name: kgateway\nspec",
            "  name: kgateway\n  labels: {team: web}\nspec",
        ),
    ];
    for (from, to) in cases {
        let (gateways, d) = changed(from, to);
        assert!(gateways.is_empty(), "{to}: {gateways:?}");
        assert!(rendered(&d).is_empty(), "{to}: {}", super::json(&d));
    }
    // A Service's labels are kept (a policy may select it by them): a label on one a Gateway
    // reads is an input.
    let (gateways, _) = changed(
        "  name: payments\n  namespace: backend\n",
        "  name: payments\n  namespace: backend\n  labels:\n    team: web\n",
    );
    assert_eq!(gateways, ["edge/public"]);
}

#[test]
fn a_gateway_class_change_renders_its_gateways() {
    let (gateways, d) = changed(
        "name: internal\nspec:\n  controllerName: kgateway.dev/kgateway",
        "name: internal\nspec:\n  controllerName: agentgateway.dev/agentgateway",
    );
    assert_eq!(gateways, ["other/internal"]);
    // Served by the AI data plane now: its shared resources are new too.
    assert_eq!(
        rendered(&d),
        ["Gateway/other/internal", super::rendered::SHARED]
    );
}

#[test]
fn a_change_no_gateway_reads_renders_nothing() {
    let (gateways, d) = changed("port: 7000", "port: 7001");
    assert!(gateways.is_empty(), "{gateways:?}");
    // The Service's cluster is shared by every Gateway: it is all the diff renders.
    assert_eq!(rendered(&d), [super::rendered::SHARED]);
}

#[test]
fn an_object_of_an_unknown_kind_changes_every_gateway() {
    let extra = "---\napiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n  namespace: apps\nspec:\n  size: 1\n";
    let base = run(&format!("{SHOP}{extra}"));
    let head = run(&format!("{SHOP}{}", extra.replace("size: 1", "size: 2")));
    let options = RenderOptions::default();
    let (b, h) = (
        Inputs::of_run(&base, &options, None),
        Inputs::of_run(&head, &options, None),
    );
    assert_eq!(b.gateways.len(), 2);
    assert_eq!(inputs::changed(&b, &h), None);
    assert_eq!(inputs::changed(&b, &b), Some(BTreeSet::new()));
}
