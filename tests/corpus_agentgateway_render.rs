//! The AI data plane's rendering against the reference's agent gateway goldens
//! (`pkg/agentgateway/{translator,plugins}/testdata/` and the syncer's AiGatewayBackend goldens
//! `pkg/kgateway/agentgatewaysyncer/backend/testdata/backend/`): each file's renamed inputs (with
//! its folder's `_defaults.yaml` before them, as the reference's harness does) are linted,
//! rendered, and the set of output resources compared with the file's `# Output` document
//! (order and key order aside), then the statuses of the AI kinds (AiGatewayBackend,
//! AiGatewayPolicy) with its `status` (transition times aside). A credential is rendered as its
//! digest: it agrees when it is the digest of the golden's value (or of what it was read from).
//!
//! Run with `GWCTL_CORPUS=/work/shared/corpus cargo test --test corpus_agentgateway_render --
//! --nocapture` to see every case.

mod common;

use std::path::Path;

use gwctl::config::Config;
use gwctl::lint::{LintOptions, lint_sources};
use gwctl::parse::{Limits, parse_file};
use gwctl::render::{self, RenderOptions};
use gwctl::source::SourceFile;
use serde_json::Value;

/// Cases whose rendering agrees with the reference, at least (raise it when more agree).
const AGREEING: usize = 87;

/// Cases whose AI statuses agree with the reference, at least.
const AGREEING_STATUSES: usize = 63;

/// Cases whose AI statuses differ from the reference, with why.
const KNOWN_STATUSES: &[(&str, &str)] = &[];

/// Cases that differ from the reference, with why.
const KNOWN: &[(&str, &str)] = &[];

/// The folders, and which resources of the output each one's golden lists: the reference's
/// harness of each folder keeps only what that folder tests (the routes goldens show no binds or
/// listeners of their Gateways, the plugin goldens only policies).
const FOLDERS: &[(&str, &[&str])] = &[
    (
        "agentgateway/translator/testdata/backends",
        &[
            "bind", "listener", "route", "tcpRoute", "backend", "policy", "service", "workload",
        ],
    ),
    (
        "agentgateway/translator/testdata/gateways",
        &["bind", "listener"],
    ),
    (
        "agentgateway/translator/testdata/routes",
        &["route", "tcpRoute", "policy"],
    ),
    ("agentgateway/plugins/testdata/backendpolicy", &["policy"]),
    ("agentgateway/plugins/testdata/frontendpolicy", &["policy"]),
    ("agentgateway/plugins/testdata/trafficpolicy", &["policy"]),
    // The AiGatewayBackend translation goldens of the controller's syncer.
    (
        "kgateway/agentgatewaysyncer/backend/testdata/backend",
        &["backend"],
    ),
];

