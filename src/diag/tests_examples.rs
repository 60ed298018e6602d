//! Every rule has examples, and they do what they say: the failing one has the rule's finding,
//! the fixed one has not. `Cli` examples are checked in tests/cli_rules.rs.

use std::sync::Arc;

use super::{ExampleKind, RULES, example, examples};
use crate::config::{Config, parse_config};
use crate::lint::{LintOptions, lint_sources};
use crate::parse::{Limits, parse_file};
use crate::schema::Registry;
use crate::source::SourceFile;

#[test]
fn every_rule_has_examples() {
    for r in RULES {
        let e = example(r.code).unwrap_or_else(|| panic!("{} has no row in EXAMPLES", r.code));
        assert!(
            !e.bad.trim().is_empty() && !e.good.trim().is_empty(),
            "{}",
            r.code
        );
    }
    let all: Vec<_> = examples().collect();
    for e in &all {
        assert!(
            super::rule(e.code).is_some(),
            "example for unknown code {}",
            e.code
        );
    }
    for pair in all.windows(2) {
        assert!(
            pair[0].code < pair[1].code,
            "{} before {}",
            pair[0].code,
            pair[1].code
        );
    }
}

/// The codes found when linting `text` as one file (the way `gwctl lint` does, suppression
/// included).
fn codes(kind: ExampleKind, text: &str) -> Vec<&'static str> {
    let file = SourceFile::new(0, "example.yaml", text);
    match kind {
        ExampleKind::Config => match parse_config(&file) {
            Ok(_) => Vec::new(),
            Err(diags) => diags.iter().map(|d| d.code).collect(),
        },
        ExampleKind::Manifest | ExampleKind::Crd => {
            let mut options = LintOptions {
                config: Config::default(),
                ..LintOptions::default()
            };
            if kind == ExampleKind::Crd {
                let mut registry = Registry::default();
                for doc in parse_file(&file, &Limits::default()).documents {
                    let json = doc.root.to_json();
                    if crate::schema::import::is_crd(&json) {
                        registry.add_crd(&json).expect("example CRD imports");
                    }
                }
                options.registry = Some(Arc::new(registry));
            }
            lint_sources(vec![file], &options)
                .diagnostics
                .iter()
                .map(|d| d.code)
                .collect()
        }
        ExampleKind::Values => {
            let (values, manifests) = text.split_once("\n---\n").unwrap_or((text, ""));
            let files = vec![SourceFile::new(0, "manifests.yaml", manifests)];
            let values = SourceFile::new(1, "values.yaml", format!("{values}\n"));
            crate::lint::lint_sources_with_values(files, Some(values), &LintOptions::default())
                .diagnostics
                .iter()
                .map(|d| d.code)
                .collect()
        }
        ExampleKind::Cli => Vec::new(),
    }
}

#[test]
fn failing_examples_fail_and_fixed_examples_pass() {
    let mut problems = Vec::new();
    for e in examples().filter(|e| e.kind != ExampleKind::Cli) {
        let bad = codes(e.kind, e.bad);
        if !bad.contains(&e.code) {
            problems.push(format!("{}: failing example gives {bad:?}", e.code));
        }
        let good = codes(e.kind, e.good);
        if good.contains(&e.code) {
            problems.push(format!("{}: fixed example gives {good:?}", e.code));
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}
