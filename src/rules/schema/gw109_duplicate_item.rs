declare_rule! {
    code: GW109,
    name: "duplicate-item",
    severity: Error,
    summary: "A list has the same item or key twice",
    explanation: "The list is a set (items unique) or a map keyed by the named fields; the API \
        server rejects duplicates.",
    example: Manifest {
        failing: include_str!("gw109_duplicate_item/failing.yaml"),
        fixed: include_str!("gw109_duplicate_item/fixed.yaml"),
    },
}
