declare_rule! {
    code: GW106,
    name: "string-length",
    severity: Error,
    summary: "A string is too short or too long",
    explanation: "The API server rejects a string shorter than the field's minimum length or \
        longer than its maximum (the message gives the limit); names and label values in \
        particular are short, often at most 63 or 253 characters.",
    example: Manifest {
        failing: include_str!("gw106_string_length/failing.yaml"),
        fixed: include_str!("gw106_string_length/fixed.yaml"),
    },
}
