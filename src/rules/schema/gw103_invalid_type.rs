declare_rule! {
    code: GW103,
    name: "invalid-type",
    severity: Error,
    summary: "A value has the wrong type",
    explanation: "The schema wants another JSON type here (string, integer, boolean, object, \
        array). Quote numbers meant as strings; do not quote numbers meant as integers.",
    example: Manifest {
        failing: include_str!("gw103_invalid_type/failing.yaml"),
        fixed: include_str!("gw103_invalid_type/fixed.yaml"),
    },
}
