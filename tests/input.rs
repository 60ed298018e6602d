//! The load stage: which files a directory walk reads, and what happens to paths that cannot be read.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use gwctl::input::{Filters, load};

const DOC: &str = "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: a\n";

fn tree(files: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for f in files {
        let p = dir.path().join(f);
        fs::create_dir_all(p.parent().expect("has parent")).expect("mkdir");
        fs::write(&p, DOC).expect("write");
    }
    dir
}

fn names(root: &Path, filters: &Filters) -> Vec<String> {
    let loaded = load(&[root.to_path_buf()], filters).expect("valid filters");
    let prefix = format!("{}/", root.display());
    loaded
        .files
        .iter()
        .map(|f| f.name.strip_prefix(&prefix).unwrap_or(&f.name).to_string())
        .collect()
}

#[test]
fn walks_recursively_in_name_order_reading_only_manifest_extensions() {
    let dir = tree(&[
        "b.yaml",
        "a/z.yml",
        "a/y.json",
        "c.txt",
        "README.md",
        "d/e/f.yaml",
    ]);
    assert_eq!(
        names(dir.path(), &Filters::default()),
        ["a/y.json", "a/z.yml", "b.yaml", "d/e/f.yaml"]
    );
}

#[test]
fn skips_hidden_entries_and_gitignored_files() {
    let dir = tree(&[
        "keep.yaml",
        ".hidden/x.yaml",
        ".x.yaml",
        "build/out.yaml",
        "gen.yaml",
    ]);
    fs::write(dir.path().join(".gitignore"), "build/\ngen.yaml\n").expect("write");
    assert_eq!(names(dir.path(), &Filters::default()), ["keep.yaml"]);
}

#[test]
fn include_and_exclude_globs_filter_the_walk() {
    let dir = tree(&["prod/a.yaml", "prod/b.yaml", "dev/a.yaml"]);
    let filters = Filters {
        include: vec!["prod/**".into()],
        exclude: vec!["**/b.yaml".into()],
    };
    assert_eq!(names(dir.path(), &filters), ["prod/a.yaml"]);
}

#[test]
fn an_invalid_glob_is_a_usage_error() {
    let dir = tree(&["a.yaml"]);
    let filters = Filters {
        include: vec!["a[".into()],
        exclude: vec![],
    };
    let err = load(&[dir.path().to_path_buf()], &filters)
        .err()
        .expect("an error");
    assert!(err.contains("invalid glob \"a[\""), "{err}");
}

#[test]
fn a_file_named_explicitly_is_read_whatever_its_extension() {
    let dir = tree(&["manifest.txt"]);
    let loaded = load(&[dir.path().join("manifest.txt")], &Filters::default()).expect("ok");
    assert_eq!(loaded.files.len(), 1);
}

#[test]
fn a_missing_path_is_reported_and_the_others_are_still_read() {
    let dir = tree(&["a.yaml"]);
    let missing = PathBuf::from("/nonexistent/gwctl/manifests");
    let loaded = load(&[missing, dir.path().to_path_buf()], &Filters::default()).expect("ok");
    assert_eq!(
        loaded.unreadable,
        ["/nonexistent/gwctl/manifests: no such file or directory"]
    );
    assert_eq!(loaded.files.len(), 1);
    let d = &loaded.diagnostics[0];
    assert_eq!(d.code, gwctl::rules::GW001);
    assert_eq!(
        d.message,
        "/nonexistent/gwctl/manifests: no such file or directory"
    );
}

#[test]
fn binary_files_are_skipped_with_a_finding() {
    let dir = tree(&["a.yaml"]);
    fs::write(
        dir.path().join("b.yaml"),
        [0x61, 0x3a, 0x20, 0xff, 0xfe, 0x00],
    )
    .expect("write");
    let loaded = load(&[dir.path().to_path_buf()], &Filters::default()).expect("ok");
    assert_eq!(loaded.files.len(), 1);
    assert!(!loaded.input_error());
    let d = loaded
        .diagnostics
        .iter()
        .find(|d| d.code == gwctl::rules::GW009)
        .expect("a GW009 finding");
    assert!(
        d.message
            .ends_with("b.yaml: skipped: not UTF-8 text (invalid byte at offset 3)"),
        "{}",
        d.message
    );
}

