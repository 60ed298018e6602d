//! The embedded Gateway API schema bundle is generated from the experimental-channel CRDs of the
//! corpus with gwctl's own parser and CRD import. This test regenerates it and checks the committed
//! `schemas/gateway-api.json` is fresh (same JSON). `GWCTL_UPDATE_SCHEMAS=1` rewrites the file.
//! `GWCTL_CORPUS` overrides the corpus location (default `<crate>/../shared/corpus`).

use std::path::{Path, PathBuf};

use gwctl::parse::{Limits, parse_file};
use gwctl::schema::bundle::{GATEWAY_API_ALIASES, build_transformed_bundle};
use gwctl::source::SourceFile;

fn corpus_dir() -> PathBuf {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    match std::env::var_os("GWCTL_CORPUS") {
        Some(p) => PathBuf::from(p),
        None => {
            let default = crate_dir.join("../shared/corpus");
            // Worktrees sit one level deeper than the main checkout.
            let worktree = crate_dir.join("../../shared/corpus");
            if !default.is_dir() && worktree.is_dir() {
                worktree
            } else {
                default
            }
        }
    }
}

/// A transform file of `schemas/` (see `src/schema/transform.rs`), as JSON.
fn transform(name: &str) -> serde_json::Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("schemas")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("transform is readable");
    let file = SourceFile::new(0, path.display().to_string(), text);
    let parsed = parse_file(&file, &Limits::default());
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    parsed.documents[0].root.to_json()
}

/// The documents of the CRD files of the directories, in sorted file order.
fn read_crds(dirs: &[&Path]) -> Vec<serde_json::Value> {
    let mut paths: Vec<PathBuf> = dirs
        .iter()
        .flat_map(|d| std::fs::read_dir(d).expect("CRD directory is readable"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        // Not CRDs: the safe-upgrades admission policy and kustomize files.
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            !name.contains("vap_") && name != "kustomization.yaml"
        })
        .collect();
    paths.sort();
    let mut docs = Vec::new();
    for (i, path) in paths.iter().enumerate() {
        let text = std::fs::read_to_string(path).expect("CRD file is UTF-8");
        let file = SourceFile::new(i, path.display().to_string(), text);
        let parsed = parse_file(&file, &Limits::default());
        assert!(
            parsed.diagnostics.is_empty(),
            "{}: {:?}",
            path.display(),
            parsed.diagnostics
        );
        docs.extend(parsed.documents.iter().map(|d| d.root.to_json()));
    }
    docs
}

/// Writes the bundle under `GWCTL_UPDATE_SCHEMAS=1`, else asserts the committed one is the same.
fn check_or_update(name: &str, generated: &serde_json::Value) {
    let bundle_path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("schemas")
        .join(name);
    if std::env::var_os("GWCTL_UPDATE_SCHEMAS").is_some_and(|v| v == "1") {
        let mut text = serde_json::to_string_pretty(generated).expect("serializable");
        text.push('\n');
        std::fs::write(&bundle_path, text).expect("bundle is writable");
        println!("wrote {}", bundle_path.display());
        return;
    }
    let committed: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(&bundle_path).expect("committed bundle is readable"),
    )
    .expect("committed bundle is JSON");
    assert!(
        committed == *generated,
        "schemas/{name} is stale: run `GWCTL_UPDATE_SCHEMAS=1 cargo test --test schema_bundle`"
    );
}

/// `schemas/kgateway.json`: the reference kgateway v2.2 CRDs of both groups, through the rename,
/// removal and override table `schemas/kgateway-transform.yaml`.
#[test]
fn kgateway_bundle_is_fresh() {
    let corpus = corpus_dir();
    let crds = corpus.join("kgateway/crds");
    if !crds.is_dir() {
        println!("skipped: corpus not found at {}", corpus.display());
        return;
    }
    let docs = read_crds(&[&crds.join("kgateway-crds"), &crds.join("agentgateway-crds")]);
    let generated = build_transformed_bundle(&docs, &transform("kgateway-transform.yaml"), &[])
        .expect("bundle builds");
    check_or_update("kgateway.json", &generated);
}

#[test]
fn gateway_api_bundle_is_fresh() {
    let corpus = corpus_dir();
    let crd_dir = corpus.join("gateway-api/config/crd/experimental");
    if !crd_dir.is_dir() {
        println!("skipped: corpus not found at {}", corpus.display());
        return;
    }
    let generated = build_transformed_bundle(
        &read_crds(&[&crd_dir]),
        &transform("gateway-api-transform.yaml"),
        GATEWAY_API_ALIASES,
    )
    .expect("bundle builds");
    check_or_update("gateway-api.json", &generated);
}

#[test]
fn core_bundle_is_well_formed() {
    let text = include_str!("../schemas/core.json");
    let bundle: serde_json::Value = serde_json::from_str(text).expect("core.json is JSON");
    let (kinds, _) = gwctl::schema::bundle::read_bundle(bundle).expect("core.json is a bundle");
    let names: Vec<&str> = kinds.iter().map(|k| k.kind.as_str()).collect();
    assert_eq!(names, ["ConfigMap", "Namespace", "Secret", "Service"]);
}
