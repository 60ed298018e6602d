//! A Gateway's routes: HTTPRoute and GRPCRoute rules as `route`, TCPRoute and TLSRoute rules as
//! `tcpRoute`, one per rule (per match for HTTPRoute) and listener that carries it.

use serde_json::{Map, Value, json};

use super::backends::{INFERENCE_GROUP, pool_host};
use super::gateway::{listener_key, name, port};
use super::mesh::ISTIO_NETWORKING;
use super::{AI_GROUP, Context, pick, service_host};
use crate::fasthash::FastMap;
use crate::model::Object;
use crate::model::facts::{GATEWAY_API, ObjRef};
use crate::model::facts_rules::Timeouts;
use crate::resolve::host_match;

/// What every AI Gateway of a run looks up: the routes attached to each Gateway, with the
/// listeners that carry them (the resolve stage's route attachment), in input order.
pub struct Prepared<'a> {
    routes: FastMap<(&'a str, &'a str), Vec<Attached<'a>>>,
}

/// A route and the names of the listeners that carry it.
type Attached<'a> = (&'a Object, Vec<&'a str>);

impl<'a> Prepared<'a> {
    pub fn new(ctx: &Context<'a>) -> Self {
        let mut routes: FastMap<(&'a str, &'a str), Vec<Attached<'a>>> = FastMap::default();
        for a in ctx.route_attachments() {
            let (Some(route), Some(parent)) = (ctx.inputs.at(a.route), ctx.inputs.at(a.parent))
            else {
                continue;
            };
            // Listener sets are not part of this data plane.
            if parent.id.group != GATEWAY_API || parent.id.kind != "Gateway" {
                continue;
            }
            let listeners = ctx
                .inputs
                .facts_at(parent)
                .map_or(&[][..], |f| f.listeners());
            let list = routes
                .entry((parent.id.namespace.as_str(), parent.id.name.as_str()))
                .or_default();
            // A route's parentRefs come one after the other: one naming the same Gateway again
            // adds its listeners to the route's entry.
            if !list.last().is_some_and(|(o, _)| std::ptr::eq(*o, route)) {
                list.push((route, Vec::new()));
            }
            if let Some((_, carried)) = list.last_mut() {
                for &li in &a.listeners {
                    if let Some(name) = listeners.get(li).and_then(name)
                        && !carried.contains(&name)
                    {
                        carried.push(name);
                    }
                }
            }
        }
        Prepared { routes }
    }
}

/// The routes on a Gateway's listeners.
pub(super) fn routes(
    ctx: &Context<'_>,
    prepared: &Prepared<'_>,
    gw: &Object,
) -> Vec<(&'static str, Value)> {
    let listeners = ctx.inputs.facts_at(gw).map_or(&[][..], |f| f.listeners());
    let mut out = Vec::new();
    let key = (gw.id.namespace.as_str(), gw.id.name.as_str());
    for (route, carried) in prepared.routes.get(&key).into_iter().flatten() {
        for name in carried {
            // A listener without a port is not rendered, nor what it would carry.
            let Some(listener) = listeners
                .iter()
                .find(|l| l.name == *name && port(l).is_some())
            else {
                continue;
            };
            let hostname = listener.hostname.as_deref();
            out.extend(route_resources(ctx, route, gw, name, hostname));
        }
    }
    out
}

/// The Gateway's listeners that are rendered (those with a port), each with the routes it
/// carries, in the order `routes` renders them.
pub(super) fn served<'a>(
    ctx: &Context<'a>,
    prepared: &Prepared<'a>,
    gw: &Object,
) -> Vec<(&'a str, Vec<&'a Object>)> {
    let listeners = ctx.inputs.facts_at(gw).map_or(&[][..], |f| f.listeners());
    let mut out: Vec<(&'a str, Vec<&'a Object>)> = listeners
        .iter()
        .filter(|l| port(l).is_some())
        .filter_map(|l| Some((name(l)?, Vec::new())))
        .collect();
    let key = (gw.id.namespace.as_str(), gw.id.name.as_str());
    for (route, carried) in prepared.routes.get(&key).into_iter().flatten() {
        for name in carried {
            if let Some((_, routes)) = out.iter_mut().find(|(l, _)| l == name)
                && !routes.iter().any(|r| std::ptr::eq(*r, *route))
            {
                routes.push(route);
            }
        }
    }
    out
}

