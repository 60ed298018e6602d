declare_rule! {
    code: GW205,
    name: "backend-not-found",
    severity: Error,
    summary: "A backendRef names a Service or backend that is not in the inputs",
    explanation: "Requests to this backend fail (HTTP 500); a controller reports \
        ResolvedRefs=False (BackendNotFound). When no object of the referenced kind is in the \
        inputs at all, one GW212 note is given instead, unless --strict-refs is set.",
    fix: "Unsafe: when exactly one object of the kind in the namespace is one edit away, the name is changed to it.",
    example: Manifest {
        failing: include_str!("gw205_backend_not_found/failing.yaml"),
        fixed: include_str!("gw205_backend_not_found/fixed.yaml"),
    },
}
