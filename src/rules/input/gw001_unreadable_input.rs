declare_rule! {
    code: GW001,
    name: "unreadable-input",
    severity: Error,
    summary: "A path could not be read",
    explanation: "The path does not exist, is not readable, or is not a file or directory. The \
        other inputs are still linted; the run exits with code 2.",
    example: Cli {
        failing: include_str!("gw001_unreadable_input/failing.sh"),
        fixed: include_str!("gw001_unreadable_input/fixed.sh"),
    },
}
