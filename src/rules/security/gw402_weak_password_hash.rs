declare_rule! {
    code: GW402,
    name: "weak-password-hash",
    severity: Warning,
    summary: "An inline basic-auth user has a password hash that is fast to brute-force",
    explanation: "Everyone who can read the policy can guess these passwords offline. The proxy \
        data plane (TrafficPolicy basicAuth) accepts only `{SHA}`, unsalted SHA-1: there the \
        finding asks to move the htpasswd file to a Secret (secretRef) or to use JWT or external \
        authentication. The AI data plane (AiGatewayPolicy basicAuthentication) accepts bcrypt: \
        MD5 (`$apr1$`, `$1$`), `{SHA}` and DES crypt should be replaced with `$2y$` (`htpasswd \
        -B`). Plain-text passwords are GW124 (an error).",
    example: Manifest {
        failing: include_str!("gw402_weak_password_hash/failing.yaml"),
        fixed: include_str!("gw402_weak_password_hash/fixed.yaml"),
    },
}
