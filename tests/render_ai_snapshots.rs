//! The AI data plane's rendering of the small examples in `testdata/render-ai/`: every
//! resource, shared resource and status, as reviewed snapshots. Credentials are shown as
//! digests (the CLI's behaviour), never as their values.

mod common;

use std::path::Path;

use gwctl::config::Config;
use gwctl::lint::{LintOptions, lint_paths};
use gwctl::render::{self, RenderOptions, Rendered, ValidationLevel};
use serde_json::{Value, json};

fn render_example(name: &str) -> Rendered {
    render_example_at(name, ValidationLevel::Standard)
}

fn render_example_at(name: &str, validation_level: ValidationLevel) -> Rendered {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/render-ai")
        .join(name);
    let run = lint_paths(&[path], &render::render_options(LintOptions::default()))
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    render::render(
        &run,
        &RenderOptions {
            ai_controller: Config::default().controllers.ai,
            validation_level,
            ..RenderOptions::default()
        },
    )
}

/// A render keeps no JSON of the kinds it reads from the typed model alone (AiGatewayPolicies
/// and the other policies but BackendTLSPolicies, routes, Gateways, GatewayClasses, Namespaces,
/// Services, Secrets, AiGatewayBackends), nor does a diff (its input digests read what the
/// per-file pass wrote down of every resource, which a render leaves out), and both render the
/// same. (That the typed kinds render as their JSON did is what the render snapshots, made from
/// the JSON, check.)
#[test]
fn render_reads_typed_kinds_from_the_typed_model_alone() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata");
    let typed = [
        "AiGatewayPolicy",
        "TrafficPolicy",
        "BackendConfigPolicy",
        "Service",
        "Secret",
        "AiGatewayBackend",
        "HTTPRoute",
        "GRPCRoute",
        "TCPRoute",
        "TLSRoute",
        "Gateway",
        "GatewayClass",
        "Namespace",
    ];
    for (path, kept) in [
        (
            dir.join("render-ai/gateway.yaml"),
            &[
                "AiGatewayPolicy",
                "Service",
                "Secret",
                "AiGatewayBackend",
                "HTTPRoute",
                "GRPCRoute",
                "TCPRoute",
                "Gateway",
                "GatewayClass",
            ][..],
        ),
        (
            dir.join("render"),
            &[
                "TrafficPolicy",
                "BackendConfigPolicy",
                "Service",
                "Secret",
                "HTTPRoute",
                "TCPRoute",
                "TLSRoute",
                "Gateway",
                "GatewayClass",
            ],
        ),
    ] {
        let nulls = |options: &LintOptions| {
            let run = lint_paths(std::slice::from_ref(&path), options).expect("lint");
            let model = run.model.as_ref().expect("model");
            let mut by_kind: Vec<(String, bool)> = model
                .objects
                .iter()
                .filter(|o| typed.contains(&o.id.kind.as_str()))
                .map(|o| (o.id.kind.clone(), o.value.is_null()))
                .collect();
            let written = model.objects.iter().filter(|o| o.written.is_some()).count();
            by_kind.push((
                format!("written: {}", written == model.objects.len()),
                written > 0,
            ));
            by_kind.sort();
            by_kind.dedup();
            let ai = RenderOptions {
                ai_controller: Config::default().controllers.ai,
                ..RenderOptions::default()
            };
            (by_kind, everything(&render::render(&run, &ai)))
        };
        let (render_nulls, rendered) = nulls(&render::render_options(LintOptions::default()));
        let (diff_nulls, rendered_for_diff) = nulls(&render::diff_options(LintOptions::default()));
        let expect = |written: bool| -> Vec<(String, bool)> {
            kept.iter()
                .map(|k| ((*k).to_string(), true))
                .chain([(format!("written: {written}"), written)])
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect()
        };
        let name = path.display();
        assert_eq!(
            render_nulls,
            expect(false),
            "{name}: render keeps identity only, nothing written down"
        );
        assert_eq!(
            diff_nulls,
            expect(true),
            "{name}: diff keeps identity only, every object written down"
        );
        assert!(rendered.len() > 1000, "{name}: something is rendered");
        assert_eq!(rendered, rendered_for_diff, "{name}");
    }
}

