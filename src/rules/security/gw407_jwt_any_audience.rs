declare_rule! {
    code: GW407,
    name: "jwt-any-audience",
    severity: Warning,
    summary: "A JWT provider accepts tokens for any audience",
    explanation: "Without `audiences` the `aud` claim is not checked, so a token the issuer minted \
        for any other service is accepted here too: one leaked or misused token opens every such \
        gateway. Checked for GatewayExtension jwt providers and AiGatewayPolicy / AiGatewayBackend \
        JWT and MCP authentication. List the audiences this gateway's tokens are issued for.",
    example: Manifest {
        failing: include_str!("gw407_jwt_any_audience/failing.yaml"),
        fixed: include_str!("gw407_jwt_any_audience/fixed.yaml"),
    },
}
