declare_rule! {
    code: GW006,
    name: "unknown-kind",
    severity: Error,
    summary: "A known API group has no such kind",
    explanation: "The apiVersion names an API group gwctl knows, but the kind does not exist in \
        it. When the kind is close to one of the group's kinds (another capitalisation, a letter \
        or two off) it is a typo the API server would reject: an error, with \"did you mean\"; \
        so is the reference implementation's name of a kind this API renamed \
        (`AgentgatewayBackend`), with this API's name. \
        One acronym put for another (`BackendLBPolicy` beside `BackendTLSPolicy`) names another \
        kind, not a typo. Any other kind may come from another release of the group: a warning \
        that the object is not checked (it is counted under `notChecked`); pass its \
        CustomResourceDefinition with `--crds` to check it. An apiVersion whose group gwctl does \
        not know, a few letters from a known group that has the kind (`gateway.kgateway.io` for \
        `gateway.kgateway.dev`), is a typo of the group: an error, with \"did you mean\". So is \
        the Gateway API's group before v0.4.0 (`networking.x-k8s.io`) for a kind the current \
        group has: no current release serves it.",
    fix: "Safe, for the reference implementation's name of a kind this API renamed: the kind is renamed to this API's.",
    example: Manifest {
        failing: include_str!("gw006_unknown_kind/failing.yaml"),
        fixed: include_str!("gw006_unknown_kind/fixed.yaml"),
    },
}
