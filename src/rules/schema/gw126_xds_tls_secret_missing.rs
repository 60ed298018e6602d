declare_rule! {
    code: GW126,
    name: "xds-tls-secret-missing",
    severity: Warning,
    summary: "xDS TLS is enabled but its Secret is not in the inputs",
    explanation: "With controller.xds.tls.enabled both xDS servers use TLS and need a TLS Secret \
        with the data keys tls.crt, tls.key and ca.crt in the installation namespace. Without it \
        the control plane cannot serve configuration to the proxies. Add the Secret to the linted \
        inputs (or ignore the finding when it is created elsewhere).",
    example: Values {
        failing: include_str!("gw126_xds_tls_secret_missing/failing.yaml"),
        fixed: include_str!("gw126_xds_tls_secret_missing/fixed.yaml"),
    },
}
