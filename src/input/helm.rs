//! A Helm chart's sources in a listing of files: its templates are Go templates, not YAML, and
//! its values files are not objects, so linting them reports errors the user cannot act on. A
//! chart is a directory holding a `Chart.yaml`; its sources are what is below its `templates/`,
//! its `values*` files and the values files of its `ci/` (chart testing's). The rest is linted:
//! its `crds/` (plain manifests Helm applies as they are), and examples kept beside it. A subchart
//! below `charts/` is a chart of its own.

use std::collections::BTreeSet;
use std::path::Path;

use super::display_name;
use crate::diag::Diagnostic;
use crate::rules;

/// For each path of a listing, the finding that skips it when it is a chart's source.
pub(super) fn chart_sources(paths: &[&Path]) -> Vec<Option<Diagnostic>> {
    let roots: BTreeSet<&Path> = paths
        .iter()
        .filter(|p| p.file_name().is_some_and(|f| f == "Chart.yaml"))
        .filter_map(|p| p.parent())
        .collect();
    paths
        .iter()
        .map(|p| {
            let root = p.ancestors().skip(1).find(|a| roots.contains(a))?;
            let rel = p.strip_prefix(root).ok()?;
            let at_top = rel.components().count() == 1;
            let values_name = rel
                .file_name()
                .is_some_and(|f| f.to_string_lossy().starts_with("values"));
            let what = if rel.starts_with("templates") {
                "a template"
            } else if (at_top && values_name) || rel.starts_with("ci") {
                "a values file"
            } else {
                return None;
            };
            let (name, chart) = (display_name(p), display_name(root));
            Some(
                Diagnostic::new(
                    rules::GW008,
                    format!("{name}: skipped: {what} of the Helm chart in {chart}"),
                )
                .with_help("lint what the chart renders: `helm template CHART | gwctl lint -`"),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skipped(paths: &[&str]) -> Vec<&'static str> {
        let listed: Vec<&Path> = paths.iter().map(Path::new).collect();
        chart_sources(&listed)
            .iter()
            .map(|d| if d.is_some() { "skip" } else { "lint" })
            .collect()
    }

    #[test]
    fn a_charts_templates_and_values_are_skipped_and_its_other_files_linted() {
        assert_eq!(
            skipped(&[
                "deploy/chart/Chart.yaml",
                "deploy/chart/crds/gateway.yaml",
                "deploy/chart/templates/route.yaml",
                "deploy/chart/templates/nested/gateway.yaml",
                "deploy/chart/values.yaml",
                "deploy/chart/ci/prod-values.yaml",
                "deploy/chart/examples/gateway.yaml",
                "deploy/chart/charts/sub/Chart.yaml",
                "deploy/chart/charts/sub/crds/policy.yaml",
                "deploy/chart/charts/sub/templates/policy.yaml",
                "deploy/manifests/route.yaml",
                "deploy/chartless/templates/route.yaml",
            ]),
            [
                "lint", "lint", "skip", "skip", "skip", "skip", "lint", "lint", "lint", "skip",
                "lint", "lint"
            ]
        );
    }

    #[test]
    fn the_finding_names_the_file_and_its_chart() {
        let listed = [
            Path::new("./c/Chart.yaml"),
            Path::new("./c/templates/r.yaml"),
        ];
        let found = chart_sources(&listed);
        let d = found[1].as_ref().map(|d| (d.code, d.message.as_str()));
        assert_eq!(
            d,
            Some((
                rules::GW008,
                "c/templates/r.yaml: skipped: a template of the Helm chart in c"
            ))
        );
    }
}
