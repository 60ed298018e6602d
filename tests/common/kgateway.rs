//! The kgateway translator cases of the corpus (`CASES.yaml`): each case's renamed inputs
//! (`kgateway-seed/`) linted with gwctl, beside the reference's expected `Statuses`.

use std::path::Path;

use gwctl::diag::Diagnostic;
use gwctl::lint::{LintOptions, LintRun, lint_sources};
use gwctl::parse::{Limits, parse_file};
use gwctl::source::SourceFile;
use serde_json::Value;

use super::files_under;

/// Every document of a YAML file as JSON; empty when it cannot be read.
pub fn yaml(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let file = SourceFile::new(0, path.display().to_string(), text);
    parse_file(&file, &Limits::default())
        .documents
        .iter()
        .map(|d| d.root.to_json())
        .collect()
}

pub struct Case {
    pub name: String,
    /// The expected output document (its `Statuses` is what the reference concluded).
    pub output: Value,
    pub run: LintRun,
    /// The Gateway the reference rendered, as (namespace, name).
    pub gateway: Option<(String, String)>,
    /// The case's controller settings overrides (`EnableExperimentalGatewayAPIFeatures` ...).
    pub settings: Value,
}

/// Every case that has an expected output, linted with `options` and the case's
/// `GlobalPolicyNamespace` and `PolicyMerge` settings.
pub fn cases(corpus: &Path, options: &LintOptions) -> Vec<Case> {
    let reference = corpus.join("kgateway");
    let seed = corpus.join("kgateway-seed");
    let index = reference.join("pkg/kgateway/translator/gateway/testutils/CASES.yaml");
    let list = yaml(&index)
        .into_iter()
        .next()
        .and_then(|d| d["cases"].as_array().cloned())
        .unwrap_or_default();
    assert!(!list.is_empty(), "{} has no cases", index.display());
    let mut out = Vec::new();
    for case in &list {
        let name = case["name"].as_str().unwrap_or("").to_string();
        let Some(output) = case["output"].as_str() else {
            continue;
        };
        let Some(output) = yaml(&reference.join(output)).into_iter().next() else {
            continue;
        };
        let mut files = Vec::new();
        for input in case["inputs"].as_array().into_iter().flatten() {
            let path = seed.join(input.as_str().unwrap_or(""));
            let paths = if path.is_dir() {
                files_under(&path, &["yaml", "yml"])
            } else {
                vec![path]
            };
            for p in paths {
                let text = std::fs::read_to_string(&p).unwrap_or_default();
                files.push(SourceFile::new(files.len(), p.display().to_string(), text));
            }
        }
        // The controller settings gwctl has a counterpart for (the config file's).
        let mut options = options.clone();
        if let Some(ns) = case["settings"]["GlobalPolicyNamespace"].as_str() {
            options.config.global_policy_namespace = Some(ns.to_string());
        }
        // `PolicyMerge` is JSON: {"trafficPolicy": {"extAuth": "DeepMerge", ...}}.
        if let Some(merge) = case["settings"]["PolicyMerge"].as_str() {
            let merge: Value = serde_json::from_str(merge).unwrap_or_default();
            let deep = |field: &str| merge["trafficPolicy"][field].as_str() == Some("DeepMerge");
            let m = &mut options.config.policy_merge;
            m.ext_auth_deep |= deep("extAuth");
            m.ext_proc_deep |= deep("extProc");
            m.transformation_deep |= deep("transformation");
        }
        let run = lint_sources(files, &options);
        let gateway = case["gateway"]
            .as_str()
            .and_then(|g| g.split_once('/'))
            .map(|(ns, n)| (ns.to_string(), n.to_string()));
        let settings = case["settings"].clone();
        out.push(Case {
            name,
            output,
            run,
            gateway,
            settings,
        });
    }
    out
}

