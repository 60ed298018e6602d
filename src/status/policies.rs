//! The policies' conditions for the ancestors this Gateway programs: the Gateway, its listener
//! sets, the backends its routes send to and those no route sends to (the merge stage's
//! predicted policy statuses, with what it does not model: listener sets, DirectResponses
//! named by filters).

use serde_json::{Map, Value};

use super::lookup::Lookup;
use super::messages::controller_message;
use super::{Attachment, Context, is, named, observed_condition, status_word};
use crate::config::Controllers;
use crate::diag::ResourceRef;
use crate::fasthash::{FastMap, FastSet};
use crate::merge::{MSG_ACCEPTED, MSG_ATTACHED, PolicyCondition, PolicyStatus, mark_invalid};
use crate::model::Object;
use crate::resolve::resource_ref;

/// What this Gateway programs, which its policies' ancestors are among.
pub(super) struct Reach<'r, 'a> {
    pub gateway: &'a Object,
    /// The listener sets it admits.
    pub sets: &'r [&'a Object],
    pub attached: &'r [Attachment<'a>],
}

/// The merge stage's policy statuses (marked by the run's findings), by the ancestor they are
/// on, made once for every Gateway: a Gateway's statuses are looked up, not found by a scan.
pub(super) struct ByAncestor<'a> {
    statuses: Vec<PolicyStatus>,
    /// Each status's ancestor among the inputs (`None` when it is not there).
    ancestors: Vec<Option<&'a Object>>,
    /// Indexes into `statuses`, in order, by the ancestor's (kind, namespace, name).
    on: FastMap<(&'a str, &'a str, &'a str), Vec<usize>>,
    /// The statuses on backends no route sends to. Every Gateway translates those backends, so
    /// these are written once for all ([`unrouted_statuses`]), not with each Gateway.
    unrouted: Vec<usize>,
}

impl<'a> ByAncestor<'a> {
    pub fn new(statuses: Vec<PolicyStatus>, lookup: &Lookup<'a>) -> Self {
        let mut on: FastMap<_, Vec<usize>> = FastMap::default();
        let mut unrouted = Vec::new();
        let ancestors: Vec<Option<&Object>> = statuses
            .iter()
            .map(|s| lookup.object(&s.ancestor))
            .collect();
        for (i, ancestor) in ancestors.iter().enumerate() {
            let Some(ancestor) = ancestor else {
                continue;
            };
            let id = &ancestor.id;
            if !is_parent_kind(&id.kind) && !lookup.used(ancestor) {
                unrouted.push(i);
            } else {
                on.entry((id.kind.as_str(), id.namespace.as_str(), id.name.as_str()))
                    .or_default()
                    .push(i);
            }
        }
        ByAncestor {
            statuses,
            ancestors,
            on,
            unrouted,
        }
    }

    /// Adds the `i`th status to the `policies` section (see [`add_status`]).
    fn add(&self, out: &mut Map<String, Value>, lookup: &Lookup<'_>, i: usize) {
        if let Some(ancestor) = self.ancestors[i] {
            add_status(out, lookup, &self.statuses[i], ancestor);
        }
    }

    fn on<'s>(&'s self, kind: &'s str, namespace: &'s str, name: &'s str) -> &'s [usize] {
        self.on
            .get(&(kind, namespace, name))
            .map_or(&[], Vec::as_slice)
    }

    /// The status of `policy` on `ancestor`, if the merge stage made one.
    fn find(&self, policy: &Object, ancestor: &Object) -> Option<&PolicyStatus> {
        let id = &ancestor.id;
        self.on(&id.kind, &id.namespace, &id.name)
            .iter()
            .map(|&i| &self.statuses[i])
            .find(|s| same(&s.policy, policy) && same(&s.ancestor, ancestor))
    }
}

/// Kinds routes attach to: a policy status on one is the Gateway's that programs it.
fn is_parent_kind(kind: &str) -> bool {
    matches!(kind, "Gateway" | "ListenerSet" | "XListenerSet")
}

