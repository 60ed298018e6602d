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

/// `severity code message` of every finding of a run over the directory.
fn findings(files: &[(&str, &str)]) -> Vec<String> {
    let files: Vec<(&str, &[u8])> = files.iter().map(|(n, t)| (*n, t.as_bytes())).collect();
    let dir = dir_with(&files);
    let run: LintRun =
        lint_paths(&[dir.path().to_path_buf()], &LintOptions::default()).expect("lint runs");
    run.diagnostics
        .iter()
        .filter(|d| d.code.to_string() != "GW008")
        .map(|d| format!("{} {} {}", d.severity.as_str(), d.code, d.message))
        .collect()
}

#[test]
fn objects_without_a_namespace_are_in_default_and_may_be_the_ones_named_elsewhere() {
    // Linted without what sets its namespace, the Gateway may be the one the route names: a
    // note, not an error.
    assert_eq!(
        findings(&[("gateway/gateway.yaml", GATEWAY), ("route.yaml", ROUTE)]),
        [
            "info GW201 parentRef names Gateway network/edge which is not in the inputs; Gateway edge writes no namespace: applied to namespace network, it is the one named"
        ]
    );
    // With its namespace written elsewhere, it is not.
    let placed = GATEWAY.replace("{name: edge}", "{name: edge, namespace: web}");
    assert_eq!(
        findings(&[("gateway/gateway.yaml", &placed), ("route.yaml", ROUTE)]),
        ["error GW201 parentRef names Gateway network/edge which is not in the inputs"]
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
        [
            "info GW201 parentRef names Gateway network/edge which is not in the inputs; Gateway edge writes no namespace: applied to namespace network, it is the one named"
        ]
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
        [
            "info GW201 parentRef names Gateway network/edge which is not in the inputs; Gateway edge writes no namespace: applied to namespace network, it is the one named"
        ]
    );
}

#[test]
fn a_backend_without_a_namespace_may_be_the_one_a_route_names() {
    let route = "apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: web, namespace: network}
spec:
  rules: [{backendRefs: [{name: web, port: 80}]}]
";
    let service =
        "apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec: {ports: [{port: 80}]}\n";
    assert_eq!(
        findings(&[("route.yaml", route), ("service.yaml", service)]),
        [
            "info GW205 Service network/web not found; Service web writes no namespace: applied to namespace network, it is the one named"
        ]
    );
}