#[test]
fn agentgateway_goldens() {
    let Some(corpus) = common::corpus("corpus_agentgateway_render") else {
        return;
    };
    let root = corpus.join("kgateway-seed/pkg");
    let (mut equal, mut total) = (0, 0);
    let (mut statuses_equal, mut statuses_total) = (0, 0);
    let mut unexpected = Vec::new();
    for (folder, kinds) in FOLDERS {
        let dir = root.join(folder);
        let defaults = std::fs::read_to_string(dir.join("_defaults.yaml")).unwrap_or_default();
        for path in common::files_under(&dir, &["yaml"]) {
            if path.file_name().is_some_and(|n| n == "_defaults.yaml") {
                continue;
            }
            let name = format!(
                "{folder}/{}",
                path.file_stem().and_then(|s| s.to_str()).unwrap_or("")
            );
            let Some(c) = case(&path, &defaults, kinds) else {
                unexpected.push(format!("{name}: no # Output document"));
                continue;
            };
            total += 1;
            match first_difference(&c.got, &c.expected) {
                None => {
                    equal += 1;
                    println!("{name}: equal ({} resources)", c.expected.len());
                    if KNOWN.iter().any(|(k, _)| *k == name) {
                        unexpected.push(format!("{name}: agrees now, its KNOWN entry is stale"));
                    }
                }
                Some(at) => {
                    println!("{name}: differs at {at}");
                    if !KNOWN.iter().any(|(k, _)| *k == name) {
                        unexpected.push(format!("{name}: differs at {at}"));
                    }
                }
            }
            if c.expected_statuses.is_empty() && c.got_statuses.is_empty() {
                continue;
            }
            statuses_total += 1;
            match status_difference(&c.got_statuses, &c.expected_statuses) {
                None => {
                    statuses_equal += 1;
                    println!("{name}: statuses equal ({})", c.expected_statuses.len());
                    if KNOWN_STATUSES.iter().any(|(k, _)| *k == name) {
                        unexpected.push(format!(
                            "{name}: statuses agree now, the KNOWN_STATUSES entry is stale"
                        ));
                    }
                }
                Some(at) => {
                    println!("{name}: statuses differ at {at}");
                    if !KNOWN_STATUSES.iter().any(|(k, _)| *k == name) {
                        unexpected.push(format!("{name}: statuses differ at {at}"));
                    }
                }
            }
        }
    }
    println!("agentgateway goldens: {equal} of {total} equal");
    println!(
        "agentgateway golden statuses (AI backends and policies): {statuses_equal} of {statuses_total} equal"
    );
    assert!(total > 0, "no golden found under {}", root.display());
    assert!(
        equal >= AGREEING,
        "agreement fell: {equal} of {total} (was {AGREEING})"
    );
    assert!(
        statuses_equal >= AGREEING_STATUSES,
        "status agreement fell: {statuses_equal} of {statuses_total} (was {AGREEING_STATUSES})"
    );
    assert!(
        unexpected.is_empty(),
        "differences not in KNOWN (or stale KNOWN entries):\n{}",
        unexpected.join("\n")
    );
}

struct Case {
    got: Vec<Value>,
    expected: Vec<Value>,
    /// The statuses of the AI kinds (AiGatewayBackend, AiGatewayPolicy): what the AI renderer
    /// writes; the Gateway and route statuses are the status stage's.
    got_statuses: Vec<Value>,
    expected_statuses: Vec<Value>,
}

const STATUS_KINDS: &[&str] = &["AiGatewayBackend", "AiGatewayPolicy"];

/// The rendered and the expected resources and statuses of one golden, normalised and sorted.
fn case(path: &Path, defaults: &str, kinds: &[&str]) -> Option<Case> {
    let text = std::fs::read_to_string(path).ok()?;
    let (input, output) = text.split_once("\n# Output")?;
    let output = documents(&format!("# Output{output}"));
    let document = output.first()?;
    let expected = document["output"].as_array().cloned().unwrap_or_default();
    let files = vec![
        SourceFile::new(0, "_defaults.yaml", defaults.to_string()),
        SourceFile::new(1, path.display().to_string(), input.to_string()),
    ];
    let run = lint_sources(files, &render::render_options(LintOptions::default()));
    let rendered = render::render(
        &run,
        &RenderOptions {
            ai_controller: Config::default().controllers.ai,
            ..RenderOptions::default()
        },
    );
    let got = rendered
        .gateways
        .iter()
        .filter(|g| g.data_plane == render::DataPlane::Ai)
        .flat_map(|g| &g.resources)
        .chain(&rendered.shared)
        .map(|r| r.value.clone())
        .filter(|v| kinds.contains(&kind_of(v)))
        .map(canonical)
        .collect();
    let expected = expected
        .into_iter()
        .map(unwrap_plugin_policy)
        .filter(|v| kinds.contains(&kind_of(v)))
        .map(canonical)
        .collect();
    let mut got_statuses: Vec<Value> = rendered
        .shared_statuses
        .as_array()
        .into_iter()
        .flatten()
        .cloned()
        .collect();
    let expected_statuses = match &document["status"] {
        Value::Array(list) => list.clone(),
        // The plugin and syncer goldens hold the status of their one policy or backend alone.
        Value::Object(status) => {
            let kind = if status.contains_key("ancestors") {
                "AiGatewayPolicy"
            } else {
                "AiGatewayBackend"
            };
            got_statuses.retain(|s| s["kind"] == kind);
            let metadata = got_statuses
                .first()
                .map(|s| s["metadata"].clone())
                .unwrap_or(Value::Null);
            vec![serde_json::json!({
                "apiVersion": "agentgateway.dev/v1alpha1",
                "kind": kind,
                "metadata": metadata,
                "spec": null,
                "status": document["status"],
            })]
        }
        _ => Vec::new(),
    };
    let statuses = |list: Vec<Value>| {
        let mut list: Vec<Value> = list
            .into_iter()
            .filter(|s| {
                s["kind"]
                    .as_str()
                    .is_some_and(|k| STATUS_KINDS.contains(&k))
            })
            .map(|s| canonical(without_transition_times(s)))
            .collect();
        list.sort_by_cached_key(Value::to_string);
        list
    };
    Some(Case {
        got: sorted(got),
        expected: sorted(expected),
        got_statuses: statuses(got_statuses),
        expected_statuses: statuses(expected_statuses),
    })
}

