//! GW310-GW319 examples (merge): a Gateway, a route and the policies whose merge goes wrong.

use super::examples::{Example, ExampleKind::Manifest, e};

/// A Gateway with one listener and a route with one named rule.
macro_rules! targets {
    () => {
        r#"apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: public
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

pub(super) static MERGE_EXAMPLES: &[Example] = &[
    e(
        "GW310",
        Manifest,
        concat!(
            targets!(),
            r#"apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata:
  name: fast
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: checkout
  timeouts:
    request: 5s
---
apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata:
  name: slow
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: checkout
  timeouts:
    request: 60s
"#
        ),
        concat!(
            targets!(),
            r#"apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata:
  name: fast
  annotations:
    kgateway.dev/policy-weight: "10"
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: checkout
  timeouts:
    request: 5s
---
apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata:
  name: slow
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: checkout
  timeouts:
    request: 60s
"#
        ),
    ),
    e(
        "GW311",
        Manifest,
        concat!(
            targets!(),
            r#"apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata:
  name: edge
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: Gateway
    name: public
  timeouts:
    request: 30s
---
apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata:
  name: pay
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: checkout
    sectionName: pay
  timeouts:
    request: 5s
"#
        ),
        concat!(
            targets!(),
            r#"apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata:
  name: edge
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: Gateway
    name: public
  timeouts:
    request: 30s
  cors:
    allowOrigins:
    - https://shop.example
---
apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata:
  name: pay
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: checkout
    sectionName: pay
  timeouts:
    request: 5s
"#
        ),
    ),
    e(
        "GW312",
        Manifest,
        concat!(
            targets!(),
            r#"apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata:
  name: no-cors
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: checkout
  cors:
    disable: {}
"#
        ),
        concat!(
            targets!(),
            r#"apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata:
  name: edge
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: Gateway
    name: public
  cors:
    allowOrigins:
    - https://shop.example
---
apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata:
  name: no-cors
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: checkout
  cors:
    disable: {}
"#
        ),
    ),
    e(
        "GW313",
        Manifest,
        concat!(
            targets!(),
            r#"apiVersion: agentgateway.dev/v1alpha1
kind: AiGatewayPolicy
metadata:
  name: early-auth
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: Gateway
    name: public
  traffic:
    phase: PreRouting
    extAuth:
      backendRef:
        name: checkout
        port: 8080
---
apiVersion: agentgateway.dev/v1alpha1
kind: AiGatewayPolicy
metadata:
  name: route-auth
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: checkout
  traffic:
    extAuth:
      backendRef:
        name: checkout
        port: 8080
"#
        ),
        concat!(
            targets!(),
            r#"apiVersion: agentgateway.dev/v1alpha1
kind: AiGatewayPolicy
metadata:
  name: early-auth
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: Gateway
    name: public
  traffic:
    phase: PreRouting
    extAuth:
      backendRef:
        name: checkout
        port: 8080
"#
        ),
    ),
];
