//! `gwctl diff --git REV`: BASE read from a git revision of a small repository built in a
//! temporary directory (no checkout), HEAD from the working tree.

use std::path::Path;
use std::process::Command;

use assert_cmd::cargo::CommandCargoExt;
use serde_json::Value;

const CASES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/diff");

fn git(dir: &Path, args: &[&str]) {
    let status = Command::new("git")
        .args([
            "-c",
            "user.name=gwctl",
            "-c",
            "user.email=gwctl@example.com",
        ])
        .args([
            "-c",
            "commit.gpgsign=false",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("git {args:?}: {e}"));
    assert!(
        status.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&status.stderr)
    );
}

fn copy(from: &str, to: &Path) {
    std::fs::create_dir_all(to).unwrap_or_else(|e| panic!("{}: {e}", to.display()));
    for entry in std::fs::read_dir(Path::new(CASES).join(from))
        .unwrap_or_else(|e| panic!("{from}: {e}"))
        .flatten()
    {
        std::fs::copy(entry.path(), to.join(entry.file_name()))
            .unwrap_or_else(|e| panic!("{}: {e}", entry.path().display()));
    }
}

fn gwctl(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("gwctl")
        .map(|mut c| c.arg("diff").args(args).current_dir(dir).output())
        .unwrap_or_else(|e| panic!("gwctl binary: {e}"))
        .unwrap_or_else(|e| panic!("gwctl ran: {e}"));
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A repository whose first commit holds `base` of a case under `manifests/`, with a README
/// beside it that is not a manifest and a tool file among the manifests (skipped with a finding
/// that names the file: the same on both sides).
fn repository(case: &str) -> tempfile::TempDir {
    let repo = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    git(repo.path(), &["init", "-q"]);
    copy(&format!("{case}/base"), &repo.path().join("manifests"));
    std::fs::write(
        repo.path().join("manifests/kustomization.yaml"),
        "resources: []\n",
    )
    .unwrap_or_else(|e| panic!("kustomization: {e}"));
    std::fs::write(repo.path().join("README.md"), "manifests\n")
        .unwrap_or_else(|e| panic!("README: {e}"));
    git(repo.path(), &["add", "."]);
    git(repo.path(), &["commit", "-q", "-m", "base"]);
    repo
}

#[test]
fn base_from_a_revision_head_from_the_working_tree() {
    let repo = repository("typo-fix");
    copy("typo-fix/head", &repo.path().join("manifests"));
    let (code, stdout, stderr) = gwctl(repo.path(), &["--git", "HEAD", "manifests", "-o", "json"]);
    assert_eq!((code, stderr.as_str()), (0, ""));
    let d: Value = serde_json::from_str(&stdout).unwrap_or_default();
    let fixed: Vec<(&str, &str)> = d["findings"]["fixed"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|f| Some((f["code"].as_str()?, f["location"].as_str()?)))
        .collect();
    // BASE's files are named by revision and path from the repository's top.
    assert_eq!(fixed, vec![("GW301", "HEAD:manifests/shop.yaml:60:11")]);
    assert_eq!(d["findings"]["introduced"], serde_json::json!([]));
    assert_eq!(d["findings"]["unchanged"], 1);
    assert_eq!(d["effective"][1]["target"], "HTTPRoute/shop/checkout:pay");
    assert_eq!(d["effective"][1]["changes"][0]["field"], "cors");

    // Committed, the working tree is the revision: no change; the previous commit still differs.
    git(repo.path(), &["commit", "-q", "-am", "fix the typo"]);
    let (code, _, _) = gwctl(repo.path(), &["--git", "HEAD", "--exit-code"]);
    assert_eq!(code, 0);
    let (code, _, _) = gwctl(repo.path(), &["--git", "HEAD~1", "--exit-code"]);
    assert_eq!(code, 1);
    // From a subdirectory, `.` is that directory, as git takes it.
    let (code, stdout, stderr) = gwctl(
        &repo.path().join("manifests"),
        &["--git", "HEAD~1", ".", "--exit-code", "-o", "json"],
    );
    assert_eq!((code, stderr.as_str()), (1, ""));
    let d: Value = serde_json::from_str(&stdout).unwrap_or_default();
    assert_eq!(
        (
            d["findings"]["fixed"][0]["location"].as_str(),
            &d["findings"]["unchanged"]
        ),
        (Some("HEAD~1:shop.yaml:60:11"), &serde_json::json!(1))
    );
}

#[test]
fn a_route_moved_to_another_file_is_no_change() {
    let repo = repository("moved");
    let manifests = repo.path().join("manifests");
    for f in ["gateway.yaml", "backends.yaml"] {
        std::fs::remove_file(manifests.join(f)).unwrap_or_else(|e| panic!("{f}: {e}"));
    }
    copy("moved/head", &manifests);
    let (code, stdout, stderr) = gwctl(repo.path(), &["--git", "HEAD", "--exit-code"]);
    assert_eq!((code, stderr.as_str()), (0, ""));
    assert_eq!(
        stdout,
        "Findings: 0 introduced, 0 fixed, 3 unchanged\n\nEffective policy: no change\n\n\
         Rendered configuration: no change\n"
    );
}

#[test]
fn an_unknown_revision_is_an_error() {
    let repo = repository("moved");
    let (code, stdout, stderr) = gwctl(repo.path(), &["--git", "no-such-branch"]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(
        stderr.starts_with(
            "gwctl: error: git ls-tree no-such-branch: fatal: Not a valid object name"
        ),
        "{stderr}"
    );
    let (code, _, stderr) = gwctl(repo.path(), &["--git=--output=x"]);
    assert_eq!(
        (code, stderr.as_str()),
        (
            2,
            "gwctl: error: --git \"--output=x\" is not a git revision\n"
        )
    );
}

#[test]
fn the_config_files_excludes_apply_to_the_revision_too() {
    // An excluded directory holds a broken copy of the route in the revision and on disk: read
    // on one side only, it would be a change; excluded on both, there is none.
    let repo = repository("moved");
    let vendor = repo.path().join("manifests/vendor");
    std::fs::create_dir_all(&vendor).unwrap_or_else(|e| panic!("vendor: {e}"));
    std::fs::write(vendor.join("route.yaml"), "kind: HTTPRoute\nmetadata: [\n")
        .unwrap_or_else(|e| panic!("vendor: {e}"));
    std::fs::write(repo.path().join("gwctl.yaml"), "exclude: ['vendor/**']\n")
        .unwrap_or_else(|e| panic!("config: {e}"));
    git(repo.path(), &["add", "."]);
    git(repo.path(), &["commit", "-q", "-m", "vendor"]);
    let (code, stdout, stderr) = gwctl(repo.path(), &["--git", "HEAD", "manifests", "-o", "json"]);
    assert_eq!((code, stderr.as_str()), (0, ""));
    let d: Value = serde_json::from_str(&stdout).unwrap_or_default();
    assert_eq!(
        (
            &d["changesEffect"],
            &d["findings"]["fixed"],
            &d["findings"]["unchanged"]
        ),
        (
            &Value::Bool(false),
            &serde_json::json!([]),
            &serde_json::json!(3)
        )
    );
    // Named on the command line, the file is read whatever the globs say, on both sides.
    let (_, stdout, _) = gwctl(
        repo.path(),
        &["--git", "HEAD", "manifests/vendor/route.yaml", "-o", "json"],
    );
    let d: Value = serde_json::from_str(&stdout).unwrap_or_default();
    assert_eq!(d["findings"]["fixed"], serde_json::json!([]));
    assert_eq!(d["findings"]["unchanged"], 1);
}

#[test]
fn the_byte_budget_skips_the_same_files_on_both_sides() {
    let repo = repository("typo-fix");
    copy("typo-fix/head", &repo.path().join("manifests"));
    let (code, stdout, stderr) = gwctl(
        repo.path(),
        &[
            "--git",
            "HEAD",
            "manifests",
            "-o",
            "json",
            "--max-total-bytes",
            "1000",
        ],
    );
    assert_eq!((code, stderr.as_str()), (0, ""));
    let d: Value = serde_json::from_str(&stdout).unwrap_or_default();
    // shop.yaml is over the budget on both sides: nothing is compared, nothing changes.
    assert_eq!(d["changesEffect"], false);
    assert_eq!(d["findings"]["unchanged"], 2);
    assert_eq!(d["findings"]["fixed"], serde_json::json!([]));
}

#[test]
fn a_revisions_kustomization_patches_are_skipped_as_on_disk() {
    let repo = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let write = |name: &str, text: &str| {
        let path = repo.path().join("manifests").join(name);
        std::fs::create_dir_all(path.parent().unwrap_or(repo.path()))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        std::fs::write(&path, text).unwrap_or_else(|e| panic!("{name}: {e}"));
    };
    write(
        "gateway.yaml",
        "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata:\n  name: edge\nspec:\n  gatewayClassName: cls\n  listeners:\n  - name: http\n    protocol: HTTP\n    port: 80\n",
    );
    write(
        "kustomization.yaml",
        "resources:\n- gateway.yaml\npatches:\n- path: patch.yaml\n",
    );
    // A partial Gateway: linted as a manifest it lacks its class and listeners.
    write(
        "patch.yaml",
        "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata:\n  name: edge\nspec:\n  infrastructure:\n    labels: {env: prod}\n",
    );
    git(repo.path(), &["init", "-q"]);
    git(repo.path(), &["add", "."]);
    git(repo.path(), &["commit", "-q", "-m", "base"]);
    // The working tree drops the patch: had the revision's been linted, its findings (the
    // class and listeners missing) would show as fixed; skipped, only its note is.
    std::fs::remove_file(repo.path().join("manifests/patch.yaml"))
        .unwrap_or_else(|e| panic!("patch: {e}"));
    write("kustomization.yaml", "resources:\n- gateway.yaml\n");
    let (code, stdout, stderr) = gwctl(repo.path(), &["--git", "HEAD", "manifests", "-o", "json"]);
    assert_eq!((code, stderr.as_str()), (0, ""));
    let d: Value = serde_json::from_str(&stdout).unwrap_or_default();
    assert_eq!(
        d["findings"]["fixed"],
        serde_json::json!([{
            "code": "GW008",
            "severity": "info",
            "message": "manifests/patch.yaml: skipped: a patch of the kustomization in manifests, not a manifest"
        }]),
        "{stdout}"
    );
    assert_eq!(
        d["findings"]["introduced"],
        serde_json::json!([]),
        "{stdout}"
    );
}
