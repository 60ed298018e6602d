declare_rule! {
    code: GW105,
    name: "pattern-mismatch",
    severity: Error,
    summary: "A string does not match the field's pattern",
    explanation: "The API server checks the value against the regular expression shown in the \
        message and rejects the object when it does not match. A common cause is a character the \
        field does not allow, such as upper case or `_` in a DNS name.",
    example: Manifest {
        failing: include_str!("gw105_pattern_mismatch/failing.yaml"),
        fixed: include_str!("gw105_pattern_mismatch/fixed.yaml"),
    },
}
