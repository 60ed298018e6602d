declare_rule! {
    code: GW409,
    name: "https-without-tls",
    severity: Warning,
    summary: "A listener of protocol HTTPS has no tls",
    explanation: "A Gateway (or ListenerSet) listener of protocol HTTPS needs `tls` with the \
        certificate it presents. The API server accepts one without (its rules require `tls` \
        for protocol TLS only) and the controller programs it with no certificate: it \
        terminates no TLS, so clients speaking HTTPS to it fail their handshake. Add \
        `tls.certificateRefs` naming the certificate's Secret, or use protocol HTTP.",
    example: Manifest {
        failing: include_str!("gw409_https_without_tls/failing.yaml"),
        fixed: include_str!("gw409_https_without_tls/fixed.yaml"),
    },
}
