declare_rule! {
    code: GW309,
    name: "policy-field-not-for-target",
    severity: Warning,
    summary: "A policy sets a field that configures nothing on the kind of object it targets",
    explanation: "`backend.ai` configures LLM provider backends (AiGatewayBackend `ai`) and \
        `backend.mcp` MCP backends (`mcp`); on a static, dynamic forward proxy or other backend \
        the field configures nothing, and no status says so. The CRD's rules forbid these fields \
        with Service targets but cannot see what kind of backend an AiGatewayBackend target is. \
        Target the AI or MCP backend, or remove the field. Likewise a TrafficPolicy's `timeouts` \
        applies to HTTPRoute targets only (its CRD says so): on a Gateway, a listener or a \
        ListenerSet it configures nothing, and no route's effective policy (`gwctl explain` of \
        the route) has it.",
    example: Manifest {
        failing: include_str!("gw309_policy_field_not_for_target/failing.yaml"),
        fixed: include_str!("gw309_policy_field_not_for_target/fixed.yaml"),
    },
}
