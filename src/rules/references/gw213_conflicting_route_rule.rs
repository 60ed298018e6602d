declare_rule! {
    code: GW213,
    name: "conflicting-route-rule",
    severity: Warning,
    summary: "A route rule never receives traffic: another rule has the same match on the same \
        listener and hostname",
    explanation: "When rules of HTTPRoutes attached to the same listener and hostname have the \
        same match (path, method, headers and query parameters), the Gateway API gives the \
        requests to one of them: the rule of the oldest route (creationTimestamp), then of the \
        route first by `namespace/name`, and within one route the first rule. The finding is on a \
        rule all of whose matches lose on every listener and hostname it attaches to, and names \
        the rule that wins and why; when only the name decided, the real winner depends on \
        creation times the manifests do not fix. A rule that still wins one of its matches \
        somewhere carries traffic and is not reported. Change or remove one of the matches, or \
        give the routes different hostnames.",
    example: Manifest {
        failing: include_str!("gw213_conflicting_route_rule/failing.yaml"),
        fixed: include_str!("gw213_conflicting_route_rule/fixed.yaml"),
    },
}