/// One route's resources on one listener, from its typed facts (hostnames, backendRefs,
/// timeouts) and settings (rules' filters and matches).
fn route_resources(
    ctx: &Context<'_>,
    route: &Object,
    gw: &Object,
    listener: &str,
    listener_hostname: Option<&str>,
) -> Vec<(&'static str, Value)> {
    let (typed, settings) = ctx.inputs.route(route);
    let hostnames: Vec<Value> = typed
        .hostnames
        .iter()
        .filter(|h| listener_hostname.is_none_or(|l| host_match(l, h)))
        .map(|h| Value::from(h.as_str()))
        .collect();
    let on = OnListener {
        route,
        gw,
        listener,
        hostnames,
    };
    let mut out = Vec::new();
    for (i, rule) in settings.rules.iter().enumerate() {
        if !rule.is_object() {
            continue;
        }
        let backends = backends(ctx, route, typed.rule_backends(i));
        let timeouts = typed.settings(i).timeouts.as_deref();
        match route.id.kind.as_str() {
            "HTTPRoute" => {
                let written = settings.matches(i);
                let policies = traffic_policies(ctx, route, rule, timeouts);
                on.push_http(i, &written, backends.as_ref(), &policies, &mut out);
            }
            "GRPCRoute" => {
                let written = settings.matches(i);
                let policies = traffic_policies(ctx, route, rule, timeouts);
                out.push(("route", on.grpc(i, &written, backends, policies)));
            }
            "TCPRoute" | "TLSRoute" => out.push(("tcpRoute", on.tcp(i, backends))),
            _ => {}
        }
    }
    out
}

/// One route on one listener: what each of its resources there is keyed and named by.
struct OnListener<'a> {
    route: &'a Object,
    gw: &'a Object,
    listener: &'a str,
    /// The route's hostnames that the listener's hostname admits.
    hostnames: Vec<Value>,
}

impl OnListener<'_> {
    /// A resource's common fields: its key (`ns/name.<at>.listener`, `at` the rule's place),
    /// its listener's key, the route's name and hostnames.
    fn resource(&self, at: impl std::fmt::Display) -> Map<String, Value> {
        let id = &self.route.id;
        let key = format!("{}/{}.{at}.{}", id.namespace, id.name, self.listener);
        let mut r = Map::new();
        r.insert("key".into(), key.into());
        r.insert(
            "listenerKey".into(),
            listener_key(self.gw, self.listener).into(),
        );
        r.insert(
            "name".into(),
            json!({"kind": id.kind, "name": id.name, "namespace": id.namespace}),
        );
        if !self.hostnames.is_empty() {
            r.insert("hostnames".into(), self.hostnames.clone().into());
        }
        r
    }

    /// An HTTPRoute rule's `route`s: one per written match, or one matching all without any.
    fn push_http(
        &self,
        i: usize,
        written: &[Value],
        backends: Option<&Value>,
        policies: &[Value],
        out: &mut Vec<(&'static str, Value)>,
    ) {
        let matches: Vec<Option<Value>> = if written.is_empty() {
            vec![None]
        } else {
            written.iter().map(|m| Some(http_match(m))).collect()
        };
        for (j, m) in matches.into_iter().enumerate() {
            let mut r = self.resource(format_args!("{i}.{j}"));
            if let Some(m) = m {
                r.insert("matches".into(), json!([m]));
            }
            if let Some(b) = backends {
                r.insert("backends".into(), b.clone());
            }
            if !policies.is_empty() {
                r.insert("trafficPolicies".into(), policies.to_vec().into());
            }
            out.push(("route", Value::Object(r)));
        }
    }

    /// A GRPCRoute rule's `route`: all of its matches (as paths) in one.
    fn grpc(
        &self,
        i: usize,
        written: &[Value],
        backends: Option<Value>,
        policies: Vec<Value>,
    ) -> Value {
        let mut r = self.resource(i);
        if !written.is_empty() {
            r.insert(
                "matches".into(),
                written.iter().map(grpc_match).collect::<Vec<_>>().into(),
            );
        }
        if let Some(b) = backends {
            r.insert("backends".into(), b);
        }
        if !policies.is_empty() {
            r.insert("trafficPolicies".into(), policies.into());
        }
        Value::Object(r)
    }

    /// A TCPRoute or TLSRoute rule's `tcpRoute`: its backends only.
    fn tcp(&self, i: usize, backends: Option<Value>) -> Value {
        let mut r = self.resource(i);
        if let Some(b) = backends {
            r.insert("backends".into(), b);
        }
        Value::Object(r)
    }
}

