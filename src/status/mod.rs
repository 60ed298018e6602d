//! The status stage, between merge and render: the conditions the controller would write on the
//! Gateway and its listeners (and its listener sets), on the routes attached to it and on the
//! policies that reach it, in the shape of the `Statuses` section of the reference's golden
//! outputs (decisions.md section 7). Render attaches them to each Gateway's rendering.
//!
//! Built from what the pipeline predicts: the route conditions of the resolve stage, the policy
//! statuses of the merge stage, and the objects for what only the Gateway's own spec decides
//! (listener protocols, route kinds, certificates, conflicts).

mod context;
mod delegation;
mod discovery;
mod listeners;
mod lookup;
mod messages;
mod policies;
pub mod proxy;
mod routes;
mod rules;
mod tls;

use serde_json::{Map, Value};

use crate::fasthash::FastMap;
use crate::lint::Model;
use crate::model::Object;
use crate::model::facts::{GATEWAY_API, GATEWAY_API_X, ObjRef};
use crate::resolve::{Grants, RouteStatus};

pub use context::{Context, Inputs, Lookups, RenderOptions, ReplacedRoute, ValidationLevel};
pub use discovery::Discovery;
pub use listeners::{admits, terminates_tls};
pub use rules::SECOND_DIRECT_RESPONSE;
pub use tls::{frontend_validation, key_pair_failure};

/// The statuses of one Gateway, without its rendering's replaced routes. To render many, build
/// [`Shared`] once and use [`statuses_with`]: this builds it for the one Gateway.
pub fn statuses<'a>(ctx: &Context<'a>, gateway: &'a Object) -> Value {
    statuses_with(ctx, &Shared::new(ctx), gateway, &[])
}

/// What the statuses of every Gateway of a run read, computed once for all of them.
pub struct Shared<'a> {
    lookup: lookup::Lookup<'a>,
    /// Route parentRefs (route status, route, parentRef as written) by the (group, kind,
    /// namespace, name) they name, in the order of the resolve stage's route statuses.
    by_parent: FastMap<Target<'a>, Vec<(&'a RouteStatus, &'a Object, &'a ObjRef)>>,
    /// The merge stage's policy statuses, with the run's findings marking the invalid.
    policy_statuses: policies::ByAncestor<'a>,
    /// The resolve stage's ReferenceGrants, when the run kept its model.
    grants: Option<&'a Grants>,
}

type Target<'a> = (&'a str, &'a str, &'a str, &'a str);

impl<'a> Shared<'a> {
    pub fn new(ctx: &Context<'a>) -> Self {
        let mut by_parent: FastMap<Target<'a>, Vec<_>> = FastMap::default();
        for status in &ctx.run.route_statuses {
            let namespace = status.route.namespace.as_deref().unwrap_or("");
            let Some(route) = ctx.inputs.get(
                GATEWAY_API,
                &status.route.kind,
                namespace,
                &status.route.name,
            ) else {
                continue;
            };
            let facts = ctx.inputs.facts_at(route).and_then(|f| f.route());
            let Some(parent_ref) = facts.and_then(|f| f.parent_refs.get(status.parent)) else {
                continue;
            };
            let target = named(parent_ref, &route.id.namespace, "Gateway");
            by_parent
                .entry(target)
                .or_default()
                .push((status, route, parent_ref));
        }
        let lookup = lookup::Lookup::new(ctx);
        let statuses = match &ctx.merged {
            Some(merged) => Model::statuses(merged, ctx.run),
            None => ctx.run.policy_statuses.clone(),
        };
        Shared {
            policy_statuses: policies::ByAncestor::new(statuses, &lookup),
            lookup,
            by_parent,
            grants: ctx.run.model.as_ref().map(|m| &m.grants),
        }
    }

    /// The statuses of the policies on backends no route sends to, which every Gateway
    /// translates: `{"policies": ...}`, or `Null` when there are none.
    pub fn unrouted_statuses(&self) -> Value {
        match policies::unrouted_statuses(&self.lookup, &self.policy_statuses) {
            Some(p) => Value::Object(Map::from_iter([("policies".to_string(), p)])),
            None => Value::Null,
        }
    }

    /// The ReferenceGrants that answer whether a reference is allowed.
    fn grants(&self) -> Option<&'a Grants> {
        self.grants
    }
}

