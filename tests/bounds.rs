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
    let b = valid_route_named("b");
    let dir = dir_with(&[("a.yaml", VALID_ROUTE.as_bytes()), ("b.yaml", b.as_bytes())]);
    assert!(VALID_ROUTE.len() < 300 && VALID_ROUTE.len() + b.len() > 300);
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

/// Two data-plane expressions: 39 bytes; and nesting 4 (three selections, then `==`).
const CEL_POLICY: &str = r#"apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata:
  name: web
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: web
  rbac:
    policy:
      matchExpressions:
      - "request.headers['x-team'] == 'payments'"
      - "request.a.b.c.d == 'x'"
"#;

#[test]
fn cel_expression_limits_are_flags() {
    let dir = dir_with(&[
        ("p.yaml", CEL_POLICY.as_bytes()),
        ("u.yaml", UNKNOWN_FIELD.as_bytes()),
    ]);
    let limited = [
        "lint",
        "--format",
        "short",
        "--max-cel-length",
        "30",
        "--max-cel-depth",
        "3",
        ".",
    ];
    let out = stdout_of(gwctl().current_dir(dir.path()).args(limited), 1);
    let unknown_field = unknown_field_finding(dir.path());
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            "p.yaml:13:10: error[GW116] spec.rbac.policy.matchExpressions[0]: CEL expression is 39 bytes long, more than --max-cel-length (30)",
            // At the fourth `.`: the nesting passes 3 there.
            "p.yaml:14:23: error[GW116] spec.rbac.policy.matchExpressions[1]: CEL expression nests deeper than --max-cel-depth (3)",
            unknown_field.as_str(),
        ]
    );
    let json = json_of(
        gwctl().current_dir(dir.path()).args(
            limited
                .iter()
                .map(|a| if *a == "short" { "json" } else { a }),
        ),
        1,
    );
    let helps: Vec<_> = json["findings"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|d| d["code"] == "GW116")
        .map(|d| d["help"].as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(
        helps,
        [
            "raise the limit with --max-cel-length if the expression is meant",
            "raise the limit with --max-cel-depth if the expression is meant",
        ]
    );
    // Raised (and at the defaults), both expressions are checked and accepted.
    let raised = [
        "lint",
        "--format",
        "short",
        "--max-cel-length",
        "39",
        "--max-cel-depth",
        "4",
        ".",
    ];
    let out = stdout_of(gwctl().current_dir(dir.path()).args(raised), 1);
    assert_eq!(out.lines().collect::<Vec<_>>(), [unknown_field.as_str()]);
    let out = stdout_of(
        gwctl()
            .current_dir(dir.path())
            .args(["lint", "--format", "short", "."]),
        1,
    );
    assert_eq!(out.lines().collect::<Vec<_>>(), [unknown_field.as_str()]);
}

/// The finding of `u.yaml` (UNKNOWN_FIELD) alone, to check it is unchanged beside the others.
fn unknown_field_finding(dir: &std::path::Path) -> String {
    let out = stdout_of(
        gwctl()
            .current_dir(dir)
            .args(["lint", "--format", "short", "u.yaml"]),
        1,
    );
    assert_eq!(out.lines().count(), 1, "{out}");
    out.trim_end().to_string()
}

const WIDGET_CRD: &str = r#"apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-validations:
            - rule: "self.size + 1 + 1 <= 12"
              message: size too big
            properties:
              size: {type: integer}
"#;

const WIDGET: &str = "apiVersion: example.com/v1
kind: Widget
metadata: {name: w, namespace: default}
spec:
  size: 11
";

