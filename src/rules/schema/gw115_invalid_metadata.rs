declare_rule! {
    code: GW115,
    name: "invalid-metadata",
    severity: Error,
    summary: "metadata.name, namespace, labels or annotations are invalid",
    explanation: "The API server checks object names (RFC 1123), that labels and annotations are \
        maps of strings, and label syntax.",
    example: Manifest {
        failing: include_str!("gw115_invalid_metadata/failing.yaml"),
        fixed: include_str!("gw115_invalid_metadata/fixed.yaml"),
    },
}
