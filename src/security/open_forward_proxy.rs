//! GW408: a dynamic forward proxy sends each request to whatever host the client names, so an
//! unauthenticated one lets anyone use the gateway to reach internal services or the internet
//! under the gateway's address. Which routes reach the backend and which policies apply to them
//! needs cross-resource resolution; this rule is the conservative set-wide version: a
//! DynamicForwardProxy backend is reported only when no TrafficPolicy or AiGatewayPolicy of the
//! whole input configures any authentication (JWT, basic, API key, external authorization).
//! One authenticating policy anywhere silences it, even if it protects other routes; AI-group
//! authentication in mode Optional or Permissive does not count (it admits anonymous requests).

use super::{AI_GROUP, Findings, GATEWAY_GROUP};
use crate::parse::Node;
use crate::rules;

pub(super) fn check(f: &mut Findings<'_, '_>) {
    let res = f.res;
    let Some(spec) = res.root.get("spec") else {
        return;
    };
    if f.is(GATEWAY_GROUP, "TrafficPolicy") {
        f.set.authenticates |= ["extAuth", "jwt", "basicAuth"]
            .iter()
            .any(|k| enabled(spec.get(k)));
        return;
    }
    if f.is(AI_GROUP, "AiGatewayPolicy") {
        let traffic = spec.get("traffic");
        f.set.authenticates |= [
            "extAuth",
            "jwtAuthentication",
            "basicAuthentication",
            "apiKeyAuthentication",
        ]
        .iter()
        .any(|k| {
            let field = traffic.and_then(|t| t.get(k));
            enabled(field) && !lets_anonymous_through(field)
        });
        return;
    }
    let place = if f.is(GATEWAY_GROUP, "Backend") {
        match (spec.entry("type"), spec.entry("dynamicForwardProxy")) {
            (Some(t), _) if t.value.as_str() == Some("DynamicForwardProxy") => {
                Some((t.value.span, "spec.type"))
            }
            (_, Some(d)) => Some((d.key_span, "spec.dynamicForwardProxy")),
            _ => None,
        }
    } else if f.is(AI_GROUP, "AiGatewayBackend") {
        spec.entry("dynamicForwardProxy")
            .map(|d| (d.key_span, "spec.dynamicForwardProxy"))
    } else {
        None
    };
    if let Some((span, path)) = place {
        let d = f
            .diagnostic(
                rules::GW408,
                span,
                path,
                "a dynamic forward proxy sends requests to any host the client names, and no TrafficPolicy or AiGatewayPolicy in the inputs configures authentication",
            )
            .with_help("attach a policy with JWT, basic, API key or external authentication to the routes that reach this backend");
        f.set.open_proxies.push(d);
    }
}

/// AI-group authentication in mode Optional or Permissive lets requests without credentials
/// through, so it does not close the proxy.
fn lets_anonymous_through(field: Option<&Node>) -> bool {
    field
        .and_then(|f| f.get("mode"))
        .and_then(Node::as_str)
        .is_some_and(|m| m == "Optional" || m == "Permissive")
}

/// A policy field that is set and does not only cancel a higher-level one (`disable: {}`).
fn enabled(field: Option<&Node>) -> bool {
    field
        .and_then(Node::as_map)
        .is_some_and(|entries| entries.iter().any(|e| e.key != "disable"))
}
