declare_rule! {
    code: GW007,
    name: "unknown-version",
    severity: Error,
    summary: "The kind exists but not in this version",
    explanation: "The API server would reject the object: no schema is served for this version of \
        the kind. The message lists the versions that exist.",
    example: Manifest {
        failing: include_str!("gw007_unknown_version/failing.yaml"),
        fixed: include_str!("gw007_unknown_version/fixed.yaml"),
    },
}
