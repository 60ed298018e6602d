//! Examples of the GW1xx (schema) rules; see `examples.rs`.

use super::examples::{
    Example,
    ExampleKind::{Crd, Manifest},
    e,
};

pub(super) static SCHEMA_EXAMPLES: &[Example] = &[
    e(
        "GW101",
        Manifest,
        "apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: web
spec:
  parentRefs:
  - name: gw
  rules:
  - backendRef:
    - name: web
      port: 80
",
        "apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: web
spec:
  parentRefs:
  - name: gw
  rules:
  - backendRefs:
    - name: web
      port: 80
",
    ),
    e(
        "GW102",
        Manifest,
        "apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: gw
spec:
  gatewayClassName: example
  listeners:
  - name: http
    port: 80
",
        "apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: gw
spec:
  gatewayClassName: example
  listeners:
  - name: http
    protocol: HTTP
    port: 80
",
    ),
    e(
        "GW103",
        Manifest,
        r#"apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: web
spec:
  rules:
  - backendRefs:
    - name: web
      port: "80"
"#,
        "apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: web
spec:
  rules:
  - backendRefs:
    - name: web
      port: 80
",
    ),
    e(
        "GW104",
        Manifest,
        "apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: web
spec:
  rules:
  - matches:
    - path: {type: Prefix, value: /shop}
",
        "apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: web
spec:
  rules:
  - matches:
    - path: {type: PathPrefix, value: /shop}
",
    ),
    e(
        "GW105",
        Manifest,
        "apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: web
spec:
  hostnames: [Shop.Example.com]
",
        "apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: web
spec:
  hostnames: [shop.example.com]
",
    ),
    e(
        "GW106",
        Manifest,
        r#"apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: gw
spec:
  gatewayClassName: ""
  listeners:
  - {name: http, protocol: HTTP, port: 80}
"#,
        "apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: gw
spec:
  gatewayClassName: example
  listeners:
  - {name: http, protocol: HTTP, port: 80}
",
    ),
    e(
        "GW107",
        Manifest,
        "apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: gw
spec:
  gatewayClassName: example
  listeners:
  - {name: http, protocol: HTTP, port: 80800}
",
        "apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: gw
spec:
  gatewayClassName: example
  listeners:
  - {name: http, protocol: HTTP, port: 8080}
",
    ),
    e(
        "GW108",
        Manifest,
        "apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: gw
spec:
  gatewayClassName: example
  listeners: []
",
        "apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: gw
spec:
  gatewayClassName: example
  listeners:
  - {name: http, protocol: HTTP, port: 80}
",
    ),
    e(
        "GW109",
        Manifest,
        "apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: gw
spec:
  gatewayClassName: example
  listeners:
  - {name: http, protocol: HTTP, port: 80}
  - {name: http, protocol: HTTP, port: 8080}
",
        "apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: gw
spec:
  gatewayClassName: example
  listeners:
  - {name: http, protocol: HTTP, port: 80}
  - {name: http-alt, protocol: HTTP, port: 8080}
",
    ),
    e(
        "GW110",
        Manifest,
        "apiVersion: v1
kind: ConfigMap
metadata:
  name: flags
data:
  debug: on
",
        r#"apiVersion: v1
kind: ConfigMap
metadata:
  name: flags
data:
  debug: "on"
"#,
    ),
    e(
        "GW111",
        Manifest,
        r#"apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: gw
spec:
  gatewayClassName: example
  addresses:
  - {type: IPAddress, value: "10.0.0.1:8080"}
  listeners:
  - {name: http, protocol: HTTP, port: 80}
"#,
        r#"apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: gw
spec:
  gatewayClassName: example
  addresses:
  - {type: IPAddress, value: "10.0.0.1"}
  listeners:
  - {name: http, protocol: HTTP, port: 80}
"#,
    ),
    e(
        "GW112",
        Manifest,
        "apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: web
spec:
  rules:
  - backendRefs:
    - name: web
",
        "apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: web
spec:
  rules:
  - backendRefs:
    - name: web
      port: 80
",
    ),
    e(
        "GW113",
        Crd,
        "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size:
                type: string
                x-kubernetes-validations:
                - rule: self.isSmall()
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec:
  size: S
",
        "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size:
                type: string
                x-kubernetes-validations:
                - rule: self in ['S', 'M', 'L']
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec:
  size: S
",
    ),
    e(
        "GW114",
        Manifest,
        "apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  ports:
  - port: 80
    targetPort: [8080]
",
        "apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  ports:
  - port: 80
    targetPort: 8080
",
    ),
    e(
        "GW115",
        Manifest,
        "apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: Web_Route
",
        "apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: web-route
",
    ),
];