/// The `policies` section: `Kind/ns/name` -> ancestors; `None` when no policy reaches the Gateway.
pub(super) fn policy_statuses(
    ctx: &Context<'_>,
    lookup: &Lookup<'_>,
    merged: &ByAncestor<'_>,
    reach: &Reach<'_, '_>,
) -> Option<Value> {
    let (gateway, sets, attached) = (reach.gateway, reach.sets, reach.attached);
    let mut extra = through_listener_sets(lookup, gateway, sets, attached, merged);
    extra.extend(direct_responses(ctx, attached));
    if !extra.is_empty() {
        mark_invalid(&mut extra, &ctx.run.verdicts);
    }
    let sends_to = backends(ctx, attached);
    // The merge stage's statuses on the Gateway, its listener sets and the backends its routes
    // send to, in the merge stage's order.
    let mut picked: Vec<usize> = Vec::new();
    for parent in std::iter::once(gateway).chain(sets.iter().copied()) {
        let id = &parent.id;
        picked.extend(
            merged
                .on(&id.kind, &id.namespace, &id.name)
                .iter()
                .filter(|&&i| merged.ancestors[i].is_some_and(|a| std::ptr::eq(a, parent))),
        );
    }
    for &(kind, namespace, name) in &sends_to {
        if !is_parent_kind(kind) {
            picked.extend(merged.on(kind, namespace, name));
        }
    }
    picked.sort_unstable();
    picked.dedup();
    let mut out = Map::new();
    for &i in &picked {
        merged.add(&mut out, lookup, i);
    }
    for s in &extra {
        let Some(ancestor) = lookup.object(&s.ancestor) else {
            continue;
        };
        // The merge stage judged the policy there already (a policy placed on a listener set).
        let judged = picked.iter().any(|&i| {
            let m = &merged.statuses[i];
            m.policy == s.policy && m.ancestor == s.ancestor
        });
        if judged {
            continue;
        }
        let id = &ancestor.id;
        let programmed_here = if is_parent_kind(&id.kind) {
            std::iter::once(gateway)
                .chain(sets.iter().copied())
                .any(|o| std::ptr::eq(o, ancestor))
        } else {
            !lookup.used(ancestor)
                || sends_to.contains(&(id.kind.as_str(), id.namespace.as_str(), id.name.as_str()))
        };
        if programmed_here {
            add_status(&mut out, lookup, s, ancestor);
        }
    }
    if out.is_empty() {
        return None;
    }
    out.sort_keys();
    Some(Value::Object(out))
}

/// The `policies` section of the statuses on backends no route sends to (written once for
/// every Gateway); `None` when there are none.
pub(super) fn unrouted_statuses(lookup: &Lookup<'_>, merged: &ByAncestor<'_>) -> Option<Value> {
    let mut out = Map::new();
    for &i in &merged.unrouted {
        merged.add(&mut out, lookup, i);
    }
    if out.is_empty() {
        return None;
    }
    out.sort_keys();
    Some(Value::Object(out))
}

/// Adds `s` to the `policies` section as an ancestor of its policy (once).
fn add_status(
    out: &mut Map<String, Value>,
    lookup: &Lookup<'_>,
    s: &PolicyStatus,
    ancestor: &Object,
) {
    let (key, status) = ancestor_entry(lookup, s, ancestor);
    let entry = out.entry(key).or_insert_with(|| {
        let mut m = Map::new();
        m.insert("ancestors".into(), Value::Array(Vec::new()));
        Value::Object(m)
    });
    if let Some(Value::Array(ancestors)) = entry.get_mut("ancestors")
        && !ancestors.contains(&status)
    {
        ancestors.push(status);
    }
}

/// `s` as an entry of its policy's `ancestors`: (`Kind/ns/name` of the policy, the entry).
fn ancestor_entry(lookup: &Lookup<'_>, s: &PolicyStatus, ancestor: &Object) -> (String, Value) {
    // The reference writes its well-known controller name on policy ancestors, whatever name
    // its route statuses carry.
    let controller = Controllers::default().proxy;
    let key = format!(
        "{}/{}/{}",
        s.policy.kind,
        s.policy.namespace.as_deref().unwrap_or(""),
        s.policy.name
    );
    let generation = lookup
        .object(&s.policy)
        .and_then(|o| match lookup.facts_of(o) {
            Some(f) if f.policy().is_some() => f.policy().and_then(|p| p.generation),
            _ => o
                .value
                .pointer("/metadata/generation")
                .and_then(Value::as_i64),
        });
    // A policy the controller rejects is Invalid and Pending wherever it is.
    let rejected = lookup.rejection(&s.policy).map(|r| {
        let accepted = PolicyCondition {
            status: false,
            reason: "Invalid",
            message: controller_message(r, lookup.written(&s.policy)),
        };
        let attached = PolicyCondition {
            status: false,
            reason: "Pending",
            message: String::new(),
        };
        (accepted, attached)
    });
    let conditions = match &rejected {
        Some((accepted, attached)) => [accepted, attached],
        None => [&s.accepted, &s.attached],
    };
    (
        key,
        ancestor_status(conditions, ancestor, &controller, generation),
    )
}

/// (kind, namespace, name) of every backendRef of the attached routes' rules.
fn backends<'a>(
    ctx: &Context<'a>,
    attached: &[Attachment<'a>],
) -> FastSet<(&'a str, &'a str, &'a str)> {
    attached
        .iter()
        .filter_map(|a| Some((a.route, ctx.inputs.facts_at(a.route)?)))
        .flat_map(|(route, facts)| super::lookup::backend_refs(route, facts))
        .collect()
}

