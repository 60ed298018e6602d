declare_rule! {
    code: GW309,
    name: "policy-field-not-for-target",
    severity: Warning,
    summary: "An AiGatewayPolicy sets backend.ai or backend.mcp on an AiGatewayBackend of another kind",
    explanation: "`backend.ai` configures LLM provider backends (AiGatewayBackend `ai`) and \
        `backend.mcp` MCP backends (`mcp`); on a static, dynamic forward proxy or other backend \
        the field configures nothing, and no status says so. The CRD's rules forbid these fields \
        with Service targets but cannot see what kind of backend an AiGatewayBackend target is. \
        Target the AI or MCP backend, or remove the field.",
    example: Manifest {
        failing: include_str!("gw309_policy_field_not_for_target/failing.yaml"),
        fixed: include_str!("gw309_policy_field_not_for_target/fixed.yaml"),
    },
}
