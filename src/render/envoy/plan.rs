//! Which routes reach which listener of a Gateway: the resolve stage's route attachment (the
//! parentRef's sectionName and port, the listener's allowed kinds and namespaces, hostname
//! intersection), on the listeners the Gateway programs.

use crate::render::pointer::Pointer;
use serde_json::Value;

use super::super::Context;
use crate::fasthash::FastMap;
use crate::model::Object;
use crate::model::facts::{GATEWAY_API, GATEWAY_API_X, Listener, ObjRef, Spec};
use crate::status::proxy::RESERVED_PORTS;

pub struct GwListener<'a> {
    pub name: &'a str,
    pub port: i64,
    pub protocol: &'a str,
    pub hostname: Option<&'a str>,
    /// The listener as the typed model has it (kinds, certificate references).
    pub typed: &'a Listener,
    /// The ListenerSet that declares it; `None` for the Gateway's own.
    pub set: Option<&'a Object>,
    /// Its position in its owner's `spec.listeners`.
    pub index: usize,
    /// Attached routes, in input order.
    pub routes: Vec<&'a Object>,
}

/// The listeners that share a port: one Envoy Listener.
pub struct Port {
    pub port: i64,
    /// Indices into [`Plan::listeners`], in the Gateway's order.
    pub listeners: Vec<usize>,
}

pub struct Plan<'a> {
    pub gateway: &'a Object,
    pub listeners: Vec<GwListener<'a>>,
    /// Ascending port order.
    pub ports: Vec<Port>,
}

const ROUTE_KINDS: [&str; 4] = ["HTTPRoute", "GRPCRoute", "TCPRoute", "TLSRoute"];

/// The routes attached to each Gateway or ListenerSet (by its position in the inputs), with the
/// positions of the listeners each attaches to: the resolve stage's route attachment, grouped
/// once per render so that each Gateway looks at its own routes only.
pub struct Routes {
    by_parent: FastMap<usize, Vec<(usize, Vec<usize>)>>,
}

impl Routes {
    pub fn new(ctx: &Context<'_>) -> Self {
        let mut by_parent: FastMap<usize, Vec<(usize, Vec<usize>)>> = FastMap::default();
        for a in ctx.route_attachments() {
            let Some(route) = ctx.inputs.at(a.route) else {
                continue;
            };
            if route.id.group == GATEWAY_API && ROUTE_KINDS.contains(&route.id.kind.as_str()) {
                by_parent
                    .entry(a.parent)
                    .or_default()
                    .push((a.route, a.listeners.clone()));
            }
        }
        Routes { by_parent }
    }
}

