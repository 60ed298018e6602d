declare_rule! {
    code: GW406,
    name: "route-matches-every-host",
    severity: Warning,
    summary: "An HTTPRoute without hostnames has a rule that matches every request",
    explanation: "A route without `hostnames` takes every hostname its parent listeners accept; a \
        rule without matches, or matching `PathPrefix /` without header, query or method \
        conditions, then serves `/` on all of them, which exposes the backend (or DirectResponse) \
        on hosts it was not meant for and shadows other routes. Set `hostnames` or narrow the \
        match. gwctl does not yet read the parent listener: if it sets a hostname, the route is \
        limited to it and the finding can be ignored. Direct responses set by policies are not \
        checked (that needs resolution).",
    example: Manifest {
        failing: include_str!("gw406_route_matches_every_host/failing.yaml"),
        fixed: include_str!("gw406_route_matches_every_host/fixed.yaml"),
    },
}
