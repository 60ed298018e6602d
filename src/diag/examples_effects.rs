//! GW305-GW309 examples (what attaches but cannot take effect, and merge conflicts): a Gateway
//! of one data plane, a route, and what targets them.

use super::examples::{Example, ExampleKind::Manifest, e};

/// A GatewayClass of the given controller, a Gateway `edge` of it and an HTTPRoute `chat` under
/// the Gateway with one backendRef (Service `chat`, or the given backendRef lines).
macro_rules! served {
    ($controller:literal) => {
        served!($controller, "    - name: chat\n      port: 8080\n")
    };
    ($controller:literal, $backend:literal) => {
        concat!(
            r#"apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata:
  name: edge
spec:
  controllerName: "#,
            $controller,
            r#"
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: edge
spec:
  gatewayClassName: edge
  listeners:
  - name: http
    protocol: HTTP
    port: 80
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: chat
spec:
  parentRefs:
  - name: edge
  rules:
  - backendRefs:
"#,
            $backend,
            r#"---
apiVersion: v1
kind: Service
metadata:
  name: chat
spec:
  ports:
  - port: 8080
---
"#
        )
    };
}

/// An AiGatewayPolicy with a local rate limit on the route `chat`.
macro_rules! ai_policy {
    () => {
        r#"apiVersion: agentgateway.dev/v1alpha1
kind: AiGatewayPolicy
metadata:
  name: chat-limits
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: chat
  traffic:
    rateLimit:
      local:
      - requests: 100
        unit: Minutes
"#
    };
}

/// An AiGatewayPolicy with a system prompt for the LLM requests to the given AiGatewayBackend.
macro_rules! ai_backend_policy {
    ($backend:literal) => {
        concat!(
            r#"apiVersion: agentgateway.dev/v1alpha1
kind: AiGatewayPolicy
metadata:
  name: prompt
spec:
  targetRefs:
  - group: agentgateway.dev
    kind: AiGatewayBackend
    name: "#,
            $backend,
            r#"
  backend:
    ai:
      prompt:
        prepend:
        - role: SYSTEM
          content: Answer briefly.
"#
        )
    };
}

/// A BackendConfigPolicy on the Service `chat`, named and with the given fields.
macro_rules! backend_config {
    ($name:literal, $fields:literal) => {
        concat!(
            r#"apiVersion: gateway.kgateway.dev/v1alpha1
kind: BackendConfigPolicy
metadata:
  name: "#,
            $name,
            r#"
spec:
  targetRefs:
  - group: ""
    kind: Service
    name: chat
"#,
            $fields
        )
    };
}

/// A cloud function Backend `hello`.
macro_rules! cloud_function {
    () => {
        r#"---
apiVersion: gateway.kgateway.dev/v1alpha1
kind: Backend
metadata:
  name: hello
spec:
  type: Cloud
  cloud:
    accountId: "000000000000"
    region: us-east-1
    function:
      functionName: hello
"#
    };
}

pub(super) static EFFECT_EXAMPLES: &[Example] = &[
    e(
        "GW305",
        Manifest,
        concat!(served!("kgateway.dev/kgateway"), ai_policy!()),
        concat!(served!("agentgateway.dev/agentgateway"), ai_policy!()),
    ),
    e(
        "GW306",
        Manifest,
        r#"apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: edge
spec:
  gatewayClassName: edge
  listeners:
  - name: http
    protocol: HTTP
    port: 80
---
apiVersion: gateway.kgateway.dev/v1alpha1
kind: HTTPListenerPolicy
metadata:
  name: edge
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: Gateway
    name: edge
  useRemoteAddress: true
"#,
        r#"apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata:
  name: edge
spec:
  controllerName: kgateway.dev/kgateway
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: edge
spec:
  gatewayClassName: edge
  listeners:
  - name: http
    protocol: HTTP
    port: 80
---
apiVersion: gateway.kgateway.dev/v1alpha1
kind: HTTPListenerPolicy
metadata:
  name: edge
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: Gateway
    name: edge
  useRemoteAddress: true
"#,
    ),
    e(
        "GW307",
        Manifest,
        concat!(
            served!(
                "agentgateway.dev/agentgateway",
                "    - group: gateway.kgateway.dev\n      kind: Backend\n      name: hello\n"
            ),
            cloud_function!()
        ),
        concat!(
            served!(
                "kgateway.dev/kgateway",
                "    - group: gateway.kgateway.dev\n      kind: Backend\n      name: hello\n"
            ),
            cloud_function!()
        ),
    ),
    e(
        "GW308",
        Manifest,
        concat!(
            served!("kgateway.dev/kgateway"),
            backend_config!("fast-connect", "  connectTimeout: 1s\n---\n"),
            backend_config!("slow-connect", "  connectTimeout: 30s\n")
        ),
        concat!(
            served!("kgateway.dev/kgateway"),
            backend_config!("fast-connect", "  connectTimeout: 1s\n---\n"),
            backend_config!("breakers", "  circuitBreakers:\n    maxConnections: 1024\n")
        ),
    ),
    e(
        "GW309",
        Manifest,
        concat!(
            r#"apiVersion: agentgateway.dev/v1alpha1
kind: AiGatewayBackend
metadata:
  name: tools
spec:
  mcp:
    targets:
    - name: search
      static:
        host: search.default.svc.cluster.local
        port: 8080
        protocol: StreamableHTTP
---
"#,
            ai_backend_policy!("tools")
        ),
        concat!(
            r#"apiVersion: agentgateway.dev/v1alpha1
kind: AiGatewayBackend
metadata:
  name: llm
spec:
  ai:
    groups:
    - providers:
      - name: primary
        chatCompletionsVendor:
          model: small-model
---
"#,
            ai_backend_policy!("llm")
        ),
    ),
];
