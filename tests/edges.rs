//! Bad input at the edges: each case runs beside a good file whose finding must survive intact.

use std::io::Write;
use std::process::{Command as StdCommand, Stdio};

#[allow(dead_code)] // each test file uses a part of the helpers
#[path = "cli/support.rs"]
mod support;

use support::*;

/// A file with one known finding (line 6, column 10), linted beside every edge case.
const GOOD: &str = "apiVersion: v1\nkind: Service\nmetadata:\n  name: s\nspec:\n  ports: nope\n";
const GOOD_FINDING: &str = "good.yaml:6:10: error[GW103] spec.ports:";

/// `--format short` over `dir`, with the exit code expected.
fn short(dir: &std::path::Path, code: i32) -> String {
    let out = stdout_of(
        gwctl()
            .current_dir(dir)
            .args(["lint", "--format", "short", "."]),
        code,
    );
    assert!(
        out.contains(GOOD_FINDING),
        "good file's finding lost:\n{out}"
    );
    out
}

fn with_good(name: &str, content: &[u8]) -> tempfile::TempDir {
    dir_with(&[("good.yaml", GOOD.as_bytes()), (name, content)])
}

#[test]
fn invalid_utf8_and_binary_files_are_skipped_with_a_finding() {
    let dir = dir_with(&[
        ("good.yaml", GOOD.as_bytes()),
        ("bad.yaml", b"a: \xff\xfe\n"),
        (
            "bin.yaml",
            b"\x7fELF\x02\x01\x01\x00\x00\x00\x00\xc3\x28\x00",
        ),
    ]);
    let out = short(dir.path(), 1);
    assert!(
        out.contains("error[GW009] bad.yaml: skipped: not UTF-8 text (invalid byte at offset 3)"),
        "{out}"
    );
    assert!(
        out.contains("error[GW009] bin.yaml: skipped: not UTF-8"),
        "{out}"
    );
}

#[test]
fn bom_is_no_column() {
    let dir = with_good(
        "bom.yaml",
        b"\xef\xbb\xbfapiVersion: v9\nkind: Service\nmetadata:\n  name: b\n",
    );
    let out = short(dir.path(), 1);
    // Column 13 is `v9` as an editor shows it; the BOM does not count.
    assert!(out.contains("bom.yaml:1:13: error[GW007]"), "{out}");
    let human = stdout_of(
        gwctl()
            .current_dir(dir.path())
            .args(["lint", "--color", "never", "."]),
        1,
    );
    assert!(human.contains("bom.yaml:1:13]"), "{human}");
}

#[test]
fn crlf_positions_are_right() {
    let text =
        "apiVersion: v1\r\nkind: Service\r\nmetadata:\r\n  name: c\r\nspec:\r\n  ports: nope\r\n";
    let dir = with_good("crlf.yaml", text.as_bytes());
    let out = short(dir.path(), 1);
    assert!(out.contains("crlf.yaml:6:10: error[GW103]"), "{out}");
    let json = json_of(
        gwctl()
            .current_dir(dir.path())
            .args(["lint", "--format", "json", "crlf.yaml"]),
        1,
    );
    // The span ends after `nope`, not after the `\r`.
    assert_eq!(json["findings"][0]["endColumn"], 14, "{json}");
}

/// A dangling symlink is a file that vanished between listing and reading, made deterministic:
/// the walk lists it, opening it fails. (Tests run as root, so mode 000 would not stop the read.)
#[cfg(unix)]
#[test]
fn unreadable_file_is_a_finding() {
    let dir = dir_with(&[("good.yaml", GOOD.as_bytes())]);
    std::os::unix::fs::symlink(dir.path().join("gone/x"), dir.path().join("gone.yaml"))
        .expect("symlink");
    // Unreadable like a path argument: exit 2 (issue 20), the rest still linted.
    let out = short(dir.path(), 2);
    assert!(
        out.contains("error[GW001] gone.yaml: no such file or directory"),
        "{out}"
    );
    // Named on the command line, it is an input error: exit 2, the other file still linted.
    let out = stdout_of(
        gwctl().current_dir(dir.path()).args([
            "lint",
            "--format",
            "short",
            "gone.yaml",
            "good.yaml",
        ]),
        2,
    );
    assert!(
        out.contains("gone.yaml: no such file or directory") && out.contains(GOOD_FINDING),
        "{out}"
    );
}

#[cfg(unix)]
#[test]
fn symlink_loops_terminate_with_a_finding() {
    let dir = dir_with(&[("good.yaml", GOOD.as_bytes())]);
    std::fs::create_dir(dir.path().join("sub")).expect("dir");
    std::os::unix::fs::symlink("..", dir.path().join("sub/up")).expect("symlink");
    std::os::unix::fs::symlink("self.yaml", dir.path().join("self.yaml")).expect("symlink");
    // An input error like any unreadable path: exit 2.
    let out = short(dir.path(), 2);
    assert!(
        out.contains("error[GW001] sub/up: symbolic link loop: it leads back to ."),
        "{out}"
    );
    assert!(out.contains("self.yaml"), "{out}");
    assert_eq!(
        out.matches(GOOD_FINDING).count(),
        1,
        "linted twice through the loop:\n{out}"
    );
}

/// 20,000 files rather than 100,000: writing them costs the test most of its time (about 1 s here
/// against 4 to 5 s), and the walk and the lint scale linearly; the 100,000 case is `--ignored`.
#[test]
fn many_tiny_files() {
    many_files(20_000);
}

