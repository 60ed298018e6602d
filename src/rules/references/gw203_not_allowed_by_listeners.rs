declare_rule! {
    code: GW203,
    name: "not-allowed-by-listeners",
    severity: Error,
    summary: "No listener admits the route (namespaces or kinds)",
    explanation: "The listener's allowedRoutes does not admit the route: `namespaces.from` is Same \
        (the default) and the route is in another namespace, the Namespace's labels do not match \
        the selector, or the route kind is not among `allowedRoutes.kinds` (by default HTTP and \
        HTTPS listeners admit HTTPRoute and GRPCRoute, TLS TLSRoute, TCP TCPRoute, UDP UDPRoute). \
        A controller reports Accepted=False (NotAllowedByListeners).",
    example: Manifest {
        failing: include_str!("gw203_not_allowed_by_listeners/failing.yaml"),
        fixed: include_str!("gw203_not_allowed_by_listeners/fixed.yaml"),
    },
}
