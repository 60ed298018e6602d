declare_rule! {
    code: GW107,
    name: "number-range",
    severity: Error,
    summary: "A number is outside the field's range",
    explanation: "The API server rejects a number below the field's minimum or above its maximum \
        (the message gives the limit), for example a port outside 1-65535.",
    example: Manifest {
        failing: include_str!("gw107_number_range/failing.yaml"),
        fixed: include_str!("gw107_number_range/fixed.yaml"),
    },
}
