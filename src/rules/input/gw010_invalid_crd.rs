declare_rule! {
    code: GW010,
    name: "invalid-crd",
    severity: Error,
    summary: "A CustomResourceDefinition given with --crds cannot be used",
    explanation: "The document is a CustomResourceDefinition but lacks what gwctl needs to check \
        objects against it (spec.group, spec.names.kind, spec.versions with names). Objects of its \
        kind are not checked with it; fix the CRD or leave it out.",
    example: Cli {
        failing: include_str!("gw010_invalid_crd/failing.sh"),
        fixed: include_str!("gw010_invalid_crd/fixed.sh"),
    },
}
