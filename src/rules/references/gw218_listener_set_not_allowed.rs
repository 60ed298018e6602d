declare_rule! {
    code: GW218,
    name: "listener-set-not-allowed",
    severity: Error,
    summary: "A ListenerSet's Gateway does not take ListenerSets from its namespace",
    explanation: "A Gateway takes ListenerSets only from the namespaces its \
        `spec.allowedListeners.namespaces` allows: `from: Same` (its own), `All`, or `Selector` \
        (namespaces whose labels the selector matches). Without `allowedListeners` it takes none. \
        A ListenerSet the Gateway does not take is not accepted (NotAllowed): none of its \
        listeners is programmed, and the routes attached to them receive no traffic.",
    example: Manifest {
        failing: include_str!("gw218_listener_set_not_allowed/failing.yaml"),
        fixed: include_str!("gw218_listener_set_not_allowed/fixed.yaml"),
    },
}
