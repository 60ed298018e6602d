declare_rule! {
    code: GW306,
    name: "data-plane-unknown",
    severity: Info,
    summary: "A Gateway's data plane is unknown: the inputs hold no GatewayClass",
    explanation: "Whether a policy takes effect depends on the data plane, which the \
        GatewayClass's controllerName decides. Without any GatewayClass in the inputs gwctl \
        assumes policies of both families can take effect, so GW305 and GW307 are not checked for \
        this Gateway. Given once per Gateway that a TrafficPolicy, HTTPListenerPolicy, \
        ListenerPolicy or AiGatewayPolicy attaches to (directly or through a route). When other \
        GatewayClasses are in the inputs, the missing one is a GW209 note instead. Add the \
        GatewayClass to the inputs to get those checks.",
    example: Manifest {
        failing: include_str!("gw306_data_plane_unknown/failing.yaml"),
        fixed: include_str!("gw306_data_plane_unknown/fixed.yaml"),
    },
}
