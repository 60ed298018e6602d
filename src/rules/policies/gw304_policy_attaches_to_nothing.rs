declare_rule! {
    code: GW304,
    name: "policy-attaches-to-nothing",
    severity: Error,
    summary: "A policy attaches to nothing at all",
    explanation: "The policy has no targetRefs or targetSelectors, or none of them selects an \
        object without a finding of its own (a target that is not found is reported by its own \
        rule instead): the policy has no effect. A TrafficPolicy without targets takes effect only \
        through a route's ExtensionRef filter that names it.",
    example: Manifest {
        failing: include_str!("gw304_policy_attaches_to_nothing/failing.yaml"),
        fixed: include_str!("gw304_policy_attaches_to_nothing/fixed.yaml"),
    },
}
