//! `gwctl diff` end to end on the pairs of manifest sets of `testdata/diff/`: a typo fixed in a
//! targetRef, a policy weight that flips a winner, a reordered file and a route moved to another
//! file (both no change at all); the exit codes; snapshots of the markdown comment.

use std::process::Command;

use assert_cmd::cargo::CommandCargoExt;
use serde_json::{Value, json};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/diff");

fn gwctl_diff(args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("gwctl")
        .map(|mut c| {
            c.arg("diff")
                .args(args)
                .current_dir(DIR)
                .env_remove("NO_COLOR")
                .output()
        })
        .unwrap_or_else(|e| panic!("gwctl binary: {e}"))
        .unwrap_or_else(|e| panic!("gwctl ran: {e}"));
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The JSON diff of a case's `base` and `head`.
fn json_of(case: &str) -> Value {
    let (code, stdout, stderr) = gwctl_diff(&[
        &format!("{case}/base"),
        &format!("{case}/head"),
        "-o",
        "json",
    ]);
    assert_eq!((code, stderr.as_str()), (0, ""), "{case}");
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{case}: {e}\n{stdout}"))
}

fn codes(findings: &Value) -> Vec<&str> {
    findings
        .as_array()
        .map(|a| a.iter().filter_map(|f| f["code"].as_str()).collect())
        .unwrap_or_default()
}

/// The Routes diffs of a Gateway, when the head renders Routes at all: the Envoy renderer fills
/// them in (a diff of synthetic resources is tested in the library's unit tests).
fn route_diffs(d: &Value, gateway: &str) -> Vec<String> {
    d["rendered"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|g| g["gateway"] == gateway)
        .flat_map(|g| g["changes"].as_array().into_iter().flatten())
        .filter(|r| r["section"] == "Routes")
        .filter_map(|r| r["diff"].as_str().map(str::to_string))
        .collect()
}

#[test]
fn typo_fix_in_a_target_ref_fixes_findings_and_makes_the_policy_effective() {
    let d = json_of("typo-fix");
    assert_eq!(codes(&d["findings"]["introduced"]), Vec::<&str>::new());
    assert_eq!(codes(&d["findings"]["fixed"]), vec!["GW301"]);
    assert_eq!(d["findings"]["unchanged"], 0);
    assert_eq!(d["changesEffect"], true);
    let targets: Vec<&str> = d["effective"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| p["target"].as_str())
        .collect();
    assert_eq!(
        targets,
        vec!["HTTPRoute/shop/checkout", "HTTPRoute/shop/checkout:pay"]
    );
    assert_eq!(
        d["effective"][1]["changes"],
        json!([{
            "family": "TrafficPolicy",
            "via": "Gateway/shop/public:http",
            "field": "cors",
            "before": null,
            "after": {
                "value": {"allowOrigins": ["https://shop.example"]},
                "sources": ["TrafficPolicy shop/checkout-cors @route"]
            }
        }])
    );
    let diffs = route_diffs(&d, "Gateway/shop/public");
    assert!(
        diffs.iter().any(|diff| diff
            .lines()
            .any(|l| l.starts_with('+') && l.contains("cors"))),
        "the rendered route gains the cors filter: {diffs:?}"
    );
}

#[test]
fn a_weight_change_flips_the_winner() {
    let d = json_of("weight-flip");
    assert_eq!(d["findings"]["introduced"], json!([]));
    assert_eq!(d["findings"]["fixed"], json!([]));
    assert_eq!(d["effective"][1]["target"], "HTTPRoute/shop/checkout:pay");
    assert_eq!(
        d["effective"][1]["changes"],
        json!([{
            "family": "TrafficPolicy",
            "via": "Gateway/shop/public:http",
            "field": "timeouts",
            "before": {"value": {"request": "5s"}, "sources": ["TrafficPolicy shop/checkout-fast @route"]},
            "after": {"value": {"request": "60s"}, "sources": ["TrafficPolicy shop/checkout-slow @route"]}
        }])
    );
    assert_eq!(d["effective"].as_array().map(Vec::len), Some(2));
}

#[test]
fn a_reordered_file_and_a_moved_route_are_no_change() {
    for case in ["reordered", "moved"] {
        let d = json_of(case);
        assert_eq!(d["changesEffect"], false, "{case}");
        assert_eq!(d["findings"]["introduced"], json!([]), "{case}");
        assert_eq!(d["findings"]["fixed"], json!([]), "{case}");
        assert_eq!(d["findings"]["unchanged"], 2, "{case}");
        assert_eq!(d["effective"], json!([]), "{case}");
        assert_eq!(d["rendered"], json!([]), "{case}");
        let (code, stdout, _) = gwctl_diff(&[
            &format!("{case}/base"),
            &format!("{case}/head"),
            "--exit-code",
        ]);
        assert_eq!(code, 0, "{case}");
        assert_eq!(
            stdout,
            "Findings: 0 introduced, 0 fixed, 2 unchanged\n\nEffective policy: no change\n\n\
             Rendered configuration: no change\n",
            "{case}"
        );
    }
}

#[test]
fn exit_codes() {
    // A change in effect: 0 without --exit-code, 1 with it.
    assert_eq!(gwctl_diff(&["typo-fix/base", "typo-fix/head"]).0, 0);
    assert_eq!(
        gwctl_diff(&["typo-fix/base", "typo-fix/head", "--exit-code"]).0,
        1
    );
    // Errors introduced (the fix reverted) fail --fail-on error; none are introduced by the fix.
    assert_eq!(
        gwctl_diff(&["typo-fix/head", "typo-fix/base", "--fail-on", "error"]).0,
        1
    );
    assert_eq!(
        gwctl_diff(&["typo-fix/base", "typo-fix/head", "--fail-on", "warning"]).0,
        0
    );
    // Usage errors.
    let (code, _, stderr) = gwctl_diff(&["typo-fix/base"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("diff takes BASE HEAD"), "{stderr}");
    let (code, _, stderr) = gwctl_diff(&[
        "typo-fix/base",
        "typo-fix/head",
        "--gateway",
        "shop/private",
    ]);
    assert_eq!(
        (code, stderr.as_str()),
        (2, "gwctl: error: no Gateway shop/private in BASE or HEAD\n")
    );
    let (code, _, stderr) = gwctl_diff(&["typo-fix/base", "no-such-dir"]);
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        "gwctl: error: no-such-dir: no such file or directory\n"
    );
}

#[test]
fn sets_of_paths_with_base_and_head() {
    // The moved case's files given one by one: the same (empty) diff as the directories.
    let (code, stdout, stderr) = gwctl_diff(&[
        "--base",
        "moved/base/gateway.yaml",
        "--base",
        "moved/base/backends.yaml",
        "--head",
        "moved/head/backends.yaml",
        "--head",
        "moved/head/routes.yaml",
        "--head",
        "moved/head/gateway.yaml",
        "-o",
        "json",
    ]);
    assert_eq!((code, stderr.as_str()), (0, ""));
    let d: Value = serde_json::from_str(&stdout).unwrap_or_default();
    assert_eq!(d["changesEffect"], false);
    // Leaving the route out of HEAD is a change: its policies reach nothing.
    let (_, stdout, _) = gwctl_diff(&[
        "--base",
        "moved/base",
        "--head",
        "moved/head/gateway.yaml",
        "--head",
        "moved/head/backends.yaml",
        "-o",
        "json",
    ]);
    let d: Value = serde_json::from_str(&stdout).unwrap_or_default();
    assert_eq!(d["changesEffect"], true);
    assert_eq!(d["effective"][0]["target"], "HTTPRoute/shop/checkout");
    assert_eq!(d["effective"][0]["changes"][0]["after"], Value::Null);
}

#[test]
fn human_output_is_coloured_on_request() {
    let (_, stdout, _) = gwctl_diff(&["weight-flip/base", "weight-flip/head", "--color", "always"]);
    assert!(
        stdout.contains(
            "\x1b[31m- {\"request\":\"5s\"}  from TrafficPolicy shop/checkout-fast @route\x1b[0m"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "\x1b[32m+ {\"request\":\"60s\"}  from TrafficPolicy shop/checkout-slow @route\x1b[0m"
        ),
        "{stdout}"
    );
}

#[test]
fn markdown_typo_fix() {
    let (code, stdout, _) = gwctl_diff(&["typo-fix/base", "typo-fix/head", "-o", "markdown"]);
    assert_eq!(code, 0);
    insta::assert_snapshot!(stdout);
}

#[test]
fn markdown_weight_flip_reversed_introduces_nothing_and_flips_back() {
    let (code, stdout, _) = gwctl_diff(&["weight-flip/head", "weight-flip/base", "-o", "markdown"]);
    assert_eq!(code, 0);
    insta::assert_snapshot!(stdout);
}

#[test]
fn markdown_introduced_findings_in_full() {
    let (code, stdout, _) = gwctl_diff(&["typo-fix/head", "typo-fix/base", "-o", "markdown"]);
    assert_eq!(code, 0);
    insta::assert_snapshot!(stdout);
}

#[test]
fn markdown_no_change() {
    let (_, stdout, _) = gwctl_diff(&["moved/base", "moved/head", "-o", "markdown"]);
    assert_eq!(
        stdout,
        "## gwctl diff\n\n**No change in effect.** Findings: 0 introduced, 0 fixed, 2 unchanged.\n\n"
    );
}

#[test]
fn markdown_is_capped_with_a_count_of_what_was_left_out() {
    let (_, stdout, _) = gwctl_diff(&[
        "typo-fix/head",
        "typo-fix/base",
        "-o",
        "markdown",
        "--max-chars",
        "1000",
    ]);
    assert!(stdout.len() <= 1000, "{} chars:\n{stdout}", stdout.len());
    insta::assert_snapshot!(stdout);
}

#[test]
fn an_unreadable_side_is_named_even_when_the_config_ignores_gw001() {
    // The usage error comes from what the load stage could not read, not from the findings
    // that suppression may have moved away.
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("temp dir: {e}"));
    let config = dir.path().join("gwctl.yaml");
    std::fs::write(&config, "ignore:\n- code: GW001\n")
        .unwrap_or_else(|e| panic!("write config: {e}"));
    let config = config.to_string_lossy().into_owned();
    let (code, _, stderr) = gwctl_diff(&["--config", &config, "typo-fix/base", "no-such-dir"]);
    assert_eq!(
        (code, stderr.as_str()),
        (2, "gwctl: error: no-such-dir: no such file or directory\n")
    );
}

