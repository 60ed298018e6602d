declare_rule! {
    code: GW119,
    name: "invalid-header-name",
    severity: Error,
    summary: "A string is not a valid HTTP header name",
    explanation: "Header names are RFC 7230 tokens: letters, digits and !#$%&'*+-.^_`|~ (HTTP/2 \
        pseudo-headers such as :authority are accepted where a header is matched). Spaces, colons \
        and other separators are not allowed.",
    example: Manifest {
        failing: include_str!("gw119_invalid_header_name/failing.yaml"),
        fixed: include_str!("gw119_invalid_header_name/fixed.yaml"),
    },
}
