//! Hostile inputs (issue 20): every one of them gets a finding or a clear error, never a panic, a
//! hang, a lost report or raw control characters. Bounds are asserted through limits and
//! findings, never through wall-clock time.

#[allow(dead_code)] // each test file uses a part of the helpers
#[path = "cli/support.rs"]
mod support;

use support::*;

/// A Gateway (of its own GatewayClass) whose name holds ESC and BEL, written with YAML escapes.
const CONTROL_NAME: &str = "\
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata:
  name: proxy
spec:
  controllerName: kgateway.dev/kgateway
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: \"edge\\e[31m\\a\"
  namespace: default
spec:
  gatewayClassName: proxy
  listeners:
  - name: http
    protocol: HTTP
    port: 80
";

fn has_raw_control(text: &str) -> bool {
    text.chars()
        .any(|c| c.is_control() && c != '\n' && c != '\t')
}

/// A JSON object on one line whose duplicate key sits past display column 65,535.
fn far_duplicate_key() -> String {
    format!(
        "{{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {{\"name\": \"x\"}}, \"data\": {{\"pad\": \"{}\", \"k\": \"1\", \"k\": \"2\"}}}}\n",
        "\t".repeat(70_000)
    )
}

#[test]
fn a_finding_past_column_65535_is_reported_with_its_line_cut() {
    let dir = dir_with(&[("long.json", far_duplicate_key().as_bytes())]);
    let out = stdout_of(
        gwctl().current_dir(dir.path()).args(["lint", "long.json"]),
        1,
    );
    assert!(out.contains("duplicate key \"k\""), "{out}");
    let text = far_duplicate_key();
    let column = text[..text.find("\"k\": \"2\"").expect("key")]
        .chars()
        .count()
        + 1;
    assert!(out.contains(&format!("[long.json:1:{column}]")), "{out}");
    // The snippet shows the key, not 70,000 tabs.
    assert!(out.lines().all(|l| l.chars().count() < 400), "{out}");
    assert!(out.contains('…'), "{out}");
    // The same through --output (the terminal gets the human format).
    let out = stdout_of(
        gwctl().current_dir(dir.path()).args([
            "lint",
            "long.json",
            "--format",
            "json",
            "--output",
            "report.json",
        ]),
        1,
    );
    assert!(out.contains("duplicate key \"k\""), "{out}");
    let report = std::fs::read_to_string(dir.path().join("report.json")).expect("report");
    assert!(
        report.contains(&format!("\"column\": {column}")),
        "{report}"
    );
}

#[test]
fn a_config_error_on_a_long_line_is_printed_without_a_panic() {
    let config = format!(
        "{{\"severity\": {{\"GW101\": \"error\"}}, \"pad\": \"{}\", \"bogus\": 1}}\n",
        "x".repeat(70_000)
    );
    let dir = dir_with(&[
        ("gwctl.yaml", config.as_bytes()),
        ("a.yaml", VALID_ROUTE.as_bytes()),
    ]);
    let out = gwctl()
        .current_dir(dir.path())
        .args(["lint", "--config", "gwctl.yaml", "a.yaml"])
        .assert()
        .code(2)
        .get_output()
        .clone();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("gwctl.yaml:1:"), "{stderr}");
    assert!(stderr.contains("invalid config file"), "{stderr}");
    assert!(stderr.lines().all(|l| l.chars().count() < 1200), "{stderr}");
}

#[test]
fn many_findings_on_one_long_line_have_exact_columns() {
    // 5,000 duplicate keys on one JSON line: each finding's column is counted from a nearby
    // checkpoint, not from the start of the line, and the text before them is not ASCII.
    let n = 5_000;
    let keys: String = (0..n).map(|_| ", \"é\": 1").collect();
    let text = format!("{{\"é\": 0{keys}}}\n");
    let dir = dir_with(&[("dups.json", text.as_bytes())]);
    let out = lint_short_in(dir.path(), &["dups.json"], 1);
    let dups: Vec<&str> = out.lines().filter(|l| l.contains("GW003")).collect();
    assert_eq!(dups.len(), n, "{out}");
    // `{"é": 0` is 7 characters and each `, "é": 1` 8: key i (1-based) is at 8 * (i - 1) + 10.
    let last = 8 * (n - 1) + 10;
    assert!(
        dups[n - 1].starts_with(&format!(
            "dups.json:1:{last}: error[GW003] duplicate key \"é\": already set at line 1 column 2"
        )),
        "{}",
        dups[n - 1]
    );
}

#[test]
fn cr_only_line_endings_give_lines_and_columns() {
    let text = UNKNOWN_FIELD.replace('\n', "\r");
    let dir = dir_with(&[("mac.yaml", text.as_bytes())]);
    let out = lint_short_in(dir.path(), &["mac.yaml"], 1);
    assert_eq!(
        out,
        "mac.yaml:6:3: error[GW101] unknown field \"spec.foo\"\n"
    );
    let human = stdout_of(
        gwctl().current_dir(dir.path()).args(["lint", "mac.yaml"]),
        1,
    );
    assert!(human.contains("[mac.yaml:6:3]"), "{human}");
    assert!(human.contains(" 6 │   foo: 1"), "{human}");
}

