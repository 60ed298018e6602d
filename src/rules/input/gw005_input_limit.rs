declare_rule! {
    code: GW005,
    name: "input-limit",
    severity: Error,
    summary: "An input exceeded a safety limit",
    explanation: "A YAML alias expansion, nesting depth or document size limit was hit (for \
        example a \"billion laughs\" document), or the inputs together exceed --max-total-bytes. \
        The document (or the file, for the total) is not linted further; the limit is named in the \
        message.",
    example: Manifest {
        failing: include_str!("gw005_input_limit/failing.yaml"),
        fixed: include_str!("gw005_input_limit/fixed.yaml"),
    },
}