#[test]
fn a_pool_of_one_thread_diffs_the_ai_data_plane_without_hanging() {
    // On one core (or RAYON_NUM_THREADS=1) the AI data plane's shared resources were handed on
    // by the pool's only worker waiting for a renderer that needed that worker: diff never
    // ended. Run with a deadline, so that a hang fails the test instead of the suite.
    let ai = concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/render-ai");
    let mut child = Command::cargo_bin("gwctl")
        .map(|mut c| {
            c.args(["diff", ai, ai, "-o", "json"])
                .env("RAYON_NUM_THREADS", "1")
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::null())
                .spawn()
        })
        .unwrap_or_else(|e| panic!("gwctl binary: {e}"))
        .unwrap_or_else(|e| panic!("gwctl ran: {e}"));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if std::time::Instant::now() < deadline => {
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
            Ok(None) => {
                let _ = child.kill();
                panic!("gwctl diff with one thread did not end in 120 s");
            }
            Err(e) => panic!("wait for gwctl: {e}"),
        }
    };
    let mut stdout = String::new();
    if let Some(mut out) = child.stdout.take() {
        std::io::Read::read_to_string(&mut out, &mut stdout)
            .unwrap_or_else(|e| panic!("read gwctl's output: {e}"));
    }
    assert_eq!(status.code(), Some(0), "{stdout}");
    let d: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}\n{stdout}"));
    assert_eq!(d["changesEffect"], json!(false));
}
