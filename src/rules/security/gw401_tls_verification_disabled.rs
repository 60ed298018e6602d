declare_rule! {
    code: GW401,
    name: "tls-verification-disabled",
    severity: Warning,
    summary: "TLS to a backend does not verify its certificate",
    explanation: "`insecureSkipVerify` (true, `All` or `Hostname`) turns off the check that the \
        backend is who it claims to be, so anyone on the network path can impersonate it and read \
        or change the traffic, credentials included. Configure the backend's CA (and SNI or \
        subject alt names) instead.",
    example: Manifest {
        failing: include_str!("gw401_tls_verification_disabled/failing.yaml"),
        fixed: include_str!("gw401_tls_verification_disabled/fixed.yaml"),
    },
}
