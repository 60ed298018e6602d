declare_rule! {
    code: GW311,
    name: "policy-overridden-everywhere",
    severity: Warning,
    summary: "A policy supplies no field of the effective policy anywhere",
    explanation: "Every field the policy sets is supplied by a more specific or higher-ranked \
        policy on every place it applies to (each rule of each route, each port, each provider), \
        so the policy has no effect. Remove it, remove the fields that override it, or raise its \
        weight. `gwctl explain` shows which policy wins each field.",
    example: Manifest {
        failing: include_str!("gw311_policy_overridden_everywhere/failing.yaml"),
        fixed: include_str!("gw311_policy_overridden_everywhere/fixed.yaml"),
    },
}