fn http_match(m: &Value) -> Value {
    let mut out = Map::new();
    if let Some(path) = m.get("path") {
        let value = path["value"].clone();
        let key = match path["type"].as_str().unwrap_or("PathPrefix") {
            "Exact" => "exact",
            "RegularExpression" => "regex",
            _ => "pathPrefix",
        };
        out.insert("path".into(), json!({ key: value }));
    }
    if let Some(h) = m["headers"].as_array() {
        out.insert(
            "headers".into(),
            h.iter().map(value_match).collect::<Vec<_>>().into(),
        );
    }
    if let Some(q) = m["queryParams"].as_array() {
        out.insert(
            "query".into(),
            q.iter().map(value_match).collect::<Vec<_>>().into(),
        );
    }
    if let Some(method) = m.get("method") {
        out.insert("method".into(), method.clone());
    }
    Value::Object(out)
}

/// A gRPC method match as a path match: `/service/method`, `/service/` as a prefix.
fn grpc_match(m: &Value) -> Value {
    let mut out = Map::new();
    let service = m["method"]["service"].as_str();
    let method = m["method"]["method"].as_str();
    match (service, method) {
        (Some(s), Some(me)) => {
            out.insert("path".into(), json!({"exact": format!("/{s}/{me}")}));
        }
        (Some(s), None) => {
            out.insert("path".into(), json!({"pathPrefix": format!("/{s}/")}));
        }
        (None, Some(me)) => {
            out.insert("path".into(), json!({"regex": format!("/[^/]+/{me}")}));
        }
        (None, None) => {}
    }
    if let Some(h) = m["headers"].as_array() {
        out.insert(
            "headers".into(),
            h.iter().map(value_match).collect::<Vec<_>>().into(),
        );
    }
    Value::Object(out)
}

/// A header or query parameter match: `{name, exact|regex: value}`.
fn value_match(h: &Value) -> Value {
    let key = match h["type"].as_str().unwrap_or("Exact") {
        "RegularExpression" => "regex",
        _ => "exact",
    };
    json!({"name": h["name"], key: h["value"]})
}

/// A rule's backendRefs with their weights; `None` when it has none.
fn backends<'r>(
    ctx: &Context<'_>,
    route: &Object,
    refs: impl Iterator<Item = (&'r ObjRef, i64)>,
) -> Option<Value> {
    let out: Vec<Value> = refs
        .map(
            |(r, weight)| match To::typed(r).and_then(|to| to.backend(ctx, route)) {
                Some(backend) => json!({ "backend": backend, "weight": weight }),
                // An invalid reference keeps its place (its share of traffic fails).
                None => json!({}),
            },
        )
        .collect();
    (!out.is_empty()).then(|| out.into())
}

/// Where a backendRef written in a filter or policy points, in the data plane's terms; `None`
/// for a kind the data plane cannot route to or a cross-namespace reference without a
/// ReferenceGrant.
pub(super) fn backend_ref(ctx: &Context<'_>, route: &Object, r: &Value) -> Option<Value> {
    To::json(r)?.backend(ctx, route)
}

/// What a backendRef names: written in a copied filter (JSON) or typed (a rule's).
struct To<'r> {
    name: &'r str,
    namespace: Option<&'r str>,
    group: &'r str,
    kind: &'r str,
    /// `port` as written (`null` when not).
    port: Value,
}

