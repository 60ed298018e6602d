declare_rule! {
    code: GW403,
    name: "secret-in-configmap",
    severity: Warning,
    summary: "A ConfigMap holds what looks like a password, token or key",
    explanation: "ConfigMaps are readable by many more principals than Secrets, are not encrypted \
        at rest by the usual configuration, and end up in logs and support bundles. The key is \
        named like a credential (api-key, apiKey, token, password, secret, ...) or the value looks \
        like one (a PEM private key, an `sk-` key, a JSON Web Token, a long hex or base64 string). \
        Move it to a Secret and rotate it if the manifest was shared. The value is never printed.",
    example: Manifest {
        failing: include_str!("gw403_secret_in_configmap/failing.yaml"),
        fixed: include_str!("gw403_secret_in_configmap/fixed.yaml"),
    },
}