/// Everything rendered, as one YAML document.
fn everything(rendered: &Rendered) -> String {
    let gateways: Vec<Value> = rendered
        .gateways
        .iter()
        .map(|g| g.document(&["listener", "route", "cluster"], false))
        .collect();
    let shared: Vec<&Value> = rendered.shared.iter().map(|r| &r.value).collect();
    gwctl::report::yaml::to_yaml(&json!({
        "gateways": gateways,
        "shared": shared,
        "statuses": rendered.shared_statuses,
    }))
}

#[test]
fn gateway_example() {
    let rendered = render_example("gateway.yaml");
    let text = everything(&rendered);
    // Neither the listener's private key nor the provider's key is printed.
    assert!(!text.contains("cHJpdmF0ZS1rZXk="), "{text}");
    assert!(!text.contains("sk-test"), "{text}");
    insta::assert_snapshot!(common::stable_digests(&text));
}

#[test]
fn mesh_example() {
    let rendered = render_example("mesh.yaml");
    let mut names: Vec<&str> = rendered.shared.iter().map(|r| r.name.as_str()).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "service/NetworkGateway/east/10.9.0.1/15008",
            "service/apps/models.example.net",
            "service/apps/models.internal",
            "workload/Kubernetes/networking.istio.io/ServiceEntry/apps/models/10.1.2.3",
            "workload/Kubernetes/networking.istio.io/ServiceEntry/apps/models/models-backup.example.net",
        ]
    );
    insta::assert_snapshot!(everything(&rendered));
}

#[test]
fn broken_example() {
    insta::assert_snapshot!(common::stable_digests(&everything(&render_example(
        "broken.yaml"
    ))));
}

#[test]
fn policies_are_selected_with_what_they_configure() {
    let rendered = render_example("gateway.yaml");
    let kinds: Vec<(&str, &str)> = rendered
        .shared
        .iter()
        .filter(|r| r.name.starts_with("policy/"))
        .map(|r| (r.kind, r.name.as_str()))
        .collect();
    assert_eq!(
        kinds,
        [
            (
                "cluster",
                "policy/apps/cart-tls:backend-tls:apps/cart.apps.svc.cluster.local/8080"
            ),
            (
                "route",
                "policy/traffic/apps/edge-defaults:timeout:apps/edge"
            ),
            (
                "route",
                "policy/traffic/apps/edge-defaults:header-modifier:apps/edge"
            ),
            (
                "route",
                "policy/traffic/apps/edge-defaults:header-modifier:apps/edge#2"
            ),
            (
                "listener",
                "policy/frontend/apps/edge-defaults:frontend-tcp:apps/edge"
            ),
            ("cluster", "policy/apps/llm-tls:tls:apps/llm"),
            ("route", "policy/traffic/apps/web-csrf:csrf:apps/shop"),
            ("route", "policy/traffic/apps/edge-auth:jwt:apps/edge"),
            ("route", "policy/traffic/apps/edge-auth:basicauth:apps/edge"),
        ]
    );
}

#[test]
fn strict_validation_never_refuses_a_gateway_with_an_unroutable_backend() {
    // The unroutable backendRefs keep their places (their share of traffic fails) at either
    // level: strict adds no refusal of the whole Gateway (decisions.md section 7).
    let standard = render_example("broken.yaml");
    let strict = render_example_at("broken.yaml", ValidationLevel::Strict);
    let values = |r: &Rendered| -> Vec<Value> {
        r.gateways[0]
            .resources
            .iter()
            .map(|x| x.value.clone())
            .collect()
    };
    assert!(!values(&strict).is_empty());
    assert_eq!(values(&standard), values(&strict));
}

#[test]
fn names_are_unique_per_kind() {
    let rendered = render_example("gateway.yaml");
    let mut names: Vec<(&str, &str)> = rendered
        .gateways
        .iter()
        .flat_map(|g| &g.resources)
        .chain(&rendered.shared)
        .map(|r| (r.kind, r.name.as_str()))
        .collect();
    let count = names.len();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), count);
    // The request and response halves of one header modifier share the data plane's key.
    let halves: Vec<&str> = names
        .iter()
        .map(|(_, n)| *n)
        .filter(|n| n.contains(":header-modifier:"))
        .collect();
    assert_eq!(
        halves,
        [
            "policy/traffic/apps/edge-defaults:header-modifier:apps/edge",
            "policy/traffic/apps/edge-defaults:header-modifier:apps/edge#2",
        ]
    );
}