#[test]
fn crd_rule_limits_are_flags() {
    let dir = dir_with(&[
        ("crd.yaml", WIDGET_CRD.as_bytes()),
        ("widget.yaml", WIDGET.as_bytes()),
        ("u.yaml", UNKNOWN_FIELD.as_bytes()),
    ]);
    let unknown_field = unknown_field_finding(dir.path());
    let lint = |extra: &[&str]| {
        let mut args = vec!["lint", "--format", "short", "--crds", "crd.yaml"];
        args.extend_from_slice(extra);
        args.extend(["widget.yaml", "u.yaml"]);
        stdout_of(gwctl().current_dir(dir.path()).args(&args), 1)
    };
    // The rule nests 3 deep (a selection, then two `+` and a `<=` on the chain: the `<=` passes 2).
    let out = lint(&["--max-cel-depth", "2"]);
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            "widget.yaml:4:1: warning[GW113] spec: rule not evaluated (1:19: CEL expression nests deeper than --max-cel-depth (2)); it checks: size too big",
            unknown_field.as_str(),
            "crd.yaml:20:40: warning[GW113] rule not compiled: CEL expression nests deeper than --max-cel-depth (2)",
        ]
    );
    let out = lint(&["--max-cel-length", "10"]);
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            "widget.yaml:4:1: warning[GW113] spec: rule not evaluated (1:1: CEL expression is 23 bytes long, more than --max-cel-length (10)); it checks: size too big",
            unknown_field.as_str(),
            "crd.yaml:20:22: warning[GW113] rule not compiled: CEL expression is 23 bytes long, more than --max-cel-length (10)",
        ]
    );
    // Within the limits the rule runs, and rejects the object.
    let expected = [
        r#"widget.yaml:4:1: error[GW112] spec: Invalid value: "object": size too big"#,
        unknown_field.as_str(),
    ];
    for extra in [&[][..], &["--max-cel-depth", "3", "--max-cel-length", "23"]] {
        assert_eq!(lint(extra).lines().collect::<Vec<_>>(), expected);
    }
}

#[test]
fn very_deep_cel_expressions_are_findings_not_stack_overflows() {
    // The field allows 16 KiB: 4,000 operators, and 4,000 brackets.
    let chain = format!("request.size == {}1", "1 + ".repeat(4_000));
    let bracketed = format!("{}1{}", "(".repeat(4_000), ")".repeat(4_000));
    let policy = CEL_POLICY
        .replace("request.headers['x-team'] == 'payments'", &chain)
        .replace("request.a.b.c.d == 'x'", &bracketed);
    // A rule has no length bound but --max-cel-length: 50,000 operators, far beyond what the
    // parser survives on a worker thread's stack (about 4,300 in a release build).
    let rule = format!("self.size + {}1 <= 12", "1 + ".repeat(50_000));
    let crd = WIDGET_CRD.replace("self.size + 1 + 1 <= 12", &rule);
    let dir = dir_with(&[
        ("p.yaml", policy.as_bytes()),
        ("crd.yaml", crd.as_bytes()),
        ("widget.yaml", WIDGET.as_bytes()),
    ]);
    let out = stdout_of(
        gwctl().current_dir(dir.path()).args([
            "lint",
            "--format",
            "short",
            "--max-cel-length",
            "1000000",
            "--crds",
            "crd.yaml",
            "p.yaml",
            "widget.yaml",
        ]),
        1,
    );
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            // `==` then each `+` nest one deeper, so the 64th `+` passes 64: column 10 + 16 + 63 * 4 + 2.
            "p.yaml:13:280: error[GW116] spec.rbac.policy.matchExpressions[0]: CEL expression nests deeper than --max-cel-depth (64)",
            // The 65th bracket.
            "p.yaml:14:74: error[GW116] spec.rbac.policy.matchExpressions[1]: CEL expression nests deeper than --max-cel-depth (64)",
            "widget.yaml:4:1: warning[GW113] spec: rule not evaluated (1:267: CEL expression nests deeper than --max-cel-depth (64)); it checks: size too big",
            "crd.yaml:20:288: warning[GW113] rule not compiled: CEL expression nests deeper than --max-cel-depth (64)",
        ]
    );
}
