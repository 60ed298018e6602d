//! Limits with flags: a clear finding naming the file and the flag, and the flag to raise it.

use std::io::Write;
use std::process::{Command, Stdio};

#[allow(dead_code)] // each test file uses a part of the helpers
#[path = "cli/support.rs"]
mod support;

use support::*;

#[test]
fn files_beyond_max_total_bytes_are_skipped_with_a_finding() {
    // Read in order: a.yaml (its bytes fit), then b.yaml, which would go beyond 300 bytes.
    let dir = dir_with(&[
        ("a.yaml", VALID_ROUTE.as_bytes()),
        ("b.yaml", VALID_ROUTE.as_bytes()),
    ]);
    assert!(VALID_ROUTE.len() < 300 && 2 * VALID_ROUTE.len() > 300);
    let out = stdout_of(
        gwctl().current_dir(dir.path()).args([
            "lint",
            "--format",
            "short",
            "--max-total-bytes",
            "300",
            ".",
        ]),
        1,
    );
    assert!(
        out.contains(
            "error[GW005] b.yaml: skipped: the inputs exceed --max-total-bytes (300 bytes)"
        ),
        "{out}"
    );
    assert!(!out.contains("a.yaml"), "{out}");
    let json = json_of(
        gwctl().current_dir(dir.path()).args([
            "lint",
            "--format",
            "json",
            "--max-total-bytes",
            "300",
            ".",
        ]),
        1,
    );
    assert_eq!(json["summary"]["files"], 1);
    // Raised, both files are linted.
    stdout_of(
        gwctl()
            .current_dir(dir.path())
            .args(["lint", "--max-total-bytes", "1000", "."]),
        0,
    );
}

#[test]
fn stdin_beyond_max_total_bytes_is_skipped() {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin!("gwctl"))
        .args(["lint", "--format", "short", "--max-total-bytes", "50", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn");
    if let Some(mut stdin) = child.stdin.take() {
        // The reader stops after 51 bytes; the rest may meet a closed pipe.
        let _ = stdin.write_all(VALID_ROUTE.as_bytes());
    }
    let out = child.wait_with_output().expect("wait");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains(
            "error[GW005] <stdin>: skipped: the inputs exceed --max-total-bytes (50 bytes)"
        ),
        "{stdout}"
    );
}

const BIG_REGEX: &str = r#"apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata:
  name: web
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: web
  urlRewrite:
    pathRegex:
      pattern: "^/v1/[a-z]{100}$"
      substitution: /v2/
"#;

#[test]
fn regex_size_limit_is_a_flag() {
    let dir = dir_with(&[("p.yaml", BIG_REGEX.as_bytes())]);
    let out = stdout_of(
        gwctl().current_dir(dir.path()).args([
            "lint",
            "--format",
            "short",
            "--max-regex-size",
            "1000",
            ".",
        ]),
        1,
    );
    assert!(out.contains("p.yaml:12:16: error[GW118]"), "{out}");
    assert!(
        out.contains("exceeds the size limit of 1000 bytes"),
        "{out}"
    );
    stdout_of(gwctl().current_dir(dir.path()).args(["lint", "."]), 0);
}
