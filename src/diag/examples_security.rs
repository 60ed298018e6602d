//! Examples of the GW4xx (security and practice) rules; see `examples.rs`.

use super::examples::{Example, ExampleKind::Manifest, e};

pub(super) static SECURITY_EXAMPLES: &[Example] = &[
    e(
        "GW401",
        Manifest,
        r#"apiVersion: gateway.kgateway.dev/v1alpha1
kind: BackendConfigPolicy
metadata:
  name: upstream-tls
spec:
  targetRefs:
  - group: ""
    kind: Service
    name: billing
  tls:
    sni: billing.internal
    insecureSkipVerify: true
"#,
        r#"apiVersion: gateway.kgateway.dev/v1alpha1
kind: BackendConfigPolicy
metadata:
  name: upstream-tls
spec:
  targetRefs:
  - group: ""
    kind: Service
    name: billing
  tls:
    sni: billing.internal
    wellKnownCACertificates: System
"#,
    ),
    e(
        "GW402",
        Manifest,
        r#"apiVersion: agentgateway.dev/v1alpha1
kind: AiGatewayPolicy
metadata:
  name: llm-auth
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: llm
  traffic:
    basicAuthentication:
      users:
      - "alice:$apr1$r31.....$HqJZimcKQFAMYayBlzkrA/"
"#,
        r#"apiVersion: agentgateway.dev/v1alpha1
kind: AiGatewayPolicy
metadata:
  name: llm-auth
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: llm
  traffic:
    basicAuthentication:
      users:
      - "alice:$2y$05$c4WoMPo3SXsafkva.HHa6uXQZWr7oboPiC2bT/r7q1BB8I2s0BRqC"
"#,
    ),
    e(
        "GW403",
        Manifest,
        r#"apiVersion: v1
kind: ConfigMap
metadata:
  name: llm-client
data:
  endpoint: https://llm.example.com
  api-key: sk-live-4f9a2b7c1d8e3f6a5b0c9d2e
"#,
        r#"apiVersion: v1
kind: ConfigMap
metadata:
  name: llm-client
data:
  endpoint: https://llm.example.com
  api-key-secret: llm-client-key
"#,
    ),
    e(
        "GW404",
        Manifest,
        r#"apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata:
  name: cors
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: web
  cors:
    allowOrigins: ["*"]
    allowCredentials: true
"#,
        r#"apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata:
  name: cors
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: web
  cors:
    allowOrigins: ["https://app.example.com"]
    allowCredentials: true
"#,
    ),
    e(
        "GW405",
        Manifest,
        r#"apiVersion: gateway.kgateway.dev/v1alpha1
kind: GatewayExtension
metadata:
  name: authz
spec:
  type: ExtAuth
  extAuth:
    failOpen: true
    grpcService:
      backendRef:
        name: authz
        port: 9000
"#,
        r#"apiVersion: gateway.kgateway.dev/v1alpha1
kind: GatewayExtension
metadata:
  name: authz
spec:
  type: ExtAuth
  extAuth:
    grpcService:
      backendRef:
        name: authz
        port: 9000
"#,
    ),
    e(
        "GW406",
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
  name: admin
spec:
  parentRefs:
  - name: public
  rules:
  - matches:
    - path:
        type: PathPrefix
        value: /
    backendRefs:
    - name: admin
      port: 8080
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
  name: admin
spec:
  parentRefs:
  - name: public
  hostnames:
  - admin.example.com
  rules:
  - matches:
    - path:
        type: PathPrefix
        value: /
    backendRefs:
    - name: admin
      port: 8080
"#,
    ),
    e(
        "GW407",
        Manifest,
        r#"apiVersion: gateway.kgateway.dev/v1alpha1
kind: GatewayExtension
metadata:
  name: jwt
spec:
  type: JWT
  jwt:
    providers:
    - name: corp
      issuer: https://login.example.com
      jwks:
        remote:
          url: https://login.example.com/jwks.json
          backendRef:
            name: login
            port: 443
"#,
        r#"apiVersion: gateway.kgateway.dev/v1alpha1
kind: GatewayExtension
metadata:
  name: jwt
spec:
  type: JWT
  jwt:
    providers:
    - name: corp
      issuer: https://login.example.com
      audiences: [shop-api]
      jwks:
        remote:
          url: https://login.example.com/jwks.json
          backendRef:
            name: login
            port: 443
"#,
    ),
    e(
        "GW408",
        Manifest,
        r#"apiVersion: gateway.kgateway.dev/v1alpha1
kind: Backend
metadata:
  name: egress
spec:
  type: DynamicForwardProxy
  dynamicForwardProxy:
    enableTls: true
"#,
        r#"apiVersion: gateway.kgateway.dev/v1alpha1
kind: Backend
metadata:
  name: egress
spec:
  type: DynamicForwardProxy
  dynamicForwardProxy:
    enableTls: true
---
apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata:
  name: egress-auth
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: egress
  jwt:
    extensionRef:
      name: jwt
"#,
    ),
];
