//! GW3xx examples (policy attachment): small sets of a Gateway, a route and the policy that
//! targets them.

use super::examples::{Example, ExampleKind::Manifest, e};

/// The objects the policies below target: a Gateway with one listener and a route with one
/// named rule.
macro_rules! targets {
    () => {
        r#"apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: public
  labels:
    tier: edge
spec:
  gatewayClassName: kgateway
  listeners:
  - name: http
    protocol: HTTP
    port: 80
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: checkout
spec:
  parentRefs:
  - name: public
  rules:
  - name: pay
    backendRefs:
    - name: checkout
      port: 8080
---
apiVersion: v1
kind: Service
metadata:
  name: checkout
spec:
  ports:
  - port: 8080
---
"#
    };
}

pub(super) static POLICY_EXAMPLES: &[Example] = &[
    e(
        "GW301",
        Manifest,
        concat!(
            targets!(),
            r#"apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata:
  name: slow
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: chekout
  timeouts:
    request: 30s
"#
        ),
        concat!(
            targets!(),
            r#"apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata:
  name: slow
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: checkout
  timeouts:
    request: 30s
"#
        ),
    ),
    e(
        "GW302",
        Manifest,
        concat!(
            targets!(),
            r#"apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata:
  name: slow
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: checkout
    sectionName: payment
  timeouts:
    request: 30s
"#
        ),
        concat!(
            targets!(),
            r#"apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata:
  name: slow
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: checkout
    sectionName: pay
  timeouts:
    request: 30s
"#
        ),
    ),
    e(
        "GW303",
        Manifest,
        concat!(
            targets!(),
            r#"apiVersion: gateway.kgateway.dev/v1alpha1
kind: HTTPListenerPolicy
metadata:
  name: edge
spec:
  targetSelectors:
  - group: gateway.networking.k8s.io
    kind: Gateway
    matchLabels:
      tier: egde
  useRemoteAddress: true
"#
        ),
        concat!(
            targets!(),
            r#"apiVersion: gateway.kgateway.dev/v1alpha1
kind: HTTPListenerPolicy
metadata:
  name: edge
spec:
  targetSelectors:
  - group: gateway.networking.k8s.io
    kind: Gateway
    matchLabels:
      tier: edge
  useRemoteAddress: true
"#
        ),
    ),
    e(
        "GW304",
        Manifest,
        concat!(
            targets!(),
            r#"apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata:
  name: slow
spec:
  timeouts:
    request: 30s
"#
        ),
        concat!(
            targets!(),
            r#"apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata:
  name: slow
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: checkout
  timeouts:
    request: 30s
"#
        ),
    ),
];
