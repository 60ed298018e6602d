declare_rule! {
    code: GW105,
    name: "pattern-mismatch",
    severity: Error,
    summary: "A string does not match the field's pattern",
    explanation: "The API server checks the value against a regular expression; the message shows \
        it.",
    example: Manifest {
        failing: include_str!("gw105_pattern_mismatch/failing.yaml"),
        fixed: include_str!("gw105_pattern_mismatch/fixed.yaml"),
    },
}
