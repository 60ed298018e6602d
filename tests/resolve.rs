//! The resolve stage on hand-written sets (`testdata/resolve/`): every GW2xx finding with its
//! code, severity, position and related position.

mod common;

use std::path::Path;

use gwctl::lint::{LintOptions, LintRun, lint_paths};

fn run(file: &str, strict_refs: bool) -> LintRun {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/resolve")
        .join(file);
    let options = LintOptions {
        strict_refs,
        ..LintOptions::default()
    };
    lint_paths(&[path], &options).expect("lint runs")
}

/// The GW2xx findings with positions (`common::positioned`).
fn findings(run: &LintRun) -> Vec<String> {
    common::positioned(run, "GW2")
}

#[test]
fn route_attachment() {
    let run = run("attachment.yaml", false);
    assert_eq!(
        findings(&run),
        EXPECTED_ATTACHMENT,
        "{:#?}",
        common::describe(&run)
    );
}

#[test]
fn references() {
    let run = run("references.yaml", false);
    assert_eq!(
        findings(&run),
        EXPECTED_REFERENCES,
        "{:#?}",
        common::describe(&run)
    );
}

#[test]
fn kinds_absent_from_the_inputs_are_one_note_unless_strict() {
    let lenient = run("no-services.yaml", false);
    assert_eq!(findings(&lenient), ["22:7 info GW212"]);
    let strict = run("no-services.yaml", true);
    assert_eq!(findings(&strict), ["22:7 error GW205", "24:7 error GW205"]);
}

#[test]
fn route_statuses_are_predicted_per_parent() {
    let run = run("attachment.yaml", false);
    let status = |name: &str| -> Vec<(bool, &str, bool, &str)> {
        run.route_statuses
            .iter()
            .filter(|s| s.route.name == name)
            .map(|s| {
                (
                    s.accepted.status,
                    s.accepted.reason,
                    s.resolved_refs.status,
                    s.resolved_refs.reason,
                )
            })
            .collect()
    };
    assert_eq!(
        status("no-listener"),
        [
            (false, "NoMatchingParent", true, "ResolvedRefs"),
            (true, "Accepted", true, "ResolvedRefs")
        ]
    );
    assert_eq!(
        status("not-selected"),
        [(false, "NotAllowedByListeners", false, "RefNotPermitted")]
    );
    assert_eq!(
        status("wrong-host"),
        [(false, "NoMatchingListenerHostname", true, "ResolvedRefs")]
    );
}

/// Parent typo (no parent accepted: error); sectionName typo beside an accepted parentRef
/// (warning, related: the Gateway's name); namespace not selected (related: the listener) and its
/// cross-namespace backendRef without a grant; hostname outside the listener's wildcard.
const EXPECTED_ATTACHMENT: &[&str] = &[
    "45:11 error GW201 -> 45:5",
    "59:18 warning GW202 -> 58:5 -> 19:9",
    "74:5 error GW203 -> 24:5",
    "79:7 error GW208",
    "90:5 error GW204 -> 24:5",
];
/// Certificate without tls.key (related: the Secret), cross-namespace certificate without a grant,
/// Service typo, Service port, Deployment as backend, missing filter extension, extensionRef to a
/// GatewayExtension of another type (related: the extension).
const EXPECTED_REFERENCES: &[&str] = &[
    "21:9 error GW210 -> 59:9",
    "22:9 error GW208",
    "34:7 error GW205",
    "37:13 error GW206 -> 36:7 -> 51:9",
    "38:7 error GW207",
    "44:9 error GW209",
    "85:7 error GW211 -> 90:9",
];
