declare_rule! {
    code: GW002,
    name: "syntax-error",
    severity: Error,
    summary: "The file is not valid YAML or JSON",
    explanation: "The parser stopped at the position shown. Documents after the next `---` \
        separator are still read. Common causes: tabs used for indentation, a value indented less \
        than its key, an unterminated quote.",
    example: Manifest {
        failing: include_str!("gw002_syntax_error/failing.yaml"),
        fixed: include_str!("gw002_syntax_error/fixed.yaml"),
    },
}
