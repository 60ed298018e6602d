declare_rule! {
    code: GW106,
    name: "string-length",
    severity: Error,
    summary: "A string is too short or too long",
    explanation: "The field has a minimum or maximum length.",
    example: Manifest {
        failing: include_str!("gw106_string_length/failing.yaml"),
        fixed: include_str!("gw106_string_length/fixed.yaml"),
    },
}
