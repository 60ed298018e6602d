declare_rule! {
    code: GW302,
    name: "policy-section-not-found",
    severity: Error,
    summary: "A policy's sectionName matches nothing on its target",
    explanation: "sectionName names a Gateway or ListenerSet listener, an HTTPRoute rule \
        (`rules[].name`), a Service port name, an AiGatewayBackend provider or an MCP target. When \
        it matches none of them the policy does not attach to that target at all: it silently does \
        nothing there.",
    fix: "Unsafe: when exactly one section of the target is one edit away, the sectionName is changed to it.",
    example: Manifest {
        failing: include_str!("gw302_policy_section_not_found/failing.yaml"),
        fixed: include_str!("gw302_policy_section_not_found/fixed.yaml"),
    },
}
