declare_rule! {
    code: GW129,
    name: "byte-size-in-milli",
    severity: Warning,
    summary: "A size in bytes is written with the milli suffix",
    explanation: "A Kubernetes quantity's suffix `m` means milli (a thousandth), not mega: \
        `maxRequestSize: 100m` is a tenth of a byte, which the API server accepts: a limit of a \
        byte at most, so nearly every request with a body is refused. Mebibytes are `Mi`, \
        megabytes `M`.",
    example: Manifest {
        failing: include_str!("gw129_byte_size_in_milli/failing.yaml"),
        fixed: include_str!("gw129_byte_size_in_milli/fixed.yaml"),
    },
}
