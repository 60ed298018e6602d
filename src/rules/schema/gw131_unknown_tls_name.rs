declare_rule! {
    code: GW131,
    name: "unknown-tls-name",
    severity: Error,
    summary: "A TLS cipher suite or curve name the proxy does not know",
    explanation: "A BackendConfigPolicy's `tls.parameters` name cipher suites (IANA names such \
        as `TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256`, or OpenSSL names such as \
        `ECDHE-RSA-AES128-GCM-SHA256`) and ECDH curves (`X25519`, `P-256` ...) for the proxy's \
        TLS library, BoringSSL. The controller passes them on unchecked: with validation level \
        standard the proxy rejects the cluster that names one it does not know, and with strict \
        (the proxy checks the configuration first) the policy is Invalid and its clusters are \
        programmed without endpoints.",
    example: Manifest {
        failing: include_str!("gw131_unknown_tls_name/failing.yaml"),
        fixed: include_str!("gw131_unknown_tls_name/fixed.yaml"),
    },
}
