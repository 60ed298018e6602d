declare_rule! {
    code: GW011,
    name: "unused-suppression",
    severity: Info,
    summary: "A suppression annotation suppresses nothing",
    explanation: "The resource's `gwctl.dev/ignore` annotation names a code that has no finding on \
        this resource (or no rule at all). Remove the code from the annotation so that stale \
        suppressions do not hide future findings.",
    fix: "Safe: the code is removed from the annotation, with one separator; the annotation's line when it held only that code (and the `annotations:` line when no annotation is left).",
    example: Manifest {
        failing: include_str!("gw011_unused_suppression/failing.yaml"),
        fixed: include_str!("gw011_unused_suppression/fixed.yaml"),
    },
}