/// `generation`: the policy's `metadata.generation`, which the conditions echo when set.
fn ancestor_status(
    [accepted, attached]: [&PolicyCondition; 2],
    ancestor: &Object,
    controller: &str,
    generation: Option<i64>,
) -> Value {
    let mut r = Map::new();
    r.insert("group".into(), ancestor.id.group.clone().into());
    r.insert("kind".into(), ancestor.id.kind.clone().into());
    r.insert("name".into(), ancestor.id.name.clone().into());
    r.insert("namespace".into(), ancestor.id.namespace.clone().into());
    let conditions = vec![
        observed_condition(
            "Accepted",
            status_word(accepted.status),
            accepted.reason,
            &accepted.message,
            generation,
        ),
        observed_condition(
            "Attached",
            status_word(attached.status),
            attached.reason,
            &attached.message,
            generation,
        ),
    ];
    let mut a = Map::new();
    a.insert("ancestorRef".into(), Value::Object(r));
    a.insert("conditions".into(), conditions.into());
    a.insert("controllerName".into(), controller.into());
    Value::Object(a)
}

fn same(r: &ResourceRef, o: &Object) -> bool {
    let namespace = r.namespace.as_deref().unwrap_or("");
    o.id.kind == r.kind && o.id.namespace == namespace && o.id.name == r.name
}

/// A status of `policy` for `ancestor`, accepted and attached (findings on the policy then
/// mark it invalid).
fn status_for(policy: &Object, ancestor: &Object, attached: bool) -> PolicyStatus {
    PolicyStatus {
        policy_index: 0,
        policy: resource_ref(&policy.id),
        ancestor: resource_ref(&ancestor.id),
        accepted: PolicyCondition {
            status: true,
            reason: "Valid",
            message: MSG_ACCEPTED.to_string(),
        },
        attached: if attached {
            PolicyCondition {
                status: true,
                reason: "Attached",
                message: MSG_ATTACHED.to_string(),
            }
        } else {
            PolicyCondition {
                status: false,
                reason: "Pending",
                message: String::new(),
            }
        },
    }
}

/// The listener sets a policy reaches: a policy on a listener set (or one of its listeners), on
/// a route attached through a listener set, or on the Gateway (its listener sets' listeners are
/// the Gateway's). Each listener set is an ancestor of its own, with the conditions the policy
/// has on the Gateway when it has some. Where the merge stage judged the policy on the set
/// itself (a policy placed on the set's listeners), its status is the one kept.
fn through_listener_sets(
    lookup: &Lookup<'_>,
    gateway: &Object,
    sets: &[&Object],
    attached: &[Attachment<'_>],
    merged: &ByAncestor<'_>,
) -> Vec<PolicyStatus> {
    let mut out = Vec::new();
    if sets.is_empty() {
        return out;
    }
    let candidates = std::iter::once(gateway)
        .chain(sets.iter().copied())
        .chain(attached.iter().map(|a| a.route));
    for policy in lookup.targeting(candidates) {
        let targets = lookup.facts_of(policy).map_or(&[][..], |f| f.target_refs());
        let mut reached: Vec<&Object> = Vec::new();
        for t in targets {
            let target = named(t, &policy.id.namespace, "");
            if is(gateway, &target) {
                reached.extend(sets.iter().copied());
            }
            reached.extend(sets.iter().copied().filter(|s| is(s, &target)));
            reached.extend(
                attached
                    .iter()
                    .filter(|a| is(a.route, &target) && !std::ptr::eq(a.parent, gateway))
                    .map(|a| a.parent),
            );
        }
        let on_gateway = merged.find(policy, gateway);
        for set in reached {
            let mut status = status_for(policy, set, true);
            if let Some(g) = on_gateway {
                status.accepted = g.accepted.clone();
                status.attached = g.attached.clone();
            }
            if !out
                .iter()
                .any(|s: &PolicyStatus| s.policy == status.policy && s.ancestor == status.ancestor)
            {
                out.push(status);
            }
        }
    }
    out
}

/// DirectResponses named by the attached routes' ExtensionRef filters: the controller reports
/// them as policies of the route's parent, attached when a rule's filter names them, pending
/// when only a backendRef's filter does (where a direct response does not apply).
fn direct_responses(ctx: &Context<'_>, attached: &[Attachment<'_>]) -> Vec<PolicyStatus> {
    let mut out: Vec<PolicyStatus> = Vec::new();
    for a in attached {
        let facts = ctx.inputs.facts_at(a.route).and_then(|f| f.route());
        // A rule's filters, then its backendRefs' (in spec order, as the facts keep them).
        for r in facts.map_or(&[][..], |f| &f.extension_refs) {
            if r.kind() != Some("DirectResponse") {
                continue;
            }
            let on_rule = !r.path.contains(".backendRefs[");
            let ns = &a.route.id.namespace;
            let group = r.group().unwrap_or("");
            let Some(dr) = ctx.inputs.get(group, "DirectResponse", ns, &r.name) else {
                continue;
            };
            let status = status_for(dr, a.parent, on_rule);
            match out
                .iter_mut()
                .find(|s| s.policy == status.policy && s.ancestor == status.ancestor)
            {
                // Attached on one rule is attached.
                Some(s) if on_rule => s.attached = status.attached,
                Some(_) => {}
                None => out.push(status),
            }
        }
    }
    out
}
