//! Running the binary on files in a temporary directory: shared by the CLI tests (through
//! `tests/cli/support.rs`) and by the tests that include `common`.
// Each test crate uses a part of these.
#![allow(dead_code)]

use std::path::Path;

use assert_cmd::Command;
use tempfile::TempDir;

/// The binary with an environment that does not leak the developer's terminal settings.
pub fn gwctl() -> Command {
    let mut cmd = assert_cmd::cargo::cargo_bin_cmd!("gwctl");
    cmd.env_remove("NO_COLOR").env_remove("COLUMNS");
    cmd
}

/// A temporary directory holding `files` (name, content).
pub fn dir_with(files: &[(&str, &[u8])]) -> TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, content) in files {
        let path = dir.path().join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("create dir");
        }
        std::fs::write(path, content).expect("write fixture");
    }
    dir
}

pub fn stdout_of(cmd: &mut Command, expected_code: i32) -> String {
    let out = cmd.assert().code(expected_code).get_output().stdout.clone();
    String::from_utf8(out).expect("stdout is UTF-8")
}

/// `gwctl lint --format short ARGS` run in `dir`: its stdout, after checking the exit code.
pub fn lint_short_in(dir: &Path, args: &[&str], expected_code: i32) -> String {
    stdout_of(
        gwctl()
            .current_dir(dir)
            .args(["lint", "--format", "short"])
            .args(args),
        expected_code,
    )
}

/// Runs a command and returns its stdout, whatever its exit code as long as it is 0 or 1 (a
/// finding, or render `--check` failing); 2 (an error of the run) fails the test.
pub fn output_of(cmd: &mut Command) -> String {
    let (code, stdout, stderr) = outcome(cmd);
    assert!(matches!(code, 0 | 1), "exit {code}: {stderr}");
    stdout
}

/// Exit code (-1 when killed by a signal), stdout and stderr of a command.
pub fn outcome(cmd: &mut Command) -> (i32, String, String) {
    let out = cmd.output().expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
