declare_rule! {
    code: GW116,
    name: "cel-syntax",
    severity: Error,
    summary: "A data-plane CEL expression does not parse",
    explanation: "The field holds a CEL expression that the data plane evaluates per request \
        (transformations, access-log filters, tracing sampling, authorization rules). The position \
        points inside the expression, at the token where parsing failed. An expression longer than \
        --max-cel-length bytes (default 100 KiB) or nested deeper than --max-cel-depth (default \
        64: brackets, plus the operators, selections and ternaries chained inside each) is \
        reported here without being parsed, at the place where the limit is passed; the help names \
        the flag that raises it.",
    example: Manifest {
        failing: include_str!("gw116_cel_syntax/failing.yaml"),
        fixed: include_str!("gw116_cel_syntax/fixed.yaml"),
    },
}
