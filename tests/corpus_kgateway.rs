//! The reference's own validation fixtures and translator inputs, renamed to this API
//! (`kgateway-seed`), against the built-in gateway and AI group schemas:
//! - `api/tests/testdata/*_{valid,invalid}.yaml`: valid documents lint clean, each invalid document
//!   gets an error containing its `_err` text;
//! - `test/e2e/tests/api_validation_cases.yaml`: each case's `wantErrors`, or no error;
//! - with `--crds` and the reference CRDs, the unrenamed reference fixtures give the reference's
//!   own expectations.
//!
//! Documents that rely on something this API does not have (spec/decisions.md section 3) get that
//! error instead; they are listed in `EXCEPTIONS` with the reason and the error expected.

mod common;

use std::path::Path;

use common::{corpus, describe, errors, files_under, lint_text};
use gwctl::parse::{Limits, parse_file};
use gwctl::source::SourceFile;

/// (file or case, document name, fragment of the finding gwctl reports instead, why).
const EXCEPTIONS: &[(&str, &str, &str, &str)] = &[
    (
        "agentgateway_parameters_invalid.yaml",
        "shutdown-min-gt-max",
        "kind \"AgentgatewayParameters\" of API group \"agentgateway.dev\" is not checked",
        "AgentgatewayParameters is not a kind of this API (the spec has two AI kinds): a warning that it is not checked",
    ),
    (
        "agentgateway_parameters_valid.yaml",
        "shutdown-min-gt-max",
        "kind \"AgentgatewayParameters\" of API group \"agentgateway.dev\" is not checked",
        "AgentgatewayParameters is not a kind of this API (the spec has two AI kinds): a warning that it is not checked",
    ),
    (
        "agentgateway_policy_valid.yaml",
        "traffic-extauth",
        "unknown field \"spec.traffic.extAuth.grpc\"",
        "ExtAuth is {backendRef, forwardBody, contextExtensions} in ai-gateway-api.md; grpc/http are reference-only",
    ),
    (
        "agentgateway_policy_valid.yaml",
        "traffic-complex",
        "unknown field \"spec.traffic.extAuth.grpc\"",
        "ExtAuth is {backendRef, forwardBody, contextExtensions} in ai-gateway-api.md; grpc/http are reference-only",
    ),
];

fn exception(
    file: &str,
    name: &str,
) -> Option<&'static (&'static str, &'static str, &'static str, &'static str)> {
    EXCEPTIONS.iter().find(|e| e.0 == file && e.1 == name)
}

/// The documents of a multi-document file, as text.
fn documents(text: &str) -> Vec<String> {
    let mut docs = vec![String::new()];
    for line in text.lines() {
        if line.trim_end() == "---" {
            docs.push(String::new());
        } else if let Some(last) = docs.last_mut() {
            last.push_str(line);
            last.push('\n');
        }
    }
    docs.retain(|d| {
        d.lines()
            .any(|l| !l.trim().is_empty() && !l.starts_with('#'))
    });
    docs
}

/// A document's `_err` expectation (test metadata, not part of the object), its name, and the
/// document without the `_err` line.
fn split_expectation(doc: &str) -> (Option<String>, String, String) {
    let file = SourceFile::new(0, "doc.yaml", doc.to_string());
    let parsed = parse_file(&file, &Limits::default());
    let json = parsed
        .documents
        .first()
        .map(|d| d.root.to_json())
        .unwrap_or_default();
    let err = json
        .get("_err")
        .and_then(|v| v.as_str())
        .map(str::to_string);
    let name = json
        .pointer("/metadata/name")
        .and_then(|v| v.as_str())
        .unwrap_or("<unnamed>")
        .to_string();
    let stripped: String = doc
        .lines()
        .filter(|l| !l.starts_with("_err:"))
        .map(|l| format!("{l}\n"))
        .collect();
    (err, name, stripped)
}

/// Agreement of one document with its expectation; `Err` explains a disagreement.
fn check(label: &str, name: &str, text: &str, expected: &[String]) -> Result<(), String> {
    let run = lint_text(text);
    let errs = errors(&run);
    if let Some((_, _, fragment, _)) = exception(label, name) {
        return if describe(&run).iter().any(|e| e.contains(fragment)) {
            Ok(())
        } else {
            Err(format!(
                "{label} {name}: expected the listed exception {fragment:?}, got {errs:#?}"
            ))
        };
    }
    if expected.is_empty() {
        return if errs.is_empty() {
            Ok(())
        } else {
            Err(format!("{label} {name}: expected no error, got {errs:#?}"))
        };
    }
    let missing: Vec<&String> = expected
        .iter()
        .filter(|want| !errs.iter().any(|e| e.contains(want.as_str())))
        .collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{label} {name}: expected errors containing {missing:?}, got {:#?}",
            describe(&run)
        ))
    }
}