impl<'r> To<'r> {
    fn json(r: &'r Value) -> Option<Self> {
        Some(To {
            name: r["name"].as_str()?,
            namespace: r["namespace"].as_str(),
            group: r["group"].as_str().unwrap_or(""),
            kind: r["kind"].as_str().unwrap_or("Service"),
            port: r["port"].clone(),
        })
    }

    /// A typed backendRef; `None` without a name (the typed model keeps an empty one).
    fn typed(r: &'r ObjRef) -> Option<Self> {
        Some(To {
            name: Some(&*r.name).filter(|n| !n.is_empty())?,
            namespace: r.namespace(),
            group: r.group().unwrap_or(""),
            kind: r.kind().unwrap_or("Service"),
            port: r.port.map_or(Value::Null, Value::from),
        })
    }

    fn backend(self, ctx: &Context<'_>, route: &Object) -> Option<Value> {
        let To {
            name,
            group,
            kind,
            port,
            ..
        } = self;
        let ns = self.namespace.unwrap_or(&route.id.namespace);
        if ns != route.id.namespace
            && !(group.is_empty()
                && ctx.inputs.granted(
                    (GATEWAY_API, &route.id.kind, &route.id.namespace),
                    ("", kind, ns, name),
                ))
        {
            return None;
        }
        match (group, kind) {
            ("", "Service") => Some(json!({
                "port": port,
                "service": {"hostname": service_host(ns, name), "namespace": ns},
            })),
            (INFERENCE_GROUP, "InferencePool") => {
                let pool = ctx.inputs.get(INFERENCE_GROUP, "InferencePool", ns, name);
                let port = pool
                    .and_then(|p| p.value.pointer("/spec/targetPorts/0/number"))
                    .cloned()
                    .unwrap_or(Value::Null);
                Some(json!({
                    "port": port,
                    "service": {"hostname": pool_host(ns, name), "namespace": ns},
                }))
            }
            (AI_GROUP, "AiGatewayBackend") => Some(json!({ "backend": format!("{ns}/{name}") })),
            // A mesh hostname (an Istio ServiceEntry's host), reached as a service of that name.
            (ISTIO_NETWORKING, "Hostname") => Some(json!({
                "port": port,
                "service": {"hostname": name, "namespace": ns},
            })),
            _ => None,
        }
    }
}

/// The Gateway API filters and timeouts of a rule, as the route's traffic policies.
fn traffic_policies(
    ctx: &Context<'_>,
    route: &Object,
    rule: &Value,
    timeouts: Option<&Timeouts>,
) -> Vec<Value> {
    let mut auth = Vec::new();
    let mut out = Vec::new();
    let mut mirrors = Vec::new();
    let mut mirror_at = None;
    for f in rule["filters"].as_array().into_iter().flatten() {
        match f["type"].as_str().unwrap_or("") {
            "RequestHeaderModifier" => out.push(json!({
                "requestHeaderModifier": pick(&f["requestHeaderModifier"], &["add", "set", "remove"]),
            })),
            "ResponseHeaderModifier" => out.push(json!({
                "responseHeaderModifier": pick(&f["responseHeaderModifier"], &["add", "set", "remove"]),
            })),
            "RequestRedirect" => out.push(json!({ "requestRedirect": redirect(&f["requestRedirect"]) })),
            "URLRewrite" => out.push(json!({ "urlRewrite": rewrite(&f["urlRewrite"]) })),
            "CORS" => out.push(json!({ "cors": cors(&f["cors"]) })),
            "RequestMirror" => {
                let m = &f["requestMirror"];
                if let Some(backend) = backend_ref(ctx, route, &m["backendRef"]) {
                    mirror_at.get_or_insert(out.len());
                    mirrors.push(json!({"backend": backend, "percentage": mirror_percentage(m)}));
                }
            }
            "ExternalAuth" => {
                if let Some(e) = external_auth(ctx, route, &f["externalAuth"]) {
                    auth.push(e);
                }
            }
            _ => {}
        }
    }
    if let Some(at) = mirror_at {
        out.insert(at, json!({"requestMirror": {"mirrors": mirrors}}));
    }
    if let Some(t) = timeouts {
        // A zero timeout means none.
        let set: Map<String, Value> = [
            ("request", &t.request),
            ("backendRequest", &t.backend_request),
        ]
        .into_iter()
        .filter_map(|(key, v)| Some((key.to_string(), v.as_deref()?)))
        .filter(|(_, v)| !is_zero_duration(v))
        .map(|(key, v)| (key, Value::from(v)))
        .collect();
        if !set.is_empty() {
            out.push(json!({ "timeout": set }));
        }
    }
    // Authorization runs before anything else the route does.
    auth.extend(out);
    auth
}

