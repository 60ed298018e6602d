declare_rule! {
    code: GW202,
    name: "no-matching-listener",
    severity: Error,
    summary: "A route's parentRef sectionName or port matches no listener",
    explanation: "The Gateway (or ListenerSet) exists but has no listener with the parentRef's \
        sectionName and port, so a controller reports Accepted=False (NoMatchingParent). Fix the \
        sectionName or port, or add the listener. Error when no parentRef of the route is \
        accepted, else warning.",
    fix: "Unsafe: when exactly one listener name (or port) of the parent is one edit away from the sectionName (or port), it is changed to it.",
    example: Manifest {
        failing: include_str!("gw202_no_matching_listener/failing.yaml"),
        fixed: include_str!("gw202_no_matching_listener/fixed.yaml"),
    },
}
