//! Examples of the value rules (GW116-GW127: what a string holds, and the chart values); see
//! `examples.rs`.

use super::examples::{
    Example,
    ExampleKind::{Crd, Manifest, Values},
    e,
};

pub(super) static VALUE_EXAMPLES: &[Example] = &[
    e(
        "GW116",
        Manifest,
        r#"apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata:
  name: web
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: web
  rbac:
    policy:
      matchExpressions:
      - "request.headers['x-team'] == 'payments' &&"
"#,
        r#"apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata:
  name: web
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: web
  rbac:
    policy:
      matchExpressions:
      - "request.headers['x-team'] == 'payments'"
"#,
    ),
    e(
        "GW117",
        Manifest,
        r#"apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata:
  name: web
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: web
  rbac:
    policy:
      matchExpressions:
      - "requst.path.startsWith('/admin')"
"#,
        r#"apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata:
  name: web
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: web
  rbac:
    policy:
      matchExpressions:
      - "request.path.startsWith('/admin')"
"#,
    ),
    e(
        "GW118",
        Manifest,
        r#"apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata:
  name: web
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: web
  urlRewrite:
    pathRegex:
      pattern: "^/v1/(.*)\\1$"
      substitution: /v2/
"#,
        r#"apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata:
  name: web
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: web
  urlRewrite:
    pathRegex:
      pattern: "^/v1/(.*)$"
      substitution: /v2/
"#,
    ),
    e(
        "GW119",
        Manifest,
        r#"apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata:
  name: web
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: web
  transformation:
    request:
      set:
      - name: "x team"
        value: "payments"
"#,
        r#"apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata:
  name: web
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: web
  transformation:
    request:
      set:
      - name: x-team
        value: "payments"
"#,
    ),
    e(
        "GW120",
        Crd,
        r#"apiVersion: apiextensions.k8s.io/v1
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
              timeout:
                type: string
                x-gwctl-format: duration
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec:
  timeout: 10x
"#,
        r#"apiVersion: apiextensions.k8s.io/v1
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
              timeout:
                type: string
                x-gwctl-format: duration
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec:
  timeout: 1m30s
"#,
    ),
    e(
        "GW121",
        Crd,
        r#"apiVersion: apiextensions.k8s.io/v1
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
                x-gwctl-format: quantity
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec:
  size: 1Zi
"#,
        r#"apiVersion: apiextensions.k8s.io/v1
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
                x-gwctl-format: quantity
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec:
  size: 512Mi
"#,
    ),
    e(
        "GW122",
        Manifest,
        r#"apiVersion: agentgateway.dev/v1alpha1
kind: AiGatewayPolicy
metadata:
  name: llm
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: llm
  traffic:
    jwtAuthentication:
      providers:
      - issuer: https://issuer.example.com
        jwks:
          inline: '{"keys": [{"kty": "RSA", "e": "AQAB"}]}'
"#,
        r#"apiVersion: agentgateway.dev/v1alpha1
kind: AiGatewayPolicy
metadata:
  name: llm
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: llm
  traffic:
    jwtAuthentication:
      providers:
      - issuer: https://issuer.example.com
        jwks:
          inline: '{"keys": [{"kty": "EC", "crv": "P-256", "x": "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU", "y": "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}]}'
"#,
    ),
    e(
        "GW123",
        Manifest,
        r#"apiVersion: agentgateway.dev/v1alpha1
kind: AiGatewayPolicy
metadata:
  name: llm
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: llm
  traffic:
    jwtAuthentication:
      providers:
      - issuer: https://issuer.example.com
        jwks:
          inline: '{"keys": [{"kty": "EC", "crv": "P-256", "x": "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU", "y": "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0", "d": "jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI"}]}'
"#,
        r#"apiVersion: agentgateway.dev/v1alpha1
kind: AiGatewayPolicy
metadata:
  name: llm
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: llm
  traffic:
    jwtAuthentication:
      providers:
      - issuer: https://issuer.example.com
        jwks:
          inline: '{"keys": [{"kty": "EC", "crv": "P-256", "x": "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU", "y": "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}]}'
"#,
    ),
    e(
        "GW124",
        Manifest,
        r#"apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata:
  name: web
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: web
  basicAuth:
    users:
    - "alice:correcthorse"
"#,
        r#"apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata:
  name: web
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: web
  basicAuth:
    users:
    - "alice:{SHA}fDYHuOYbzxlE6ehQOmYPIfS28/E="
"#,
    ),
    e(
        "GW125",
        Values,
        r#"inferenceRouting:
  enabled: true
aiGateway:
  enabled: false
"#,
        r#"inferenceRouting:
  enabled: true
aiGateway:
  enabled: true
"#,
    ),
    e(
        "GW126",
        Values,
        r#"controller:
  xds:
    tls:
      enabled: true
"#,
        r#"controller:
  xds:
    tls:
      enabled: true
---
apiVersion: v1
kind: Secret
metadata:
  name: kgateway-xds-cert
  namespace: kgateway-system
type: kubernetes.io/tls
data:
  tls.crt: Y2VydA==
  tls.key: a2V5
  ca.crt: Y2E=
"#,
    ),
    e(
        "GW127",
        Manifest,
        r#"apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata:
  name: web
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: web
  transformation:
    request:
      set:
      - name: x-user
        value: "{{ header(\"x-user-id\") }"
"#,
        r#"apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata:
  name: web
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: web
  transformation:
    request:
      set:
      - name: x-user
        value: "{{ header(\"x-user-id\") }}"
"#,
    ),
];
