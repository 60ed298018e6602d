declare_rule! {
    code: GW102,
    name: "required-field",
    severity: Error,
    summary: "A required field is missing",
    explanation: "The API server rejects the object with `Required value`.",
    example: Manifest {
        failing: include_str!("gw102_required_field/failing.yaml"),
        fixed: include_str!("gw102_required_field/fixed.yaml"),
    },
}
