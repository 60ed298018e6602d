declare_rule! {
    code: GW122,
    name: "invalid-jwks",
    severity: Error,
    summary: "An inline JSON Web Key Set is malformed",
    explanation: "The value must be JSON with a `keys` array of keys, each with `kty` and the \
        members its type needs (RSA: n, e; EC: crv, x, y; OKP: crv, x; oct: k). A malformed set \
        fails every token verification.",
    example: Manifest {
        failing: include_str!("gw122_invalid_jwks/failing.yaml"),
        fixed: include_str!("gw122_invalid_jwks/fixed.yaml"),
    },
}
