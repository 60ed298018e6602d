//! The pre-commit hook (.pre-commit-hooks.yaml) run by pre-commit itself: `pre-commit try-repo`
//! of this repository in a new git repository, failing on a staged manifest with an error and
//! passing on a clean one or when gwctl.yaml turns the error off. pre-commit builds gwctl with
//! `cargo install` (its `rust` language), which takes minutes: the test runs when
//! `GWCTL_PRE_COMMIT` names a pre-commit executable (`.ci/run` installs one in a virtual
//! environment under target/) and is skipped otherwise, except under `CI=true`, where that fails.
//! Also `cargo install --locked --path .`, the documented install path, under the same switch.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::support::*;

fn pre_commit(test: &str) -> Option<PathBuf> {
    let exe = std::env::var_os("GWCTL_PRE_COMMIT").map(PathBuf::from);
    // Absolute: pre-commit runs with the test repository as its working directory.
    if let Some(exe) = exe
        .and_then(|p| p.canonicalize().ok())
        .filter(|p| p.is_file())
    {
        return Some(exe);
    }
    assert!(
        std::env::var("CI").map(|v| v != "true").unwrap_or(true),
        "{test}: GWCTL_PRE_COMMIT does not name a pre-commit executable (CI requires it; .ci/run installs one)"
    );
    eprintln!("{test}: skipped: set GWCTL_PRE_COMMIT to a pre-commit executable to run it");
    None
}

fn run(cmd: &mut Command) -> Output {
    cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"))
}

fn text(out: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn git(dir: &Path, args: &[&str]) {
    let out = run(Command::new("git")
        .arg("-C")
        .arg(dir)
        .args([
            "-c",
            "user.name=gwctl test",
            "-c",
            "user.email=test@gwctl.invalid",
        ])
        .args(["-c", "commit.gpgsign=false"])
        .args(args));
    assert!(out.status.success(), "git {args:?}: {}", text(&out));
}

/// Where cargo builds for these tests: beside the debug build, reused across runs.
fn build_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("target/pre-commit")
}

#[test]
fn pre_commit_hook_fails_on_errors_and_passes_clean_manifests() {
    let Some(exe) = pre_commit("pre_commit_hook_fails_on_errors_and_passes_clean_manifests") else {
        return;
    };
    let repo = tempfile::tempdir().expect("temp dir");
    let home = tempfile::tempdir().expect("temp dir");
    git(repo.path(), &["init", "-q"]);
    std::fs::write(repo.path().join("README.md"), "not a manifest\n").expect("write");
    std::fs::write(repo.path().join("route.yaml"), VALID_ROUTE).expect("write");
    git(repo.path(), &["add", "route.yaml", "README.md"]);
    let try_repo = || {
        let mut cmd = Command::new(&exe);
        cmd.current_dir(repo.path())
            .args(["try-repo", env!("CARGO_MANIFEST_DIR"), "gwctl-lint"])
            .env("PRE_COMMIT_HOME", home.path())
            .env("PRE_COMMIT_COLOR", "never")
            // pre-commit's cargo install builds in release mode; unoptimised it takes a third
            // of the time, and the hook's behaviour does not depend on optimisation.
            .env("CARGO_TARGET_DIR", build_dir().join("target"))
            .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "0")
            .env("CARGO_PROFILE_RELEASE_LTO", "false")
            .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "256")
            .env("CARGO_PROFILE_RELEASE_DEBUG", "false")
            .env_remove("GIT_DIR")
            .env_remove("GIT_INDEX_FILE");
        run(&mut cmd)
    };

    let clean = try_repo();
    assert_eq!(clean.status.code(), Some(0), "{}", text(&clean));
    assert!(
        String::from_utf8_lossy(&clean.stdout).contains("gwctl lint"),
        "{}",
        text(&clean)
    );

    // A route of its own name: the same route twice would be a second error (GW013).
    let broken_route = UNKNOWN_FIELD.replace("name: web", "name: broken");
    std::fs::write(repo.path().join("broken.yaml"), broken_route).expect("write");
    git(repo.path(), &["add", "broken.yaml"]);
    let broken = try_repo();
    assert_eq!(broken.status.code(), Some(1), "{}", text(&broken));
    let out = String::from_utf8_lossy(&broken.stdout);
    assert!(
        out.contains("error[GW101]") && out.contains("broken.yaml"),
        "{}",
        text(&broken)
    );

    // gwctl.yaml at the repository root is honoured, and is not linted as a manifest.
    std::fs::write(repo.path().join("gwctl.yaml"), "severity:\n  GW101: off\n").expect("write");
    git(repo.path(), &["add", "gwctl.yaml"]);
    let configured = try_repo();
    assert_eq!(configured.status.code(), Some(0), "{}", text(&configured));
}

/// `cargo install --locked --path .` as the README documents it, with `--debug` and the default
/// target directory so that it reuses most of the test build's artifacts: the lock file is
/// current, and the installed binary runs and names its commit. Without the dev-dependencies'
/// features the library builds once more, so it runs with the pre-commit test (CI), not on every
/// `cargo test`.
#[test]
fn cargo_install_locked_from_the_checkout() {
    if pre_commit("cargo_install_locked_from_the_checkout").is_none() {
        return;
    }
    let root = tempfile::tempdir().expect("temp dir");
    let out = run(Command::new(env!("CARGO"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["install", "--locked", "--debug", "--path", "."])
        .arg("--root")
        .arg(root.path()));
    assert!(out.status.success(), "{}", text(&out));
    let version = run(Command::new(root.path().join("bin/gwctl")).arg("--version"));
    let stdout = String::from_utf8_lossy(&version.stdout);
    assert!(
        stdout.starts_with(&format!("gwctl {} (commit ", env!("CARGO_PKG_VERSION"))),
        "{}",
        text(&version)
    );
}
