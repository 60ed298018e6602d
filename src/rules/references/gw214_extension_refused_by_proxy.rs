declare_rule! {
    code: GW214,
    name: "extension-refused-by-proxy",
    severity: Error,
    summary: "A policy uses a GatewayExtension with a setting the proxy refuses",
    explanation: "The controller copies a GatewayExtension's settings into the configuration of \
        every policy that uses it, without checking what only the proxy checks when it loads the \
        configuration: an extAuth `httpService.pathPrefix` must start with `/`. With validation \
        level standard the controller accepts the policy and the proxy rejects the update; with \
        strict it has the proxy check the configuration first, marks the policy Invalid in the \
        proxy's words and replaces the routes the policy reaches with a direct response 500. So \
        gwctl's predicted policy status stays Accepted with standard validation.",
    example: Manifest {
        failing: include_str!("gw214_extension_refused_by_proxy/failing.yaml"),
        fixed: include_str!("gw214_extension_refused_by_proxy/fixed.yaml"),
    },
}
