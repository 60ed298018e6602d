declare_rule! {
    code: GW217,
    name: "second-direct-response",
    severity: Error,
    summary: "A route rule has more than one DirectResponse filter",
    explanation: "A DirectResponse filter (an ExtensionRef to a DirectResponse) sets the action of \
        the rule's routes: the response itself. The controller applies the first that exists; it \
        cannot apply a second over that action, so it replaces the rule with a direct response \
        500 and the route's Accepted condition is False (RouteRuleReplaced). Keep one \
        DirectResponse per rule; put each response on its own rule, with matches that tell them apart.",
    example: Manifest {
        failing: include_str!("gw217_second_direct_response/failing.yaml"),
        fixed: include_str!("gw217_second_direct_response/fixed.yaml"),
    },
}
