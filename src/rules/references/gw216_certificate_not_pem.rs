declare_rule! {
    code: GW216,
    name: "certificate-not-pem",
    severity: Error,
    summary: "A listener's certificate Secret holds no PEM data in tls.crt or tls.key",
    explanation: "The controller loads a listener's certificate as a PEM certificate chain \
        (`tls.crt`) and a PEM private key (`tls.key`). When either holds no PEM block \
        (`-----BEGIN ...-----` to `-----END ...-----`) it refuses the listener: its ResolvedRefs \
        condition is False (InvalidCertificateRef) and it is not programmed. A Secret's `data` \
        values are the base64 of the PEM text; `stringData` values are the PEM text itself.",
    example: Manifest {
        failing: include_str!("gw216_certificate_not_pem/failing.yaml"),
        fixed: include_str!("gw216_certificate_not_pem/fixed.yaml"),
    },
}
