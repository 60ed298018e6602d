declare_rule! {
    code: GW112,
    name: "validation-rule",
    severity: Error,
    summary: "A validation rule of the schema fails",
    explanation: "The schema's CEL rule (x-kubernetes-validations) rejects the value, with the \
        message the API server would print.",
    example: Manifest {
        failing: include_str!("gw112_validation_rule/failing.yaml"),
        fixed: include_str!("gw112_validation_rule/fixed.yaml"),
    },
}
