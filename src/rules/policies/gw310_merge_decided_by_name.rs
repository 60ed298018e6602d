declare_rule! {
    code: GW310,
    name: "merge-decided-by-name",
    severity: Warning,
    summary: "Two policies at one level set the same field and only name order decides",
    explanation: "Within one precedence level the policy with the higher \
        `kgateway.dev/policy-weight` wins, then the older creationTimestamp, then `namespace/name` \
        in alphabetical order. The manifests carry neither weight nor creation time that tells the \
        two apart, so gwctl picks by name; in a cluster the policy created first wins, which \
        depends on apply order. Set the weight annotation on the policy that should win, or set \
        the field in one policy only.",
    example: Manifest {
        failing: include_str!("gw310_merge_decided_by_name/failing.yaml"),
        fixed: include_str!("gw310_merge_decided_by_name/fixed.yaml"),
    },
}