#[test]
fn alias_expansion_is_bounded_per_file_and_per_run() {
    // Each document adds 4 nodes (a list of 3 and its items); 3 documents add 12.
    let doc = "a: &x [1, 2, 3]\nb: *x\n";
    let three = format!("{doc}---\n{doc}---\n{doc}");
    let dir = dir_with(&[("a.yaml", three.as_bytes())]);
    let out = lint_short_in(dir.path(), &["--max-alias-nodes", "10", "a.yaml"], 1);
    assert!(
        out.contains("a.yaml:8:4: error[GW005] YAML alias expansion exceeds the limit of 10 nodes in this file"),
        "{out}"
    );
    assert_eq!(out.matches("GW005").count(), 1, "{out}");
    // 101 files of 4 aliased nodes each: each within 4, together beyond 100 x 4.
    let files: Vec<(String, &[u8])> = (0..101)
        .map(|i| (format!("f{i:03}.yaml"), doc.as_bytes()))
        .collect();
    let files: Vec<(&str, &[u8])> = files.iter().map(|(n, c)| (n.as_str(), *c)).collect();
    let dir = dir_with(&files);
    let out = lint_short_in(dir.path(), &["--max-alias-nodes", "4", "."], 1);
    assert_eq!(
        out.matches("exceeds the limit of 400 nodes in all files together")
            .count(),
        1,
        "{out}"
    );
}

#[test]
fn a_document_over_the_limit_is_skipped_before_parsing() {
    // A single-line flow sequence of 200 KB, between two documents that are linted. Unclosed, it
    // would be a syntax error if the parser ever saw it.
    let big = format!("[{}", "1, ".repeat(70_000));
    // The third document is another route (the same name twice would be GW013).
    let third_doc = UNKNOWN_FIELD.replace("name: web", "name: other");
    let text = format!("{VALID_ROUTE}---\n{big}\n---\n{third_doc}");
    let dir = dir_with(&[("big.yaml", text.as_bytes())]);
    let out = lint_short_in(
        dir.path(),
        &["--max-document-bytes", "100000", "big.yaml"],
        1,
    );
    let second = VALID_ROUTE.lines().count() + 1;
    let third = second + 2;
    assert_eq!(
        out,
        format!(
            "big.yaml:{second}:1: error[GW005] document larger than the limit of 100000 bytes; raise it with --max-document-bytes\n\
             big.yaml:{}:3: error[GW101] unknown field \"spec.foo\"\n",
            third + 6
        )
    );
}

#[test]
fn max_depth_is_capped_at_what_the_stages_can_walk() {
    let out = gwctl()
        .args(["lint", "--max-depth", "30000", "."])
        .assert()
        .code(2)
        .get_output()
        .clone();
    assert!(String::from_utf8_lossy(&out.stderr).contains("1..=1000"));
    // 998 levels of block mappings under an object's data, at the cap: no stack overflow.
    let mut text = String::from("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n");
    for i in 0..996 {
        text.push_str(&" ".repeat(2 + i));
        text.push_str("a:\n");
    }
    text.push_str(&" ".repeat(2 + 996));
    text.push_str("b: 1\n");
    let dir = dir_with(&[("deep.yaml", text.as_bytes())]);
    let out = lint_short_in(dir.path(), &["--max-depth", "1000", "deep.yaml"], 1);
    assert_eq!(
        out,
        "deep.yaml:7:4: error[GW103] data.a: Invalid value: \"object\": data.a in body must be of type string: \"object\"\n"
    );
}

#[test]
fn a_million_digit_number_is_reported_as_out_of_range() {
    let text = format!(
        "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata:\n  name: g\nspec:\n  gatewayClassName: x\n  listeners:\n  - name: a\n    protocol: HTTP\n    port: {}\n",
        "9".repeat(1_000_000)
    );
    let dir = dir_with(&[("big.yaml", text.as_bytes())]);
    let out = lint_short_in(dir.path(), &["big.yaml"], 1);
    assert_eq!(
        out,
        "big.yaml:10:11: error[GW103] spec.listeners[0].port: Invalid value: a number of 1000000 characters: beyond the range of a 64-bit float, which JSON numbers have\n"
    );
}

#[cfg(unix)]
#[test]
fn paths_that_are_not_regular_files_are_gw001_and_never_read() {
    let dir = tempfile::tempdir().expect("temp dir");
    let fifo = dir.path().join("pipe.yaml");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo");
    assert!(made.success());
    // Neither blocks on the FIFO (no writer) nor reads /dev/zero to the end.
    let out = lint_short_in(dir.path(), &["pipe.yaml", "/dev/zero"], 2);
    assert_eq!(
        out,
        "gwctl: error[GW001] /dev/zero: not a regular file (a device)\n\
         gwctl: error[GW001] pipe.yaml: not a regular file (a FIFO)\n"
    );
}