impl<'a> Plan<'a> {
    pub fn new(ctx: &Context<'a>, routes: &Routes, gateway: &'a Object) -> Self {
        let mut listeners: Vec<GwListener<'a>> = Vec::new();
        add_listeners(ctx, gateway, None, &mut listeners);
        for kind in ["ListenerSet", "XListenerSet"] {
            for group in [GATEWAY_API, GATEWAY_API_X] {
                for set in ctx.inputs.of_kind(group, kind) {
                    if set_allowed(ctx, gateway, set) {
                        add_listeners(ctx, set, Some(set), &mut listeners);
                    }
                }
            }
        }
        // The routes attached to the Gateway or one of its ListenerSets, in the order of the
        // kinds and then of the inputs, each with the listeners (owner, index) it attaches to.
        let mut owners: Vec<(Option<&'a Object>, usize)> = Vec::new();
        let sets = listeners.iter().filter_map(|l| l.set.map(|s| (Some(s), s)));
        for (set, owner) in std::iter::once((None, gateway)).chain(sets) {
            if let Some(at) = ctx.fact_of(owner)
                && !owners.iter().any(|(_, o)| *o == at)
            {
                owners.push((set, at));
            }
        }
        let mut attached: Vec<(usize, Option<&'a Object>, usize)> = Vec::new();
        for (set, owner) in &owners {
            for (route, at) in routes.by_parent.get(owner).into_iter().flatten() {
                attached.extend(at.iter().map(|&li| (*route, *set, li)));
            }
        }
        let objects = ctx.inputs.objects;
        attached.sort_by_key(|&(route, _, _)| {
            let kind = objects.get(route).map(|r| r.id.kind.as_str());
            (ROUTE_KINDS.iter().position(|k| Some(*k) == kind), route)
        });
        for (route, set, li) in attached {
            let Some(route) = objects.get(route) else {
                continue;
            };
            let owner_is = |l: &GwListener<'_>| match (l.set, set) {
                (None, None) => true,
                (Some(a), Some(b)) => std::ptr::eq(a, b),
                _ => false,
            };
            if let Some(l) = listeners.iter_mut().find(|l| l.index == li && owner_is(l))
                && !l.routes.iter().any(|r| std::ptr::eq(*r, route))
            {
                l.routes.push(route);
            }
        }
        let mut ports: Vec<Port> = Vec::new();
        for (i, l) in listeners.iter().enumerate() {
            match ports.iter_mut().find(|p| p.port == l.port) {
                Some(p) => p.listeners.push(i),
                None => ports.push(Port {
                    port: l.port,
                    listeners: vec![i],
                }),
            }
        }
        ports.sort_by_key(|p| p.port);
        Plan {
            gateway,
            listeners,
            ports,
        }
    }
}

/// The valid listeners of a Gateway or ListenerSet: the reference programs no chain for a
/// listener it rejects (unknown protocol, no admissible route kind, a certificate that does
/// not resolve).
fn add_listeners<'a>(
    ctx: &Context<'a>,
    owner: &'a Object,
    set: Option<&'a Object>,
    out: &mut Vec<GwListener<'a>>,
) {
    for (index, t) in typed_listeners(ctx, owner).iter().enumerate() {
        let (Some(port), false) = (t.port, t.name.is_empty()) else {
            continue;
        };
        let listener = GwListener {
            name: &t.name,
            port,
            protocol: &t.protocol,
            hostname: t.hostname.as_deref(),
            typed: t,
            set,
            index,
            routes: Vec::new(),
        };
        if listener_valid(ctx, owner, &listener)
            && !out
                .iter()
                .any(|o| o.port == port && o.name == t.name && o.set.is_none() && set.is_none())
        {
            out.push(listener);
        }
    }
}

fn listener_valid(ctx: &Context<'_>, owner: &Object, l: &GwListener<'_>) -> bool {
    if !matches!(l.protocol, "HTTP" | "HTTPS" | "TCP" | "TLS") || RESERVED_PORTS.contains(&l.port) {
        return false;
    }
    let kinds: Vec<&str> = l.typed.kinds.iter().map(|(_, k)| k.as_str()).collect();
    if !kinds.is_empty() && !kinds.iter().any(|k| default_kinds(l.protocol).contains(k)) {
        return false;
    }
    if l.set.is_none() && l.protocol == "HTTPS" && !frontend_valid(ctx, owner, l) {
        return false;
    }
    if crate::status::terminates_tls(l.typed) {
        for r in &l.typed.certificate_refs {
            let ns = r.namespace().unwrap_or(&owner.id.namespace);
            let name = &*r.name;
            let found = ctx.inputs.get("", "Secret", ns, name).is_some();
            let from = (
                owner.id.group.as_str(),
                owner.id.kind.as_str(),
                owner.id.namespace.as_str(),
            );
            if !found
                || (ns != owner.id.namespace && !ctx.inputs.granted(from, ("", "Secret", ns, name)))
                || crate::status::key_pair_failure(ctx, ns, name).is_some()
            {
                return false;
            }
        }
    }
    true
}

/// The Gateway's frontend TLS validation for an HTTPS listener's port resolves: every CA
/// ConfigMap exists and, in another namespace, is granted; a listener that asks to verify
/// client certificates' names has CAs to verify them with.
fn frontend_valid(ctx: &Context<'_>, gateway: &Object, l: &GwListener<'_>) -> bool {
    let validation = crate::status::frontend_validation(ctx, gateway, Some(l.port));
    let refs: Vec<&Value> = validation
        .map(|v| array(v, "/caCertificateRefs").collect())
        .unwrap_or_default();
    let gw = (
        gateway.id.group.as_str(),
        gateway.id.kind.as_str(),
        gateway.id.namespace.as_str(),
    );
    for r in &refs {
        let ns = r
            .get("namespace")
            .and_then(Value::as_str)
            .unwrap_or(&gateway.id.namespace);
        let name = r.get("name").and_then(Value::as_str).unwrap_or("");
        let found = ctx.inputs.get("", "ConfigMap", ns, name).is_some();
        let fallback = validation
            .and_then(|v| v.get("mode"))
            .and_then(Value::as_str)
            == Some("AllowInsecureFallback");
        // A listener that accepts clients without certificates still serves without the CAs.
        if !fallback
            && (!found
                || (ns != gateway.id.namespace
                    && !ctx.inputs.granted(gw, ("", "ConfigMap", ns, name))))
        {
            return false;
        }
    }
    let verifies_names = l
        .typed
        .tls
        .as_ref()
        .is_some_and(|t| t.written("kgateway.dev/verify-subject-alt-names").is_some());
    !(verifies_names && refs.is_empty())
}

