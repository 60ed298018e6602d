declare_rule! {
    code: GW206,
    name: "service-port-not-found",
    severity: Error,
    summary: "A backendRef's port is not a port of the Service",
    explanation: "The Service exists but none of its `spec.ports` has this port, so there is no \
        endpoint to send traffic to. Use one of the Service's ports (the message lists them).",
    fix: "Unsafe: when exactly one port of the Service is one edit away (as digits), the port is changed to it.",
    example: Manifest {
        failing: include_str!("gw206_service_port_not_found/failing.yaml"),
        fixed: include_str!("gw206_service_port_not_found/fixed.yaml"),
    },
}
