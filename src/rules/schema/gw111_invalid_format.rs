declare_rule! {
    code: GW111,
    name: "invalid-format",
    severity: Error,
    summary: "A string does not have the field's format",
    explanation: "The field has a format (IPv4, IPv6, date-time, ...) and the value does not parse \
        as one, so the API server rejects the object. The message names the format.",
    example: Manifest {
        failing: include_str!("gw111_invalid_format/failing.yaml"),
        fixed: include_str!("gw111_invalid_format/fixed.yaml"),
    },
}
