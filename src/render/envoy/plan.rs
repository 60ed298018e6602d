//! Which routes reach which listener of a Gateway: the route's parentRef to the Gateway was
//! accepted (the resolve stage's prediction), and the listener is one the parentRef selects
//! (sectionName, port) that admits the route's kind and namespace and shares a hostname.

use serde_json::Value;

use super::super::Context;
use crate::fasthash::{FastMap, FastSet};
use crate::model::Object;
use crate::model::facts::{GATEWAY_API, GATEWAY_API_X};

pub struct GwListener<'a> {
    pub name: &'a str,
    pub port: i64,
    pub protocol: &'a str,
    pub hostname: Option<&'a str>,
    pub value: &'a Value,
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

/// The routes by the parent (namespace, name) their parentRefs name, and the parentRefs the
/// resolve stage did not accept: made once per render, so that each Gateway looks at its own
/// routes rather than every route of the inputs.
pub struct Routes<'a> {
    by_parent: FastMap<(&'a str, &'a str), Vec<&'a Object>>,
    rejected: FastSet<(&'a str, &'a str, &'a str, usize)>,
}

impl<'a> Routes<'a> {
    pub fn new(ctx: &Context<'a>) -> Self {
        let mut by_parent: FastMap<(&'a str, &'a str), Vec<&'a Object>> = FastMap::default();
        for kind in ROUTE_KINDS {
            for route in ctx.inputs.of_kind(GATEWAY_API, kind) {
                for parent in array(&route.value, "/spec/parentRefs") {
                    let ns = parent
                        .get("namespace")
                        .and_then(Value::as_str)
                        .unwrap_or(&route.id.namespace);
                    let name = parent.get("name").and_then(Value::as_str).unwrap_or("");
                    let routes = by_parent.entry((ns, name)).or_default();
                    if !routes.last().is_some_and(|r| std::ptr::eq(*r, route)) {
                        routes.push(route);
                    }
                }
            }
        }
        let rejected = ctx
            .run
            .route_statuses
            .iter()
            .filter(|s| !s.accepted.status)
            .map(|s| {
                (
                    s.route.kind.as_str(),
                    s.route.namespace.as_deref().unwrap_or(""),
                    s.route.name.as_str(),
                    s.parent,
                )
            })
            .collect();
        Routes {
            by_parent,
            rejected,
        }
    }

    fn accepted(&self, route: &Object, parent: usize) -> bool {
        !self.rejected.contains(&(
            route.id.kind.as_str(),
            route.id.namespace.as_str(),
            route.id.name.as_str(),
            parent,
        ))
    }
}

