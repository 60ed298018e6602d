//! An AiGatewayPolicy's status as the AI controller writes it: per ancestor (the Gateway it
//! reaches, or the backend it targets) whether it was accepted and attached.

use serde_json::{Value, json};

use super::{Policy, Target};
use crate::model::facts::GATEWAY_API;
use crate::render::ai::{AI_GROUP, Context, condition};

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
    let accepted = condition("Accepted", true, "Valid", "Policy accepted");
    let entries: Vec<Value> = if ancestors.is_empty() {
        let what = missing.unwrap_or_else(|| "no target".to_string());
        vec![json!({
            "ancestorRef": {"group": AI_GROUP, "name": "StatusSummary"},
            "conditions": [
                accepted,
                condition("Attached", false, "Pending", &format!("Policy is not attached: {what} not found")),
            ],
            "controllerName": controller,
        })]
    } else {
        let conditions = if let Some(why) = policy.invalid.borrow().as_deref() {
            json!([
                condition("Accepted", true, "Invalid", why),
                condition(
                    "Attached",
                    false,
                    "Pending",
                    "Policy is not attached due to invalid status"
                ),
            ])
        } else if policy.problems.borrow().is_empty() {
            json!([
                accepted,
                condition("Attached", true, "Attached", "Attached to all targets"),
            ])
        } else {
            json!([condition(
                "Accepted",
                true,
                "PartiallyValid",
                &policy.problems.borrow().join("\n"),
            )])
        };
        ancestors
            .into_iter()
            .map(|a| json!({"ancestorRef": a, "conditions": conditions, "controllerName": controller}))
            .collect()
    };
    json!({
        "apiVersion": format!("{AI_GROUP}/v1alpha1"),
        "kind": object.id.kind,
        "metadata": {"name": object.id.name, "namespace": ns},
        "spec": null,
        "status": {"ancestors": entries},
    })
}
