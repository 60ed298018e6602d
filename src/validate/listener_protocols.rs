//! What a listener's protocol allows: a protocol the Gateway API reserves but does not define
//! (GW128: an un-prefixed name other than its five, which the CRD's pattern lets through and no
//! implementation serves), and an allowed route kind the protocol cannot carry (GW130).

use crate::diag::Diagnostic;
use crate::model::Resource;
use crate::model::facts::{GATEWAY_API, GATEWAY_API_X};
use crate::parse::Node;
use crate::rules;

/// The Gateway API's protocols, with the route kinds of its group each carries; an
/// implementation's own protocol is domain-prefixed.
const PROTOCOLS: &[(&str, &[&str])] = &[
    ("HTTP", &["HTTPRoute", "GRPCRoute"]),
    ("HTTPS", &["HTTPRoute", "GRPCRoute"]),
    // TCPRoutes behind a listener that terminates TLS.
    ("TLS", &["TLSRoute", "TCPRoute"]),
    ("TCP", &["TCPRoute"]),
    ("UDP", &["UDPRoute"]),
];

/// Un-prefixed protocols that implementations serve all the same: Istio's ambient mesh (and the
/// AI data plane with it) carries HBONE on its east-west Gateways.
const SERVED_ANYWAY: &[&str] = &["HBONE"];

/// The findings on the listeners of a Gateway or a listener set.
pub(super) fn check(resource: &Resource<'_>) -> Vec<Diagnostic> {
    let listener_kind = match resource.group {
        GATEWAY_API => matches!(resource.kind, "Gateway" | "ListenerSet"),
        GATEWAY_API_X => resource.kind == "XListenerSet",
        _ => false,
    };
    if !listener_kind {
        return Vec::new();
    }
    let Some(listeners) = resource
        .root
        .get("spec")
        .and_then(|s| s.get("listeners"))
        .and_then(Node::as_seq)
    else {
        return Vec::new();
    };
    let prefix = resource
        .path_prefix_index
        .map_or(String::new(), |i| format!("items[{i}]."));
    let mut out = Vec::new();
    for (i, listener) in listeners.iter().enumerate() {
        let Some(node) = listener.get("protocol") else {
            continue;
        };
        let Some(protocol) = node.as_str() else {
            continue;
        };
        let path = format!("{prefix}spec.listeners[{i}]");
        let at = |d: Diagnostic, span, field: &str| {
            d.at(resource.file, span)
                .with_resource(Some(resource.reference()))
                .with_path(format!("{path}.{field}"))
        };
        match PROTOCOLS.iter().find(|(p, _)| *p == protocol) {
            Some(&(_, carried)) => {
                for (d, span, field) in kinds(listener, protocol, carried) {
                    out.push(at(d, span, &field));
                }
            }
            None => {
                if let Some(d) = reserved(protocol) {
                    out.push(at(d, node.span, "protocol"));
                }
            }
        }
    }
    out
}

/// GW128 for a protocol that is neither the Gateway API's nor domain-prefixed.
fn reserved(protocol: &str) -> Option<Diagnostic> {
    if protocol.is_empty() || protocol.contains('/') || SERVED_ANYWAY.contains(&protocol) {
        return None;
    }
    let help = match PROTOCOLS
        .iter()
        .find(|(p, _)| p.eq_ignore_ascii_case(protocol))
    {
        Some((p, _)) => format!("protocol names are case-sensitive: write {p}"),
        None => "serve gRPC and HTTP/2 with protocol HTTP or HTTPS (GRPCRoutes attach there); an implementation's own protocol is domain-prefixed".to_string(),
    };
    Some(
        Diagnostic::new(
            rules::GW128,
            format!(
                "protocol {protocol:?} is neither a Gateway API protocol (HTTP, HTTPS, TLS, TCP, UDP) nor domain-prefixed: no implementation accepts the listener"
            ),
        )
        .with_help(help),
    )
}

/// GW130 for each `allowedRoutes.kinds` entry of the Gateway API's group whose kind the
/// listener's protocol cannot carry, with where it is and its field (under the listener).
fn kinds(
    listener: &Node,
    protocol: &str,
    carried: &[&str],
) -> Vec<(Diagnostic, crate::source::Span, String)> {
    let Some(kinds) = listener
        .get("allowedRoutes")
        .and_then(|a| a.get("kinds"))
        .and_then(Node::as_seq)
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (k, entry) in kinds.iter().enumerate() {
        let group = entry
            .get("group")
            .and_then(Node::as_str)
            .unwrap_or(GATEWAY_API);
        let (Some(kind_node), GATEWAY_API) = (entry.get("kind"), group) else {
            continue;
        };
        let Some(kind) = kind_node.as_str() else {
            continue;
        };
        if carried.contains(&kind) {
            continue;
        }
        let d = Diagnostic::new(
            rules::GW130,
            format!(
                "protocol {protocol} cannot carry {kind}s (it carries {}): the listener's ResolvedRefs is False (InvalidRouteKinds) and no {kind} attaches to it",
                carried.join(" and ")
            ),
        );
        out.push((d, kind_node.span, format!("allowedRoutes.kinds[{k}].kind")));
    }
    out
}
