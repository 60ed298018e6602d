//! The Gateway API corpus: valid examples and conformance manifests give no error; each invalid
//! example gets at least one. Skipped when the corpus is absent.

use std::path::{Path, PathBuf};

use crate::diag::Severity;
use crate::lint::{LintOptions, lint_sources};
use crate::source::SourceFile;

fn corpus() -> Option<PathBuf> {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let candidates = match std::env::var_os("GWCTL_CORPUS") {
        Some(p) => vec![PathBuf::from(p)],
        None => vec![
            crate_dir.join("../shared/corpus"),
            crate_dir.join("../../shared/corpus"),
        ],
    };
    let found = candidates
        .into_iter()
        .find(|p| p.join("gateway-api").is_dir());
    if found.is_none() {
        println!("skipped: corpus not found");
    }
    found
}

fn yaml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            yaml_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "yaml" || e == "yml") {
            out.push(p);
        }
    }
}

/// Lints every YAML file under `dir` (placeholders substituted); returns per-file rendered findings.
fn lint_dir(dir: &Path) -> Vec<(String, Vec<String>, usize)> {
    let mut paths = Vec::new();
    yaml_files(dir, &mut paths);
    let files: Vec<SourceFile> = paths
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let text = std::fs::read_to_string(p)
                .unwrap_or_default()
                .replace("{GATEWAY_CLASS_NAME}", "gateway-conformance")
                .replace(
                    "{GATEWAY_CONTROLLER_NAME}",
                    "example.com/gateway-controller",
                );
            SourceFile::new(i, p.display().to_string(), text)
        })
        .collect();
    let run = lint_sources(files, &LintOptions::default());
    println!(
        "{}: {} documents, {} resources, not checked {:?}",
        dir.display(),
        run.stats.documents,
        run.stats.resources,
        run.stats.not_checked
    );
    let mut out: Vec<(String, Vec<String>, usize)> = run
        .files
        .iter()
        .map(|f| (f.name.clone(), Vec::new(), 0))
        .collect();
    // Unrelated examples linted together refer to each other's names and reuse them: references
    // (GW2xx) are tested by tests/corpus_kgateway_routes.rs, and the same name in two examples
    // is no duplicate object (GW013); this test is about the schema.
    for d in run
        .diagnostics
        .iter()
        .filter(|d| !d.code.as_str().starts_with("GW2") && d.code != crate::rules::GW013)
    {
        let Some(loc) = &d.location else { continue };
        let f = &run.files[loc.file];
        let lc = f.line_col(loc.span.start);
        let entry = &mut out[loc.file];
        if d.severity == Severity::Error {
            entry.2 += 1;
        }
        entry.1.push(format!(
            "{}:{}:{} {} {:?} {}",
            f.name, lc.line, lc.column, d.code, d.severity, d.message
        ));
    }
    out
}

fn assert_no_errors(sub: &str) {
    let Some(c) = corpus() else { return };
    let results = lint_dir(&c.join(sub));
    assert!(!results.is_empty(), "no files under {sub}");
    let bad: Vec<String> = results
        .iter()
        .filter(|r| r.2 > 0)
        .flat_map(|r| r.1.clone())
        .collect();
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn valid_examples_have_no_errors() {
    assert_no_errors("gateway-api/examples");
}

#[test]
fn conformance_manifests_have_no_errors() {
    assert_no_errors("gateway-api/conformance");
}

#[test]
fn every_invalid_example_has_an_error() {
    let Some(c) = corpus() else { return };
    let results = lint_dir(&c.join("gateway-api/hack/invalid-examples"));
    for r in &results {
        println!("{}", r.1.join("\n"));
    }
    let clean: Vec<&str> = results
        .iter()
        .filter(|r| r.2 == 0)
        .map(|r| r.0.as_str())
        .collect();
    assert!(clean.is_empty(), "no error for {clean:?}");
}

#[test]
#[ignore]
fn print_corpus_findings() {
    let Some(c) = corpus() else { return };
    for sub in ["gateway-api/examples", "gateway-api/conformance"] {
        let results = lint_dir(&c.join(sub));
        let n: usize = results.iter().map(|r| r.1.len()).sum();
        println!("{sub}: {} files, {n} findings", results.len());
        for r in &results {
            for l in &r.1 {
                println!("{l}");
            }
        }
    }
}
