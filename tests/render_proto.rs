//! The proto check of rendered Envoy resources (`gwctl::render::proto`, `gwctl render --check`):
//! - it accepts the Envoy resources of the reference's golden files (what real Envoy
//!   configuration looks like), except those pinned in `KNOWN` with the reason;
//! - it rejects a misspelled field, an unknown enum value and a malformed duration, at the top and
//!   inside a `typedConfig` (`google.protobuf.Any`), naming the path;
//! - everything `gwctl render` produces for `testdata/` and for the reference's cases passes.

mod common;

use std::path::Path;

use common::kgateway::yaml;
use common::{corpus, files_under};
use gwctl::lint::{LintOptions, lint_paths};
use gwctl::render::proto::{UNCHECKED, check, check_rendered};
use gwctl::render::{RenderOptions, render, render_options};
use serde_json::{Value, json};

const GOLDENS: &str = "kgateway/pkg/kgateway/translator/gateway/testutils/outputs";

/// Golden resources the check rejects: (file under `GOLDENS`, section, resource name, reason).
/// Empty: the Anys of types whose protos Envoy's set lacks (RBAC's CEL matcher, envoy-gloo's
/// transformation filter) are accepted unchecked (`proto::UNCHECKED`, with the reasons), and
/// counted below as partly checked.
const KNOWN: &[(&str, &str, &str, &str)] = &[];

/// Golden resources checked and accepted: the figure the test must not drop below.
const ACCEPTED: usize = 989;

#[test]
fn golden_envoy_resources_pass_the_check() {
    let Some(corpus) = corpus("golden_envoy_resources_pass_the_check") else {
        return;
    };
    let dir = corpus.join(GOLDENS);
    let files = files_under(&dir, &["yaml", "yml"]);
    assert!(!files.is_empty(), "no golden files under {}", dir.display());
    let (mut accepted, mut rejected, mut partly) = (0, Vec::new(), Vec::new());
    for file in &files {
        let name = file
            .strip_prefix(&dir)
            .unwrap_or(file)
            .display()
            .to_string();
        let mut failed_here = 0;
        for doc in yaml(file) {
            for section in ["Listeners", "Routes", "Clusters", "Secrets"] {
                for resource in doc[section].as_array().into_iter().flatten() {
                    let resource_name = resource["name"].as_str().unwrap_or("").to_string();
                    match check(section, resource) {
                        Ok(()) => {
                            accepted += 1;
                            let skipped = unchecked_types(resource);
                            if !skipped.is_empty() {
                                partly.push(format!(
                                    "{name} {section} {resource_name}: {}",
                                    skipped.join(", ")
                                ));
                            }
                        }
                        Err(reason) => {
                            failed_here += 1;
                            rejected.push((name.clone(), section, resource_name, reason));
                        }
                    }
                }
            }
        }
        println!(
            "{name}: {}",
            if failed_here == 0 {
                "accepted".to_string()
            } else {
                format!("{failed_here} rejected")
            }
        );
    }
    let mut unexpected = Vec::new();
    for (file, section, resource, reason) in &rejected {
        let known = KNOWN
            .iter()
            .any(|(f, s, r, _)| f == file && s == section && r == resource);
        println!(
            "{} {file} {section} {resource}: {reason}",
            if known { "known" } else { "UNEXPECTED" }
        );
        if !known {
            unexpected.push(format!("{file} {section} {resource}: {reason}"));
        }
    }
    for p in &partly {
        println!("partly checked (an Any of a type not in the set): {p}");
    }
    println!(
        "golden Envoy resources: {accepted} accepted ({} partly checked), {} rejected ({} known) in {} files",
        partly.len(),
        rejected.len(),
        rejected.len() - unexpected.len(),
        files.len()
    );
    assert!(
        unexpected.is_empty(),
        "rejected, not in KNOWN:\n{}",
        unexpected.join("\n")
    );
    assert!(
        accepted >= ACCEPTED,
        "accepted {accepted}, fewer than {ACCEPTED}"
    );
}