#[test]
fn kustomization_and_chart_files_are_skipped_with_a_note() {
    let dir = tree(&["kustomization.yaml", "chart/Chart.yaml", "a.yaml"]);
    let loaded = load(&[dir.path().to_path_buf()], &Filters::default()).expect("ok");
    assert_eq!(loaded.files.len(), 1);
    let notes: Vec<&str> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.code == gwctl::rules::GW008)
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(
        notes
            .iter()
            .all(|n| n.ends_with("skipped: a tool file, not a resource"))
    );
}

#[test]
fn a_helm_charts_templates_and_values_are_skipped_and_its_crds_linted() {
    use common::cli::dir_with;
    let template = "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: {{ .Release.Name }}\nspec:\n  parentRefs:\n    - name: {{ .Values.gateway }}\n";
    // A chart's crds/ are applied as written: linted (this one is missing its metadata.name).
    let crd = "apiVersion: v1\nkind: Namespace\nmetadata:\n  labels: {a: b}\n";
    let dir = dir_with(&[
        (
            "deploy/chart/Chart.yaml",
            b"apiVersion: v2\nname: demo\nversion: 0.1.0\n",
        ),
        ("deploy/chart/values.yaml", b"gateway: edge\n"),
        ("deploy/chart/templates/route.yaml", template.as_bytes()),
        ("deploy/chart/crds/ns.yaml", crd.as_bytes()),
        ("deploy/plain/ns.yaml", DOC.as_bytes()),
    ]);
    assert_eq!(
        short_lint(dir.path(), "deploy"),
        "gwctl: info[GW008] deploy/chart/Chart.yaml: skipped: a tool file, not a resource\n\
         gwctl: info[GW008] deploy/chart/templates/route.yaml: skipped: a template of the Helm chart in deploy/chart\n\
         gwctl: info[GW008] deploy/chart/values.yaml: skipped: a values file of the Helm chart in deploy/chart\n\
         deploy/chart/crds/ns.yaml:3:1: error[GW102] metadata.name: Required value: name or generateName is required\n"
    );
}

#[test]
fn the_patches_a_kustomization_names_are_skipped_and_its_resources_linted() {
    use common::cli::dir_with;
    let gateway = "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata:\n  name: edge\nspec:\n  gatewayClassName: cls\n  listeners:\n  - name: http\n    protocol: HTTP\n    port: 80\n";
    // A strategic merge patch: a partial Gateway (no gatewayClassName, no listeners).
    let partial = "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata:\n  name: edge\nspec:\n  infrastructure:\n    labels: {env: prod}\n";
    let operations = "- op: replace\n  path: /spec/gatewayClassName\n  value: prod\n";
    let overlay = "resources:\n- ../../base\npatches:\n- path: partial.yaml\npatchesJson6902:\n- target: {kind: Gateway, name: edge}\n  path: ops.yaml\n";
    // A file of the overlay that no patch list names is linted: here a route to a listener
    // the Gateway does not have.
    let route = "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: r\nspec:\n  parentRefs:\n  - name: edge\n    sectionName: https\n";
    let dir = dir_with(&[
        ("base/gateway.yaml", gateway.as_bytes()),
        ("base/kustomization.yaml", b"resources:\n- gateway.yaml\n"),
        ("overlays/prod/kustomization.yaml", overlay.as_bytes()),
        ("overlays/prod/partial.yaml", partial.as_bytes()),
        ("overlays/prod/ops.yaml", operations.as_bytes()),
        ("overlays/prod/route.yaml", route.as_bytes()),
    ]);
    let stdout = short_lint(dir.path(), ".");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines,
        [
            "gwctl: info[GW008] base/kustomization.yaml: skipped: a tool file, not a resource",
            "gwctl: info[GW008] overlays/prod/kustomization.yaml: skipped: a tool file, not a resource",
            "gwctl: info[GW008] overlays/prod/ops.yaml: skipped: a patch of the kustomization in overlays/prod, not a manifest",
            "gwctl: info[GW008] overlays/prod/partial.yaml: skipped: a patch of the kustomization in overlays/prod, not a manifest",
            "overlays/prod/route.yaml:8:18: error[GW202] Gateway default/edge has no listener named \"https\" (listeners: http); did you mean \"http\"?",
        ],
        "{stdout}"
    );
}

/// `gwctl lint --format short PATH` run in `dir`, which has errors: its output.
fn short_lint(dir: &Path, path: &str) -> String {
    let out = common::cli::gwctl()
        .current_dir(dir)
        .args(["lint", "--format", "short", path])
        .assert()
        .code(1)
        .get_output()
        .clone();
    String::from_utf8_lossy(&out.stdout).into_owned()
}
