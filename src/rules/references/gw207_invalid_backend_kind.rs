declare_rule! {
    code: GW207,
    name: "invalid-backend-kind",
    severity: Error,
    summary: "A backendRef names a kind that is not a backend",
    explanation: "Only Services, Backends and AiGatewayBackends (and a few opaque kinds such as \
        InferencePool) can be backends. A controller reports ResolvedRefs=False (InvalidKind). \
        A kind of another project's API group (a multi-cluster ServiceImport, another \
        implementation's Backend) is judged only on a route whose Gateway's GatewayClass, in the \
        inputs, names this API's controller: elsewhere it may be that implementation's backend.",
    example: Manifest {
        failing: include_str!("gw207_invalid_backend_kind/failing.yaml"),
        fixed: include_str!("gw207_invalid_backend_kind/fixed.yaml"),
    },
}
