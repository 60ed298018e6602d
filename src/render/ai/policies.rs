//! AiGatewayPolicies: one data-plane policy per policy, target and feature, keyed
//! `[<phase>/]<ns>/<policy>:<feature>:<targetNs>/<target>`. The data plane merges them itself
//! (by target specificity), so each is rendered as written, including on targets that are not in
//! the inputs (the status says those are not attached).

mod backend;
mod status;
mod traffic;

use std::cell::RefCell;

use serde_json::{Map, Value, json};

use super::backends::service_port;

use super::{AI_GROUP, Context, labels_match, service_host};
use crate::model::Object;
use crate::model::facts::GATEWAY_API;

/// The policies, handed to `emit` in output order; returns each AiGatewayPolicy's status (in the
/// reference's status list shape).
pub(super) fn policies(ctx: &Context<'_>, emit: &mut dyn FnMut(Value)) -> Vec<Value> {
    let objects: Vec<&Object> = ctx.inputs.of_kind(AI_GROUP, "AiGatewayPolicy").collect();
    super::translate_each(&objects, |object| policy_items(ctx, object), emit)
}

/// One policy's items (one per feature and target) and its status.
fn policy_items(ctx: &Context<'_>, object: &Object) -> (Vec<Value>, Value) {
    let mut out = Vec::new();
    let policy = Policy::new(object);
    let spec = &object.value["spec"];
    let mut features: Vec<Feature> = Vec::new();
    if let Some(t) = spec.get("traffic") {
        features.extend(traffic::features(ctx, &policy, t));
    }
    if let Some(b) = spec.get("backend") {
        features.extend(backend::features(ctx, &policy, b));
    }
    if let Some(f) = spec.get("frontend") {
        features.extend(traffic::frontend_features(ctx, &policy, f));
    }
    let status = status::policy_status(ctx, &policy);
    if policy.invalid.borrow().is_some() {
        // An invalid policy is not programmed at all.
        return (out, status);
    }
    for target_ref in &target_refs(ctx, object) {
        let Some((target_key, target)) = target(ctx, object, target_ref) else {
            continue;
        };
        for f in &features {
            let prefix = f.phase.map(|p| format!("{p}/")).unwrap_or_default();
            let mut p = Map::new();
            p.insert(
                "key".into(),
                format!(
                    "{prefix}{}/{}:{}:{target_key}",
                    object.id.namespace, object.id.name, f.name
                )
                .into(),
            );
            p.insert(
                "name".into(),
                json!({
                    "kind": object.id.kind,
                    "name": object.id.name,
                    "namespace": object.id.namespace,
                }),
            );
            p.insert("target".into(), target.clone());
            p.insert(f.section.into(), f.value.clone());
            out.push(Value::Object(p));
        }
    }
    (out, status)
}

/// A policy's targets: its `targetRefs`, then what its `targetSelectors` select (objects of the
/// kind in the policy's namespace whose labels match), as references.
pub(super) fn target_refs(ctx: &Context<'_>, policy: &Object) -> Vec<Value> {
    let spec = &policy.value["spec"];
    let mut out: Vec<Value> = spec["targetRefs"].as_array().cloned().unwrap_or_default();
    for selector in spec["targetSelectors"].as_array().into_iter().flatten() {
        let (Some(group), Some(kind)) = (selector["group"].as_str(), selector["kind"].as_str())
        else {
            continue;
        };
        for o in ctx.inputs.of_kind(group, kind) {
            if o.id.namespace == policy.id.namespace
                && labels_match(&o.value, &selector["matchLabels"])
            {
                let mut r = json!({"group": group, "kind": kind, "name": o.id.name});
                if let Some(section) = selector.get("sectionName") {
                    r["sectionName"] = section.clone();
                }
                out.push(r);
            }
        }
    }
    out
}

/// A policy (or a backend's inline policies) being translated, with what went wrong on the way
/// (its status says so).
pub(super) struct Policy<'o> {
    object: &'o Object,
    /// A part that could not be translated (the rest is): PartiallyValid.
    problems: RefCell<Vec<String>>,
    /// The policy cannot be programmed at all: Invalid.
    invalid: RefCell<Option<String>>,
}

impl<'o> Policy<'o> {
    pub(super) fn new(object: &'o Object) -> Self {
        Policy {
            object,
            problems: RefCell::new(Vec::new()),
            invalid: RefCell::new(None),
        }
    }

    /// What could not be translated, in the order met.
    pub(super) fn problems(&self) -> Vec<String> {
        self.problems.borrow().clone()
    }

    fn problem(&self, message: String) {
        let mut problems = self.problems.borrow_mut();
        if !problems.contains(&message) {
            problems.push(message);
        }
    }

    fn invalid(&self, message: String) {
        self.invalid.borrow_mut().get_or_insert(message);
    }
}

/// An AiGatewayBackend's own `policies` (or an MCP target's, or a provider's): the backend
/// features of a policy, written on the backend; what fails is recorded on `owner`.
pub(super) fn inline_policies(
    ctx: &Context<'_>,
    owner: &Policy<'_>,
    policies: &Value,
) -> Vec<Value> {
    if !policies.is_object() {
        return Vec::new();
    }
    backend::features(ctx, owner, policies)
        .into_iter()
        .map(|f| f.value)
        .collect()
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
fn target(ctx: &Context<'_>, policy: &Object, r: &Value) -> Option<(String, Value)> {
    let ns = policy.id.namespace.as_str();
    let name = r["name"].as_str()?;
    let group = r["group"].as_str().unwrap_or("");
    let kind = r["kind"].as_str()?;
    // A Service port is named by its number (the port's name resolved).
    let section = match (kind, r["sectionName"].as_str()) {
        ("Service", Some(s)) => {
            Some(service_port(ctx, ns, name, s).map_or_else(|| Value::from(s), Value::from))
        }
        (_, s) => s.map(Value::from),
    };
    let (mut key, mut value, field) = match (group, kind) {
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
        match &s {
            Value::String(text) => key = format!("{key}/{text}"),
            other => key = format!("{key}/{other}"),
        }
        value[field.1] = s;
    }
    Some((key, json!({ field.0: value })))
}