impl<'a> Plan<'a> {
    pub fn new(ctx: &Context<'a>, routes: &Routes<'a>, gateway: &'a Object) -> Self {
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
        // The routes naming the Gateway or one of its ListenerSets, in the order of the kinds
        // and then of the inputs (all objects are in one slice: address order is input order).
        let mut candidates: Vec<&'a Object> = std::iter::once(gateway)
            .chain(listeners.iter().filter_map(|l| l.set))
            .flat_map(|owner| {
                routes
                    .by_parent
                    .get(&(owner.id.namespace.as_str(), owner.id.name.as_str()))
                    .into_iter()
                    .flatten()
                    .copied()
            })
            .collect();
        candidates.sort_by_key(|r| {
            (
                ROUTE_KINDS.iter().position(|k| *k == r.id.kind),
                std::ptr::from_ref::<Object>(r) as usize,
            )
        });
        candidates.dedup_by(|a, b| std::ptr::eq(*a, *b));
        for route in candidates {
            attach(ctx, routes, gateway, route, &mut listeners);
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
    for (index, l) in array(&owner.value, "/spec/listeners").enumerate() {
        let (Some(name), Some(port)) = (
            l.get("name").and_then(Value::as_str),
            l.get("port").and_then(Value::as_i64),
        ) else {
            continue;
        };
        let listener = GwListener {
            name,
            port,
            protocol: l.get("protocol").and_then(Value::as_str).unwrap_or(""),
            hostname: l.get("hostname").and_then(Value::as_str),
            value: l,
            set,
            index,
            routes: Vec::new(),
        };
        if listener_valid(ctx, owner, &listener)
            && !out
                .iter()
                .any(|o| o.port == port && o.name == name && o.set.is_none() && set.is_none())
        {
            out.push(listener);
        }
    }
}

/// The ports the proxy serves itself (admin, readiness, metrics, the AI data plane's admin):
/// the controller rejects a listener on one of them.
pub const RESERVED_PORTS: [i64; 4] = [8082, 9091, 15000, 19000];

fn listener_valid(ctx: &Context<'_>, owner: &Object, l: &GwListener<'_>) -> bool {
    if !matches!(l.protocol, "HTTP" | "HTTPS" | "TCP" | "TLS") || RESERVED_PORTS.contains(&l.port) {
        return false;
    }
    let kinds: Vec<&str> = array(l.value, "/allowedRoutes/kinds")
        .filter_map(|k| k.get("kind").and_then(Value::as_str))
        .collect();
    if !kinds.is_empty() && !kinds.iter().any(|k| default_kinds(l.protocol).contains(k)) {
        return false;
    }
    if l.set.is_none() && l.protocol == "HTTPS" && !frontend_valid(ctx, owner, l) {
        return false;
    }
    if terminates_tls(l) {
        for r in array(l.value, "/tls/certificateRefs") {
            let ns = r
                .get("namespace")
                .and_then(Value::as_str)
                .unwrap_or(&owner.id.namespace);
            let name = r.get("name").and_then(Value::as_str).unwrap_or("");
            let found = ctx.inputs.get("", "Secret", ns, name).is_some();
            let from = (
                owner.id.group.as_str(),
                owner.id.kind.as_str(),
                owner.id.namespace.as_str(),
            );
            if !found
                || (ns != owner.id.namespace && !ctx.inputs.granted(from, ("", "Secret", ns, name)))
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
    let frontend = gateway.value.pointer("/spec/tls/frontend");
    let validation = frontend.and_then(|f| {
        array(f, "/perPort")
            .find(|p| p.get("port").and_then(Value::as_i64) == Some(l.port))
            .and_then(|p| p.pointer("/tls/validation"))
            .or_else(|| f.pointer("/default/validation"))
    });
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
        .value
        .pointer("/tls/options")
        .and_then(|o| o.get("kgateway.dev/verify-subject-alt-names"))
        .is_some();
    !(verifies_names && refs.is_empty())
}

/// HTTPS, and TLS with mode Terminate.
pub fn terminates_tls(l: &GwListener<'_>) -> bool {
    l.protocol == "HTTPS"
        || (l.protocol == "TLS"
            && l.value.pointer("/tls/mode").and_then(Value::as_str) != Some("Passthrough"))
}

/// A ListenerSet whose parentRef is the Gateway, from a namespace its `allowedListeners` admits.
fn set_allowed(ctx: &Context<'_>, gateway: &Object, set: &Object) -> bool {
    let Some(parent) = set.value.pointer("/spec/parentRef") else {
        return false;
    };
    let ns = parent
        .get("namespace")
        .and_then(Value::as_str)
        .unwrap_or(&set.id.namespace);
    let name = parent.get("name").and_then(Value::as_str).unwrap_or("");
    if parent
        .get("kind")
        .and_then(Value::as_str)
        .unwrap_or("Gateway")
        != "Gateway"
        || ns != gateway.id.namespace
        || name != gateway.id.name
    {
        return false;
    }
    let from = gateway
        .value
        .pointer("/spec/allowedListeners/namespaces/from")
        .and_then(Value::as_str)
        .unwrap_or("None");
    let selector = gateway
        .value
        .pointer("/spec/allowedListeners/namespaces/selector");
    namespace_admitted(
        ctx,
        from,
        selector,
        &gateway.id.namespace,
        &set.id.namespace,
    )
}

fn attach<'a>(
    ctx: &Context<'a>,
    routes: &Routes<'a>,
    gateway: &Object,
    route: &'a Object,
    listeners: &mut [GwListener<'a>],
) {
    let route_ns = route.id.namespace.as_str();
    let hostnames: Vec<&str> = array(&route.value, "/spec/hostnames")
        .filter_map(Value::as_str)
        .collect();
    for (i, parent) in array(&route.value, "/spec/parentRefs").enumerate() {
        let group = parent
            .get("group")
            .and_then(Value::as_str)
            .unwrap_or(GATEWAY_API);
        let kind = parent
            .get("kind")
            .and_then(Value::as_str)
            .unwrap_or("Gateway");
        let ns = parent
            .get("namespace")
            .and_then(Value::as_str)
            .unwrap_or(route_ns);
        let name = parent.get("name").and_then(Value::as_str).unwrap_or("");
        let set_kind = matches!(kind, "ListenerSet" | "XListenerSet")
            && matches!(group, GATEWAY_API | GATEWAY_API_X);
        let gateway_kind = group == GATEWAY_API && kind == "Gateway";
        if !(set_kind || gateway_kind) || !routes.accepted(route, i) {
            continue;
        }
        let names = |o: &Object| o.id.namespace == ns && o.id.name == name;
        let section = parent.get("sectionName").and_then(Value::as_str);
        let port = parent.get("port").and_then(Value::as_i64);
        for l in listeners.iter_mut() {
            let selected = section.is_none_or(|s| s == l.name) && port.is_none_or(|p| p == l.port);
            let parent_is = match l.set {
                None => gateway_kind && names(gateway),
                Some(set) => set_kind && names(set),
            };
            if selected
                && parent_is
                && kind_allowed(l, &route.id.kind)
                && namespace_allowed(ctx, l, &gateway.id.namespace, route_ns)
                && hostnames_meet(l.hostname, &hostnames)
                && !l.routes.iter().any(|r| std::ptr::eq(*r, route))
            {
                l.routes.push(route);
            }
        }
    }
}

/// The resolve stage's prediction for one parentRef; a parent it could not check counts as
/// accepted.
fn kind_allowed(l: &GwListener<'_>, route_kind: &str) -> bool {
    let kinds: Vec<&str> = array(l.value, "/allowedRoutes/kinds")
        .filter_map(|k| k.get("kind").and_then(Value::as_str))
        .collect();
    if !kinds.is_empty() {
        return kinds.contains(&route_kind);
    }
    default_kinds(l.protocol).contains(&route_kind)
}

fn default_kinds(protocol: &str) -> &'static [&'static str] {
    match protocol {
        "HTTP" | "HTTPS" => &["HTTPRoute", "GRPCRoute"],
        "TLS" => &["TLSRoute", "TCPRoute"],
        "TCP" => &["TCPRoute"],
        _ => &[],
    }
}

fn namespace_allowed(
    ctx: &Context<'_>,
    l: &GwListener<'_>,
    gateway_ns: &str,
    route_ns: &str,
) -> bool {
    let from = l
        .value
        .pointer("/allowedRoutes/namespaces/from")
        .and_then(Value::as_str)
        .unwrap_or("Same");
    let selector = l.value.pointer("/allowedRoutes/namespaces/selector");
    let own_ns = l.set.map_or(gateway_ns, |s| s.id.namespace.as_str());
    namespace_admitted(ctx, from, selector, own_ns, route_ns)
}

/// `from: All | Same | Selector | None` of allowedRoutes and allowedListeners.
fn namespace_admitted(
    ctx: &Context<'_>,
    from: &str,
    selector: Option<&Value>,
    own_ns: &str,
    other_ns: &str,
) -> bool {
    match from {
        "All" => true,
        "Same" => own_ns == other_ns,
        "Selector" => {
            let Some(ns) = ctx.inputs.get("", "Namespace", "", other_ns) else {
                // Labels unknown: the resolve stage said nothing either.
                return true;
            };
            let wanted = selector
                .and_then(|s| s.get("matchLabels"))
                .and_then(Value::as_object);
            wanted.into_iter().flatten().all(|(k, v)| {
                ns.value.pointer("/metadata/labels").and_then(|m| m.get(k)) == Some(v)
            })
        }
        _ => false,
    }
}

fn hostnames_meet(listener: Option<&str>, route: &[&str]) -> bool {
    let Some(l) = listener else { return true };
    route.is_empty() || route.iter().any(|r| crate::resolve::host_match(l, r))
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
        .pointer(pointer)
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
