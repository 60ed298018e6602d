declare_rule! {
    code: GW204,
    name: "no-matching-listener-hostname",
    severity: Error,
    summary: "No hostname of the route intersects the listener's hostname",
    explanation: "A route with hostnames attaches only to listeners whose hostname matches one of \
        them (a wildcard `*.example.com` matches names with more labels below it). A controller \
        reports Accepted=False (NoMatchingListenerHostname).",
    example: Manifest {
        failing: include_str!("gw204_no_matching_listener_hostname/failing.yaml"),
        fixed: include_str!("gw204_no_matching_listener_hostname/fixed.yaml"),
    },
}
