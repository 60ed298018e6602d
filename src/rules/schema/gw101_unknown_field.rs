declare_rule! {
    code: GW101,
    name: "unknown-field",
    severity: Error,
    summary: "A field that the schema does not declare",
    explanation: "With strict field validation (kubectl's default) the API server rejects the \
        object; with lax validation the field is silently dropped, so the setting has no effect. \
        Usually a typo or a field at the wrong level, or the reference implementation's name of \
        a field this API renamed (`jwtAuth` for `jwt`): then the help names this API's field.",
    fix: "Safe: when the key is the reference's name of a renamed field, or exactly one declared field is close (and the mapping does not have it yet), the key is renamed to it, keeping its quotes.",
    example: Manifest {
        failing: include_str!("gw101_unknown_field/failing.yaml"),
        fixed: include_str!("gw101_unknown_field/fixed.yaml"),
    },
}
