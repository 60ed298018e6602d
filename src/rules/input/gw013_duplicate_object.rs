declare_rule! {
    code: GW013,
    name: "duplicate-object",
    severity: Error,
    summary: "The same object is defined twice",
    explanation: "Two documents (in one file or in two) define the same group, kind, namespace \
        and name. Applied together, the last one replaces the other, as `kubectl apply -f` of a \
        directory leaves it, so whatever the earlier one says is lost. gwctl does the same: the \
        resolve, merge and render stages use only the last definition in input order, and the \
        finding is on each earlier one, with the used one as related location. Remove one of the \
        definitions, or rename one if both are meant.",
    example: Manifest {
        failing: include_str!("gw013_duplicate_object/failing.yaml"),
        fixed: include_str!("gw013_duplicate_object/fixed.yaml"),
    },
}
