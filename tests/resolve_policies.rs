//! Policy attachment on hand-written sets (`testdata/resolve/`): every GW3xx finding with its
//! code, severity, position and related positions.

mod common;

use std::path::Path;

use gwctl::lint::{LintOptions, LintRun, lint_paths};

fn run(file: &str) -> LintRun {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/resolve")
        .join(file);
    lint_paths(&[path], &LintOptions::default()).expect("lint runs")
}

/// `line:col severity code [-> related line:col]...` for each GW301-GW309 finding (the merge
/// stage's GW31x, which these fixtures also give, are asserted by the merge tests).
fn findings(run: &LintRun) -> Vec<String> {
    run.diagnostics
        .iter()
        .filter(|d| d.code.starts_with("GW30"))
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

fn messages(run: &LintRun, code: &str) -> Vec<String> {
    run.diagnostics
        .iter()
        .filter(|d| d.code == code)
        .map(|d| d.message.clone())
        .collect()
}

#[test]
fn policy_attachment() {
    let run = run("policies.yaml");
    assert_eq!(findings(&run), EXPECTED, "{:#?}", common::describe(&run));
}

#[test]
fn a_missing_gateway_class_is_one_note_per_gateway_and_no_data_plane_finding() {
    let run = run("no-class.yaml");
    // Two policies of different families reach the Gateway: one note, at its gatewayClassName,
    // related to the Gateway's name; neither policy is said to have no effect.
    assert_eq!(
        findings(&run),
        ["8:21 info GW306 -> 6:9"],
        "{:#?}",
        common::describe(&run)
    );
}

#[test]
fn data_plane_messages_name_the_gateway_that_decides() {
    let run = run("policies.yaml");
    assert_eq!(
        messages(&run, "GW305"),
        [
            "AiGatewayPolicy configures the AI data plane but its target uses the proxy-based data plane (HTTPRoute default/checkout is served by Gateway default/public): the policy has no effect there",
            "TrafficPolicy configures the proxy-based data plane but its target uses the AI data plane (Gateway default/llm): the policy has no effect there",
        ]
    );
    assert_eq!(
        messages(&run, "GW307"),
        [
            "Backend default/hello is a cloud function backend, which the AI data plane of Gateway default/llm does not support"
        ]
    );
}

#[test]
fn conflicts_name_the_winner_and_why_it_wins() {
    let run = run("policies.yaml");
    assert_eq!(
        messages(&run, "GW308"),
        [
            "connectTimeout on Service default/checkout is not applied: BackendConfigPolicy default/heavy also sets it and ranks first because its kgateway.dev/policy-weight 10 is higher than 1",
            "connectTimeout on Service default/billing is not applied: BackendConfigPolicy default/z-older also sets it and ranks first because it is older (2024-01-01T00:00:00Z before 2025-06-01T00:00:00Z)",
            "perConnectionBufferLimitBytes on Service default/billing is not applied: BackendConfigPolicy default/m-undated also sets it and ranks first because of name order only; the controller orders by creation time, which the manifests do not fix",
        ]
    );
}

/// GW301 typo (related: the route with the close name) and the GW304 it causes; GW302 sectionName
/// (related: the route); GW303 selector; GW304 without targets; GW305 AiGatewayPolicy on a
/// proxy route (related: the Gateway, the route) and TrafficPolicy on the AI Gateway (its
/// targetRef to the Gateway of an absent class gives nothing: GW209 covers that class); GW307
/// cloud Backend behind the AI Gateway (related: the Backend, the Gateway); GW308 by weight, by
/// age and by name (related: the winning field, the Service); GW309 backend.ai on an MCP backend.
const EXPECTED: &[&str] = &[
    "73:7 error GW307 -> 89:9 -> 32:9",
    "102:9 error GW304",
    "105:5 error GW301 -> 54:9",
    "115:9 error GW304",
    "118:5 error GW302 -> 54:9",
    "129:9 error GW304",
    "132:5 warning GW303",
    "142:9 error GW304",
    "154:5 warning GW305 -> 19:9 -> 54:9",
    "170:5 warning GW305 -> 32:9",
    "191:3 warning GW308 -> 205:3 -> 80:9",
    "227:3 warning GW308 -> 239:3 -> 212:9",
    "261:3 warning GW308 -> 250:3 -> 212:9",
    "287:5 warning GW309 -> 267:9",
];
