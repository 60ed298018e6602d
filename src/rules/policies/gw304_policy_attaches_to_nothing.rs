declare_rule! {
    code: GW304,
    name: "policy-attaches-to-nothing",
    severity: Error,
    summary: "A policy attaches to nothing at all",
    explanation: "None of the policy's targetRefs and targetSelectors resolves to an object (each \
        is reported on its own), or it has none: the policy has no effect. A TrafficPolicy without \
        targets takes effect only through a route's ExtensionRef filter that names it.",
    example: Manifest {
        failing: include_str!("gw304_policy_attaches_to_nothing/failing.yaml"),
        fixed: include_str!("gw304_policy_attaches_to_nothing/fixed.yaml"),
    },
}
