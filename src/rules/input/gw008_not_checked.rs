declare_rule! {
    code: GW008,
    name: "not-checked",
    severity: Info,
    summary: "A document gwctl does not check",
    explanation: "The object's kind is outside the API groups gwctl knows (or a tool file such as \
        kustomization.yaml), so it is not validated. Supply its CRD with `--crds` to check it. \
        A directory holding a Chart.yaml is a Helm chart: its templates and values files are not \
        manifests and are skipped (its `crds/` are linted); so are the files a kustomization \
        names as patches, replacements, generator inputs or chart values (a patch is a partial \
        object). A file that does not read as YAML and holds Go template actions (a Helm \
        template named outside its chart) is skipped with one note at its first action. Lint \
        what `helm template` or `kustomize build` renders to check the result.",
    example: Cli {
        failing: include_str!("gw008_not_checked/failing.sh"),
        fixed: include_str!("gw008_not_checked/fixed.sh"),
    },
}
