//! End-to-end tests of the `gwctl` binary: exit codes, input kinds, formats, colour, generated files.
//!
//! Tests named `needs_parser_*` / `needs_schema_*` check findings that the YAML parser or the schema
//! engine produce; the rest only need the loader and the report stage.

use std::path::Path;

use predicates::prelude::*;

#[path = "cli/support.rs"]
mod support;

use support::*;

// ---- exit codes -------------------------------------------------------------------------------

#[test]
fn valid_manifest_exits_0() {
    let dir = dir_with(&[("route.yaml", VALID_ROUTE.as_bytes())]);
    let out = stdout_of(gwctl().arg("lint").arg(dir.path()), 0);
    assert!(out.starts_with("1 file, "), "{out}");
    assert!(out.contains(": 0 errors, 0 warnings"), "{out}");
}

#[test]
fn limit_flags_are_accepted() {
    let dir = dir_with(&[("route.yaml", VALID_ROUTE.as_bytes())]);
    gwctl()
        .args(["lint", "--max-alias-nodes", "10", "--max-depth", "8"])
        .args(["--max-document-bytes", "4096", "--max-documents", "3"])
        .arg(dir.path())
        .assert()
        .code(0);
    gwctl()
        .args(["lint", "--max-depth", "-1"])
        .arg(dir.path())
        .assert()
        .code(2);
}

#[test]
fn needs_parser_limit_flags_reach_the_parser() {
    let two_docs = format!("{VALID_ROUTE}---\n{}", valid_route_named("web2"));
    let dir = dir_with(&[("two.yaml", two_docs.as_bytes())]);
    gwctl()
        .args(["lint", "--format", "short", "--max-documents", "1"])
        .arg(dir.path())
        .assert()
        .code(1)
        .stdout(predicate::str::contains("error[GW005]"));
    gwctl()
        .args(["lint", "--max-documents", "2"])
        .arg(dir.path())
        .assert()
        .code(0);
}

#[test]
fn error_finding_exits_1_in_every_format() {
    // Invalid UTF-8 is found by the loader (GW009, an error), so this needs no other stage.
    let dir = dir_with(&[("bad.yaml", b"kind: \xff\xfe\n")]);
    for format in ["human", "json", "short"] {
        gwctl()
            .args(["lint", "--format", format])
            .arg(dir.path())
            .assert()
            .code(1)
            .stdout(predicate::str::contains("GW009"));
    }
}

#[test]
fn missing_path_exits_2_and_still_lints_the_others() {
    let dir = dir_with(&[
        ("route.yaml", VALID_ROUTE.as_bytes()),
        ("bad.yaml", b"\xff"),
    ]);
    let missing = dir.path().join("missing.yaml");
    let json = json_of(
        gwctl()
            .args(["lint", "--format", "json"])
            .arg(&missing)
            .arg(dir.path()),
        2,
    );
    let codes: Vec<&str> = json["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter_map(|f| f["code"].as_str())
        .collect();
    assert!(codes.contains(&"GW001"), "{json}");
    assert!(
        codes.contains(&"GW009"),
        "the other inputs were not linted: {json}"
    );
    assert_eq!(json["summary"]["files"], 1, "{json}");
    for format in ["human", "short"] {
        gwctl()
            .args(["lint", "--format", format])
            .arg(&missing)
            .assert()
            .code(2)
            .stdout(predicate::str::contains(
                "missing.yaml: no such file or directory",
            ));
    }
}

#[test]
fn usage_errors_exit_2_on_stderr() {
    gwctl()
        .args(["lint", "--no-such-flag"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("--no-such-flag"));
    gwctl()
        .args(["lint", "--format", "xml", "."])
        .assert()
        .code(2);
    let dir = dir_with(&[("route.yaml", VALID_ROUTE.as_bytes())]);
    gwctl()
        .args(["lint", "--include", "[unclosed"])
        .arg(dir.path())
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("invalid glob"));
}

#[test]
fn fail_on_warning_ignores_infos() {
    // A kustomization file is skipped with an info (GW008): below both thresholds.
    let dir = dir_with(&[("kustomization.yaml", b"resources: []\n")]);
    for fail_on in ["error", "warning"] {
        gwctl()
            .args(["lint", "--format", "short", "--fail-on", fail_on])
            .arg(dir.path())
            .assert()
            .code(0)
            .stdout(predicate::str::contains("info[GW008]"));
    }
}

#[test]
fn needs_schema_fail_on_warning() {
    let dir = dir_with(&[("gw.yaml", YAML11_BOOLEAN.as_bytes())]);
    let out = stdout_of(
        gwctl()
            .args(["lint", "--format", "short"])
            .arg(dir.path().join("gw.yaml")),
        0,
    );
    assert!(out.contains("warning[GW110]"), "{out}");
    gwctl()
        .args(["lint", "--fail-on", "warning"])
        .arg(dir.path().join("gw.yaml"))
        .assert()
        .code(1);
}

// ---- inputs -----------------------------------------------------------------------------------

#[test]
fn stdin_is_read_with_dash() {
    gwctl()
        .args(["lint", "--format", "short", "-"])
        .write_stdin(&b"kind: \xff\n"[..])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("<stdin>: skipped: not UTF-8"));
    let json = json_of(
        gwctl()
            .args(["lint", "--format", "json", "-"])
            .write_stdin(VALID_ROUTE),
        0,
    );
    assert_eq!(json["summary"]["files"], 1, "{json}");
}

