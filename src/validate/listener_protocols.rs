//! A listener protocol the Gateway API reserves but does not define (GW128): an un-prefixed name
//! other than its five protocols, which the CRD's pattern lets through and no implementation
//! serves.

use crate::diag::Diagnostic;
use crate::model::Resource;
use crate::model::facts::{GATEWAY_API, GATEWAY_API_X};
use crate::parse::Node;
use crate::rules;

/// The Gateway API's protocols; an implementation's own is domain-prefixed.
const PROTOCOLS: &[&str] = &["HTTP", "HTTPS", "TLS", "TCP", "UDP"];

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
        if protocol.is_empty()
            || protocol.contains('/')
            || PROTOCOLS.contains(&protocol)
            || SERVED_ANYWAY.contains(&protocol)
        {
            continue;
        }
        let help = match PROTOCOLS
            .iter()
            .find(|p| p.eq_ignore_ascii_case(protocol))
        {
            Some(p) => format!("protocol names are case-sensitive: write {p}"),
            None => "serve gRPC and HTTP/2 with protocol HTTP or HTTPS (GRPCRoutes attach there); an implementation's own protocol is domain-prefixed".to_string(),
        };
        out.push(
            Diagnostic::new(
                rules::GW128,
                format!(
                    "protocol {protocol:?} is neither a Gateway API protocol (HTTP, HTTPS, TLS, TCP, UDP) nor domain-prefixed: no implementation accepts the listener"
                ),
            )
            .at(resource.file, node.span)
            .with_resource(Some(resource.reference()))
            .with_path(format!("{prefix}spec.listeners[{i}].protocol"))
            .with_help(help),
        );
    }
    out
}
