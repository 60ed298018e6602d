//! Every declared rule's examples, as data: the failing example has the rule's finding, the fixed
//! one has not (nor any other error), and the failing example's findings are an insta snapshot in the rule's folder
//! (`src/rules/<family>/<rule>/failing.snap`). Command-line examples (rules about paths, file
//! names and bytes) run the binary in the rule's `files/` folder.
//!
//! After an intended change of a finding, accept the snapshots with
//! `INSTA_UPDATE=always cargo test --test rule_examples` and review the diff.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use gwctl::config::{Config, parse_config};
use gwctl::diag::{Diagnostic, Severity};
use gwctl::lint::{LintOptions, lint_sources, lint_sources_with_values};
use gwctl::parse::{Limits, parse_file};
use gwctl::rules::{self, Code, ExampleKind, Rule};
use gwctl::schema::Registry;
use gwctl::source::SourceFile;

#[allow(dead_code)]
#[path = "cli/support.rs"]
mod support;

/// What one example gives: the codes found, whether any finding is an error, and the findings as
/// `file:line:col: severity[CODE] message` lines (the short format).
struct Outcome {
    codes: Vec<Code>,
    has_error: bool,
    lines: String,
    /// Codes of the findings that offer a fix.
    fixable: BTreeSet<Code>,
}

#[test]
fn failing_examples_fail_and_fixed_examples_pass() {
    let mut problems = Vec::new();
    let mut emitted = BTreeSet::new();
    for rule in rules::all() {
        let e = &rule.example;
        let failing = outcome(rule, e.kind, e.failing, "failing");
        if failing.codes.contains(&rule.code) {
            emitted.insert(rule.code);
        } else {
            problems.push(format!(
                "{}: the failing example gives no {0} finding:\n{}",
                rule.code, failing.lines
            ));
        }
        // A fix a finding offers is documented in its rule's declaration (`fix:`).
        if failing.fixable.contains(&rule.code) && rule.fix.is_none() {
            problems.push(format!(
                "{}: the failing example's finding offers a fix the rule does not declare",
                rule.code
            ));
        }
        let fixed = outcome(rule, e.kind, e.fixed, "fixed");
        if fixed.codes.contains(&rule.code) {
            problems.push(format!(
                "{}: the fixed example still gives it:\n{}",
                rule.code, fixed.lines
            ));
        } else if fixed.has_error {
            // A fixed example the API server (or gwctl) would still refuse fixes nothing.
            problems.push(format!(
                "{}: the fixed example has another error:\n{}",
                rule.code, fixed.lines
            ));
        }
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_path(rule_folder(rule));
        settings.set_prepend_module_to_snapshot(false);
        settings.set_omit_expression(true);
        settings.set_description(format!(
            "{} {}: the failing example's findings",
            rule.code, rule.name
        ));
        settings.bind(|| insta::assert_snapshot!("failing", failing.lines));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // Every declared rule is emitted by its own example: none is dead.
    let never: Vec<Code> = rules::all()
        .map(|r| r.code)
        .filter(|c| !emitted.contains(c))
        .collect();
    assert!(never.is_empty(), "never emitted: {never:?}");
}

#[test]
fn codes_are_unique_and_declared_in_their_family_folder() {
    let all: Vec<&Rule> = rules::all().collect();
    for pair in all.windows(2) {
        assert!(
            pair[0].code < pair[1].code,
            "{} is declared before {}: codes must be unique and in order",
            pair[0].code,
            pair[1].code
        );
    }
    for family in rules::FAMILIES {
        for rule in family.rules {
            let code = rule.code.as_str();
            assert!(
                code.len() == 5 && code.starts_with("GW") && code[2..].starts_with(family.digit),
                "{code} is in the {} family (GW{}xx)",
                family.name,
                family.digit
            );
            let folder = format!("src/rules/{}/{}_", family.name, code.to_ascii_lowercase());
            assert!(
                rule.declared_in.starts_with(&folder) && rule.declared_in.ends_with(".rs"),
                "{code} is declared in {}, not in {folder}<name>.rs",
                rule.declared_in
            );
            assert!(
                !rule.example.failing.trim().is_empty() && !rule.example.fixed.trim().is_empty(),
                "{code} has an empty example"
            );
        }
    }
}

/// `src/rules/<family>/<rule>/`: beside the declaration, named like it.
fn rule_folder(rule: &Rule) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rule.declared_in.trim_end_matches(".rs"))
}

