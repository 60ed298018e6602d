//! The namespace of an object that writes none: the one a kustomization including it sets
//! (kustomize's `namespace`), else `default`.

mod common;

use common::cli::dir_with;
use gwctl::lint::{LintOptions, LintRun, lint_paths};

const GATEWAY: &str = "apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge}
spec:
  gatewayClassName: kgateway
  listeners: [{name: http, protocol: HTTP, port: 80}]
";

/// A route in another directory naming the Gateway by namespace `network`.
const ROUTE: &str = "apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: redirect, namespace: network}
spec:
  parentRefs: [{name: edge, namespace: network}]
  rules:
  - filters: [{type: RequestRedirect, requestRedirect: {scheme: https, statusCode: 301}}]
";

/// `code message` of every finding of a run over the directory.
fn findings(files: &[(&str, &str)]) -> Vec<String> {
    let files: Vec<(&str, &[u8])> = files.iter().map(|(n, t)| (*n, t.as_bytes())).collect();
    let dir = dir_with(&files);
    let run: LintRun =
        lint_paths(&[dir.path().to_path_buf()], &LintOptions::default()).expect("lint runs");
    run.diagnostics
        .iter()
        .filter(|d| d.code.to_string() != "GW008")
        .map(|d| format!("{} {}", d.code, d.message))
        .collect()
}

#[test]
fn objects_without_a_namespace_are_in_default() {
    assert_eq!(
        findings(&[("gateway/gateway.yaml", GATEWAY), ("route.yaml", ROUTE)]),
        ["GW201 parentRef names Gateway network/edge which is not in the inputs"]
    );
}

#[test]
fn a_kustomization_sets_its_namespace_on_the_files_it_includes() {
    let kustomization = "apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: network
resources: [gateway.yaml]
";
    let files = [
        ("gateway/kustomization.yaml", kustomization),
        ("gateway/gateway.yaml", GATEWAY),
        ("route.yaml", ROUTE),
    ];
    assert_eq!(findings(&files), Vec::<String>::new());
    // Including the directory does the same; the outermost kustomization's namespace wins.
    let outer = "namespace: network\nresources: [gateway]\n";
    let inner = "namespace: other\nresources: [gateway.yaml]\n";
    let files = [
        ("kustomization.yaml", outer),
        ("gateway/kustomization.yaml", inner),
        ("gateway/gateway.yaml", GATEWAY),
        ("routes/route.yaml", ROUTE),
    ];
    assert_eq!(findings(&files), Vec::<String>::new());
    // A file the kustomization does not include keeps its own.
    let files = [
        ("gateway/kustomization.yaml", kustomization),
        ("gateway/other.yaml", GATEWAY),
        ("route.yaml", ROUTE),
    ];
    assert_eq!(
        findings(&files),
        ["GW201 parentRef names Gateway network/edge which is not in the inputs"]
    );
}

#[test]
fn a_flux_kustomization_sets_its_target_namespace_on_what_it_applies() {
    let flux = "apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata: {name: edge, namespace: flux-system}
spec:
  path: ./apps/network/edge/app
  targetNamespace: network
  sourceRef: {kind: GitRepository, name: flux-system}
";
    // Flux's target namespace wins over the kustomization's own.
    let kustomization = "namespace: other\nresources: [gateway.yaml]\n";
    let files = [
        ("apps/network/edge/ks.yaml", flux),
        ("apps/network/edge/app/kustomization.yaml", kustomization),
        ("apps/network/edge/app/gateway.yaml", GATEWAY),
        ("apps/web/route.yaml", ROUTE),
    ];
    assert_eq!(findings(&files), Vec::<String>::new());
    // Another directory is not applied by it.
    let files = [
        ("apps/network/edge/ks.yaml", flux),
        ("apps/network/other/app/gateway.yaml", GATEWAY),
        ("apps/web/route.yaml", ROUTE),
    ];
    assert_eq!(
        findings(&files),
        ["GW201 parentRef names Gateway network/edge which is not in the inputs"]
    );
}
