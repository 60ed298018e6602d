//! The routes' conditions for the parents that are this Gateway or its listener sets: the
//! resolve stage's Accepted and ResolvedRefs, in the controller's words.

use serde_json::{Map, Value};

use super::{Attachment, Context, condition, status_word};
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

/// (section, routes by `ns/name`) for each route kind with an attached route.
pub(super) fn route_statuses(
    ctx: &Context<'_>,
    attached: &[Attachment<'_>],
) -> Vec<(&'static str, Value)> {
    let controller = controller(ctx);
    let mut out = Vec::new();
    for (kind, section) in SECTIONS {
        let mut routes: Map<String, Value> = Map::new();
        for a in attached.iter().filter(|a| a.route.id.kind == *kind) {
            let entry = routes.entry(super::key(a.route)).or_insert_with(|| {
                let mut m = Map::new();
                m.insert("parents".into(), Value::Array(Vec::new()));
                Value::Object(m)
            });
            if let Some(Value::Array(parents)) = entry.get_mut("parents") {
                let replaced = super::rules::replaced(ctx, a.route);
                parents.push(parent_status(a, kind, &controller, replaced));
            }
        }
        if !routes.is_empty() {
            routes.sort_keys();
            out.push((*section, Value::Object(routes)));
        }
    }
    out
}

/// `replaced`: the message of the route's rules the controller replaces, if any.
fn parent_status(
    a: &Attachment<'_>,
    kind: &str,
    controller: &str,
    replaced: Option<String>,
) -> Value {
    // The controller writes no message on the Accepted of TCP and TLS routes.
    let accepted_message = if matches!(kind, "TCPRoute" | "TLSRoute") {
        ""
    } else {
        "Successfully accepted Route"
    };
    let accepted = match replaced {
        Some(message) if a.status.accepted.status => {
            condition("Accepted", "False", "RouteRuleReplaced", &message)
        }
        _ => written("Accepted", &a.status.accepted, accepted_message),
    };
    let resolved = written(
        "ResolvedRefs",
        &a.status.resolved_refs,
        "Successfully resolved all references",
    );
    // On HTTP and gRPC routes a ResolvedRefs that does not hold is set first (as the controller
    // finds it); TCP and TLS routes are written in one go.
    let layer4 = matches!(kind, "TCPRoute" | "TLSRoute");
    let conditions = if !layer4 && !a.status.resolved_refs.status && a.status.accepted.status {
        vec![resolved, accepted]
    } else {
        vec![accepted, resolved]
    };
    let mut p = Map::new();
    p.insert("conditions".into(), conditions.into());
    p.insert("controllerName".into(), controller.into());
    p.insert("parentRef".into(), parent_ref(a.parent_ref));
    Value::Object(p)
}

fn written(kind: &str, c: &Condition, held: &str) -> Value {
    let message = if c.status { held } else { c.message.as_str() };
    condition(kind, status_word(c.status), c.reason, message)
}

/// The parentRef as the controller echoes it: group and kind as written (empty when unset),
/// name, and namespace when written.
fn parent_ref(written: &Value) -> Value {
    let text = |key: &str| written.get(key).and_then(Value::as_str);
    let mut r = Map::new();
    r.insert("group".into(), text("group").unwrap_or("").into());
    r.insert("kind".into(), text("kind").unwrap_or("").into());
    r.insert("name".into(), text("name").unwrap_or("").into());
    if let Some(ns) = text("namespace") {
        r.insert("namespace".into(), ns.into());
    }
    Value::Object(r)
}
