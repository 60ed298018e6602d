declare_rule! {
    code: GW120,
    name: "invalid-duration",
    severity: Error,
    summary: "A string is not a Go duration",
    explanation: "Duration fields are decoded with Go's time.ParseDuration: a sequence of decimal \
        numbers each with a unit (ns, us, ms, s, m, h), such as `1h30m` or `500ms`. A number \
        without a unit (other than `0`) is rejected.",
    example: Crd {
        failing: include_str!("gw120_invalid_duration/failing.yaml"),
        fixed: include_str!("gw120_invalid_duration/fixed.yaml"),
    },
}
