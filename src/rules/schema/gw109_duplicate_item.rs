declare_rule! {
    code: GW109,
    name: "duplicate-item",
    severity: Error,
    summary: "A list has the same item or key twice",
    explanation: "The list is a set (items must be unique) or a map keyed by the named fields, and \
        the API server rejects a duplicate. In a keyed list two items with the same key usually \
        mean one was meant to be renamed or the two merged.",
    example: Manifest {
        failing: include_str!("gw109_duplicate_item/failing.yaml"),
        fixed: include_str!("gw109_duplicate_item/fixed.yaml"),
    },
}
