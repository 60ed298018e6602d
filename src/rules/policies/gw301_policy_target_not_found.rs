declare_rule! {
    code: GW301,
    name: "policy-target-not-found",
    severity: Error,
    summary: "A policy's targetRef names an object that is not in the inputs",
    explanation: "The policy does not attach through this targetRef, and no status says so: a \
        controller writes policy status only on the targets it found. targetRefs name objects in \
        the policy's own namespace (any namespace when the policy is in the configured \
        globalPolicyNamespace). The message suggests a close name of the same kind in that \
        namespace.",
    fix: "Unsafe: when exactly one object of the kind in the policy's namespace is one edit away, the name is changed to it.",
    example: Manifest {
        failing: include_str!("gw301_policy_target_not_found/failing.yaml"),
        fixed: include_str!("gw301_policy_target_not_found/fixed.yaml"),
    },
}