/// The case's `DiscoveryNamespaceSelectors` setting (a JSON list of label selectors), as the
/// render option; empty without one.
pub fn discovery_selectors(case: &Case) -> Vec<Value> {
    let Some(text) = case.settings["DiscoveryNamespaceSelectors"].as_str() else {
        return Vec::new();
    };
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Array(list)) => list,
        _ => panic!(
            "{}: DiscoveryNamespaceSelectors {text:?} is not a JSON list",
            case.name
        ),
    }
}

/// The findings on the resource `kind` `ns/name`.
pub fn on<'r>(run: &'r LintRun, kind: &str, ns_name: &str) -> Vec<&'r Diagnostic> {
    run.diagnostics
        .iter()
        .filter(|d| {
            d.resource.as_ref().is_some_and(|r| {
                r.kind == kind
                    && format!("{}/{}", r.namespace.as_deref().unwrap_or(""), r.name) == ns_name
            })
        })
        .collect()
}

/// The reference's kind names, as the seed renames them.
pub fn renamed_kind(kind: &str) -> &str {
    match kind {
        "AgentgatewayPolicy" => "AiGatewayPolicy",
        "AgentgatewayBackend" => "AiGatewayBackend",
        other => other,
    }
}

const ROUTE_KINDS: &[(&str, &str)] = &[
    ("httpRoutes", "HTTPRoute"),
    ("grpcRoutes", "GRPCRoute"),
    ("tcpRoutes", "TCPRoute"),
    ("tlsRoutes", "TLSRoute"),
    ("udpRoutes", "UDPRoute"),
];

/// Routes of the expected statuses: (kind, "ns/name", accepted on some parent, Accepted and
/// ResolvedRefs on every parent).
pub fn expected_routes(output: &Value) -> Vec<(&'static str, String, bool, bool)> {
    let mut out = Vec::new();
    for (key, kind) in ROUTE_KINDS {
        let Some(routes) = output["Statuses"][key].as_object() else {
            continue;
        };
        for (name, status) in routes {
            let mut accepted = false;
            let mut good = true;
            for parent in status["parents"].as_array().into_iter().flatten() {
                for c in parent["conditions"].as_array().into_iter().flatten() {
                    let t = c["type"].as_str().unwrap_or("");
                    let ok = c["status"].as_str() == Some("True");
                    if t == "Accepted" && ok {
                        accepted = true;
                    }
                    if (t == "Accepted" || t == "ResolvedRefs") && !ok {
                        good = false;
                    }
                }
            }
            out.push((*kind, name.clone(), accepted, good));
        }
    }
    out
}

/// Where gwctl and the reference disagree on the case's routes: a route the reference shows not
/// Accepted or not ResolvedRefs without a GW2xx finding, a route it accepts with a route
/// attachment error. Second: GW2xx findings on routes the reference accepted and resolved
/// (reported by the route test, not disagreements: some are right).
pub fn route_problems(case: &Case) -> (Vec<String>, Vec<String>) {
    let mut problems = Vec::new();
    let mut extra = Vec::new();
    for (kind, route, accepted, good) in expected_routes(&case.output) {
        let on_route: Vec<_> = on(&case.run, kind, &route)
            .into_iter()
            .filter(|d| d.code.as_str().starts_with("GW2") && d.code != gwctl::rules::GW212)
            .collect();
        if good {
            extra.extend(
                on_route
                    .iter()
                    .map(|d| format!("{}: {kind} {route}: {} {}", case.name, d.code, d.message)),
            );
        }
        if !good && on_route.is_empty() {
            problems.push(format!(
                "{kind} {route}: reference reports it not Accepted/ResolvedRefs, gwctl has no finding"
            ));
        }
        if accepted
            && let Some(d) = on_route.iter().find(|d| {
                matches!(
                    d.code,
                    gwctl::rules::GW201
                        | gwctl::rules::GW202
                        | gwctl::rules::GW203
                        | gwctl::rules::GW204
                ) && d.severity == gwctl::diag::Severity::Error
            })
        {
            problems.push(format!(
                "{kind} {route}: reference accepts it, gwctl says {} {}",
                d.code, d.message
            ));
        }
    }
    (problems, extra)
}
