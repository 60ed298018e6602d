declare_rule! {
    code: GW406,
    name: "route-matches-every-host",
    severity: Warning,
    summary: "An HTTPRoute without hostnames has a rule that matches every request",
    explanation: "A route without `hostnames` takes every hostname its parent listeners accept; a \
        rule without matches, or matching `PathPrefix /` without header, query or method \
        conditions, then serves `/` on all of them, which exposes the backend (or DirectResponse) \
        on hosts it was not meant for and shadows other routes. Reported only where the route \
        attaches to a listener without a hostname (the related location): a listener's hostname \
        limits the route to it, a Service parentRef (mesh) has no listener, and a delegated child \
        route is reached only through its parent route's hostnames and matches. Set `hostnames`, \
        narrow the match, or set the listener's hostname. Direct responses set by policies are \
        not checked, nor is a rule that only redirects to HTTPS on the requested host and path \
        (a plain listener's usual upgrade to HTTPS).",
    example: Manifest {
        failing: include_str!("gw406_route_matches_every_host/failing.yaml"),
        fixed: include_str!("gw406_route_matches_every_host/fixed.yaml"),
    },
}
