//! The routes' conditions for the parents that are this Gateway or its listener sets: the
//! resolve stage's Accepted and ResolvedRefs, in the controller's words.

use serde_json::{Map, Value};

use super::ValidationLevel;
use super::delegation::Delegation;
use super::{Attachment, Context, condition, status_word};
use crate::model::Object;
use crate::model::facts::{GATEWAY_API, ObjRef};
use crate::resolve::Condition;

/// The section of each route kind.
const SECTIONS: &[(&str, &str)] = &[
    ("HTTPRoute", "httpRoutes"),
    ("GRPCRoute", "grpcRoutes"),
    ("TCPRoute", "tcpRoutes"),
    ("TLSRoute", "tlsRoutes"),
    ("UDPRoute", "udpRoutes"),
];

/// The proxy-based controller's name when the options give none (decisions.md section 1).
fn controller(ctx: &Context<'_>) -> String {
    if ctx.options.proxy_controller.is_empty() {
        crate::config::Controllers::default().proxy
    } else {
        ctx.options.proxy_controller.clone()
    }
}

/// One parent's entry in a route's status.
struct Entry<'a> {
    route: &'a Object,
    accepted: Condition,
    resolved_refs: Condition,
    parent_ref: Value,
}

/// (section, routes by `ns/name`) for each route kind with an attached route: the routes
/// attached to the Gateway, and the child routes they delegate to.
pub(super) fn route_statuses(
    ctx: &Context<'_>,
    attached: &[Attachment<'_>],
    delegation: &Delegation<'_>,
    replaced_routes: &[super::ReplacedRoute],
) -> Vec<(&'static str, Value)> {
    let controller = controller(ctx);
    let mut entries: Vec<Entry<'_>> = attached
        .iter()
        .map(|a| Entry {
            route: a.route,
            accepted: accepted(ctx, a, replaced_routes),
            resolved_refs: a.status.resolved_refs.clone(),
            parent_ref: parent_ref(a.parent_ref),
        })
        .collect();
    entries.extend(delegation.children.iter().map(|c| Entry {
        route: c.route,
        accepted: c.accepted.clone(),
        resolved_refs: c.resolved_refs.clone(),
        parent_ref: route_ref(c.parent),
    }));
    apply_unresolved_delegations(&mut entries, delegation);
    sections(entries, &controller)
}

/// An attached route's Accepted: the resolve stage's, unless a rule is dropped (strict
/// validation only) or replaced.
fn accepted(
    ctx: &Context<'_>,
    a: &Attachment<'_>,
    replaced_routes: &[super::ReplacedRoute],
) -> Condition {
    let strict = ctx.options.validation_level == ValidationLevel::Strict;
    // Matches are parsed to find a regex the proxy rejects only where it drops them.
    let dropped = strict
        .then(|| super::rules::dropped(ctx, a.route))
        .flatten();
    let replaced = || {
        super::rules::replaced(ctx, a.route)
            .or_else(|| super::rules::policy_rejected(ctx, a.route))
            .or_else(|| super::rules::checked(a.route, replaced_routes))
    };
    match (a.status.accepted.status, dropped) {
        (false, _) => a.status.accepted.clone(),
        (true, Some(message)) => Condition {
            status: false,
            reason: "RouteRuleDropped",
            message,
        },
        (true, None) => match replaced() {
            Some(message) => Condition {
                status: false,
                reason: "RouteRuleReplaced",
                message,
            },
            None => a.status.accepted.clone(),
        },
    }
}

/// A delegation that does not resolve overrides the route's own backends' condition (only
/// when those resolve: the first failure found is the one written).
fn apply_unresolved_delegations(entries: &mut [Entry<'_>], delegation: &Delegation<'_>) {
    for e in entries {
        if let Some((_, c)) = delegation
            .unresolved
            .iter()
            .find(|(r, _)| std::ptr::eq(*r, e.route))
            && e.resolved_refs.status
        {
            e.resolved_refs = c.clone();
        }
    }
}

/// The entries as (section, routes by `ns/name`), each route with its parents in entry order;
/// sections in [`SECTIONS`] order, routes sorted, empty sections left out.
fn sections(entries: Vec<Entry<'_>>, controller: &str) -> Vec<(&'static str, Value)> {
    // One pass over the entries, each moved into its kind's section.
    let mut sections: Vec<Map<String, Value>> = SECTIONS.iter().map(|_| Map::new()).collect();
    for e in entries {
        let Some(at) = SECTIONS.iter().position(|(k, _)| *k == e.route.id.kind) else {
            continue;
        };
        let (kind, _) = SECTIONS[at];
        let entry = sections[at].entry(super::key(e.route)).or_insert_with(|| {
            let mut m = Map::new();
            m.insert("parents".into(), Value::Array(Vec::new()));
            Value::Object(m)
        });
        if let Some(Value::Array(parents)) = entry.get_mut("parents") {
            parents.push(parent_status(e, kind, controller));
        }
    }
    SECTIONS
        .iter()
        .zip(sections)
        .filter(|(_, routes)| !routes.is_empty())
        .map(|((_, section), mut routes)| {
            routes.sort_keys();
            (*section, Value::Object(routes))
        })
        .collect()
}

fn parent_status(e: Entry<'_>, kind: &str, controller: &str) -> Value {
    // The controller writes no message on the Accepted of TCP and TLS routes.
    let layer4 = matches!(kind, "TCPRoute" | "TLSRoute");
    let accepted_message = if layer4 {
        ""
    } else {
        "Successfully accepted Route"
    };
    let accepted = written("Accepted", &e.accepted, accepted_message);
    let resolved = written(
        "ResolvedRefs",
        &e.resolved_refs,
        "Successfully resolved all references",
    );
    // On HTTP and gRPC routes a ResolvedRefs that does not hold is set first (as the controller
    // finds it); TCP and TLS routes are written in one go.
    let conditions = if !layer4 && !e.resolved_refs.status && e.accepted.status {
        vec![resolved, accepted]
    } else {
        vec![accepted, resolved]
    };
    let mut p = Map::new();
    p.insert("conditions".into(), conditions.into());
    p.insert("controllerName".into(), controller.into());
    p.insert("parentRef".into(), e.parent_ref);
    Value::Object(p)
}

/// A parent route, as a child's status names it.
fn route_ref(route: &Object) -> Value {
    let mut r = Map::new();
    r.insert("group".into(), GATEWAY_API.into());
    r.insert("kind".into(), route.id.kind.clone().into());
    r.insert("name".into(), route.id.name.clone().into());
    r.insert("namespace".into(), route.id.namespace.clone().into());
    Value::Object(r)
}

fn written(kind: &str, c: &Condition, held: &str) -> Value {
    let message = if c.status { held } else { c.message.as_str() };
    condition(kind, status_word(c.status), c.reason, message)
}

/// The parentRef as the controller echoes it: group and kind as written (empty when unset),
/// name, and namespace when written.
fn parent_ref(written: &ObjRef) -> Value {
    let mut r = Map::new();
    r.insert("group".into(), written.group().unwrap_or("").into());
    r.insert("kind".into(), written.kind().unwrap_or("").into());
    r.insert("name".into(), (*written.name).into());
    if let Some(ns) = written.namespace() {
        r.insert("namespace".into(), ns.into());
    }
    Value::Object(r)
}
