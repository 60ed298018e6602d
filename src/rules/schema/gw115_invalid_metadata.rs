declare_rule! {
    code: GW115,
    name: "invalid-metadata",
    severity: Error,
    summary: "metadata.name, namespace, labels or annotations are invalid",
    explanation: "The API server checks object names (RFC 1123: lower-case letters, digits, `-` \
        and `.`), that labels and annotations are maps of strings (quote `true` and numbers), and \
        the syntax of label keys and values; it rejects the object otherwise.",
    example: Manifest {
        failing: include_str!("gw115_invalid_metadata/failing.yaml"),
        fixed: include_str!("gw115_invalid_metadata/fixed.yaml"),
    },
}
