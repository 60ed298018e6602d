declare_rule! {
    code: GW215,
    name: "backend-ref-port-on-backend",
    severity: Error,
    summary: "A backendRef to a Backend sets a port",
    explanation: "A Backend defines its own hosts and ports, so the controller refuses a \
        backendRef that names one and sets `port`: the route's ResolvedRefs condition is False \
        (BackendNotFound) and the rule's traffic goes to no backend (the proxy answers 500). \
        Remove the port; the Backend's own hosts and ports are used.",
    example: Manifest {
        failing: include_str!("gw215_backend_ref_port_on_backend/failing.yaml"),
        fixed: include_str!("gw215_backend_ref_port_on_backend/fixed.yaml"),
    },
}
