declare_rule! {
    code: GW004,
    name: "not-an-object",
    severity: Error,
    summary: "A document is not a Kubernetes object",
    explanation: "Every document must be a mapping with `apiVersion` and `kind` strings; `kubectl \
        apply` rejects the file otherwise. Empty documents (a stray `---`) are ignored, and \
        several objects in one document are written as `kind: List` with `items`.",
    example: Manifest {
        failing: include_str!("gw004_not_an_object/failing.yaml"),
        fixed: include_str!("gw004_not_an_object/fixed.yaml"),
    },
}
