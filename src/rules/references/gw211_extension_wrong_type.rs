declare_rule! {
    code: GW211,
    name: "extension-wrong-type",
    severity: Error,
    summary: "An extensionRef names a GatewayExtension that does not provide that feature",
    explanation: "An extAuth, extProc, rateLimit or jwt extensionRef needs a GatewayExtension that \
        sets the same field; one that provides another feature is ignored for this one.",
    example: Manifest {
        failing: include_str!("gw211_extension_wrong_type/failing.yaml"),
        fixed: include_str!("gw211_extension_wrong_type/fixed.yaml"),
    },
}
