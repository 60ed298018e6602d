//! The binary's schema options: `gwctl lint --crds PATH` and `gwctl schema KIND`.

use assert_cmd::Command;

fn gwctl() -> Command {
    Command::cargo_bin("gwctl").expect("binary is built")
}

const WIDGET_CRD: &str = "\
apiVersion: apiextensions.k8s.io/v1
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
            properties:
              size: {type: integer, maximum: 10}
";

const WIDGET: &str = "\
apiVersion: example.com/v1
kind: Widget
metadata: {name: w, namespace: default}
spec:
  size: 11
";

fn write(dir: &std::path::Path, name: &str, text: &str) -> std::path::PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("temp file is writable");
    p
}

#[test]
fn crds_flag_checks_objects_of_user_kinds() {
    let dir = tempfile::tempdir().expect("temp dir");
    let crd = write(dir.path(), "crd.yaml", WIDGET_CRD);
    let obj = write(dir.path(), "widget.yaml", WIDGET);
    // Without the CRD the object is not checked.
    gwctl()
        .args(["lint", "--format", "short"])
        .arg(&obj)
        .assert()
        .code(0);
    let out = gwctl()
        .args(["lint", "--format", "short", "--crds"])
        .arg(&crd)
        .arg(&obj)
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).expect("UTF-8");
    assert!(
        out.contains("GW107")
            && out.contains("spec.size in body should be less than or equal to 10"),
        "{out}"
    );
}

#[test]
fn crds_and_values_from_the_config_file_beside_it_and_the_flags_win() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir_all(dir.path().join("deploy/crds")).expect("dirs");
    std::fs::create_dir_all(dir.path().join("deploy/chart")).expect("dirs");
    write(dir.path(), "deploy/crds/crd.yaml", WIDGET_CRD);
    write(
        dir.path(),
        "deploy/chart/values.yaml",
        "controller: {replicaCount: two}\n",
    );
    let obj = write(dir.path(), "widget.yaml", WIDGET);
    let config = write(
        dir.path(),
        "deploy/gwctl.yaml",
        "crds: [crds]\nvalues: chart/values.yaml\n",
    );
    // Run from the temp dir: the config's paths are beside it, not in the current directory.
    let lint = |extra: &[&str]| {
        let out = gwctl()
            .current_dir(dir.path())
            .args(["lint", "--format", "short", "--config"])
            .arg(&config)
            .args(extra)
            .arg(&obj)
            .output()
            .expect("gwctl lint");
        let text = String::from_utf8(out.stdout).expect("UTF-8");
        (out.status.code(), text)
    };
    let (code, out) = lint(&[]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("widget.yaml:5:9: error[GW107]"), "{out}");
    assert!(
        out.contains("values.yaml:1:28: error[GW103] controller.replicaCount"),
        "{out}"
    );
    // `--values` and `--crds` on the command line replace the config's.
    let other = write(dir.path(), "values.yaml", "controller: {replicaCount: 2}\n");
    let empty_crds = dir.path().join("none");
    std::fs::create_dir_all(&empty_crds).expect("dir");
    let values_flag = other.display().to_string();
    let crds_flag = empty_crds.display().to_string();
    let (code, out) = lint(&["--values", &values_flag, "--crds", &crds_flag]);
    assert_eq!(code, Some(0), "{out}");
    assert!(!out.contains("GW103") && !out.contains("GW107"), "{out}");
}

