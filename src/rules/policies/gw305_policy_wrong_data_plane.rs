declare_rule! {
    code: GW305,
    name: "policy-wrong-data-plane",
    severity: Warning,
    summary: "A policy attaches to a target whose data plane ignores its kind",
    explanation: "Each policy family configures one data plane: AiGatewayPolicy the AI data plane, \
        TrafficPolicy, HTTPListenerPolicy and ListenerPolicy the proxy-based one. A Gateway's data \
        plane is the AI one when its GatewayClass's controllerName is the AI controller name \
        (config `controllers.ai`), else the proxy-based one; a route or ListenerSet is served by \
        the data planes of its parent Gateways. When none of them is the policy's, the policy \
        attaches but configures nothing, and no status says so. Use the policy kind of the \
        target's data plane, or attach it to a Gateway of the right class.",
    example: Manifest {
        failing: include_str!("gw305_policy_wrong_data_plane/failing.yaml"),
        fixed: include_str!("gw305_policy_wrong_data_plane/fixed.yaml"),
    },
}
