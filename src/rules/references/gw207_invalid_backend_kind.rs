declare_rule! {
    code: GW207,
    name: "invalid-backend-kind",
    severity: Error,
    summary: "A backendRef names a kind that is not a backend",
    explanation: "Only Services, Backends and AiGatewayBackends (and a few opaque kinds such as \
        InferencePool) can be backends. A controller reports ResolvedRefs=False (InvalidKind).",
    example: Manifest {
        failing: include_str!("gw207_invalid_backend_kind/failing.yaml"),
        fixed: include_str!("gw207_invalid_backend_kind/fixed.yaml"),
    },
}