/// The `UNCHECKED` types named by an `@type` anywhere in `value`.
fn unchecked_types(value: &Value) -> Vec<&'static str> {
    let mut out = Vec::new();
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(map) => {
                if let Some(url) = map.get("@type").and_then(Value::as_str) {
                    out.extend(
                        UNCHECKED
                            .iter()
                            .map(|(t, _)| *t)
                            .filter(|t| url.rsplit('/').next() == Some(*t)),
                    );
                }
                stack.extend(map.values());
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

const HCM: &str = "type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager";

/// A Listener whose one filter is an HttpConnectionManager with `extra` set on it.
fn listener_with_hcm(extra: Value) -> Value {
    let mut hcm = json!({
        "@type": HCM,
        "statPrefix": "http",
        "rds": {"routeConfigName": "listener~80", "configSource": {"ads": {}, "resourceApiVersion": "V3"}},
        "httpFilters": [{
            "name": "envoy.filters.http.router",
            "typedConfig": {"@type": "type.googleapis.com/envoy.extensions.filters.http.router.v3.Router"}
        }]
    });
    if let (Some(hcm), Value::Object(extra)) = (hcm.as_object_mut(), extra) {
        hcm.extend(extra);
    }
    json!({
        "name": "listener~80",
        "address": {"socketAddress": {"address": "::", "ipv4Compat": true, "portValue": 80}},
        "filterChains": [{
            "name": "listener~80",
            "filters": [{"name": "envoy.filters.network.http_connection_manager", "typedConfig": hcm}]
        }]
    })
}

fn cluster_with(extra: Value) -> Value {
    let mut cluster =
        json!({"name": "kube_default_backend_3000", "type": "EDS", "connectTimeout": "5s"});
    if let (Some(c), Value::Object(extra)) = (cluster.as_object_mut(), extra) {
        c.extend(extra);
    }
    cluster
}

#[test]
fn well_formed_resources_pass() {
    assert_eq!(check("Listeners", &listener_with_hcm(json!({}))), Ok(()));
    assert_eq!(check("Clusters", &cluster_with(json!({}))), Ok(()));
    assert_eq!(
        check("envoy.config.cluster.v3.Cluster", &cluster_with(json!({}))),
        Ok(())
    );
    // An empty Any, as Go's protojson writes one.
    let route = json!({
        "name": "listener~80",
        "virtualHosts": [{"name": "vh", "domains": ["*"], "typedPerFilterConfig": {
            "envoy.filters.http.ext_authz": {"@type": "type.googleapis.com/envoy.config.route.v3.FilterConfig", "config": {}}
        }}]
    });
    assert_eq!(check("Routes", &route), Ok(()));
}

#[test]
fn a_misspelled_field_is_rejected() {
    assert_eq!(
        check("Clusters", &cluster_with(json!({"conectTimeout": "5s"}))),
        Err("unrecognized field name 'conectTimeout'".into())
    );
    assert_eq!(
        check(
            "Listeners",
            &listener_with_hcm(json!({"statPrefx": "http"}))
        ),
        Err("filterChains[0].filters[0].typedConfig: unrecognized field name 'statPrefx'".into())
    );
}

#[test]
fn a_bad_enum_value_is_rejected() {
    assert_eq!(
        check("Clusters", &cluster_with(json!({"type": "EDSS"}))),
        Err("type: unrecognized enum value 'EDSS'".into())
    );
    assert_eq!(
        check(
            "Listeners",
            &listener_with_hcm(json!({"codecType": "HTTP9"}))
        ),
        Err(
            "filterChains[0].filters[0].typedConfig.codecType: unrecognized enum value 'HTTP9'"
                .into()
        )
    );
}

#[test]
fn a_bad_duration_is_rejected() {
    assert_eq!(
        check(
            "Clusters",
            &cluster_with(json!({"connectTimeout": "5 seconds"}))
        ),
        Err("connectTimeout: failed to parse duration".into())
    );
    assert_eq!(
        check(
            "Listeners",
            &listener_with_hcm(json!({"streamIdleTimeout": "5m"}))
        ),
        Err(
            "filterChains[0].filters[0].typedConfig.streamIdleTimeout: failed to parse duration"
                .into()
        )
    );
}

#[test]
fn an_unknown_type_url_is_rejected_and_known_unchecked_ones_accepted() {
    let misspelled = json!({"httpFilters": [{
        "name": "envoy.filters.http.router",
        "typedConfig": {"@type": "type.googleapis.com/envoy.extensions.filters.http.router.v3.Routr"}
    }]});
    assert_eq!(
        check("Listeners", &listener_with_hcm(misspelled)),
        Err("filterChains[0].filters[0].typedConfig.httpFilters[0].typedConfig: message 'envoy.extensions.filters.http.router.v3.Routr' not found".into())
    );
    // The CEL matcher's protos are not in the set: its content is not checked, the rest is.
    let with_cel = |dynamic_stats: Value| {
        listener_with_hcm(json!({"httpFilters": [
            {"name": "cel", "typedConfig": {
                "@type": "type.googleapis.com/xds.type.matcher.v3.CelMatcher",
                "anything": 1
            }},
            {"name": "envoy.filters.http.router", "typedConfig": {
                "@type": "type.googleapis.com/envoy.extensions.filters.http.router.v3.Router",
                "dynamicStats": dynamic_stats
            }}
        ]}))
    };
    assert_eq!(check("Listeners", &with_cel(json!(true))), Ok(()));
    assert_eq!(
        check("Listeners", &with_cel(json!("x"))),
        Err("filterChains[0].filters[0].typedConfig.httpFilters[1].typedConfig.dynamicStats: invalid type: string \"x\", expected a boolean".into())
    );
}

#[test]
fn what_gwctl_renders_for_testdata_passes() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata");
    let (mut gateways, mut checked) = (0, 0);
    let mut failures = Vec::new();
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    paths.sort();
    for path in paths {
        let Ok(run) = lint_paths(
            std::slice::from_ref(&path),
            &render_options(LintOptions::default()),
        ) else {
            continue;
        };
        let rendered = render(&run, &RenderOptions::default());
        gateways += rendered.gateways.len();
        checked += resources(&rendered);
        failures.extend(
            check_rendered(&rendered)
                .into_iter()
                .map(|f| format!("{}: {f}", path.display())),
        );
    }
    println!(
        "testdata: {gateways} Gateways rendered, {checked} resources checked, {} failed",
        failures.len()
    );
    assert!(gateways > 0, "no Gateway rendered from {}", dir.display());
    assert_eq!(failures, Vec::<String>::new(), "{}", failures.join("\n"));
}

