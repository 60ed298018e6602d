declare_rule! {
    code: GW201,
    name: "parent-not-found",
    severity: Error,
    summary: "A route's parentRef names a Gateway or ListenerSet that is not in the inputs",
    explanation: "The route attaches to nothing through this parentRef (a controller sets no \
        status for it at all). The message suggests a close name of the same kind in the same \
        namespace. Severity is error when no parentRef of the route is accepted, warning when \
        another one is.",
    fix: "Unsafe: when exactly one object of the kind in the namespace is one edit away, the name is changed to it.",
    example: Manifest {
        failing: include_str!("gw201_parent_not_found/failing.yaml"),
        fixed: include_str!("gw201_parent_not_found/fixed.yaml"),
    },
}
