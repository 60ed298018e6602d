//! An AiGatewayPolicy's status as the AI controller writes it: per ancestor (the Gateway it
//! reaches, or the backend it targets) whether it was accepted and attached.

use serde_json::{Value, json};

use super::{Policy, Target};
use crate::model::facts::GATEWAY_API;
use crate::render::ai::{AI_GROUP, Context, condition};
use crate::render::json;

pub(super) fn policy_status(
    ctx: &Context<'_>,
    policy: &Policy<'_>,
    targets: &[Target<'_>],
) -> Value {
    let object = policy.object;
    let ns = object.id.namespace.as_str();
    let mut ancestors: Vec<Value> = Vec::new();
    let mut missing = None;
    for r in targets {
        let (group, kind, name) = (r.group, r.kind, r.name);
        let Some(target) = ctx.inputs.get(group, kind, ns, name) else {
            missing.get_or_insert(format!("{kind} {ns}/{name}"));
            continue;
        };
        let found: Vec<Value> = match (group, kind) {
            (GATEWAY_API, "HTTPRoute" | "GRPCRoute") => {
                let facts = ctx.inputs.facts_at(target).and_then(|f| f.route());
                facts
                    .map_or(&[][..], |f| &f.parent_refs)
                    .iter()
                    .filter(|p| p.kind().unwrap_or("Gateway") == "Gateway" && p.name_written())
                    .map(|p| {
                        json!({
                            "group": GATEWAY_API,
                            "kind": "Gateway",
                            "name": &*p.name,
                            "namespace": p.namespace().unwrap_or(ns),
                        })
                    })
                    .collect()
            }
            _ => vec![json!({"group": group, "kind": kind, "name": name, "namespace": ns})],
        };
        for a in found {
            if !ancestors.contains(&a) {
                ancestors.push(a);
            }
        }
    }
    let controller = ctx.options.ai_controller.as_str();
    let entries = ancestor_entries(policy, ancestors, missing, controller);
    json::object([
        ("apiVersion", Value::from(format!("{AI_GROUP}/v1alpha1"))),
        ("kind", Value::from(object.id.kind.as_str())),
        (
            "metadata",
            json::object([
                ("name", Value::from(object.id.name.as_str())),
                ("namespace", Value::from(ns)),
            ]),
        ),
        ("spec", Value::Null),
        (
            "status",
            json::object([("ancestors", Value::Array(entries))]),
        ),
    ])
}

/// The status's `ancestors`: each ancestor with the policy's conditions, or (none found) one
/// summary saying what is `missing`.
fn ancestor_entries(
    policy: &Policy<'_>,
    ancestors: Vec<Value>,
    missing: Option<String>,
    controller: &str,
) -> Vec<Value> {
    // Built by moving the parts in: `json!` would copy each value through serialisation.
    let entry = |ancestor_ref: Value, conditions: Value| {
        json::object([
            ("ancestorRef", ancestor_ref),
            ("conditions", conditions),
            ("controllerName", Value::from(controller)),
        ])
    };
    let accepted = condition("Accepted", true, "Valid", "Policy accepted");
    if ancestors.is_empty() {
        let what = missing.unwrap_or_else(|| "no target".to_string());
        let pending = format!("Policy is not attached: {what} not found");
        vec![entry(
            json!({"group": AI_GROUP, "name": "StatusSummary"}),
            Value::Array(vec![
                accepted,
                condition("Attached", false, "Pending", &pending),
            ]),
        )]
    } else {
        let conditions = if let Some(why) = policy.invalid.borrow().as_deref() {
            vec![
                condition("Accepted", true, "Invalid", why),
                condition(
                    "Attached",
                    false,
                    "Pending",
                    "Policy is not attached due to invalid status",
                ),
            ]
        } else if policy.problems.borrow().is_empty() {
            vec![
                accepted,
                condition("Attached", true, "Attached", "Attached to all targets"),
            ]
        } else {
            vec![condition(
                "Accepted",
                true,
                "PartiallyValid",
                &policy.problems.borrow().join("\n"),
            )]
        };
        let conditions = Value::Array(conditions);
        ancestors
            .into_iter()
            .map(|a| entry(a, conditions.clone()))
            .collect()
    }
}
