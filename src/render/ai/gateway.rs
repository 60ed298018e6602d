//! A Gateway's binds (one per port) and listeners.

use crate::render::base64;
use serde_json::{Map, Value, json};

use super::Context;
use super::secrets::{secret_text, shown};
use crate::model::Object;
use crate::model::facts::{GATEWAY_API, Listener, ObjRef};

/// What a listener whose certificate cannot be read gets instead of it, so that the data plane
/// fails its handshakes rather than serving another listener's certificate.
const UNRESOLVED_CERTIFICATE: &[u8] = b"invalid";

/// The binds, then the listeners, as (kind, value), from the Gateway's typed listeners.
pub(super) fn binds_and_listeners(ctx: &Context<'_>, gw: &Object) -> Vec<(&'static str, Value)> {
    let ns = gw.id.namespace.as_str();
    let listeners = ctx.inputs.facts_at(gw).map_or(&[][..], |f| f.listeners());
    let mut binds: Vec<(u64, Option<&'static str>)> = Vec::new();
    for l in listeners {
        let Some(port) = port(l) else {
            continue;
        };
        let protocol = bind_protocol(&l.protocol);
        match binds.iter_mut().find(|(p, _)| *p == port) {
            Some(bind) => bind.1 = bind.1.or(protocol),
            None => binds.push((port, protocol)),
        }
    }
    let mut out: Vec<(&'static str, Value)> = binds
        .iter()
        .map(|(port, protocol)| {
            let mut bind = Map::new();
            bind.insert("key".into(), bind_key(*port, gw).into());
            bind.insert("port".into(), (*port).into());
            if let Some(p) = protocol {
                bind.insert("protocol".into(), (*p).into());
            }
            ("bind", Value::Object(bind))
        })
        .collect();
    for l in listeners {
        let (Some(port), Some(name)) = (port(l), name(l)) else {
            continue;
        };
        let protocol = l.protocol.as_str();
        let mut listener = Map::new();
        listener.insert("bindKey".into(), bind_key(port, gw).into());
        listener.insert("key".into(), listener_key(gw, name).into());
        listener.insert(
            "name".into(),
            json!({
                "gatewayName": gw.id.name,
                "gatewayNamespace": ns,
                "listenerName": name,
            }),
        );
        listener.insert("protocol".into(), protocol.into());
        if let Some(h) = &l.hostname {
            listener.insert("hostname".into(), h.as_str().into());
        }
        if crate::status::terminates_tls(l) {
            // The Secret's values are secret (digests); the placeholder the controller writes
            // for an unresolved certificate is not.
            let (cert, key) = certificate(ctx, gw, l.certificate_refs.first())
                .map(|(cert, key)| (shown(cert), shown(key)))
                .unwrap_or_else(|| {
                    let unresolved = base64::encode(UNRESOLVED_CERTIFICATE);
                    (unresolved.clone().into(), shown(unresolved))
                });
            listener.insert("tls".into(), json!({"cert": cert, "privateKey": key}));
        }
        out.push(("listener", Value::Object(listener)));
    }
    out
}

/// A listener's port, when one is written (a listener without one is not rendered).
pub(super) fn port(l: &Listener) -> Option<u64> {
    l.port.and_then(|p| u64::try_from(p).ok())
}

/// A listener's name, when one is written.
pub(super) fn name(l: &Listener) -> Option<&str> {
    Some(l.name.as_str()).filter(|n| !n.is_empty())
}

pub(super) fn bind_key(port: u64, gw: &Object) -> String {
    format!("{port}/{}/{}", gw.id.namespace, gw.id.name)
}

pub(super) fn listener_key(gw: &Object, listener: &str) -> String {
    format!("{}/{}.{listener}", gw.id.namespace, gw.id.name)
}

/// A bind's protocol: TLS when a listener on the port handles TLS, TCP for TCP; none for HTTP.
fn bind_protocol(listener_protocol: &str) -> Option<&'static str> {
    match listener_protocol {
        "HTTPS" | "TLS" => Some("TLS"),
        "TCP" => Some("TCP"),
        _ => None,
    }
}

/// The certificate and key of a listener's certificateRef; `None` when the Secret is missing,
/// incomplete, holds no PEM key pair, or is in another namespace without a ReferenceGrant.
fn certificate(ctx: &Context<'_>, gw: &Object, r: Option<&ObjRef>) -> Option<(String, String)> {
    let r = r?;
    let name = Some(&*r.name).filter(|n| !n.is_empty())?;
    if !matches!(r.kind(), None | Some("Secret")) {
        return None;
    }
    let ns = r.namespace().unwrap_or(&gw.id.namespace);
    if ns != gw.id.namespace
        && !ctx.inputs.granted(
            (GATEWAY_API, "Gateway", &gw.id.namespace),
            ("", "Secret", ns, name),
        )
    {
        return None;
    }
    if crate::status::key_pair_failure(ctx, ns, name).is_some() {
        return None;
    }
    Some((
        secret_text(ctx, ns, name, "tls.crt")?,
        secret_text(ctx, ns, name, "tls.key")?,
    ))
}