#[test]
fn needs_parser_stdin_document_is_linted() {
    let out = stdout_of(
        gwctl()
            .args(["lint", "--format", "short", "-"])
            .write_stdin(DUPLICATE_KEY),
        1,
    );
    assert!(out.contains("<stdin>:5:3: error[GW003]"), "{out}");
    let json = json_of(
        gwctl()
            .args(["lint", "--format", "json", "-"])
            .write_stdin(VALID_ROUTE),
        0,
    );
    assert_eq!(json["summary"]["documents"], 1, "{json}");
    assert_eq!(json["summary"]["resources"], 1, "{json}");
}

#[test]
fn directories_are_walked_with_filters() {
    let (b, d) = (valid_route_named("b"), valid_route_named("d"));
    let dir = dir_with(&[
        ("a.yaml", VALID_ROUTE.as_bytes()),
        ("sub/b.yml", b.as_bytes()),
        ("sub/c.json", JSON_ROUTE.as_bytes()),
        ("notes.txt", b"not yaml"),
        ("vendor/d.yaml", d.as_bytes()),
    ]);
    let files = |extra: &[&str]| {
        let json = json_of(
            gwctl()
                .args(["lint", "--format", "json"])
                .args(extra)
                .arg(dir.path()),
            0,
        );
        json["summary"]["files"].as_u64()
    };
    assert_eq!(files(&[]), Some(4));
    assert_eq!(files(&["--exclude", "vendor/**"]), Some(3));
    assert_eq!(
        files(&["--include", "**/*.yml", "--include", "a.yaml"]),
        Some(2)
    );
}

// ---- formats ----------------------------------------------------------------------------------

#[test]
fn json_has_the_documented_shape() {
    let dir = dir_with(&[("bad.yaml", b"\xff")]);
    let json = json_of(
        gwctl()
            .args(["lint", "--format", "json"])
            .arg(dir.path().join("bad.yaml")),
        1,
    );
    assert_eq!(json["version"], 1);
    let finding = &json["findings"][0];
    assert_eq!(finding["code"], "GW009");
    assert_eq!(finding["severity"], "error");
    assert!(
        finding["message"]
            .as_str()
            .is_some_and(|m| m.contains("bad.yaml"))
    );
    for key in [
        "file",
        "line",
        "column",
        "endLine",
        "endColumn",
        "resource",
        "path",
        "help",
    ] {
        assert!(finding[key].is_null(), "{key} should be null: {finding}");
    }
    assert_eq!(finding["related"], serde_json::json!([]));
    let summary = &json["summary"];
    for key in [
        "files",
        "documents",
        "resources",
        "warnings",
        "infos",
        "elapsedMs",
    ] {
        assert!(summary[key].is_u64(), "{key}: {summary}");
    }
    assert_eq!(summary["errors"], 1);
    assert!(summary["notChecked"].is_object());
}

#[test]
fn needs_schema_json_unknown_field_position() {
    let dir = dir_with(&[("route.yaml", UNKNOWN_FIELD.as_bytes())]);
    let json = json_of(
        gwctl()
            .args(["lint", "--format", "json"])
            .arg(dir.path().join("route.yaml")),
        1,
    );
    let finding = json["findings"]
        .as_array()
        .and_then(|fs| fs.iter().find(|f| f["code"] == "GW101"))
        .unwrap_or_else(|| panic!("no GW101: {json}"));
    assert_eq!(finding["message"], "unknown field \"spec.foo\"");
    assert!(
        finding["file"]
            .as_str()
            .is_some_and(|f| f.ends_with("route.yaml"))
    );
    assert_eq!(
        (finding["line"].as_u64(), finding["column"].as_u64()),
        (Some(6), Some(3))
    );
    assert_eq!(finding["resource"]["kind"], "HTTPRoute");
    assert_eq!(finding["resource"]["name"], "web");
}

