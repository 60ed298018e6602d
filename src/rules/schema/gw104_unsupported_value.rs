declare_rule! {
    code: GW104,
    name: "unsupported-value",
    severity: Error,
    summary: "A value outside the field's enumeration",
    explanation: "The field accepts only the listed values, and the API server rejects any other \
        with `Unsupported value`. Matching is case-sensitive: `http` is not `HTTP`.",
    fix: "Safe when the value is the reference implementation's name of a value this API renamed (`AWS` for `Cloud`: the help says so) or one allowed value differs only in case; unsafe when exactly one allowed value is close: the value is replaced by it, keeping its quotes.",
    example: Manifest {
        failing: include_str!("gw104_unsupported_value/failing.yaml"),
        fixed: include_str!("gw104_unsupported_value/fixed.yaml"),
    },
}
