declare_rule! {
    code: GW118,
    name: "invalid-regex",
    severity: Error,
    summary: "A regular expression does not compile as RE2",
    explanation: "The data plane compiles regexes with RE2, which has no backreferences, \
        look-around, possessive or doubled repetition (`a++`, `a**`), repeat counts above 1000, \
        the `x` flag or `\\<`/`\\>` word boundaries. The position points at the construct inside \
        the pattern.",
    example: Manifest {
        failing: include_str!("gw118_invalid_regex/failing.yaml"),
        fixed: include_str!("gw118_invalid_regex/fixed.yaml"),
    },
}
