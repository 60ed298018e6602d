//! Helpers shared by the integration tests: where the corpus is, and compact views of findings.
#![allow(dead_code)]

pub mod cli;
pub mod kgateway;

use std::path::{Path, PathBuf};

use gwctl::diag::{Diagnostic, Severity};
use gwctl::lint::{LintOptions, LintRun, lint_sources};
use gwctl::source::SourceFile;

/// The shared corpus (`$GWCTL_CORPUS`, else `../shared/corpus` beside the crate). `None` when it is
/// absent, after saying the test is skipped; under CI a missing corpus fails the test instead.
pub fn corpus(test: &str) -> Option<PathBuf> {
    let dir = std::env::var_os("GWCTL_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"));
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(
        std::env::var("CI").map(|v| v != "true").unwrap_or(true),
        "{test}: corpus not found at {} (CI requires it)",
        dir.display()
    );
    eprintln!("{test}: skipped: corpus not found at {}", dir.display());
    None
}

/// Every file below `dir` with one of the extensions, sorted.
pub fn files_under(dir: &Path, exts: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p
                .extension()
                .and_then(|x| x.to_str())
                .is_some_and(|x| exts.contains(&x))
            {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Lints in-memory documents: one source per (name, text).
pub fn lint_texts(texts: &[(&str, &str)]) -> LintRun {
    let files = texts
        .iter()
        .enumerate()
        .map(|(i, (n, t))| SourceFile::new(i, *n, *t))
        .collect();
    lint_sources(files, &LintOptions::default())
}

pub fn lint_text(text: &str) -> LintRun {
    lint_texts(&[("test.yaml", text)])
}

/// `file:line:col code message` for each finding: what a reviewer reads in an assertion failure.
pub fn describe(run: &LintRun) -> Vec<String> {
    run.diagnostics
        .iter()
        .map(|d| describe_one(run, d))
        .collect()
}

pub fn describe_one(run: &LintRun, d: &Diagnostic) -> String {
    match &d.location {
        Some(loc) => {
            let f = &run.files[loc.file];
            let lc = f.line_col(loc.span.start);
            format!(
                "{}:{}:{} {} {}",
                f.name, lc.line, lc.column, d.code, d.message
            )
        }
        None => format!("- {} {}", d.code, d.message),
    }
}

pub fn errors(run: &LintRun) -> Vec<String> {
    run.diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| describe_one(run, d))
        .collect()
}

/// Errors other than the resolve stage's (GW2xx references, GW3xx policy attachment): for
/// corpora of unrelated examples linted together, where references between them mean nothing.
pub fn errors_without_references(run: &LintRun) -> Vec<String> {
    run.diagnostics
        .iter()
        .filter(|d| {
            // Unrelated examples reuse names: not the same object twice (GW013).
            d.severity == Severity::Error
                && !d.code.as_str().starts_with("GW2")
                && !d.code.as_str().starts_with("GW3")
                && d.code != gwctl::rules::GW013
        })
        .map(|d| describe_one(run, d))
        .collect()
}

/// `line:col severity code [-> related line:col]...` for each finding whose code starts with
/// `prefix`, in report order.
pub fn positioned(run: &LintRun, prefix: &str) -> Vec<String> {
    run.diagnostics
        .iter()
        .filter(|d| d.code.as_str().starts_with(prefix))
        .map(|d| {
            let at = |loc: &gwctl::diag::Location| {
                let lc = run.files[loc.file].line_col(loc.span.start);
                format!("{}:{}", lc.line, lc.column)
            };
            let mut s = format!(
                "{} {} {}",
                d.location.as_ref().map(at).unwrap_or_default(),
                d.severity.as_str(),
                d.code
            );
            for r in &d.related {
                s.push_str(&format!(" -> {}", at(&r.location)));
            }
            s
        })
        .collect()
}

/// `text` with each distinct secret digest numbered in order of first appearance (`<secret #1>`):
/// the digests' key is drawn per run, so a snapshot pins which secrets are equal, not the digests.
pub fn stable_digests(text: &str) -> String {
    let prefix = gwctl::render::SECRET_PREFIX;
    let mut seen: Vec<&str> = Vec::new();
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find(prefix) {
        out.push_str(&rest[..start]);
        let tail = &rest[start..];
        let end = tail.find('>').map_or(tail.len(), |e| e + 1);
        let digest = &tail[..end];
        let n = match seen.iter().position(|d| *d == digest) {
            Some(i) => i + 1,
            None => {
                seen.push(digest);
                seen.len()
            }
        };
        out.push_str(&format!("<secret #{n}>"));
        rest = &tail[end..];
    }
    out.push_str(rest);
    out
}