/// The goldens write `lastTransitionTime: fake`; a dry run has no transition times.
fn without_transition_times(v: Value) -> Value {
    match v {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .filter(|(k, _)| k != "lastTransitionTime")
                .map(|(k, v)| (k, without_transition_times(v)))
                .collect(),
        ),
        Value::Array(items) => {
            Value::Array(items.into_iter().map(without_transition_times).collect())
        }
        other => other,
    }
}

/// The first status that differs: by kind and name, then the first differing path.
fn status_difference(got: &[Value], expected: &[Value]) -> Option<String> {
    let label = |v: &Value| {
        format!(
            "{} {}/{}",
            v["kind"].as_str().unwrap_or(""),
            v["metadata"]["namespace"].as_str().unwrap_or(""),
            v["metadata"]["name"].as_str().unwrap_or("")
        )
    };
    for e in expected {
        match got.iter().find(|g| label(g) == label(e)) {
            None => return Some(format!("missing {}", label(e))),
            Some(g) => {
                if let Some(path) = value_difference(g, e, "") {
                    return Some(format!("{}: {path}", label(e)));
                }
            }
        }
    }
    got.iter()
        .find(|g| !expected.iter().any(|e| label(e) == label(g)))
        .map(|g| format!("extra {}", label(g)))
}

fn documents(text: &str) -> Vec<Value> {
    let file = SourceFile::new(0, "output.yaml", text.to_string());
    parse_file(&file, &Limits::default())
        .documents
        .iter()
        .map(|d| d.root.to_json())
        .collect()
}

/// The plugin goldens list a policy as `{Policy: P}` and the syncer goldens a backend as
/// `{backend: B}`, the translator goldens as `{resource: {policy: P}}`: one shape for all.
fn unwrap_plugin_policy(item: Value) -> Value {
    let single = item.as_object().is_some_and(|o| o.len() == 1);
    match (item.get("Policy"), item.get("backend")) {
        (Some(p), _) if single => serde_json::json!({ "resource": { "policy": p } }),
        (_, Some(b)) if single => serde_json::json!({ "resource": { "backend": b } }),
        _ => item,
    }
}

/// `bind`, `listener`, `route`, `tcpRoute`, `backend`, `policy`; `workload` for an item with
/// a `workloadName`, else `service`.
fn kind_of(item: &Value) -> &str {
    if let Some(resource) = item.get("resource").and_then(Value::as_object) {
        return resource.keys().next().map(String::as_str).unwrap_or("");
    }
    if item.get("workloadName").is_some() {
        "workload"
    } else {
        "service"
    }
}

