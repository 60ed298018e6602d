declare_rule! {
    code: GW107,
    name: "number-range",
    severity: Error,
    summary: "A number is outside the field's range",
    explanation: "The field has a minimum or maximum value.",
    example: Manifest {
        failing: include_str!("gw107_number_range/failing.yaml"),
        fixed: include_str!("gw107_number_range/fixed.yaml"),
    },
}
