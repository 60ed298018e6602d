declare_rule! {
    code: GW114,
    name: "schema-combinator",
    severity: Error,
    summary: "The value matches none of the allowed shapes",
    explanation: "The schema allows one of several shapes (oneOf / anyOf) or forbids one (not), \
        and the value does not fit.",
    example: Manifest {
        failing: include_str!("gw114_schema_combinator/failing.yaml"),
        fixed: include_str!("gw114_schema_combinator/fixed.yaml"),
    },
}