/// Keys sorted at every depth (the output keeps insertion order).
fn canonical(v: Value) -> Value {
    match v {
        Value::Object(map) => {
            let mut entries: Vec<(String, Value)> = map.into_iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            Value::Object(
                entries
                    .into_iter()
                    .map(|(k, v)| (k, canonical(v)))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.into_iter().map(canonical).collect()),
        other => other,
    }
}

/// By kind and key, then by the whole text: the order of the output means nothing.
fn sorted(mut items: Vec<Value>) -> Vec<Value> {
    items.sort_by_cached_key(|v| (kind_of(v).to_string(), key_of(v), v.to_string()));
    items
}

fn key_of(item: &Value) -> String {
    let kind = kind_of(item);
    let resource = &item["resource"][kind];
    match resource["key"].as_str() {
        Some(k) => k.to_string(),
        None => format!(
            "{}/{}",
            item["namespace"].as_str().unwrap_or(""),
            item["name"].as_str().unwrap_or("")
        ),
    }
}

/// Where the two sorted lists first differ: a resource only on one side, or the first path
/// inside one resource whose values differ.
fn first_difference(got: &[Value], expected: &[Value]) -> Option<String> {
    let label = |v: &Value| format!("{} {}", kind_of(v), key_of(v));
    for (g, e) in got.iter().zip(expected) {
        if label(g) != label(e) {
            let (g_label, e_label) = (label(g), label(e));
            return Some(if expected.iter().any(|x| label(x) == g_label) {
                format!("missing {e_label}")
            } else {
                format!("extra {g_label}")
            });
        }
        if let Some(path) = value_difference(g, e, "") {
            return Some(format!("{}: {path}", label(e)));
        }
    }
    match got.len().cmp(&expected.len()) {
        std::cmp::Ordering::Less => Some(format!("missing {}", label(&expected[got.len()]))),
        std::cmp::Ordering::Greater => Some(format!("extra {}", label(&got[expected.len()]))),
        std::cmp::Ordering::Equal => None,
    }
}

fn value_difference(got: &Value, expected: &Value, at: &str) -> Option<String> {
    match (got, expected) {
        (Value::Object(g), Value::Object(e)) => {
            for (k, ev) in e {
                let path = format!("{at}/{k}");
                match g.get(k) {
                    None => return Some(format!("{path} missing")),
                    Some(gv) => {
                        if let Some(d) = value_difference(gv, ev, &path) {
                            return Some(d);
                        }
                    }
                }
            }
            g.keys()
                .find(|k| !e.contains_key(*k))
                .map(|k| format!("{at}/{k} extra"))
        }
        (Value::Array(g), Value::Array(e)) => {
            for (i, (gv, ev)) in g.iter().zip(e).enumerate() {
                if let Some(d) = value_difference(gv, ev, &format!("{at}/{i}")) {
                    return Some(d);
                }
            }
            (g.len() != e.len()).then(|| format!("{at}: {} items, expected {}", g.len(), e.len()))
        }
        // A credential is printed as its digest: it agrees with the digest of the golden's value,
        // of the bytes it is base64 of (a certificate), or of the Secret entry it was read from
        // (`Bearer KEY`: gwctl never reads a Secret's value, only the model's digest of it).
        (Value::String(g), Value::String(e)) if g.starts_with("<secret ") => {
            let digests = [
                render::secret_digest(e),
                render::secret_digest(&format!("Bearer {e}")),
                gwctl::base64::decode(e)
                    .map(|bytes| gwctl::secrets::digest_bytes(&bytes))
                    .unwrap_or_default(),
            ];
            (!digests.contains(g))
                .then(|| format!("{at}: {got} is not the digest of the expected value"))
        }
        _ => (got != expected).then(|| format!("{at}: {got} expected {expected}")),
    }
}
