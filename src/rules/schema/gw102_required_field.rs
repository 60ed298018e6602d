declare_rule! {
    code: GW102,
    name: "required-field",
    severity: Error,
    summary: "A required field is missing",
    explanation: "The schema requires this field, so the API server rejects the object with \
        `Required value` and nothing of it is applied. Add the field; `gwctl schema KIND` shows \
        its type.",
    example: Manifest {
        failing: include_str!("gw102_required_field/failing.yaml"),
        fixed: include_str!("gw102_required_field/fixed.yaml"),
    },
}
