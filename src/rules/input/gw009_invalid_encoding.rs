declare_rule! {
    code: GW009,
    name: "invalid-encoding",
    severity: Error,
    summary: "A file is not UTF-8 text",
    explanation: "The file contains invalid UTF-8 or binary data and is skipped; the other files \
        are still linted.",
    example: Cli {
        failing: include_str!("gw009_invalid_encoding/failing.sh"),
        fixed: include_str!("gw009_invalid_encoding/fixed.sh"),
    },
}
