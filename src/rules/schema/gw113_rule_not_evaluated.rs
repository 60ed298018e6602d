declare_rule! {
    code: GW113,
    name: "rule-not-evaluated",
    severity: Warning,
    summary: "A validation rule could not be evaluated",
    explanation: "gwctl could not evaluate a CEL rule of the schema on this value, so the check \
        was skipped. This is a gwctl limitation; the API server may still reject the object. A \
        rule of a --crds CRD that exceeds --max-cel-length or --max-cel-depth is not compiled: it \
        is reported once at its place in the CRD file, and on each object it would have checked. \
        A rule whose cost the API server estimates, from the schema's maxItems, maxProperties \
        and maxLength (an unbounded list, map or string is as large as a request allows), \
        above its limit of 10,000,000 is never evaluated: the API server would reject the CRD. \
        A rule with nested loops whose cost on the value could exceed the API server's limit for \
        one evaluation (1,000,000) is not evaluated either.",
    example: Crd {
        failing: include_str!("gw113_rule_not_evaluated/failing.yaml"),
        fixed: include_str!("gw113_rule_not_evaluated/fixed.yaml"),
    },
}
