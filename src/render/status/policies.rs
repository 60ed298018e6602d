//! The policies' conditions for the ancestors this Gateway programs: the Gateway, its listener
//! sets, and the backends its routes send to (the merge stage's predicted policy statuses).

use serde_json::{Map, Value};

use super::{Attachment, Context, condition, status_word};
use crate::config::Controllers;
use crate::diag::ResourceRef;
use crate::lint::Model;
use crate::merge::PolicyStatus;
use crate::model::Object;

/// The `policies` section: `Kind/ns/name` -> ancestors; `None` when no policy reaches the Gateway.
pub(super) fn policy_statuses(
    ctx: &Context<'_>,
    gateway: &Object,
    sets: &[&Object],
    attached: &[Attachment<'_>],
) -> Option<Value> {
    let statuses: Vec<PolicyStatus> = match &ctx.merged {
        Some(merged) => Model::statuses(merged, ctx.run),
        None => ctx.run.policy_statuses.clone(),
    };
    let backends = backends(attached);
    // The reference writes its well-known controller name on policy ancestors, whatever name
    // its route statuses carry.
    let controller = Controllers::default().proxy;
    let mut out = Map::new();
    for s in &statuses {
        let Some(ancestor) = ancestor_object(ctx, &s.ancestor) else {
            continue;
        };
        let programmed_here = std::iter::once(gateway)
            .chain(sets.iter().copied())
            .any(|o| std::ptr::eq(o, ancestor))
            || backends.contains(&(
                ancestor.id.kind.as_str(),
                ancestor.id.namespace.as_str(),
                ancestor.id.name.as_str(),
            ));
        if !programmed_here {
            continue;
        }
        let key = format!(
            "{}/{}/{}",
            s.policy.kind,
            s.policy.namespace.as_deref().unwrap_or(""),
            s.policy.name
        );
        let entry = out.entry(key).or_insert_with(|| {
            let mut m = Map::new();
            m.insert("ancestors".into(), Value::Array(Vec::new()));
            Value::Object(m)
        });
        if let Some(Value::Array(ancestors)) = entry.get_mut("ancestors") {
            ancestors.push(ancestor_status(s, ancestor, &controller));
        }
    }
    if out.is_empty() {
        return None;
    }
    out.sort_keys();
    Some(Value::Object(out))
}

fn ancestor_status(s: &PolicyStatus, ancestor: &Object, controller: &str) -> Value {
    let mut r = Map::new();
    r.insert("group".into(), ancestor.id.group.clone().into());
    r.insert("kind".into(), ancestor.id.kind.clone().into());
    r.insert("name".into(), ancestor.id.name.clone().into());
    r.insert("namespace".into(), ancestor.id.namespace.clone().into());
    let conditions = vec![
        condition(
            "Accepted",
            status_word(s.accepted.status),
            s.accepted.reason,
            &s.accepted.message,
        ),
        condition(
            "Attached",
            status_word(s.attached.status),
            s.attached.reason,
            &s.attached.message,
        ),
    ];
    let mut a = Map::new();
    a.insert("ancestorRef".into(), Value::Object(r));
    a.insert("conditions".into(), conditions.into());
    a.insert("controllerName".into(), controller.into());
    Value::Object(a)
}

/// The object an ancestor reference names (the reference carries no group).
fn ancestor_object<'a>(ctx: &Context<'a>, r: &ResourceRef) -> Option<&'a Object> {
    let namespace = r.namespace.as_deref().unwrap_or("");
    ctx.inputs
        .objects
        .iter()
        .find(|o| o.id.kind == r.kind && o.id.namespace == namespace && o.id.name == r.name)
}

/// (kind, namespace, name) of every backendRef of the attached routes' rules.
fn backends<'a>(attached: &[Attachment<'a>]) -> Vec<(&'a str, &'a str, &'a str)> {
    let mut out = Vec::new();
    for a in attached {
        let rules = a
            .route
            .value
            .pointer("/spec/rules")
            .and_then(Value::as_array);
        for rule in rules.into_iter().flatten() {
            let refs = rule.get("backendRefs").and_then(Value::as_array);
            for r in refs.into_iter().flatten() {
                let text = |key: &str| r.get(key).and_then(Value::as_str);
                out.push((
                    text("kind").unwrap_or("Service"),
                    text("namespace").unwrap_or(&a.route.id.namespace),
                    text("name").unwrap_or(""),
                ));
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}