#[cfg(unix)]
#[test]
fn a_symlink_loop_in_a_directory_exits_2() {
    let dir = dir_with(&[("a.yaml", VALID_ROUTE.as_bytes())]);
    std::os::unix::fs::symlink("..", dir.path().join("sub")).expect("symlink");
    let sub = dir.path().join("inner");
    std::fs::create_dir(&sub).expect("dir");
    std::os::unix::fs::symlink("../inner", sub.join("again")).expect("symlink");
    let out = lint_short_in(dir.path(), &["inner"], 2);
    assert!(
        out.contains("error[GW001] inner/again: symbolic link loop"),
        "{out}"
    );
}

#[test]
fn render_and_explain_report_a_file_that_is_not_utf8() {
    // With its byte order mark, as editors write UTF-16 (without it, ASCII text in UTF-16 is
    // valid UTF-8 with NUL bytes).
    let utf16: Vec<u8> = [0xff, 0xfe]
        .into_iter()
        .chain(VALID_ROUTE.encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    let dir = dir_with(&[("wide.yaml", &utf16), ("gw.yaml", CONTROL_NAME.as_bytes())]);
    for args in [
        vec!["render", "gw.yaml", "wide.yaml"],
        vec!["explain", "gatewayclass/proxy", "gw.yaml", "wide.yaml"],
        vec!["explain", "gw/*", "gw.yaml", "wide.yaml"],
    ] {
        if args[1] == "gatewayclass/proxy" {
            continue; // explain takes no GatewayClass
        }
        let out = gwctl()
            .current_dir(dir.path())
            .args(&args)
            .assert()
            .code(1)
            .get_output()
            .clone();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("gwctl: error[GW009] wide.yaml: skipped: not UTF-8 text"),
            "{args:?}: {stderr}"
        );
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_failed_write_is_exit_2_in_every_command() {
    let dir = dir_with(&[("gw.yaml", CONTROL_NAME.as_bytes())]);
    let full = || {
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full")
    };
    for args in [
        vec!["lint", "gw.yaml"],
        vec!["lint", "--format", "json", "gw.yaml"],
        vec!["render", "gw.yaml"],
        vec!["explain", "gw/*", "gw.yaml"],
        vec!["diff", "gw.yaml", "gw.yaml"],
        vec!["rules"],
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_gwctl"))
            .current_dir(dir.path())
            .args(&args)
            .stdout(full())
            .output()
            .expect("run gwctl");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("cannot write the output: No space left on device"),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn control_characters_never_reach_a_text_output_raw() {
    let dir = dir_with(&[("gw.yaml", CONTROL_NAME.as_bytes())]);
    for format in ["human", "short", "github"] {
        let out = stdout_of(
            gwctl()
                .current_dir(dir.path())
                .args(["lint", "--color", "never", "--format", format, "gw.yaml"]),
            1,
        );
        assert!(!has_raw_control(&out), "{format}: {out:?}");
        assert!(out.contains("edge\\x1b[31m\\x07"), "{format}: {out}");
    }
    for format in ["json", "sarif"] {
        let out = stdout_of(
            gwctl()
                .current_dir(dir.path())
                .args(["lint", "--format", format, "gw.yaml"]),
            1,
        );
        let json: serde_json::Value = serde_json::from_str(&out).expect("valid JSON");
        assert!(
            json.to_string().contains("edge\\u001b[31m\\u0007"),
            "{format}"
        );
    }
    let yaml = stdout_of(
        gwctl()
            .current_dir(dir.path())
            .args(["render", "gw.yaml", "--type", "status"]),
        0,
    );
    assert!(!has_raw_control(&yaml), "{yaml:?}");
    assert!(yaml.contains("edge\\u001b[31m\\u0007"), "{yaml}");
    // Still YAML: it parses without a finding.
    let file = gwctl::source::SourceFile::new(0, "out.yaml", yaml.as_str());
    let parsed = gwctl::parse::parse_file(&file, &gwctl::parse::Limits::default());
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    assert!(!parsed.documents.is_empty());
    let explained = stdout_of(
        gwctl()
            .current_dir(dir.path())
            .args(["explain", "gw/*", "--color", "never", "gw.yaml"]),
        0,
    );
    assert!(!has_raw_control(&explained), "{explained:?}");
}

#[test]
fn diff_escapes_control_characters_in_every_text_format() {
    let base = dir_with(&[("a.yaml", CONTROL_NAME.as_bytes())]);
    let changed = CONTROL_NAME.replace("port: 80", "port: 81");
    let head = dir_with(&[("a.yaml", changed.as_bytes())]);
    for format in ["human", "markdown", "json"] {
        let out = stdout_of(
            gwctl().args([
                "diff",
                "-o",
                format,
                "--color",
                "never",
                &base.path().display().to_string(),
                &head.path().display().to_string(),
            ]),
            0,
        );
        assert!(!has_raw_control(&out), "{format}: {out:?}");
        assert!(out.contains("edge\\"), "{format}: {out}");
    }
}