#[test]
fn seed_validation_fixtures() {
    let Some(corpus) = corpus("seed_validation_fixtures") else {
        return;
    };
    let dir = corpus.join("kgateway-seed/api/tests/testdata");
    let mut total = 0;
    let mut failures = Vec::new();
    for file in files_under(&dir, &["yaml"]) {
        let label = file_name(&file);
        let text = std::fs::read_to_string(&file).expect("readable corpus file");
        for doc in documents(&text) {
            let (err, name, stripped) = split_expectation(&doc);
            let expected: Vec<String> = if label.ends_with("_invalid.yaml") {
                vec![err.unwrap_or_else(|| panic!("{label} {name}: invalid fixture without _err"))]
            } else {
                Vec::new()
            };
            total += 1;
            if let Err(e) = check(&label, &name, &stripped, &expected) {
                failures.push(e);
            }
        }
    }
    println!("seed fixtures: {}/{total} agree", total - failures.len());
    assert_eq!(total, 42, "documents read");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn seed_api_validation_cases() {
    let Some(corpus) = corpus("seed_api_validation_cases") else {
        return;
    };
    let path = corpus.join("kgateway-seed/test/e2e/tests/api_validation_cases.yaml");
    let text = std::fs::read_to_string(&path).expect("readable corpus file");
    let file = SourceFile::new(0, path.display().to_string(), text);
    let parsed = parse_file(&file, &Limits::default());
    let cases = parsed.documents[0].root.to_json();
    let cases = cases["cases"].as_array().expect("a cases list");
    let mut failures = Vec::new();
    for case in cases {
        let name = case["name"].as_str().expect("case name");
        let manifest = case["manifest"].as_str().expect("case manifest");
        let expected: Vec<String> = case["wantErrors"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect();
        if let Err(e) = check("api_validation_cases.yaml", name, manifest, &expected) {
            failures.push(e);
        }
    }
    println!(
        "api validation cases: {}/{} agree",
        cases.len() - failures.len(),
        cases.len()
    );
    assert_eq!(cases.len(), 18);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// `--crds` with the reference CRDs reproduces the reference's own expectations verbatim on its
/// unrenamed fixtures: with the user's CRDs, gwctl checks what the reference API server checks.
#[test]
fn reference_crds_reproduce_reference_fixtures() {
    let Some(corpus) = corpus("reference_crds_reproduce_reference_fixtures") else {
        return;
    };
    let reference = corpus.join("kgateway");
    let (registry, found) = gwctl::schema::user_crds::load_crds(
        &[reference.join("crds")],
        &Limits::default(),
        &gwctl::schema::ApiGroups::default(),
    )
    .expect("CRDs load");
    assert!(found.diagnostics.is_empty(), "{:?}", found.diagnostics);
    assert_eq!(found.imported, 11, "the 11 reference CRDs");
    let options = gwctl::lint::LintOptions {
        registry: Some(std::sync::Arc::new(registry)),
        ..Default::default()
    };
    let mut total = 0;
    let mut failures = Vec::new();
    for file in files_under(&reference.join("api/tests/testdata"), &["yaml"]) {
        let label = file_name(&file);
        let text = std::fs::read_to_string(&file).expect("readable corpus file");
        for doc in documents(&text) {
            let (err, name, stripped) = split_expectation(&doc);
            total += 1;
            let run = gwctl::lint::lint_sources(
                vec![SourceFile::new(0, "test.yaml", stripped)],
                &options,
            );
            let errs = errors(&run);
            let ok = match (&err, label.ends_with("_invalid.yaml")) {
                // The test harness prints `Kind/name/namespace: ` before the API server's
                // message; gwctl names the object separately.
                (Some(want), true) => {
                    let want = strip_object_prefix(want);
                    errs.iter().any(|e| e.contains(want))
                }
                (_, false) => errs.is_empty(),
                (None, true) => false,
            };
            if !ok {
                failures.push(format!("{label} {name}: expected {err:?}, got {errs:#?}"));
            }
        }
    }
    println!(
        "reference fixtures with --crds: {}/{total} agree",
        total - failures.len()
    );
    assert_eq!(total, 42, "documents read");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `AgentgatewayParameters/name/: spec.x: Required value` -> `spec.x: Required value`.
fn strip_object_prefix(message: &str) -> &str {
    match message.split_once("/: ") {
        Some((object, rest)) if !object.contains(' ') && object.contains('/') => rest,
        _ => message,
    }
}
