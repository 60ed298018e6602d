declare_rule! {
    code: GW121,
    name: "invalid-quantity",
    severity: Error,
    summary: "A string is not a Kubernetes quantity",
    explanation: "Quantity fields take a number with an optional suffix: binary (Ki, Mi, Gi, Ti, \
        Pi, Ei), decimal (m, k, M, G, T, P, E) or an exponent (e3). Suffixes are case-sensitive: \
        `1Mi`, not `1MI` or `1MB`.",
    example: Crd {
        failing: include_str!("gw121_invalid_quantity/failing.yaml"),
        fixed: include_str!("gw121_invalid_quantity/fixed.yaml"),
    },
}
