//! `gwctl --version`: the version and the commit it was built from (build.rs), also when built
//! outside a git checkout.

use std::path::Path;
use std::process::Command;

use crate::support::*;

fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

#[test]
fn version_names_the_commit() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = stdout_of(gwctl().arg("--version"), 0);
    let in_checkout = git(root, &["rev-parse", "--show-toplevel"])
        .is_some_and(|top| Path::new(&top).canonicalize().ok() == root.canonicalize().ok());
    let expected = match git(root, &["rev-parse", "HEAD"]).filter(|_| in_checkout) {
        Some(sha) => format!("gwctl {} (commit {sha})\n", env!("CARGO_PKG_VERSION")),
        None => format!(
            "gwctl {} (commit unknown: built without git metadata)\n",
            env!("CARGO_PKG_VERSION")
        ),
    };
    assert_eq!(out, expected);
    // -V stays short, and so do the generated man pages.
    let short = stdout_of(gwctl().arg("-V"), 0);
    assert_eq!(short, format!("gwctl {}\n", env!("CARGO_PKG_VERSION")));
}

/// Compiles build.rs on its own and runs it in a directory that is no git checkout: first bare
/// (a crate without .git), then with the `.cargo_vcs_info.json` of a published crate.
#[test]
fn build_script_works_without_git() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().expect("temp dir");
    let exe = dir.path().join("build-script");
    let status = Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into()))
        .args(["--edition", "2024", "-o"])
        .arg(&exe)
        .arg(root.join("build.rs"))
        .status()
        .expect("run rustc");
    assert!(status.success(), "build.rs does not compile alone");
    let crate_dir = dir.path().join("gwctl-0.1.0");
    std::fs::create_dir(&crate_dir).expect("crate dir");
    let run = || {
        let out = Command::new(&exe)
            .env("CARGO_MANIFEST_DIR", &crate_dir)
            // No repository above the temporary directory can answer for it.
            .env("GIT_CEILING_DIRECTORIES", dir.path())
            .output()
            .expect("run build script");
        assert!(out.status.success());
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter(|l| l.starts_with("cargo:rustc-env="))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(
        run(),
        "cargo:rustc-env=GWCTL_COMMIT=commit unknown: built without git metadata"
    );
    std::fs::write(
        crate_dir.join(".cargo_vcs_info.json"),
        "{\n  \"git\": {\n    \"sha1\": \"0123456789abcdef0123456789abcdef01234567\"\n  },\n  \"path_in_vcs\": \"\"\n}",
    )
    .expect("write vcs info");
    assert_eq!(
        run(),
        "cargo:rustc-env=GWCTL_COMMIT=commit 0123456789abcdef0123456789abcdef01234567"
    );
}
