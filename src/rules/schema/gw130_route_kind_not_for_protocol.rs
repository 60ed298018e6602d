declare_rule! {
    code: GW130,
    name: "route-kind-not-for-protocol",
    severity: Warning,
    summary: "A listener allows a route kind its protocol cannot carry",
    explanation: "The kinds a listener's `allowedRoutes.kinds` lists must be kinds its protocol \
        carries: HTTPRoute and GRPCRoute on HTTP and HTTPS, TLSRoute (and TCPRoute when it \
        terminates TLS) on TLS, TCPRoute on TCP, UDPRoute on UDP. Another kind of the Gateway \
        API's group makes the listener's ResolvedRefs condition False (InvalidRouteKinds), and no \
        route of that kind attaches to it: a TLSRoute needs a TLS listener, not an HTTPS one. \
        Kinds of other groups are the implementation's to judge.",
    example: Manifest {
        failing: include_str!("gw130_route_kind_not_for_protocol/failing.yaml"),
        fixed: include_str!("gw130_route_kind_not_for_protocol/fixed.yaml"),
    },
}