#[test]
#[ignore = "slow: writes 100,000 files"]
fn hundred_thousand_tiny_files() {
    many_files(100_000);
}

fn many_files(n: usize) {
    let dir = dir_with(&[("good.yaml", GOOD.as_bytes())]);
    let sub = dir.path().join("many");
    std::fs::create_dir(&sub).expect("dir");
    for i in 0..n {
        std::fs::write(sub.join(format!("f{i:06}.yaml")), "# x\n").expect("write");
    }
    let json = json_of(
        gwctl()
            .current_dir(dir.path())
            .args(["lint", "--format", "json", "."]),
        1,
    );
    assert_eq!(json["summary"]["files"], n + 1);
    assert_eq!(
        json["findings"].as_array().map(Vec::len),
        Some(1),
        "{}",
        json["findings"]
    );
}

#[test]
fn stdin_empty_closed_or_cut_short() {
    let dir = dir_with(&[("good.yaml", GOOD.as_bytes())]);
    let bin = assert_cmd::cargo::cargo_bin!("gwctl");
    // No stdin at all (closed): nothing read from it, the file still linted.
    let out = StdCommand::new(bin)
        .current_dir(dir.path())
        .args(["lint", "--format", "short", "-", "good.yaml"])
        .stdin(Stdio::null())
        .output()
        .expect("run");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains(GOOD_FINDING), "{stdout}");
    // The writer stops mid-document and closes: what arrived is linted.
    let mut child = StdCommand::new(bin)
        .current_dir(dir.path())
        .args(["lint", "--format", "short", "-", "good.yaml"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn");
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(b"apiVersion: v1\nkind: Service\nmetadata:\n  name: cut\nspec:\n  ports: [{port: \"").expect("write");
    }
    let out = child.wait_with_output().expect("wait");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("<stdin>:6:") && stdout.contains("error[GW002]"),
        "{stdout}"
    );
    assert!(stdout.contains(GOOD_FINDING), "{stdout}");
}

#[test]
fn empty_comment_only_and_bare_separator_files_are_no_documents() {
    let dir = dir_with(&[
        ("good.yaml", GOOD.as_bytes()),
        ("empty.yaml", b""),
        ("comments.yaml", b"# only\n# comments\n"),
        ("dashes.yaml", b"---\n"),
        ("dashes2.yaml", b"---\n---\n...\n"),
    ]);
    short(dir.path(), 1);
    let json = json_of(
        gwctl()
            .current_dir(dir.path())
            .args(["lint", "--format", "json", "."]),
        1,
    );
    assert_eq!(json["summary"]["files"], 5);
    assert_eq!(json["summary"]["documents"], 1, "{json}");
    assert_eq!(json["findings"].as_array().map(Vec::len), Some(1), "{json}");
}

#[test]
fn json_duplicate_keys() {
    let dir = with_good(
        "dup.json",
        br#"{"apiVersion":"v1","kind":"Service","metadata":{"name":"d","name":"e"}}"#,
    );
    let out = short(dir.path(), 1);
    assert!(
        out.contains(
            "dup.json:1:60: error[GW003] duplicate key \"name\": already set at line 1 column 49"
        ),
        "{out}"
    );
}

#[test]
fn numbers_beyond_i64_nan_and_infinities() {
    let text = "apiVersion: v1\nkind: Service\nmetadata:\n  name: n\nspec:\n  ports:\n  - port: 99999999999999999999999\n  - port: .nan\n  - port: .inf\n  - port: -.Inf\n";
    let dir = with_good("nums.yaml", text.as_bytes());
    let out = short(dir.path(), 1);
    assert!(out.contains("nums.yaml:7:11: error[GW103] spec.ports[0].port: Invalid value: \"number\": spec.ports[0].port in body must be of type integer"), "{out}");
    assert!(out.contains("nums.yaml:8:11: error[GW103] spec.ports[1].port: Invalid value: NaN: NaN and infinities have no JSON form"), "{out}");
    assert!(
        out.contains("nums.yaml:9:11: error[GW103] spec.ports[2].port: Invalid value: inf:"),
        "{out}"
    );
    assert!(
        out.contains("nums.yaml:10:11: error[GW103] spec.ports[3].port: Invalid value: -inf:"),
        "{out}"
    );
    // All three have no JSON value: they are not duplicates of one another.
    assert!(!out.contains("GW109"), "{out}");
}

#[test]
fn keys_that_are_not_strings() {
    let text = "apiVersion: v1\nkind: Service\nmetadata:\n  name: k\nspec:\n  1: x\n  true: y\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: k2\n  labels:\n    ? [a]\n    : b\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: k3\nspec:\n  ports: nope\n";
    let dir = with_good("keys.yaml", text.as_bytes());
    let out = short(dir.path(), 1);
    // Scalar keys become their text, as JSON needs; a sequence as key is a syntax error, and the
    // next document is still checked.
    assert!(
        out.contains("keys.yaml:6:3: error[GW101] unknown field \"spec.1\""),
        "{out}"
    );
    assert!(
        out.contains("keys.yaml:7:3: error[GW101] unknown field \"spec.true\""),
        "{out}"
    );
    assert!(
        out.contains("keys.yaml:14:7: error[GW002] complex mapping keys are not supported"),
        "{out}"
    );
    assert!(out.contains("keys.yaml:22:10: error[GW103]"), "{out}");
}
