declare_rule! {
    code: GW408,
    name: "open-forward-proxy",
    severity: Warning,
    summary: "A dynamic forward proxy backend with no authentication in the inputs",
    explanation: "A dynamic forward proxy sends each request to the host the client names, so \
        without authentication anyone can use the gateway to reach internal services or the \
        internet under its address. Until routes and policies are resolved, the check is \
        conservative: it reports a DynamicForwardProxy Backend or AiGatewayBackend only when no \
        TrafficPolicy or AiGatewayPolicy in the whole input configures JWT, basic, API key or \
        external authentication (AI-group authentication in mode Optional or Permissive does not \
        count: it admits anonymous requests).",
    example: Manifest {
        failing: include_str!("gw408_open_forward_proxy/failing.yaml"),
        fixed: include_str!("gw408_open_forward_proxy/fixed.yaml"),
    },
}