#[test]
fn short_format_lines() {
    let dir = dir_with(&[("bad.yaml", b"\xff")]);
    let out = stdout_of(
        gwctl()
            .args(["lint", "--format", "short"])
            .arg(dir.path().join("missing.yaml"))
            .arg(dir.path().join("bad.yaml")),
        2,
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines.iter().all(|l| l.starts_with("gwctl: error[GW00")),
        "{out}"
    );
}

#[test]
fn needs_parser_short_format_positions() {
    let dir = dir_with(&[
        ("dup.yaml", DUPLICATE_KEY.as_bytes()),
        ("nokind.yaml", NO_KIND.as_bytes()),
    ]);
    let out = stdout_of(
        gwctl()
            .args(["lint", "--format", "short"])
            .current_dir(dir.path())
            .arg("."),
        1,
    );
    assert!(out.contains("dup.yaml:5:3: error[GW003]"), "{out}");
    assert!(
        out.contains("error[GW004] document is not a Kubernetes object: missing kind"),
        "{out}"
    );
}

#[test]
fn needs_schema_human_unknown_field() {
    let dir = dir_with(&[("route.yaml", UNKNOWN_FIELD.as_bytes())]);
    let out = stdout_of(
        gwctl()
            .args(["lint", "--color", "never"])
            .current_dir(dir.path())
            .arg("route.yaml"),
        1,
    );
    assert!(out.contains("error[GW101]"), "{out}");
    assert!(out.contains("unknown field \"spec.foo\""), "{out}");
    assert!(out.contains("[route.yaml:6:3]"), "{out}");
    assert!(out.contains("in HTTPRoute web at spec.foo"), "{out}");
}

#[test]
fn quiet_drops_the_summary() {
    let dir = dir_with(&[("route.yaml", VALID_ROUTE.as_bytes())]);
    gwctl()
        .args(["lint", "-q"])
        .arg(dir.path())
        .assert()
        .code(0)
        .stdout("");
}

// ---- colour -----------------------------------------------------------------------------------

#[test]
fn colour_follows_flag_and_no_color() {
    let dir = dir_with(&[("bad.yaml", b"\xff")]);
    let run = |args: &[&str], no_color: Option<&str>| {
        let mut cmd = gwctl();
        cmd.arg("lint").args(args).arg(dir.path());
        if let Some(v) = no_color {
            cmd.env("NO_COLOR", v);
        }
        stdout_of(&mut cmd, 1)
    };
    // Piped stdout: auto means no colour.
    assert!(!run(&[], None).contains("\x1b["));
    assert!(!run(&[], Some("1")).contains("\x1b["));
    assert!(!run(&["--color", "never"], None).contains("\x1b["));
    assert!(run(&["--color", "always"], None).contains("\x1b["));
    assert!(!run(&["--color", "always", "--format", "short"], None).contains("\x1b["));
}

// ---- rules ------------------------------------------------------------------------------------

#[test]
fn rules_lists_every_code() {
    let out = stdout_of(gwctl().arg("rules"), 0);
    for rule in gwctl::rules::all() {
        let line = out
            .lines()
            .find(|l| l.starts_with(rule.code.as_str()))
            .unwrap_or_else(|| panic!("{} missing:\n{out}", rule.code));
        assert!(
            line.contains(rule.severity.as_str()) && line.contains(rule.summary),
            "{line}"
        );
    }
}

#[test]
fn rules_explains_one_code() {
    let out = stdout_of(gwctl().args(["rules", "GW101"]), 0);
    assert!(out.starts_with("GW101 unknown-field (error)"), "{out}");
    assert!(out.contains("strict field validation"), "{out}");
    gwctl()
        .args(["rules", "gw101"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("unknown-field"));
    gwctl()
        .args(["rules", "GW999"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("GW999"));
}

// ---- completions and man pages ----------------------------------------------------------------

#[test]
fn completions_for_one_shell_go_to_stdout() {
    gwctl()
        .args(["completions", "bash"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("--fail-on"));
}

const REGENERATE: &str = "cargo run -- completions --dir completions && cargo run -- man --dir man \
     && cargo run -- rules --markdown > docs/rules.md";

#[test]
fn committed_completions_and_man_pages_are_current() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (subcommand, committed) in [("completions", "completions"), ("man", "man")] {
        let fresh = tempfile::tempdir().expect("temp dir");
        gwctl()
            .args([subcommand, "--dir"])
            .arg(fresh.path())
            .assert()
            .code(0);
        let committed = root.join(committed);
        let want = listing(fresh.path());
        let have = listing(&committed);
        assert_eq!(
            names(&have),
            names(&want),
            "{} is stale; regenerate with `{REGENERATE}`",
            committed.display()
        );
        for ((_, fresh_text), (path, committed_text)) in want.iter().zip(&have) {
            assert!(
                fresh_text == committed_text,
                "{} is stale; regenerate with `{REGENERATE}`",
                path.display()
            );
        }
    }
}
