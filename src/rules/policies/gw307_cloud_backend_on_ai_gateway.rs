declare_rule! {
    code: GW307,
    name: "cloud-backend-on-ai-gateway",
    severity: Error,
    summary: "A route served by an AI Gateway sends traffic to a cloud function Backend",
    explanation: "Cloud function Backends (`type: Cloud`) are supported only by the proxy-based \
        data plane; the AI data plane cannot call them, so requests to this backendRef fail. Serve \
        the route from a proxy-based Gateway, or put the function behind an HTTP endpoint the AI \
        data plane can reach (a Service or a static AiGatewayBackend).",
    example: Manifest {
        failing: include_str!("gw307_cloud_backend_on_ai_gateway/failing.yaml"),
        fixed: include_str!("gw307_cloud_backend_on_ai_gateway/fixed.yaml"),
    },
}