#[test]
fn render_command_prints_the_shared_resources_with_digests() {
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/render-ai/gateway.yaml");
    let out = assert_cmd::Command::cargo_bin("gwctl")
        .unwrap_or_else(|e| panic!("{e}"))
        .args(["render", "--type", "cluster"])
        .arg(&example)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    let docs: Vec<&str> = text.split("---\n").collect();
    assert_eq!(docs.len(), 2, "{text}");
    assert!(docs[1].starts_with("Shared: ai\noutput:\n"), "{text}");
    assert!(docs[1].contains("key: apps/openai\n"), "{text}");
    assert!(docs[1].contains("secret: <secret hmac:"), "{text}");
    assert!(!text.contains("sk-test"), "{text}");
    // Statuses only with --type status or all.
    assert!(!docs[1].contains("Statuses:"), "{text}");
}

/// The render command writes each of the AI data plane's shared resources as it is made (the
/// document is never whole in memory); its output is byte for byte the documents of the
/// library's rendering written whole, in both formats and for every `--type`.
#[test]
fn the_render_command_streams_the_documents_written_whole() {
    let types: [(&str, &[&str], bool); 4] = [
        ("all", &["listener", "route", "cluster"], true),
        ("cluster", &["cluster"], false),
        ("status", &[], true),
        ("listener", &["listener"], false),
    ];
    for example in ["gateway.yaml", "mesh.yaml", "broken.yaml"] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("testdata/render-ai")
            .join(example);
        for (kind, kinds, with_statuses) in types {
            let docs = render_example(example).into_documents(kinds, with_statuses);
            let streamed = docs.iter().any(|d| d.get("Shared") == Some(&json!("ai")));
            assert!(
                streamed || kind != "all",
                "{example}: no shared AI document"
            );
            let json = format!(
                "{}\n",
                serde_json::to_string_pretty(&docs).unwrap_or_default()
            );
            let yaml: Vec<String> = docs.iter().map(gwctl::report::yaml::to_yaml).collect();
            for (format, expected) in [("json", json), ("yaml", yaml.join("---\n"))] {
                let out = assert_cmd::Command::cargo_bin("gwctl")
                    .unwrap_or_else(|e| panic!("{e}"))
                    .args(["render", "--type", kind, "-o", format])
                    .arg(&path)
                    .output()
                    .unwrap_or_else(|e| panic!("{e}"));
                assert_eq!(
                    out.status.code(),
                    Some(0),
                    "{example} --type {kind} -o {format}"
                );
                assert_eq!(
                    common::stable_digests(&String::from_utf8_lossy(&out.stdout)),
                    common::stable_digests(&expected),
                    "{example} --type {kind} -o {format}"
                );
            }
        }
    }
}

/// Whether a listener terminates TLS is the status stage's decision, which both data planes
/// serve: an HTTPS listener whose `tls.mode` says Passthrough still terminates (its missing
/// certificate is reported, and the AI data plane gives it the unresolved certificate), as
/// Envoy's listener does; the AI data plane used to give it none.
#[test]
fn an_https_listener_terminates_tls_in_the_status_and_the_ai_data_plane() {
    let text = "
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: ai}
spec: {controllerName: agentgateway.dev/agentgateway}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: apps}
spec:
  gatewayClassName: ai
  listeners:
  - name: https
    port: 443
    protocol: HTTPS
    tls: {mode: Passthrough, certificateRefs: [{name: missing}]}
";
    let files = vec![gwctl::source::SourceFile::new(
        0,
        "test.yaml",
        text.to_string(),
    )];
    let run = gwctl::lint::lint_sources(files, &render::render_options(LintOptions::default()));
    let rendered = render::render(
        &run,
        &RenderOptions {
            ai_controller: Config::default().controllers.ai,
            ..RenderOptions::default()
        },
    );
    let gw = rendered.gateways.first().expect("the Gateway is rendered");
    assert!(
        gw.statuses.to_string().contains("InvalidCertificateRef"),
        "{}",
        gw.statuses
    );
    let listener = gw
        .resources
        .iter()
        .find(|r| r.value.to_string().contains("\"listenerName\":\"https\""))
        .expect("the listener is rendered");
    assert!(
        listener.value.to_string().contains("privateKey"),
        "{}",
        listener.value
    );
}
