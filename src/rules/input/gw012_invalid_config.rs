declare_rule! {
    code: GW012,
    name: "invalid-config",
    severity: Error,
    summary: "The config file has a value gwctl cannot use",
    explanation: "The config file (gwctl.yaml, .gwctl.yaml or --config) names an unknown rule code \
        or has an invalid glob. A bad config file is a usage error: gwctl prints its findings and \
        exits with code 2 without linting.",
    example: Config {
        failing: include_str!("gw012_invalid_config/failing.yaml"),
        fixed: include_str!("gw012_invalid_config/fixed.yaml"),
    },
}
