declare_rule! {
    code: GW108,
    name: "collection-size",
    severity: Error,
    summary: "A list or map has too few or too many entries",
    explanation: "The API server rejects a list or map with fewer items or properties than the \
        field's minimum or more than its maximum (the message gives the limit), for example a \
        Gateway with more than 64 listeners.",
    example: Manifest {
        failing: include_str!("gw108_collection_size/failing.yaml"),
        fixed: include_str!("gw108_collection_size/fixed.yaml"),
    },
}
