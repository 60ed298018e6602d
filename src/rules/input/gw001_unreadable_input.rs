declare_rule! {
    code: GW001,
    name: "unreadable-input",
    severity: Error,
    summary: "A path could not be read",
    explanation: "The path does not exist, is not readable, or is not a regular file or a \
        directory (a FIFO, a process substitution or a device is never read: give a stream on stdin \
        with `-`), or a directory holds an entry that cannot be read (a dangling link, a symbolic \
        link loop). The other inputs are still linted; the run exits with code 2.",
    example: Cli {
        failing: include_str!("gw001_unreadable_input/failing.sh"),
        fixed: include_str!("gw001_unreadable_input/fixed.sh"),
    },
}
