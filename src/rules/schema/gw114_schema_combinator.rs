declare_rule! {
    code: GW114,
    name: "schema-combinator",
    severity: Error,
    summary: "The value matches none of the allowed shapes",
    explanation: "The schema allows one of several shapes (oneOf / anyOf) or forbids one (not), \
        and the value does not fit: for example two fields that exclude each other are both set, \
        or neither of two alternatives is. Another finding on the same value often names the field \
        at fault.",
    example: Manifest {
        failing: include_str!("gw114_schema_combinator/failing.yaml"),
        fixed: include_str!("gw114_schema_combinator/fixed.yaml"),
    },
}
