declare_rule! {
    code: GW110,
    name: "yaml11-boolean",
    severity: Warning,
    summary: "A plain scalar that Kubernetes reads as a boolean",
    explanation: "The API server parses YAML 1.1, where unquoted `yes`, `no`, `on`, `off`, `y` and \
        `n` are booleans, not strings. Quote the value if a string is meant; write `true` or \
        `false` if a boolean is meant.",
    fix: "Safe: where the schema wants a string, the value is quoted (`\"on\"`); where it wants a boolean, it is written `true` or `false`.",
    example: Manifest {
        failing: include_str!("gw110_yaml11_boolean/failing.yaml"),
        fixed: include_str!("gw110_yaml11_boolean/fixed.yaml"),
    },
}
