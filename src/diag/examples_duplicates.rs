//! Examples of GW013 (the same object twice) and GW213 (conflicting route rules): rules about a
//! set of objects together, each example a few documents of one file.

use super::examples::{Example, ExampleKind::Manifest, e};

pub(super) static DUPLICATE_EXAMPLES: &[Example] = &[e(
    "GW013",
    Manifest,
    r#"apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: shop
spec:
  ports:
  - port: 80
---
apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: shop
spec:
  ports:
  - port: 8080
"#,
    r#"apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: shop
spec:
  ports:
  - port: 80
---
apiVersion: v1
kind: Service
metadata:
  name: web-admin
  namespace: shop
spec:
  ports:
  - port: 8080
"#,
)];

pub(super) static CONFLICT_EXAMPLES: &[Example] = &[e(
    "GW213",
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
    hostname: shop.example.com
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: cart
  creationTimestamp: "2025-01-10T08:00:00Z"
spec:
  parentRefs:
  - name: public
  rules:
  - matches:
    - path:
        type: PathPrefix
        value: /cart
    backendRefs:
    - name: cart
      port: 80
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: cart-v2
  creationTimestamp: "2025-03-02T08:00:00Z"
spec:
  parentRefs:
  - name: public
  rules:
  - matches:
    - path:
        type: PathPrefix
        value: /cart
    backendRefs:
    - name: cart-v2
      port: 80
---
apiVersion: v1
kind: Service
metadata:
  name: cart
spec:
  ports:
  - port: 80
---
apiVersion: v1
kind: Service
metadata:
  name: cart-v2
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
    hostname: shop.example.com
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: cart
  creationTimestamp: "2025-01-10T08:00:00Z"
spec:
  parentRefs:
  - name: public
  rules:
  - matches:
    - path:
        type: PathPrefix
        value: /cart
    backendRefs:
    - name: cart
      port: 80
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: cart-v2
  creationTimestamp: "2025-03-02T08:00:00Z"
spec:
  parentRefs:
  - name: public
  rules:
  - matches:
    - path:
        type: PathPrefix
        value: /cart
      headers:
      - name: x-cart-version
        value: v2
    backendRefs:
    - name: cart-v2
      port: 80
---
apiVersion: v1
kind: Service
metadata:
  name: cart
spec:
  ports:
  - port: 80
---
apiVersion: v1
kind: Service
metadata:
  name: cart-v2
spec:
  ports:
  - port: 80
"#,
)];
