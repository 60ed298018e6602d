//! `gwctl lint --fix`, `--unsafe-fixes`, `--diff`, `--fix-only` on files: idempotence, bytes
//! outside the edits kept, the diff applied with `git apply`, and the refusals (a read-only
//! file, a file changed on disk, overlapping fixes) that write nothing.

// The CLI tests' helpers; this file uses two of them.
#[allow(dead_code)]
#[path = "cli/support.rs"]
mod support;

use std::path::Path;
use std::process::Command;

use gwctl::fix::{Selection, fix_paths, write::write_all};
use gwctl::lint::LintOptions;
use support::{dir_with, gwctl};

const ROUTE: &str = "\
# The shop's routes: comments stay where they are.
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: checkout
  namespace: shop
  labels: {app: 'shop', tier: \"front\"}   # quoting kept
spec:
  parentRefs:
  - name: edge
  hostnames: [shop.example.com]
  rules:
  - matches:
    - path: {type: pathprefix, value: /checkout}
    backendRef:
    - name: checkuot   # a typo, seen once the field is renamed
      port: 8080
  - backendRefs:
    - name: payments
      namespace: payments
      port: 8080
";

const GATEWAY: &str = "\
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: edge
  namespace: shop
spec:
  gatewayClassName: kgateway
  listeners:
  - name: http
    protocol: HTTP
    port: 80
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: flags
  namespace: shop
data:
  debug: on
---
apiVersion: v1
kind: Service
metadata: {name: checkout, namespace: shop}
spec:
  ports:
  - port: 8080
---
apiVersion: v1
kind: Service
metadata: {name: payments, namespace: payments}
spec:
  ports:
  - port: 8080
";

fn fixture() -> tempfile::TempDir {
    dir_with(&[
        ("route.yaml", ROUTE.as_bytes()),
        ("gateway.yaml", GATEWAY.as_bytes()),
    ])
}

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).expect("read fixture")
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn safe_fixes_change_only_the_edited_ranges() {
    let dir = fixture();
    // The edits the JSON report offers (one round: no safe fix makes another).
    let json = gwctl()
        .args(["lint", "--format", "json"])
        .arg(dir.path())
        .output()
        .expect("run");
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    let mut expected = [
        ("route.yaml", ROUTE.to_string()),
        ("gateway.yaml", GATEWAY.to_string()),
    ];
    for (name, text) in &mut expected {
        let mut edits: Vec<(usize, usize, String)> = report["findings"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|f| f["fix"]["applicability"] == "safe")
            .flat_map(|f| f["fix"]["edits"].as_array().cloned().unwrap_or_default())
            .filter(|e| e["file"].as_str().is_some_and(|f| f.ends_with(*name)))
            .map(|e| {
                let n = |k: &str| e[k].as_u64().unwrap_or_default() as usize;
                (
                    n("startByte"),
                    n("endByte"),
                    e["replacement"].as_str().unwrap_or_default().to_string(),
                )
            })
            .collect();
        edits.sort();
        for (start, end, replacement) in edits.into_iter().rev() {
            text.replace_range(start..end, &replacement);
        }
    }
    let out = gwctl()
        .args(["lint", "--fix"])
        .arg(dir.path())
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("gwctl: 3 fixes applied in 2 files, 2 findings remain"),
        "{}",
        stderr(&out)
    );
    for (name, text) in &expected {
        assert_eq!(&read(dir.path(), name), text, "{name}");
    }
    // What remains are the unsafe fixes' findings: the backend name one letter off, the grant.
    let remaining = String::from_utf8_lossy(&out.stdout);
    assert!(
        remaining.contains("GW205") && remaining.contains("GW208"),
        "{remaining}"
    );
}

#[test]
fn fix_twice_gives_the_same_files() {
    let dir = fixture();
    let first = gwctl()
        .args(["lint", "--unsafe-fixes"])
        .arg(dir.path())
        .output()
        .expect("run");
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    let fixed = [
        read(dir.path(), "route.yaml"),
        read(dir.path(), "gateway.yaml"),
    ];
    insta::assert_snapshot!(format!("{}---- gateway.yaml\n{}", fixed[0], fixed[1]));
    let second = gwctl()
        .args(["lint", "--unsafe-fixes"])
        .arg(dir.path())
        .output()
        .expect("run");
    assert_eq!(second.status.code(), Some(0));
    assert!(
        stderr(&second).contains("0 fixes applied in 0 files, 0 findings remain"),
        "{}",
        stderr(&second)
    );
    assert_eq!(
        [
            read(dir.path(), "route.yaml"),
            read(dir.path(), "gateway.yaml")
        ],
        fixed
    );
}

#[test]
fn diff_applies_with_git_apply() {
    let dir = fixture();
    let git = |args: &[&str]| {
        let out = Command::new("git")
            .args(args)
            .current_dir(dir.path())
            .output()
            .expect("git");
        assert!(out.status.success(), "git {args:?}: {}", stderr(&out));
    };
    git(&["init", "-q", "."]);
    let out = gwctl()
        .args(["lint", "--diff", "--unsafe-fixes", "."])
        .current_dir(dir.path())
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(
        read(dir.path(), "route.yaml"),
        ROUTE,
        "--diff writes nothing"
    );
    let patch = dir.path().join("../fix.patch");
    std::fs::write(&patch, &out.stdout).expect("write patch");
    let patch = patch.to_string_lossy().into_owned();
    git(&["apply", "--check", &patch]);
    git(&["apply", &patch]);
    let fixed = fixture();
    let out = gwctl()
        .args(["lint", "--unsafe-fixes"])
        .arg(fixed.path())
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(0));
    for name in ["route.yaml", "gateway.yaml"] {
        assert_eq!(read(dir.path(), name), read(fixed.path(), name), "{name}");
    }
}

