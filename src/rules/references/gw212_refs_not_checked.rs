declare_rule! {
    code: GW212,
    name: "refs-not-checked",
    severity: Info,
    summary: "References to a kind with no object in the inputs were not checked",
    explanation: "When the inputs hold no object of a referenced kind at all (for example no \
        Services), the references are assumed to point at objects created elsewhere and one note \
        is given per kind instead of one error per reference. The note is given only when the \
        inputs hold a Gateway (a whole configuration rather than a route or policy linted alone). \
        --strict-refs reports each reference as missing.",
    example: Manifest {
        failing: include_str!("gw212_refs_not_checked/failing.yaml"),
        fixed: include_str!("gw212_refs_not_checked/fixed.yaml"),
    },
}
