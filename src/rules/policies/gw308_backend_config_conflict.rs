declare_rule! {
    code: GW308,
    name: "backend-config-conflict",
    severity: Warning,
    summary: "Two BackendConfigPolicies on one Service or Backend set the same field",
    explanation: "Policies on the same target merge per top-level field: the first-ranked policy \
        supplies the whole field and the other's value is dropped, with no status on the field. \
        Ranking: higher `kgateway.dev/policy-weight` annotation first, then the older \
        creationTimestamp (a manifest without one ranks after every one that has it), then \
        `namespace/name`. The finding is on the field that is not applied (not when both values \
        are equal), names the policy that wins and why; when only the name decided, the real order \
        depends on creation times the manifests do not fix. Set the field in one policy, or set \
        the weight annotation to make the order explicit.",
    example: Manifest {
        failing: include_str!("gw308_backend_config_conflict/failing.yaml"),
        fixed: include_str!("gw308_backend_config_conflict/fixed.yaml"),
    },
}