#[test]
fn stdin_prints_the_fixed_text() {
    let out = gwctl()
        .args(["lint", "--fix", "-"])
        .write_stdin(
            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: flags}\ndata:\n  debug: on # why\n",
        )
        .output()
        .expect("run");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: flags}\ndata:\n  debug: \"on\" # why\n"
    );
    assert!(
        stderr(&out).contains("1 fix applied in 1 file, 0 findings remain"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn fix_only_reports_nothing_else() {
    let dir = fixture();
    let out = gwctl()
        .args(["lint", "--fix-only"])
        .arg(dir.path())
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "");
    assert_eq!(
        stderr(&out),
        "gwctl: 3 fixes applied in 2 files, 2 findings remain\n"
    );
}

#[test]
fn a_read_only_file_is_refused_and_nothing_is_written() {
    use std::os::unix::fs::PermissionsExt;
    let dir = fixture();
    let route = dir.path().join("route.yaml");
    std::fs::set_permissions(&route, std::fs::Permissions::from_mode(0o444)).expect("chmod");
    let out = gwctl()
        .args(["lint", "--fix"])
        .arg(dir.path())
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("route.yaml: the file is read-only; not fixed (no file was written)"),
        "{}",
        stderr(&out)
    );
    assert_eq!(read(dir.path(), "route.yaml"), ROUTE);
    assert_eq!(
        read(dir.path(), "gateway.yaml"),
        GATEWAY,
        "no partial write"
    );
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .expect("list")
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(left.len(), 2, "temporary files left: {left:?}");
}

#[test]
fn a_file_changed_on_disk_after_the_read_is_not_overwritten() {
    let dir = fixture();
    let outcome = fix_paths(
        &[dir.path().to_path_buf()],
        &LintOptions::default(),
        Selection::Safe,
    )
    .expect("lint");
    assert_eq!(outcome.changed.len(), 2);
    // Someone saves the route between gwctl's read and its write.
    let edited = ROUTE.replace("checkout\n  namespace", "checkout2\n  namespace");
    std::fs::write(dir.path().join("route.yaml"), &edited).expect("edit");
    let errors = write_all(&outcome.changed).expect_err("refused");
    let messages: Vec<String> = errors.iter().map(|e| e.reason.clone()).collect();
    assert_eq!(
        messages,
        [
            "the file changed on disk since it was read; not fixed (no file was written): run gwctl again"
        ]
    );
    assert!(errors[0].file.ends_with("route.yaml"));
    assert_eq!(read(dir.path(), "route.yaml"), edited);
    assert_eq!(
        read(dir.path(), "gateway.yaml"),
        GATEWAY,
        "no partial write"
    );
}

#[test]
fn overlapping_fixes_wait_for_the_next_round() {
    // Both codes are stale; removing one takes the separator the other's removal takes too.
    let text = "\
apiVersion: v1
kind: ConfigMap
metadata:
  name: flags
  annotations:
    gwctl.dev/ignore: \"GW101, GW402\"
    owner: shop
";
    let dir = dir_with(&[("cm.yaml", text.as_bytes())]);
    let out = gwctl()
        .args(["lint", "--fix"])
        .arg(dir.path())
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("cm.yaml: fix \"remove GW402 from gwctl.dev/ignore\" overlapped another fix; tried again on the fixed text"),
        "{}",
        stderr(&out)
    );
    assert!(
        stderr(&out).contains("2 fixes applied in 1 file, 0 findings remain"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        read(dir.path(), "cm.yaml"),
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: flags\n  annotations:\n    owner: shop\n"
    );
}

#[test]
fn diff_does_not_show_a_file_with_secret_values() {
    let text = "\
apiVersion: v1
kind: Secret
metadata:
  name: creds
stringData:
  password: hunter2hunter2
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: flags
data:
  debug: on
";
    let dir = dir_with(&[("s.yaml", text.as_bytes())]);
    let out = gwctl()
        .args(["lint", "--diff"])
        .arg(dir.path())
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "");
    assert!(
        stderr(&out).contains("s.yaml: holds secret values; its fixes are not shown as a diff"),
        "{}",
        stderr(&out)
    );
    assert!(!stderr(&out).contains("hunter2"));
}

#[test]
fn diff_of_the_quickstart_fixes_its_typo_and_grant() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = gwctl()
        .args(["lint", "--diff", "--unsafe-fixes", "testdata/quickstart"])
        .current_dir(root)
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "gwctl: 2 fixes would be applied in 2 files, 1 finding would remain\n"
    );
    let diff = String::from_utf8_lossy(&out.stdout);
    assert!(
        diff.contains(
            "--- a/testdata/quickstart/policies.yaml\n+++ b/testdata/quickstart/policies.yaml\n"
        ),
        "{diff}"
    );
    assert!(
        diff.contains("-    name: checkuot\n+    name: checkout\n"),
        "{diff}"
    );
    assert!(diff.contains("+kind: ReferenceGrant\n"), "{diff}");
}
