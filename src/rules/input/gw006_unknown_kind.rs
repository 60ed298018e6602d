declare_rule! {
    code: GW006,
    name: "unknown-kind",
    severity: Error,
    summary: "A known API group has no such kind",
    explanation: "The apiVersion names an API group gwctl knows, but the kind does not exist in \
        it. Check the spelling and capitalisation of `kind`.",
    example: Manifest {
        failing: include_str!("gw006_unknown_kind/failing.yaml"),
        fixed: include_str!("gw006_unknown_kind/fixed.yaml"),
    },
}
