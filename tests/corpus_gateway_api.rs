//! The Gateway API project's own manifests: valid examples and conformance manifests lint with no
//! error, and each invalid example trips the check it was written for.

mod common;

use common::{corpus, describe, errors_without_references, files_under, lint_texts};
use gwctl::lint::{LintOptions, lint_paths};
use gwctl::rules;

#[test]
fn examples_have_no_errors() {
    let Some(corpus) = corpus("examples_have_no_errors") else {
        return;
    };
    let dir = corpus.join("gateway-api/examples");
    let run = lint_paths(&[dir], &LintOptions::default()).expect("lint runs");
    // Unrelated examples linted together: their references to each other mean nothing.
    assert_eq!(errors_without_references(&run), Vec::<String>::new());
    assert!(!run.input_error());
    // The upstream folder holds 117 documents; all of them are objects gwctl knows.
    assert_eq!(run.stats.documents, 117, "documents read");
    assert_eq!(run.stats.resources, 117);
    assert!(
        run.stats.not_checked.is_empty(),
        "not checked: {:?}",
        run.stats.not_checked
    );
}

/// Upstream records no expectation per file; these are the checks each file was written to trip
/// (code, and a fragment of the API server's message).
const INVALID: &[(&str, rules::Code, &str)] = &[
    (
        "experimental/httproute/invalid-filter-externalauth-empty.yaml",
        rules::GW112,
        "filter.externalAuth must be specified for ExternalAuth filter.type",
    ),
    (
        "experimental/httproute/invalid-header-value.yaml",
        rules::GW105,
        "in body should match '^[!-~]+([\\t ]?[!-~]+)*$'",
    ),
    (
        "standard/gateway/hostname-tcp.yaml",
        rules::GW112,
        "hostname must not be specified for protocols ['TCP', 'UDP']",
    ),
    (
        "standard/gateway/invalid-addresses.yaml",
        rules::GW111,
        "spec.addresses[5].value: Invalid value: \"1.1.1\"",
    ),
    (
        "standard/gateway/invalid-listener-port.yaml",
        rules::GW107,
        "spec.listeners[0].port: Invalid value: 123456789: spec.listeners[0].port in body should be less than or equal to 65535",
    ),
    (
        "standard/gateway/tlsconfig-tcp.yaml",
        rules::GW112,
        "tls must not be specified for protocols ['HTTP', 'TCP', 'UDP']",
    ),
    (
        "standard/httproute/duplicate-header-match.yaml",
        rules::GW109,
        "spec.rules[0].matches[0].headers[1]: Duplicate value",
    ),
    (
        "standard/httproute/httproute-portless-backend.yaml",
        rules::GW112,
        "Must have port for Service reference",
    ),
    (
        "standard/httproute/invalid-backend-group.yaml",
        rules::GW105,
        "spec.rules[0].backendRefs[0].group: Invalid value: \"*\"",
    ),
    (
        "standard/httproute/invalid-filter-duplicate.yaml",
        rules::GW112,
        "RequestHeaderModifier filter cannot be repeated",
    ),
    (
        "standard/httproute/invalid-filter-empty.yaml",
        rules::GW112,
        "filter.requestHeaderModifier must be specified for RequestHeaderModifier filter.type",
    ),
    (
        "standard/httproute/invalid-header-name.yaml",
        rules::GW105,
        "spec.rules[0].matches[0].headers[0].name: Invalid value: \"magic/\"",
    ),
    (
        "standard/httproute/invalid-httpredirect-hostname.yaml",
        rules::GW105,
        "spec.rules[0].filters[0].requestRedirect.hostname: Invalid value: \"*.gateway.networking.k8s.io\"",
    ),
    (
        "standard/httproute/invalid-path-specialchars.yaml",
        rules::GW112,
        "must only contain valid characters",
    ),
    (
        "standard/httproute/invalid-request-redirect-with-backendref.yaml",
        rules::GW112,
        "RequestRedirect filter must not be used together with backendRefs",
    ),
    (
        "standard/referencegrant/missing-from.yaml",
        rules::GW102,
        "spec.from: Required value",
    ),
    (
        "standard/referencegrant/missing-to.yaml",
        rules::GW102,
        "spec.to: Required value",
    ),
    (
        "standard/tlsroute/no-hostname.yaml",
        rules::GW102,
        "spec.hostnames: Required value",
    ),
];

#[test]
fn each_invalid_example_trips_its_check() {
    let Some(corpus) = corpus("each_invalid_example_trips_its_check") else {
        return;
    };
    let dir = corpus.join("gateway-api/hack/invalid-examples");
    let files = files_under(&dir, &["yaml", "yml"]);
    let mut failures = Vec::new();
    for file in &files {
        let rel = file
            .strip_prefix(&dir)
            .expect("below dir")
            .to_string_lossy()
            .replace('\\', "/");
        let Some((_, code, fragment)) = INVALID.iter().find(|(name, _, _)| *name == rel) else {
            failures.push(format!("{rel}: no expectation written for this file"));
            continue;
        };
        let run =
            lint_paths(std::slice::from_ref(file), &LintOptions::default()).expect("lint runs");
        let hit = run.diagnostics.iter().any(|d| {
            d.code == *code
                && d.severity == gwctl::diag::Severity::Error
                && d.message.contains(fragment)
        });
        if !hit {
            failures.push(format!(
                "{rel}: expected {code} containing {fragment:?}, got {:#?}",
                describe(&run)
            ));
        }
    }
    assert_eq!(files.len(), INVALID.len(), "every expectation has its file");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn conformance_manifests_have_no_errors() {
    let Some(corpus) = corpus("conformance_manifests_have_no_errors") else {
        return;
    };
    let dir = corpus.join("gateway-api/conformance");
    let files = files_under(&dir, &["yaml", "yml"]);
    assert!(
        files.len() >= 80,
        "conformance files found: {}",
        files.len()
    );
    // The upstream harness substitutes these placeholders before applying the manifests.
    let texts: Vec<(String, String)> = files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f).expect("readable corpus file");
            let text = text
                .replace("{GATEWAY_CLASS_NAME}", "gwctl-conformance")
                .replace(
                    "{GATEWAY_CONTROLLER_NAME}",
                    "example.com/gateway-controller",
                );
            (
                f.strip_prefix(&dir)
                    .expect("below dir")
                    .display()
                    .to_string(),
                text,
            )
        })
        .collect();
    let borrowed: Vec<(&str, &str)> = texts
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect();
    let run = lint_texts(&borrowed);
    // Unrelated examples linted together: their references to each other mean nothing.
    assert_eq!(errors_without_references(&run), Vec::<String>::new());
    assert_eq!(
        run.stats.resources, 261,
        "every conformance document is an object"
    );
}
