declare_rule! {
    code: GW209,
    name: "ref-target-not-found",
    severity: Error,
    summary: "A referenced object is not in the inputs",
    explanation: "A certificateRef, secretRef, configMapRef, extensionRef, parametersRef or \
        ListenerSet parentRef names an object that is not in the inputs. The message suggests a \
        close name of the same kind in the same namespace. A gatewayClassName naming a class that \
        is not in the inputs (while others are) is only a note: the Gateway's data plane is then \
        unknown. An HTTPRoute filter's extensionRef of the gateway group can name only a \
        DirectResponse or a TrafficPolicy; another kind is reported whatever the inputs hold.",
    example: Manifest {
        failing: include_str!("gw209_ref_target_not_found/failing.yaml"),
        fixed: include_str!("gw209_ref_target_not_found/fixed.yaml"),
    },
}
