declare_rule! {
    code: GW124,
    name: "invalid-htpasswd",
    severity: Error,
    summary: "An htpasswd line is malformed or its hash scheme is unknown",
    explanation: "Each line is `<user>:<hash>` with a hash in a known scheme ({SHA}, $apr1$, \
        bcrypt $2a$/$2b$/$2y$, $5$/$6$ crypt, DES crypt). A value in no known scheme is usually a \
        plain-text password, which never matches. Checked in a policy's inline users and in the \
        `.htpasswd` key of a Secret (`stringData`, or `data` decoded), the key basicAuth.secretRef \
        reads by default; a `\\n` written in a plain or single-quoted YAML scalar is a backslash \
        and an n, not a line break.",
    example: Manifest {
        failing: include_str!("gw124_invalid_htpasswd/failing.yaml"),
        fixed: include_str!("gw124_invalid_htpasswd/fixed.yaml"),
    },
}
