declare_rule! {
    code: GW312,
    name: "disable-cancels-nothing",
    severity: Warning,
    summary: "A `disable` turns off a feature no other policy configures there",
    explanation: "`disable: {}` turns a feature off at its level and every less specific or \
        lower-ranked level. No policy that ranks below this one sets the field on any place where \
        this policy applies, so the disable does nothing: a leftover, or a policy attached to the \
        wrong target. Not reported when a route the policy targets names a parent that is not in \
        the inputs: a policy on that Gateway may set the field.",
    example: Manifest {
        failing: include_str!("gw312_disable_cancels_nothing/failing.yaml"),
        fixed: include_str!("gw312_disable_cancels_nothing/fixed.yaml"),
    },
}
