declare_rule! {
    code: GW404,
    name: "cors-any-origin-with-credentials",
    severity: Warning,
    summary: "CORS allows any origin together with credentials",
    explanation: "With `allowOrigins` containing `*` and `allowCredentials: true`, the proxy \
        answers every origin with its own name, so any website a user visits can send requests \
        with the user's cookies or credentials and read the responses. Checked in TrafficPolicy \
        and AiGatewayPolicy CORS and in the HTTPRoute CORS filter. List the trusted origins \
        instead.",
    example: Manifest {
        failing: include_str!("gw404_cors_any_origin_with_credentials/failing.yaml"),
        fixed: include_str!("gw404_cors_any_origin_with_credentials/fixed.yaml"),
    },
}
