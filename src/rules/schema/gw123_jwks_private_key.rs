declare_rule! {
    code: GW123,
    name: "jwks-private-key",
    severity: Warning,
    summary: "An inline key set contains private or symmetric key material",
    explanation: "Tokens are verified with public keys; private members (d, p, q, dp, dq, qi) or a \
        symmetric `oct` key in a manifest expose the signing secret to everyone who can read it. \
        Publish only the public part, and rotate the exposed key.",
    example: Manifest {
        failing: include_str!("gw123_jwks_private_key/failing.yaml"),
        fixed: include_str!("gw123_jwks_private_key/fixed.yaml"),
    },
}
