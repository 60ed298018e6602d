declare_rule! {
    code: GW303,
    name: "policy-selector-selects-nothing",
    severity: Warning,
    summary: "A policy's targetSelector selects no object",
    explanation: "No object of the selector's kind in the policy's namespace has all the labels of \
        matchLabels, so the selector attaches the policy to nothing. It may select objects created \
        later; check the labels and the kind.",
    example: Manifest {
        failing: include_str!("gw303_policy_selector_selects_nothing/failing.yaml"),
        fixed: include_str!("gw303_policy_selector_selects_nothing/fixed.yaml"),
    },
}