#[test]
fn a_crd_replaces_the_built_in_schema_of_its_kind() {
    let dir = tempfile::tempdir().expect("temp dir");
    let crd = write(
        dir.path(),
        "crd.yaml",
        &WIDGET_CRD
            .replace("example.com", "gateway.kgateway.dev")
            .replace("Widget", "DirectResponse")
            .replace("name: v1\n", "name: v1alpha1\n"),
    );
    // Valid for the built-in schema (status 200-599), invalid for the replacement.
    let obj = write(
        dir.path(),
        "dr.yaml",
        "apiVersion: gateway.kgateway.dev/v1alpha1\nkind: DirectResponse\nmetadata: {name: d, namespace: default}\nspec: {size: 11}\n",
    );
    let out = gwctl()
        .args(["lint", "--format", "short", "--crds"])
        .arg(&crd)
        .arg(&obj)
        .output()
        .expect("runs");
    let out = String::from_utf8(out.stdout).expect("UTF-8");
    assert!(
        out.contains("spec.size in body should be less than or equal to 10"),
        "{out}"
    );
    assert!(
        !out.contains("GW101"),
        "the built-in schema is replaced: {out}"
    );
}

#[test]
fn a_malformed_crd_is_gw010_with_its_position() {
    let dir = tempfile::tempdir().expect("temp dir");
    let crd = write(
        dir.path(),
        "bad.yaml",
        "# no group\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec:\n  names: {kind: X}\n",
    );
    let obj = write(dir.path(), "widget.yaml", WIDGET);
    let out = gwctl()
        .args(["lint", "--format", "short", "--crds"])
        .arg(&crd)
        .arg(&obj)
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).expect("UTF-8");
    assert!(
        out.contains(
            "bad.yaml:2:1: error[GW010] invalid CustomResourceDefinition: CRD has no spec.group"
        ),
        "{out}"
    );
}

#[test]
fn schema_prints_a_kind_case_insensitively() {
    let out = gwctl()
        .args(["schema", "aigatewaypolicy"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let schema: serde_json::Value = serde_json::from_slice(&out).expect("JSON");
    let traffic = &schema["properties"]["spec"]["properties"]["traffic"]["properties"];
    assert!(traffic["jwtAuthentication"].is_object());
    assert_eq!(
        traffic["authorization"]["properties"]["policy"]["properties"]["matchExpressions"]["items"]
            ["x-gwctl-format"],
        "cel-expression"
    );
    let out = gwctl()
        .args([
            "schema",
            "HTTPRoute",
            "--api-version",
            "gateway.networking.k8s.io/v1beta1",
        ])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    assert!(serde_json::from_slice::<serde_json::Value>(&out).is_ok());
}

#[test]
fn schema_of_an_unknown_kind_exits_2_with_close_names() {
    let out = gwctl()
        .args(["schema", "TrafficPolicies"])
        .assert()
        .code(2)
        .get_output()
        .stderr
        .clone();
    let err = String::from_utf8(out).expect("UTF-8");
    assert!(err.contains("did you mean TrafficPolicy?"), "{err}");
    gwctl()
        .args(["schema", "Service", "--api-version", "v2"])
        .assert()
        .code(2);
}

/// Suppression is the last step over every finding, those of `--crds` files included: a config
/// file's `severity` and `ignore` reach GW010.
#[test]
fn the_config_file_reaches_findings_of_crd_files() {
    let dir = tempfile::tempdir().expect("temp dir");
    let crd = write(
        dir.path(),
        "bad.yaml",
        "# no group\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec:\n  names: {kind: X}\n",
    );
    let obj = write(dir.path(), "widget.yaml", WIDGET);
    let lint = |config: &str| {
        let config = write(dir.path(), "gwctl.yaml", config);
        let out = gwctl()
            .args(["lint", "--format", "short", "--config"])
            .arg(&config)
            .arg("--crds")
            .arg(&crd)
            .arg(&obj)
            .output()
            .expect("gwctl ran");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let (code, out) = lint("severity:\n  GW010: warning\n");
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("bad.yaml:2:1: warning[GW010] invalid CustomResourceDefinition"),
        "{out}"
    );
    let (code, out) = lint("ignore:\n- code: GW010\n  path: '**/bad.yaml'\n");
    assert_eq!(code, Some(0), "{out}");
    assert!(!out.contains("GW010"), "{out}");
}