#[test]
fn render_check_of_testdata_exits_0_without_findings() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/valid");
    let out = assert_cmd::Command::cargo_bin("gwctl")
        .map(|mut c| {
            c.args(["render", "--check", "--output", "json"])
                .arg(&dir)
                .output()
        })
        .ok()
        .and_then(Result::ok);
    let Some(out) = out else {
        panic!("gwctl did not run");
    };
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!((out.status.code(), stderr.as_ref()), (Some(0), ""));
    let docs: Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    assert!(
        docs.as_array().is_some_and(|d| !d.is_empty()),
        "no Gateway rendered"
    );
}

#[test]
fn what_gwctl_renders_for_the_kgateway_cases_passes() {
    let Some(corpus) = corpus("what_gwctl_renders_for_the_kgateway_cases_passes") else {
        return;
    };
    let (mut gateways, mut checked) = (0, 0);
    let mut failures = Vec::new();
    for case in common::kgateway::cases(&corpus, &render_options(LintOptions::default())) {
        let options = RenderOptions {
            gateway: case.gateway.clone(),
            ..RenderOptions::default()
        };
        let rendered = render(&case.run, &options);
        gateways += rendered.gateways.len();
        checked += resources(&rendered);
        failures.extend(
            check_rendered(&rendered)
                .into_iter()
                .map(|f| format!("{}: {f}", case.name)),
        );
    }
    println!(
        "kgateway cases: {gateways} Gateways rendered, {checked} resources checked, {} failed",
        failures.len()
    );
    assert!(gateways > 0, "no Gateway rendered from the kgateway cases");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_secret_placeholder_stands_for_bytes_and_other_text_is_not_base64() {
    let listener = |chain: &str| {
        let mut l = listener_with_hcm(json!({}));
        l["filterChains"][0]["transportSocket"] = json!({
            "name": "envoy.transport_sockets.tls",
            "typedConfig": {
                "@type": "type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.DownstreamTlsContext",
                "commonTlsContext": {"tlsCertificates": [{
                    "certificateChain": {"inlineBytes": chain},
                    "privateKey": {"inlineBytes": "<secret hmac:0123456789abcdef>"}
                }]}
            }
        });
        l
    };
    assert_eq!(
        check("Listeners", &listener("<secret hmac:fedcba9876543210>")),
        Ok(())
    );
    assert_eq!(check("Listeners", &listener("LS0tLS1CRUdJTg==")), Ok(()));
    assert_eq!(
        check("Listeners", &listener("<secret>")),
        Err("filterChains[0].transportSocket.typedConfig.commonTlsContext.tlsCertificates[0].certificateChain.inlineBytes: invalid base64: Invalid symbol 60, offset 0.".into())
    );
}

/// The committed descriptor set is what the xtask generates from the pinned Envoy protos, so that
/// the proto check checks against the protos it says it does.
#[test]
fn committed_descriptor_set_is_what_the_xtask_generates() {
    let out = std::process::Command::new(env!("CARGO"))
        .args(["run", "-q", "-p", "xtask", "--", "descriptors", "--check"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap_or_else(|e| panic!("cargo run -p xtask: {e}"));
    assert!(
        out.status.success(),
        "assets/envoy.descriptor.bin differs from what `cargo run -p xtask -- descriptors` generates:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// How many resources a rendering has, the shared clusters counted once.
fn resources(rendered: &gwctl::render::Rendered) -> usize {
    rendered.clusters.len()
        + rendered
            .gateways
            .iter()
            .map(|g| g.resources.len())
            .sum::<usize>()
}

/// A remote JWKS on a Service port that is not in the inputs: the provider names a cluster that
/// is never rendered, which `--check` reports with the Gateway, the resource and the cluster.
#[test]
fn render_check_fails_on_a_cluster_name_no_rendered_cluster_has() {
    let manifest = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/render/jwks_backend.yaml"),
    )
    .unwrap_or_default()
    .replace(
        "            group: gateway.kgateway.dev\n            kind: Backend\n            name: idp\n",
        "            name: idp\n            port: 8443\n",
    );
    assert!(manifest.contains("port: 8443"), "the example changed");
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("temp dir: {e}"));
    let file = dir.path().join("gw.yaml");
    std::fs::write(&file, manifest).unwrap_or_else(|e| panic!("write: {e}"));
    let out = assert_cmd::Command::cargo_bin("gwctl")
        .map(|mut c| c.args(["render", "--check"]).arg(&file).output())
        .ok()
        .and_then(Result::ok);
    let Some(out) = out else {
        panic!("gwctl did not run");
    };
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{stderr}");
    assert!(
        lines[0].starts_with("error: Gateway apps/edge: Listeners listener~80: ")
            && lines[0].ends_with(
                ".remoteJwks.httpUri.cluster: cluster \"kube_apps_idp_8443\" is not among the rendered clusters"
            ),
        "{stderr}"
    );
}
