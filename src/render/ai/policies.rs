//! AiGatewayPolicies: one data-plane policy per policy, target and feature, keyed
//! `[<phase>/]<ns>/<policy>:<feature>:<targetNs>/<target>`. The data plane merges them itself
//! (by target specificity), so each is rendered as written, including on targets that are not in
//! the inputs (the status says those are not attached).

mod backend;
mod traffic;

use serde_json::{Map, Value, json};

use super::{AI_GROUP, Context, service_host};
use crate::model::Object;
use crate::model::facts::GATEWAY_API;

pub(super) fn policies(ctx: &Context<'_>) -> Vec<Value> {
    let mut out = Vec::new();
    for policy in ctx.inputs.of_kind(AI_GROUP, "AiGatewayPolicy") {
        let spec = &policy.value["spec"];
        let mut features: Vec<Feature> = Vec::new();
        if let Some(t) = spec.get("traffic") {
            features.extend(traffic::features(ctx, policy, t));
        }
        if let Some(b) = spec.get("backend") {
            features.extend(backend::features(ctx, policy, b));
        }
        if let Some(f) = spec.get("frontend") {
            features.extend(traffic::frontend_features(f));
        }
        if features.is_empty() {
            continue;
        }
        for target_ref in spec["targetRefs"].as_array().into_iter().flatten() {
            let Some((target_key, target)) = target(policy, target_ref) else {
                continue;
            };
            for f in &features {
                let prefix = f.phase.map(|p| format!("{p}/")).unwrap_or_default();
                let mut p = Map::new();
                p.insert(
                    "key".into(),
                    format!(
                        "{prefix}{}/{}:{}:{target_key}",
                        policy.id.namespace, policy.id.name, f.name
                    )
                    .into(),
                );
                p.insert(
                    "name".into(),
                    json!({
                        "kind": policy.id.kind,
                        "name": policy.id.name,
                        "namespace": policy.id.namespace,
                    }),
                );
                p.insert("target".into(), target.clone());
                p.insert(f.section.into(), f.value.clone());
                out.push(Value::Object(p));
            }
        }
    }
    out
}

/// One feature of a policy, as the data plane receives it.
pub(super) struct Feature {
    /// The key's first part: `traffic`, `frontend`, `backend`, or none (backend TLS, HTTP and
    /// MCP features are keyed without it).
    phase: Option<&'static str>,
    /// The key's feature name (`timeout`, `extauth`, `frontend-tls`...).
    name: &'static str,
    /// Where the value goes: `traffic`, `backend` or `frontend`.
    section: &'static str,
    value: Value,
}

impl Feature {
    fn traffic(name: &'static str, value: Value) -> Self {
        Feature {
            phase: Some("traffic"),
            name,
            section: "traffic",
            value,
        }
    }

    fn frontend(name: &'static str, value: Value) -> Self {
        Feature {
            phase: Some("frontend"),
            name,
            section: "frontend",
            value,
        }
    }

    fn backend(phase: Option<&'static str>, name: &'static str, value: Value) -> Self {
        Feature {
            phase,
            name,
            section: "backend",
            value,
        }
    }
}

/// A targetRef as the data plane names it: the key's target part and the `target` value.
fn target(policy: &Object, r: &Value) -> Option<(String, Value)> {
    let ns = policy.id.namespace.as_str();
    let name = r["name"].as_str()?;
    let section = r["sectionName"].as_str();
    let with_section = |key: String| match section {
        Some(s) => format!("{key}/{s}"),
        None => key,
    };
    let group = r["group"].as_str().unwrap_or("");
    let (key, mut value, field) = match (group, r["kind"].as_str()?) {
        (GATEWAY_API, "Gateway") => (
            format!("{ns}/{name}"),
            json!({"name": name, "namespace": ns}),
            ("gateway", "listener"),
        ),
        (GATEWAY_API, "HTTPRoute" | "GRPCRoute") => (
            format!("{ns}/{name}"),
            json!({"name": name, "namespace": ns}),
            ("route", "ruleName"),
        ),
        (AI_GROUP, "AiGatewayBackend") => (
            format!("{ns}/{name}"),
            json!({"name": name, "namespace": ns}),
            ("backend", "section"),
        ),
        ("", "Service") => {
            let hostname = service_host(ns, name);
            (
                format!("{ns}/{hostname}"),
                json!({"hostname": hostname, "namespace": ns}),
                ("service", "port"),
            )
        }
        _ => return None,
    };
    if let Some(s) = section {
        value[field.1] = match (field.0, s.parse::<u64>()) {
            ("service", Ok(port)) => port.into(),
            _ => s.into(),
        };
    }
    Some((with_section(key), json!({ field.0: value })))
}
