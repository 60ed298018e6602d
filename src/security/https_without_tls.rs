//! GW409: a listener of protocol HTTPS without `tls` has no certificate, so it terminates no TLS:
//! the API server accepts it (its rules require `tls` for protocol TLS only) and the controller
//! programs it, but clients speaking HTTPS to it fail their handshake.

use super::{Findings, GATEWAY_API_GROUP, each};
use crate::rules;

/// The kinds whose `spec.listeners` are Gateway listeners.
const KINDS: &[(&str, &str)] = &[
    (GATEWAY_API_GROUP, "Gateway"),
    (GATEWAY_API_GROUP, "ListenerSet"),
    ("gateway.networking.x-k8s.io", "XListenerSet"),
];

pub(super) fn check(f: &mut Findings<'_, '_>) {
    if !KINDS.iter().any(|(group, kind)| f.is(group, kind)) {
        return;
    }
    let res = f.res;
    let mut found = Vec::new();
    each(res.root, "spec.listeners[]", &mut |path, listener| {
        let Some(protocol) = listener.entry("protocol") else {
            return;
        };
        if protocol.value.as_str() != Some("HTTPS") || listener.get("tls").is_some() {
            return;
        }
        found.push((path.to_string(), protocol.value.span));
    });
    for (path, span) in found {
        let d = f
            .diagnostic(
                rules::GW409,
                span,
                &path,
                "protocol HTTPS without tls: the listener has no certificate and terminates no TLS, so HTTPS clients fail their handshake",
            )
            .with_help("add tls.certificateRefs naming the listener's certificate Secret, or use protocol HTTP");
        f.report(d);
    }
}