fn outcome(rule: &Rule, kind: ExampleKind, text: &str, which: &str) -> Outcome {
    match kind {
        ExampleKind::Manifest | ExampleKind::Crd => {
            let file = SourceFile::new(0, "example.yaml", text);
            let mut options = LintOptions {
                config: Config::default(),
                ..LintOptions::default()
            };
            if kind == ExampleKind::Crd {
                options.registry = Some(Arc::new(registry_with_crds(&file)));
            }
            let run = lint_sources(vec![file], &options);
            from_diagnostics(&run.files, &run.diagnostics)
        }
        ExampleKind::Config => {
            let file = SourceFile::new(0, "gwctl.yaml", text);
            match parse_config(&file) {
                Ok(_) => from_diagnostics(&[], &[]),
                Err(diags) => from_diagnostics(&[file], &diags),
            }
        }
        ExampleKind::Values => {
            let (values, manifests) = text.split_once("\n---\n").unwrap_or((text, ""));
            let files = vec![SourceFile::new(0, "manifests.yaml", manifests)];
            let values = SourceFile::new(1, "values.yaml", format!("{values}\n"));
            let run = lint_sources_with_values(files, Some(values), &LintOptions::default());
            from_diagnostics(&run.files, &run.diagnostics)
        }
        ExampleKind::Cli => run_command(rule, text, which),
    }
}

fn registry_with_crds(file: &SourceFile) -> Registry {
    let mut registry = Registry::default();
    for doc in parse_file(file, &Limits::default()).documents {
        let json = doc.root.to_json();
        if gwctl::schema::import::is_crd(&json)
            && let Err(e) = registry.add_crd(&json)
        {
            panic!("{}: the example's CRD does not import: {e}", file.name);
        }
    }
    registry
}

fn from_diagnostics(files: &[SourceFile], diags: &[Diagnostic]) -> Outcome {
    let mut lines = String::new();
    for d in diags {
        let at = d.location.as_ref().and_then(|l| {
            let file = files.iter().find(|f| f.id == l.file)?;
            let lc = file.line_col(l.span.start);
            Some(format!("{}:{}:{}: ", file.name, lc.line, lc.column))
        });
        lines.push_str(&format!(
            "{}{}[{}] {}\n",
            at.unwrap_or_default(),
            d.severity.as_str(),
            d.code,
            d.message
        ));
    }
    Outcome {
        codes: diags.iter().map(|d| d.code).collect(),
        fixable: diags
            .iter()
            .filter(|d| d.fix.is_some())
            .map(|d| d.code)
            .collect(),
        has_error: diags.iter().any(|d| d.severity == Severity::Error),
        lines,
    }
}

/// Runs a `gwctl ...` example line (a `#` comment ends it) in the rule's `files/` folder, with
/// `--format short` after the subcommand.
fn run_command(rule: &Rule, text: &str, which: &str) -> Outcome {
    let command = text.lines().next().unwrap_or_default();
    let command = command.split('#').next().unwrap_or_default();
    let mut words = command.split_whitespace();
    assert_eq!(
        words.next(),
        Some("gwctl"),
        "{}: the {which} example is not a gwctl command: {text}",
        rule.code
    );
    let subcommand = words.next().unwrap_or_default();
    let out = support::gwctl()
        .current_dir(rule_folder(rule).join("files"))
        .arg(subcommand)
        .args(["--format", "short", "--color", "never"])
        .args(words)
        .output()
        .unwrap_or_else(|e| panic!("{}: gwctl does not run: {e}", rule.code));
    let lines = String::from_utf8_lossy(&out.stdout).into_owned();
    let codes = rules::all()
        .map(|r| r.code)
        .filter(|c| lines.contains(&format!("[{c}]")))
        .collect();
    let has_error = lines.lines().any(|l| l.contains(": error["));
    Outcome {
        codes,
        has_error,
        lines,
        // The short format does not show fixes.
        fixable: BTreeSet::new(),
    }
}
