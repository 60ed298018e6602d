declare_rule! {
    code: GW313,
    name: "pre-and-post-routing-overlap",
    severity: Warning,
    summary: "PreRouting and PostRouting traffic policies configure the same feature",
    explanation: "AiGatewayPolicy traffic in phase PreRouting and in phase PostRouting are \
        separate sets that never merge: all PreRouting settings run before routing, then all \
        PostRouting settings after. When both configure the same feature (for example extAuth) on \
        one route, the feature runs twice with two configurations. Configure it in one phase.",
    example: Manifest {
        failing: include_str!("gw313_pre_and_post_routing_overlap/failing.yaml"),
        fixed: include_str!("gw313_pre_and_post_routing_overlap/fixed.yaml"),
    },
}