fn is_zero_duration(s: &str) -> bool {
    s.trim_end_matches(|c: char| c.is_ascii_alphabetic())
        .parse::<f64>()
        == Ok(0.0)
}

fn mirror_percentage(m: &Value) -> Value {
    if let Some(p) = m["percent"].as_u64() {
        return p.into();
    }
    if let (Some(n), d) = (
        m["fraction"]["numerator"].as_f64(),
        m["fraction"]["denominator"].as_f64(),
    ) {
        let d = d.unwrap_or(100.0);
        if d > 0.0 {
            return json!(n * 100.0 / d);
        }
    }
    100.into()
}

fn redirect(r: &Value) -> Value {
    let mut out = pick(r, &["scheme", "hostname", "port"]);
    if let Some(code) = r.get("statusCode") {
        out.insert("status".into(), code.clone());
    }
    if let Some(p) = path_modifier(&r["path"]) {
        out.insert("path".into(), p);
    }
    Value::Object(out)
}

fn rewrite(r: &Value) -> Value {
    let mut out = pick(r, &["hostname"]);
    if let Some(p) = r.get("path") {
        match p["type"].as_str() {
            Some("ReplacePrefixMatch") => {
                out.insert("prefix".into(), p["replacePrefixMatch"].clone());
            }
            Some("ReplaceFullPath") => {
                out.insert("full".into(), p["replaceFullPath"].clone());
            }
            _ => {}
        }
    }
    Value::Object(out)
}

fn path_modifier(p: &Value) -> Option<Value> {
    match p["type"].as_str()? {
        "ReplacePrefixMatch" => Some(json!({"prefix": p["replacePrefixMatch"]})),
        "ReplaceFullPath" => Some(json!({"full": p["replaceFullPath"]})),
        _ => None,
    }
}

pub(super) fn cors(c: &Value) -> Value {
    let mut out = pick(
        c,
        &[
            "allowCredentials",
            "allowHeaders",
            "allowMethods",
            "allowOrigins",
            "exposeHeaders",
        ],
    );
    if let Some(age) = c["maxAge"].as_u64() {
        out.insert("maxAge".into(), format!("{age}s").into());
    }
    Value::Object(out)
}

/// The experimental ExternalAuth filter: the authorization service, the request headers it
/// sees (the ones every check needs, then the filter's), and for HTTP the path it is asked on.
fn external_auth(ctx: &Context<'_>, route: &Object, e: &Value) -> Option<Value> {
    let target = backend_ref(ctx, route, &e["backendRef"])?;
    let mut out = Map::new();
    out.insert("target".into(), target);
    match e["protocol"].as_str() {
        Some("HTTP") => {
            let h = &e["http"];
            let mut http = Map::new();
            if let Some(p) = h["path"].as_str() {
                http.insert("path".into(), format!("{p:?} + request.path").into());
            }
            if let Some(r) = h.get("allowedResponseHeaders") {
                http.insert("includeResponseHeaders".into(), r.clone());
            }
            let mut headers: Vec<Value> = vec!["Authorization".into(), ":authority".into()];
            headers.extend(
                h["allowedHeaders"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .cloned(),
            );
            out.insert("includeRequestHeaders".into(), headers.into());
            out.insert("http".into(), http.into());
        }
        _ => {
            out.insert("grpc".into(), json!({}));
        }
    }
    Some(json!({ "extAuthz": out }))
}
