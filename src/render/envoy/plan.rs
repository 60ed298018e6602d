//! Which routes reach which listener of a Gateway: the route's parentRef to the Gateway was
//! accepted (the resolve stage's prediction), and the listener is one the parentRef selects
//! (sectionName, port) that admits the route's kind and namespace and shares a hostname.

use serde_json::Value;

use super::super::Context;
use crate::model::Object;
use crate::model::facts::GATEWAY_API;

pub struct GwListener<'a> {
    pub name: &'a str,
    pub port: i64,
    pub protocol: &'a str,
    pub hostname: Option<&'a str>,
    pub value: &'a Value,
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

impl<'a> Plan<'a> {
    pub fn new(ctx: &Context<'a>, gateway: &'a Object) -> Self {
        let mut listeners: Vec<GwListener<'a>> = Vec::new();
        for l in array(&gateway.value, "/spec/listeners") {
            let (Some(name), Some(port)) = (
                l.get("name").and_then(Value::as_str),
                l.get("port").and_then(Value::as_i64),
            ) else {
                continue;
            };
            listeners.push(GwListener {
                name,
                port,
                protocol: l.get("protocol").and_then(Value::as_str).unwrap_or(""),
                hostname: l.get("hostname").and_then(Value::as_str),
                value: l,
                routes: Vec::new(),
            });
        }
        for kind in ROUTE_KINDS {
            for route in ctx.inputs.of_kind(GATEWAY_API, kind) {
                attach(ctx, gateway, route, &mut listeners);
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

fn attach<'a>(
    ctx: &Context<'a>,
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
        if group != GATEWAY_API
            || kind != "Gateway"
            || ns != gateway.id.namespace
            || name != gateway.id.name
            || !accepted(ctx, route, i)
        {
            continue;
        }
        let section = parent.get("sectionName").and_then(Value::as_str);
        let port = parent.get("port").and_then(Value::as_i64);
        for l in listeners.iter_mut() {
            let selected = section.is_none_or(|s| s == l.name) && port.is_none_or(|p| p == l.port);
            if selected
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
fn accepted(ctx: &Context<'_>, route: &Object, parent: usize) -> bool {
    ctx.run
        .route_statuses
        .iter()
        .find(|s| {
            s.parent == parent
                && s.route.kind == route.id.kind
                && s.route.name == route.id.name
                && s.route.namespace.as_deref().unwrap_or("") == route.id.namespace
        })
        .is_none_or(|s| s.accepted.status)
}

fn kind_allowed(l: &GwListener<'_>, route_kind: &str) -> bool {
    let kinds: Vec<&str> = array(l.value, "/allowedRoutes/kinds")
        .filter_map(|k| k.get("kind").and_then(Value::as_str))
        .collect();
    if !kinds.is_empty() {
        return kinds.contains(&route_kind);
    }
    match l.protocol {
        "HTTP" | "HTTPS" => matches!(route_kind, "HTTPRoute" | "GRPCRoute"),
        "TLS" => matches!(route_kind, "TLSRoute" | "TCPRoute"),
        "TCP" => route_kind == "TCPRoute",
        _ => false,
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
    match from {
        "All" => true,
        "Selector" => {
            let Some(ns) = ctx.inputs.get("", "Namespace", "", route_ns) else {
                // Labels unknown: the resolve stage said nothing either.
                return true;
            };
            let wanted = l
                .value
                .pointer("/allowedRoutes/namespaces/selector/matchLabels")
                .and_then(Value::as_object);
            wanted.into_iter().flatten().all(|(k, v)| {
                ns.value.pointer("/metadata/labels").and_then(|m| m.get(k)) == Some(v)
            })
        }
        _ => gateway_ns == route_ns,
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
