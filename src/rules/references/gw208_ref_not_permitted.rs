declare_rule! {
    code: GW208,
    name: "ref-not-permitted",
    severity: Error,
    summary: "A cross-namespace reference has no ReferenceGrant",
    explanation: "A reference to an object in another namespace is allowed only when a \
        ReferenceGrant in the target namespace permits it from the referring kind and namespace, \
        where the controller checks one (one table, per reference field, in \
        src/resolve/grants.rs): route backendRefs, listener certificateRefs and client CA \
        references, TrafficPolicy basicAuth `secretRef`, and a GatewayExtension's backendRef (a \
        policy that names such a GatewayExtension is not accepted either). Otherwise a controller \
        reports RefNotPermitted. A TrafficPolicy's `extensionRef` and an AiGatewayPolicy's \
        backendRefs need no grant (the controller checks none) and are not reported. The help \
        text gives the grant to add.",
    fix: "Unsafe: a ReferenceGrant in the target's namespace, from exactly the referring object's group, kind and namespace to the target's group and kind, is appended to the referring object's file (not to a JSON file).",
    example: Manifest {
        failing: include_str!("gw208_ref_not_permitted/failing.yaml"),
        fixed: include_str!("gw208_ref_not_permitted/fixed.yaml"),
    },
}
