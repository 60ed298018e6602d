//! `gwctl rules`: examples and the generated docs/rules.md; the command-line examples of the rules
//! about the input itself (GW001, GW008, GW009, GW010), which no single document can show.

use std::path::Path;

#[allow(dead_code)]
#[path = "cli/support.rs"]
mod support;

use support::*;

const REGENERATE_DOCS: &str = "cargo run -- rules --markdown > docs/rules.md";

#[test]
fn rules_show_examples() {
    let out = stdout_of(gwctl().args(["rules", "GW101"]), 0);
    assert!(
        out.contains("Failing example:") && out.contains("Fixed example:"),
        "{out}"
    );
    assert!(out.contains("    - backendRef:"), "{out}");
}

#[test]
fn committed_rules_doc_is_current() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let fresh = stdout_of(gwctl().args(["rules", "--markdown"]), 0);
    let committed = std::fs::read_to_string(root.join("docs/rules.md")).unwrap_or_default();
    assert!(
        fresh == committed,
        "docs/rules.md is stale; regenerate with `{REGENERATE_DOCS}`"
    );
}

/// The `Cli` examples of `gwctl rules` (findings about the input, not a document), run for real.
#[test]
fn cli_examples_of_input_rules() {
    let dir = dir_with(&[
        ("manifests/route.yaml", VALID_ROUTE.as_bytes()),
        ("overlays/kustomization.yaml", b"resources: []\n"),
        ("overlays/route.yaml", VALID_ROUTE.as_bytes()),
        ("utf16/route.yaml", b"\xff\xfea\x00p\x00"),
        (
            "crds/widget-no-group.yaml",
            WIDGET_CRD.replace("  group: example.com\n", "").as_bytes(),
        ),
        ("crds/widget.yaml", WIDGET_CRD.as_bytes()),
    ]);
    let lint = |args: &[&str]| {
        let mut cmd = gwctl();
        cmd.current_dir(dir.path())
            .args(["lint", "--format", "short"])
            .args(args);
        let out = cmd.output().expect("runs");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    // GW001: a path that does not exist, then one that does.
    let (code, out) = lint(&["manifests/missing.yaml"]);
    assert!(code == Some(2) && out.contains("[GW001]"), "{out}");
    let (code, out) = lint(&["manifests/"]);
    assert!(code == Some(0) && !out.contains("[GW001]"), "{out}");
    // GW008: a tool file in the directory, then excluded.
    let (_, out) = lint(&["overlays/"]);
    assert!(out.contains("[GW008]"), "{out}");
    let (_, out) = lint(&["--exclude", "kustomization.yaml", "overlays/"]);
    assert!(!out.contains("[GW008]"), "{out}");
    // GW009: UTF-16 text, then the same manifest as UTF-8.
    let (_, out) = lint(&["utf16/route.yaml"]);
    assert!(out.contains("[GW009]"), "{out}");
    let (_, out) = lint(&["manifests/route.yaml"]);
    assert!(!out.contains("[GW009]"), "{out}");
    // GW010: a CRD gwctl cannot use, then a complete one.
    let (_, out) = lint(&["--crds", "crds/widget-no-group.yaml", "manifests/"]);
    assert!(out.contains("[GW010]"), "{out}");
    let (_, out) = lint(&["--crds", "crds/widget.yaml", "manifests/"]);
    assert!(!out.contains("[GW010]"), "{out}");
}

const WIDGET_CRD: &str = "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names:
    kind: Widget
    plural: widgets
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
";
