declare_rule! {
    code: GW314,
    name: "tls-files-refused",
    severity: Error,
    summary: "A BackendConfigPolicy gives its client certificate as files, which the controller refuses",
    explanation: "The controller builds a backend's TLS context from `tls.files` by reading \
        `tlsCertificate` and `tlsKey` as PEM data, not as the files they name, and checks the pair \
        before it programs anything: a path is no PEM data, so it refuses the policy (\"invalid \
        certificate and key pair: tls: failed to find any PEM data in certificate input\"; with \
        only one of the two, \"for if providing a client certificate, both certChain and \
        privateKey must be provided\") and the backends the policy targets get a cluster without \
        endpoints. `rootCA` alone, `simpleTLS` or `insecureSkipVerify` are not affected. Give \
        the client certificate in a Secret (`tls.secretRef`).",
    example: Manifest {
        failing: include_str!("gw314_tls_files_refused/failing.yaml"),
        fixed: include_str!("gw314_tls_files_refused/fixed.yaml"),
    },
}
