//! Facts of the listeners of a Gateway or ListenerSet: port, protocol, hostname, which routes
//! they admit (namespaces, label selector, kinds) and their certificate references.

use crate::parse::Node;

use super::facts::{GATEWAY_API, Listener, int, obj_ref, s, seq, string_map};

pub(super) fn listeners(spec: Option<&Node>) -> Vec<Listener> {
    seq(spec.and_then(|n| n.get("listeners")))
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let allowed = l.get("allowedRoutes");
            let namespaces = allowed.and_then(|a| a.get("namespaces"));
            let path = format!("spec.listeners[{i}]");
            let tls = l.get("tls");
            Listener {
                name: s(l.get("name")).unwrap_or_default(),
                port: int(l.get("port")),
                protocol: s(l.get("protocol")).unwrap_or_default(),
                hostname: s(l.get("hostname")),
                from: s(namespaces.and_then(|n| n.get("from"))).unwrap_or_else(|| "Same".into()),
                selector: namespaces.and_then(|n| n.get("selector")).map(selector),
                kinds: seq(allowed.and_then(|a| a.get("kinds")))
                    .iter()
                    .filter_map(|k| {
                        Some((
                            s(k.get("group")).unwrap_or_else(|| GATEWAY_API.into()),
                            s(k.get("kind"))?,
                        ))
                    })
                    .collect(),
                certificate_refs: seq(tls.and_then(|t| t.get("certificateRefs")))
                    .iter()
                    .enumerate()
                    .map(|(j, r)| obj_ref(r, format!("{path}.tls.certificateRefs[{j}]")))
                    .collect(),
                tls: tls.map(listener_tls),
                span: l.span,
                path,
            }
        })
        .collect()
}

pub(super) fn selector(node: &Node) -> Selector {
    Selector {
        labels: string_map(node.get("matchLabels")),
        expressions: seq(node.get("matchExpressions"))
            .iter()
            .filter_map(|e| {
                Some((
                    s(e.get("key"))?,
                    s(e.get("operator"))?,
                    seq(e.get("values"))
                        .iter()
                        .filter_map(|v| v.as_str().map(str::to_string))
                        .collect(),
                ))
            })
            .collect(),
    }
}

/// A label selector: matchLabels and matchExpressions (key, operator, values).
#[derive(Debug, Clone, Default)]
pub struct Selector {
    pub labels: Vec<(String, String)>,
    pub expressions: Vec<(String, String, Vec<String>)>,
}

impl Selector {
    /// Kubernetes label selector semantics; an unknown operator matches nothing.
    pub fn matches(&self, labels: &[(String, String)]) -> bool {
        let get = |k: &str| labels.iter().find(|(lk, _)| lk == k).map(|(_, v)| v);
        self.labels.iter().all(|(k, v)| get(k) == Some(v))
            && self
                .expressions
                .iter()
                .all(|(k, op, values)| match op.as_str() {
                    "In" => get(k).is_some_and(|v| values.contains(v)),
                    "NotIn" => get(k).is_none_or(|v| !values.contains(v)),
                    "Exists" => get(k).is_some(),
                    "DoesNotExist" => get(k).is_none(),
                    _ => false,
                })
    }
}

/// A listener's `tls`: whether it names certificates, its mode and its options.
#[derive(Debug, Clone, Default)]
pub struct ListenerTls {
    /// `certificateRefs` is written (even empty): the listener terminates TLS with them.
    pub certificates: bool,
    /// `mode: Passthrough`.
    pub passthrough: bool,
    /// `options` in order, each with its value when that is a string.
    pub options: Vec<(String, Option<String>)>,
}

impl ListenerTls {
    /// An option's string value; a key written twice has its last value, as in the JSON copy.
    pub fn option(&self, key: &str) -> Option<&str> {
        self.written(key)?.as_deref()
    }

    /// Whether an option is written, whatever its value.
    pub fn written(&self, key: &str) -> Option<&Option<String>> {
        self.options
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
    }
}

fn listener_tls(tls: &Node) -> Box<ListenerTls> {
    Box::new(ListenerTls {
        certificates: tls.get("certificateRefs").is_some(),
        passthrough: s(tls.get("mode")).as_deref() == Some("Passthrough"),
        options: tls
            .get("options")
            .and_then(Node::as_map)
            .unwrap_or(&[])
            .iter()
            .map(|e| (e.key.to_string(), s(Some(&e.value))))
            .collect(),
    })
}
