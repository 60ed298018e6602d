//! GW207-GW212 examples (backend kinds, grants, secrets, extensions, unchecked kinds).

use super::examples::{Example, ExampleKind::Manifest, e};

pub(super) static REFS_EXAMPLES: &[Example] = &[
    e(
        "GW207",
        Manifest,
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
  name: web
spec:
  parentRefs:
  - name: public
  rules:
  - backendRefs:
    - name: web
      group: apps
      kind: Deployment
      port: 80
---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  ports:
  - port: 80
"#,
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
  name: web
spec:
  parentRefs:
  - name: public
  rules:
  - backendRefs:
    - name: web
      port: 80
---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  ports:
  - port: 80
"#,
    ),
    e(
        "GW208",
        Manifest,
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
  name: web
spec:
  parentRefs:
  - name: public
  rules:
  - backendRefs:
    - name: web
      namespace: shop
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
"#,
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
  name: web
spec:
  parentRefs:
  - name: public
  rules:
  - backendRefs:
    - name: web
      namespace: shop
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
apiVersion: gateway.networking.k8s.io/v1beta1
kind: ReferenceGrant
metadata:
  name: routes-from-default
  namespace: shop
spec:
  from:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    namespace: default
  to:
  - group: ""
    kind: Service
"#,
    ),
    e(
        "GW209",
        Manifest,
        r#"apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: public
spec:
  gatewayClassName: kgateway
  listeners:
  - name: https
    protocol: HTTPS
    port: 443
    tls:
      certificateRefs:
      - name: public-cert
---
apiVersion: v1
kind: Secret
metadata:
  name: public-tls
type: kubernetes.io/tls
stringData:
  tls.crt: x
  tls.key: x
"#,
        r#"apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: public
spec:
  gatewayClassName: kgateway
  listeners:
  - name: https
    protocol: HTTPS
    port: 443
    tls:
      certificateRefs:
      - name: public-tls
---
apiVersion: v1
kind: Secret
metadata:
  name: public-tls
type: kubernetes.io/tls
stringData:
  tls.crt: x
  tls.key: x
"#,
    ),
    e(
        "GW210",
        Manifest,
        r#"apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: public
spec:
  gatewayClassName: kgateway
  listeners:
  - name: https
    protocol: HTTPS
    port: 443
    tls:
      certificateRefs:
      - name: public-tls
---
apiVersion: v1
kind: Secret
metadata:
  name: public-tls
type: kubernetes.io/tls
stringData:
  tls.crt: x
"#,
        r#"apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: public
spec:
  gatewayClassName: kgateway
  listeners:
  - name: https
    protocol: HTTPS
    port: 443
    tls:
      certificateRefs:
      - name: public-tls
---
apiVersion: v1
kind: Secret
metadata:
  name: public-tls
type: kubernetes.io/tls
stringData:
  tls.crt: x
  tls.key: x
"#,
    ),
    e(
        "GW211",
        Manifest,
        r#"apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata:
  name: auth
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: web
  extAuth:
    extensionRef:
      name: auth-service
---
apiVersion: gateway.kgateway.dev/v1alpha1
kind: GatewayExtension
metadata:
  name: auth-service
spec:
  extProc:
    grpcService:
      backendRef:
        name: authz
        port: 9000
---
apiVersion: v1
kind: Service
metadata:
  name: authz
spec:
  ports:
  - port: 9000
"#,
        r#"apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata:
  name: auth
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: web
  extAuth:
    extensionRef:
      name: auth-service
---
apiVersion: gateway.kgateway.dev/v1alpha1
kind: GatewayExtension
metadata:
  name: auth-service
spec:
  extAuth:
    grpcService:
      backendRef:
        name: authz
        port: 9000
---
apiVersion: v1
kind: Service
metadata:
  name: authz
spec:
  ports:
  - port: 9000
"#,
    ),
    e(
        "GW212",
        Manifest,
        r#"apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata:
  name: kgateway
spec:
  controllerName: kgateway.dev/kgateway
---
apiVersion: gateway.networking.k8s.io/v1
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
  name: web
spec:
  parentRefs:
  - name: public
  rules:
  - backendRefs:
    - name: web
      port: 80
"#,
        r#"apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata:
  name: kgateway
spec:
  controllerName: kgateway.dev/kgateway
---
apiVersion: gateway.networking.k8s.io/v1
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
  name: web
spec:
  parentRefs:
  - name: public
  rules:
  - backendRefs:
    - name: web
      port: 80
---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  ports:
  - port: 80
"#,
    ),
];
