declare_rule! {
    code: GW108,
    name: "collection-size",
    severity: Error,
    summary: "A list or map has too few or too many entries",
    explanation: "The field has a minimum or maximum number of items or properties.",
    example: Manifest {
        failing: include_str!("gw108_collection_size/failing.yaml"),
        fixed: include_str!("gw108_collection_size/fixed.yaml"),
    },
}
