declare_rule! {
    code: GW003,
    name: "duplicate-key",
    severity: Error,
    summary: "A mapping has the same key twice",
    explanation: "The API server and kubectl keep only one of the values (which one depends on the \
        client), so half of what was written is silently lost. Remove or merge one of the entries.",
    fix: "Safe: when the second value equals the first, the second key and its value are removed (whole lines in block style).",
    example: Manifest {
        failing: include_str!("gw003_duplicate_key/failing.yaml"),
        fixed: include_str!("gw003_duplicate_key/fixed.yaml"),
    },
}