/// A ListenerSet whose parentRef is the Gateway, from a namespace its `allowedListeners` admits.
fn set_allowed(ctx: &Context<'_>, gateway: &Object, set: &Object) -> bool {
    let Some(parent) = set_parent(ctx, set) else {
        return false;
    };
    let ns = parent.namespace().unwrap_or(&set.id.namespace);
    if parent.kind().unwrap_or("Gateway") != "Gateway"
        || ns != gateway.id.namespace
        || *parent.name != gateway.id.name
    {
        return false;
    }
    crate::status::admits(ctx, gateway, &set.id.namespace)
}

/// The facts of an object that declares listeners (the typed model's).
/// A Gateway's or ListenerSet's listeners, one per item of its `spec.listeners`.
fn typed_listeners<'a>(ctx: &Context<'a>, owner: &Object) -> &'a [Listener] {
    match ctx.inputs.facts_at(owner).map(|f| &f.spec) {
        Some(Spec::Gateway { listeners, .. } | Spec::ListenerSet { listeners, .. }) => listeners,
        _ => &[],
    }
}

/// A ListenerSet's `spec.parentRef`.
fn set_parent<'a>(ctx: &Context<'a>, set: &Object) -> Option<&'a ObjRef> {
    match ctx.inputs.facts_at(set).map(|f| &f.spec) {
        Some(Spec::ListenerSet { parent, .. }) => Some(parent),
        _ => None,
    }
}

fn default_kinds(protocol: &str) -> &'static [&'static str] {
    match protocol {
        "HTTP" | "HTTPS" => &["HTTPRoute", "GRPCRoute"],
        "TLS" => &["TLSRoute", "TCPRoute"],
        "TCP" => &["TCPRoute"],
        _ => &[],
    }
}

/// The hostnames a route serves on a listener (Gateway API hostname intersection): the more
/// specific of each matching pair; the listener's (or `*`) when the route names none.
pub fn domains(listener: Option<&str>, route: &[&str]) -> Vec<String> {
    let Some(l) = listener else {
        if route.is_empty() {
            return vec!["*".to_string()];
        }
        return route.iter().map(|r| r.to_string()).collect();
    };
    if route.is_empty() {
        return vec![l.to_string()];
    }
    let mut out = Vec::new();
    for r in route {
        if !crate::resolve::host_match(l, r) {
            continue;
        }
        // The one without a wildcard, or the longer wildcard, is the more specific.
        let specific = if r.starts_with('*') && (!l.starts_with('*') || l.len() > r.len()) {
            l
        } else {
            r
        };
        if !out.iter().any(|o: &String| o == specific) {
            out.push(specific.to_string());
        }
    }
    out
}

/// The items of an array at a JSON pointer (none when absent or not an array).
pub fn array<'v>(value: &'v Value, pointer: &str) -> impl Iterator<Item = &'v Value> {
    value
        .at(pointer)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::domains;

    #[test]
    fn domains_intersect() {
        assert_eq!(domains(None, &[]), vec!["*"]);
        assert_eq!(domains(Some("a.com"), &[]), vec!["a.com"]);
        assert_eq!(
            domains(Some("*.a.com"), &["x.a.com", "b.com"]),
            vec!["x.a.com"]
        );
        assert_eq!(domains(Some("x.a.com"), &["*.a.com"]), vec!["x.a.com"]);
        assert_eq!(domains(None, &["b.com", "c.com"]), vec!["b.com", "c.com"]);
    }
}
