declare_rule! {
    code: GW405,
    name: "extauth-fail-open",
    severity: Warning,
    summary: "External authorization lets requests through when the service fails",
    explanation: "With `failOpen: true` on a GatewayExtension's extAuth, requests are allowed \
        without authorization while the authorization service is unavailable or erroring, so an \
        outage (or an attacker who can cause one) turns authentication off. Leave it unset \
        (requests are denied with statusOnError) and make the service highly available.",
    example: Manifest {
        failing: include_str!("gw405_extauth_fail_open/failing.yaml"),
        fixed: include_str!("gw405_extauth_fail_open/fixed.yaml"),
    },
}
