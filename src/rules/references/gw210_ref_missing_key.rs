declare_rule! {
    code: GW210,
    name: "ref-missing-key",
    severity: Error,
    summary: "A referenced Secret or ConfigMap lacks a key the field needs",
    explanation: "The field reads specific keys: `tls.crt` and `tls.key` for certificates, \
        `.htaccess` for AI basic authentication, `.htpasswd` (or `key`) for basicAuth, `accessKey` \
        and `secretKey` for cloud credentials, `jwks` for a local JWKS ConfigMap.",
    example: Manifest {
        failing: include_str!("gw210_ref_missing_key/failing.yaml"),
        fixed: include_str!("gw210_ref_missing_key/fixed.yaml"),
    },
}
