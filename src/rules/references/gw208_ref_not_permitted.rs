declare_rule! {
    code: GW208,
    name: "ref-not-permitted",
    severity: Error,
    summary: "A cross-namespace reference has no ReferenceGrant",
    explanation: "A reference to an object in another namespace (backendRef, certificateRef, \
        secretRef...) is allowed only when a ReferenceGrant in the target namespace permits it \
        from the referring kind and namespace. Otherwise a controller reports RefNotPermitted. The \
        help text gives the grant to add.",
    example: Manifest {
        failing: include_str!("gw208_ref_not_permitted/failing.yaml"),
        fixed: include_str!("gw208_ref_not_permitted/fixed.yaml"),
    },
}
