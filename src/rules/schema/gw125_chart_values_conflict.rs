declare_rule! {
    code: GW125,
    name: "chart-values-conflict",
    severity: Error,
    summary: "Installation values combine settings the control plane does not support",
    explanation: "Checked with `--values`: for example inferenceRouting.enabled without \
        aiGateway.enabled, deprecated in v2.1 and unsupported in v2.2.",
    example: Values {
        failing: include_str!("gw125_chart_values_conflict/failing.yaml"),
        fixed: include_str!("gw125_chart_values_conflict/fixed.yaml"),
    },
}