/// The statuses of one Gateway; `replaced` are the routes its rendering replaced after the
/// controller's check of the generated route.
pub fn statuses_with<'a>(
    ctx: &Context<'a>,
    shared: &Shared<'a>,
    gateway: &'a Object,
    replaced: &[ReplacedRoute],
) -> Value {
    let sets = listener_sets(ctx, gateway);
    // Routes and policies reach the Gateway only through the listener sets it admits.
    let admitted: Vec<&Object> = sets
        .iter()
        .copied()
        .filter(|s| listeners::admits(ctx, gateway, &s.id.namespace))
        .collect();
    let attached = attachments(shared, gateway, &admitted);
    let lookup = &shared.lookup;
    let mut out = Map::new();
    let (gateways, listener_sets) =
        listeners::gateway_statuses(ctx, shared, gateway, &sets, &attached);
    out.insert("gateways".into(), gateways);
    if let Some(sets) = listener_sets {
        out.insert("listenerSets".into(), sets);
    }
    let delegated = delegation::delegation(ctx, &shared.lookup, &attached);
    for (key, routes) in routes::route_statuses(ctx, &attached, &delegated, replaced) {
        out.insert(key.into(), routes);
    }
    let reach = policies::Reach {
        gateway,
        sets: &admitted,
        attached: &attached,
    };
    if let Some(policies) = policies::policy_statuses(ctx, lookup, &shared.policy_statuses, &reach)
    {
        out.insert("policies".into(), policies);
    }
    Value::Object(out)
}

/// A route's parentRef that names the Gateway or one of its listener sets.
pub(super) struct Attachment<'a> {
    pub status: &'a RouteStatus,
    pub route: &'a Object,
    /// The route's `spec.parentRefs` entry, as written.
    pub parent_ref: &'a ObjRef,
    /// The object it names: the Gateway, or a listener set of it.
    pub parent: &'a Object,
}

/// Every route parentRef of the run that names the Gateway or one of `sets`, in the order of
/// the resolve stage's route statuses (routes in input order, parentRefs in spec order).
fn attachments<'a>(
    shared: &Shared<'a>,
    gateway: &'a Object,
    sets: &[&'a Object],
) -> Vec<Attachment<'a>> {
    let mut out = Vec::new();
    for parent in std::iter::once(gateway).chain(sets.iter().copied()) {
        for &(status, route, parent_ref) in
            shared.by_parent.get(&parent.id.key()).into_iter().flatten()
        {
            out.push(Attachment {
                status,
                route,
                parent_ref,
                parent,
            });
        }
    }
    // In the order of the route statuses, whichever parent they name.
    out.sort_by_key(|a| a.status as *const RouteStatus);
    out
}

/// (group, kind, namespace, name) a reference names, with the Gateway API defaults: the group
/// of Gateway API, `kind` when unset, the referring object's namespace.
pub(super) fn named<'v>(
    reference: &'v ObjRef,
    namespace: &'v str,
    kind: &'v str,
) -> (&'v str, &'v str, &'v str, &'v str) {
    (
        reference.group().unwrap_or(GATEWAY_API),
        reference.kind().unwrap_or(kind),
        reference.namespace().unwrap_or(namespace),
        &reference.name,
    )
}

pub(super) fn is(
    object: &Object,
    (group, kind, namespace, name): &(&str, &str, &str, &str),
) -> bool {
    object.id.key() == (*group, *kind, *namespace, *name)
}

/// The ListenerSets (and XListenerSets) whose parentRef names the Gateway.
fn listener_sets<'a>(ctx: &Context<'a>, gateway: &Object) -> Vec<&'a Object> {
    let sets = ctx.inputs.of_kind(GATEWAY_API, "ListenerSet");
    let x_sets = ctx.inputs.of_kind(GATEWAY_API_X, "XListenerSet");
    let none = ObjRef::default();
    sets.chain(x_sets)
        .filter(|s| {
            let facts = ctx.inputs.facts_at(s);
            let parent = facts.and_then(|f| f.listener_set_parent()).unwrap_or(&none);
            is(gateway, &named(parent, &s.id.namespace, "Gateway"))
        })
        .collect()
}

/// `ns/name`: the key of an object in every section.
pub(super) fn key(object: &Object) -> String {
    format!("{}/{}", object.id.namespace, object.id.name)
}

/// One condition; `lastTransitionTime` is null, as in the reference's goldens (a dry run has no
/// time of transition).
pub(super) fn condition(kind: &str, status: &str, reason: &str, message: &str) -> Value {
    observed_condition(kind, status, reason, message, None)
}

/// A [`condition`] with the `observedGeneration` of the object it is on, when that has one (keys
/// in order, as the output sorts them).
pub(super) fn observed_condition(
    kind: &str,
    status: &str,
    reason: &str,
    message: &str,
    generation: Option<i64>,
) -> Value {
    let mut c = Map::new();
    c.insert("lastTransitionTime".into(), Value::Null);
    c.insert("message".into(), message.into());
    if let Some(g) = generation {
        c.insert("observedGeneration".into(), g.into());
    }
    c.insert("reason".into(), reason.into());
    c.insert("status".into(), status.into());
    c.insert("type".into(), kind.into());
    Value::Object(c)
}

pub(super) fn status_word(ok: bool) -> &'static str {
    if ok { "True" } else { "False" }
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_delegation;
#[cfg(test)]
mod tests_routes_policies;
