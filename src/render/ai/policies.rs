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

use super::{AI_GROUP, Context, service_host};
use crate::model::Object;
use crate::model::facts::GATEWAY_API;
use crate::model::facts_policy::{PolicyFacts, PolicyField};

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
    static NO_FACTS: std::sync::LazyLock<PolicyFacts> =
        std::sync::LazyLock::new(PolicyFacts::default);
    let facts = ctx.inputs.facts_at(object).and_then(|f| f.policy());
    let facts = facts.unwrap_or(&NO_FACTS);
    let section = |name| Section::Facts(&facts.fields, name);
    let mut features: Vec<Feature> = Vec::new();
    features.extend(traffic::features(ctx, &policy, section("traffic")));
    features.extend(backend::features(ctx, &policy, section("backend")));
    features.extend(traffic::frontend_features(
        ctx,
        &policy,
        section("frontend"),
    ));
    let targets = target_refs(ctx, object, facts);
    let status = status::policy_status(ctx, &policy, &targets);
    if policy.invalid.borrow().is_some() {
        // An invalid policy is not programmed at all.
        return (out, status);
    }
    for target_ref in &targets {
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

/// A target of a policy: (group, kind, name) in the policy's namespace, and the section named.
pub(super) struct Target<'a> {
    pub group: &'a str,
    pub kind: &'a str,
    pub name: &'a str,
    pub section: Option<&'a str>,
}

/// A policy's targets: its `targetRefs` (those naming a kind and a name), then what its
/// `targetSelectors` select (objects of the kind in the policy's namespace whose labels match
/// `matchLabels`).
fn target_refs<'a>(ctx: &Context<'a>, policy: &Object, facts: &'a PolicyFacts) -> Vec<Target<'a>> {
    let mut out: Vec<Target<'a>> = facts
        .target_refs
        .iter()
        .filter(|r| r.name_written())
        .filter_map(|r| {
            Some(Target {
                group: r.group().unwrap_or(""),
                kind: r.kind()?,
                name: &r.name,
                section: r.section(),
            })
        })
        .collect();
    for selector in &facts.target_selectors {
        let Some(group) = selector.group.as_deref() else {
            continue;
        };
        let Some(wanted) = &selector.match_labels else {
            continue;
        };
        for o in ctx.inputs.of_kind(group, &selector.kind) {
            let labels = ctx.inputs.facts_at(o).map_or(&[][..], |f| &f.labels);
            let matches = wanted.iter().all(|w| labels.contains(w));
            if o.id.namespace == policy.id.namespace && matches {
                out.push(Target {
                    group,
                    kind: &selector.kind,
                    name: &o.id.name,
                    section: selector.section.as_deref(),
                });
            }
        }
    }
    out
}

/// One section (`traffic`, `backend`, `frontend`) of a policy, whose fields the features read.
#[derive(Clone, Copy)]
pub(super) enum Section<'a> {
    /// An AiGatewayPolicy's, from its typed facts: the fields named `<section>.<field>`.
    Facts(&'a [PolicyField], &'static str),
    /// An AiGatewayBackend's inline `policies`, as written.
    Value(&'a Value),
}

impl<'a> Section<'a> {
    /// A field's value; of a field written twice, the last (as in JSON).
    pub(super) fn get(self, key: &str) -> Option<&'a Value> {
        match self {
            Section::Facts(fields, section) => fields
                .iter()
                .rev()
                .find(|f| {
                    f.name
                        .strip_prefix(section)
                        .and_then(|r| r.strip_prefix('.'))
                        == Some(key)
                })
                .map(|f| &f.value),
            Section::Value(v) => v.get(key),
        }
    }

    /// A value inside a field (`field`, then `inner`).
    pub(super) fn at(self, field: &str, inner: &str) -> Option<&'a Value> {
        self.get(field)?.get(inner)
    }
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
    backend::features(ctx, owner, Section::Value(policies))
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
fn target(ctx: &Context<'_>, policy: &Object, r: &Target<'_>) -> Option<(String, Value)> {
    let ns = policy.id.namespace.as_str();
    let (name, group, kind) = (r.name, r.group, r.kind);
    // A Service port is named by its number (the port's name resolved).
    let section = match (kind, r.section) {
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
    // Moved in: `json!` would copy the value through serialisation.
    Some((
        key,
        Value::Object(Map::from_iter([(field.0.to_string(), value)])),
    ))
}
