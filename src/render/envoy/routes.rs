//! RouteConfigurations: one virtual host per hostname the attached routes serve, and in it one
//! Envoy Route per (route, rule, match), in Gateway API precedence.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value, json};

use super::super::{Context, ValidationLevel};
use super::clusters;
use super::entries::{self, Delegation, Entry};
use super::filters;
use super::listeners::RouteConfig;
use super::matches;
use super::plan::{Plan, array, domains};
use super::policy::{Applied, METADATA, Policies};
use super::{duration, typed, underscored};
use crate::model::Object;

/// The body of the direct response that replaces an invalid route rule.
const INVALID_BODY: &str =
    "invalid route configuration detected and replaced with a direct response.";

/// What the routes of a Gateway share: its TrafficPolicies, the Gateway-level settings, and
/// the HTTP filters the routes need declared on the listeners.
pub struct Shared<'s, 'c> {
    pub policies: &'s Policies<'c>,
    pub gateway: &'s Applied,
}

/// A rendered RouteConfiguration and the HTTP filters its chain declares.
pub struct Rendered {
    pub value: Value,
    pub declarations: BTreeMap<String, Value>,
    /// Routes the controller's check replaced (for the route statuses).
    pub replaced: Vec<crate::render::ReplacedRoute>,
}

/// The RouteConfiguration of an HTTP filter chain.
pub fn render(
    ctx: &Context<'_>,
    plan: &Plan<'_>,
    rc: &RouteConfig,
    shared: &Shared<'_, '_>,
) -> Rendered {
    let mut declarations = BTreeMap::new();
    let mut replaced = Vec::new();
    // Listener-level settings: on the route configuration when it serves one listener, else on
    // the virtual hosts of each listener.
    let policies = shared.policies;
    let listener_policy = |li: usize, only: bool| {
        let l = &plan.listeners[li];
        // A listener set's listener is a place of the set's (the merge stage ranks the set's
        // policies at the listener level, under the parent Gateway's).
        policies.listener(l.set.unwrap_or(plan.gateway), l.index, only)
    };
    // An invalid listener-level policy is answered below (the configuration returns 500).
    let mut listener_failed = None;
    let mut rc_policy = if rc.https {
        listener_policy(rc.listeners[0], false).unwrap_or_else(|why| {
            listener_failed = Some(why);
            Applied::default()
        })
    } else {
        shared.gateway.clone()
    };
    let mut host_policy: BTreeMap<String, Applied> = BTreeMap::new();
    // The virtual hosts of listeners with an invalid listener-level TrafficPolicy: each answers
    // 500 on every path.
    let mut replaced_hosts: BTreeSet<String> = BTreeSet::new();
    let mut by_domain: BTreeMap<String, Vec<Entry<'_>>> = BTreeMap::new();
    for &li in &rc.listeners {
        let l = &plan.listeners[li];
        for route in &l.routes {
            if !matches!(route.id.kind.as_str(), "HTTPRoute" | "GRPCRoute") {
                continue;
            }
            let hostnames: Vec<&str> = array(&route.value, "/spec/hostnames")
                .filter_map(Value::as_str)
                .collect();
            for domain in domains(l.hostname, &hostnames) {
                if !rc.https && !host_policy.contains_key(&domain) {
                    let owner = l.set.unwrap_or(plan.gateway);
                    let applied = match listener_policy(li, true) {
                        Ok(a) if policies.invalid_on_listener(owner, l.index).is_none() => a,
                        _ => {
                            replaced_hosts.insert(domain.clone());
                            Applied::default()
                        }
                    };
                    host_policy.insert(domain.clone(), applied);
                }
                let entries = by_domain.entry(domain).or_default();
                if entries.iter().any(|e| std::ptr::eq(e.route, *route)) {
                    continue;
                }
                entries::of_route(ctx, policies, route, l.port, entries);
            }
        }
    }
    let mut hosts = Vec::new();
    for (domain, mut entries) in by_domain {
        // Ties between equal matches: the attached (root) route's age and name; then the less
        // deeply delegated first (the reference's goldens: a delegating rule's number comes
        // before its children's), a delegated entry's own route's age and name, and the order
        // the root's delegation tree flattens in.
        // WeightedRoutePrecedence: a heavier entry's own route first, whatever its match. The
        // key is made once per entry: a match's precedence reads its JSON.
        let weighted = ctx.options.weighted_route_precedence;
        entries.sort_by_cached_key(|e| {
            let weight = if weighted { route_weight(e.route) } else { 0 };
            (
                std::cmp::Reverse(weight),
                matches::precedence(&e.m),
                created(e.root),
                ns_name(e.root),
                e.parents.len(),
                created(e.route),
                ns_name(e.route),
                e.order,
            )
        });
        let vhost = if domain == "*" {
            format!("{}~*", rc.name)
        } else {
            format!("{}~{}", rc.name, underscored(&domain))
        };
        if replaced_hosts.contains(&domain) {
            hosts.push(json!({"domains": [domain], "name": vhost, "routes": replaced_routes()}));
            continue;
        }
        let strict = ctx.options.validation_level == ValidationLevel::Strict;
        let mut routes = Vec::new();
        for (i, e) in entries.iter().enumerate() {
            // Numbered in precedence order among every entry, as the reference numbers them (a
            // delegating rule takes a number, its children are routes; a dropped one keeps its
            // number).
            let name = route_name(&vhost, i, e);
            match e.delegation {
                Delegation::None => {}
                Delegation::Children => continue,
                Delegation::Invalid(_) => {
                    routes.extend(invalid(e, name));
                    continue;
                }
            }
            // Strict: the proxy rejects the matcher, so the controller drops the route.
            if strict && matcher_rejected(e).is_some() {
                continue;
            }
            // The controller checks each generated route and replaces one that fails; under
            // strict validation the proxy's check also refuses a header value it cannot parse,
            // and the controller says so in the proxy's words.
            let refused = super::route_check::rule_error(e.rule)
                .map(|why| format!("invalid route configuration: error {name}: {why}"))
                .or_else(|| {
                    let why = strict
                        .then(|| super::formatter::rule_error(e.rule))
                        .flatten()?;
                    Some(format!(
                        "invalid route configuration: validation failed: {}{why}",
                        super::XDS
                    ))
                });
            if let Some(message) = refused {
                let id = &e.route.id;
                replaced.push(crate::render::ReplacedRoute {
                    kind: id.kind.clone(),
                    namespace: id.namespace.clone(),
                    name: id.name.clone(),
                    match_index: e.match_index,
                    message,
                });
                routes.extend(invalid(e, name));
                continue;
            }
            match route(ctx, e, name.clone(), shared, &mut declarations) {
                Ok(r) => routes.push(r),
                Err(_) => routes.extend(invalid(e, name)),
            }
        }
        // Built field by field: `json!` would copy the routes through serialisation. A host
        // whose every route was dropped has none.
        let mut host = Value::Object(Map::from_iter([
            ("domains".to_string(), json!([domain])),
            ("name".to_string(), Value::String(vhost)),
        ]));
        if !routes.is_empty() {
            host["routes"] = Value::Array(routes);
        }
        if rc.tls {
            host["requireTls"] = json!("ALL");
        }
        // Gateway- and listener-level retries apply per virtual host.
        let listener_level = host_policy.get(&domain_of(&host));
        let retry_from = listener_level
            .filter(|a| a.action.contains_key("retryPolicy"))
            .unwrap_or(&rc_policy);
        if let Some(retry) = retry_from.action.get("retryPolicy") {
            host["retryPolicy"] = retry.clone();
            if let Some(refs) = retry_from.metadata.get("retry") {
                host["metadata"] = json!({"filterMetadata": {METADATA: {"retry": refs}}});
            }
        }
        if let Some(applied) = listener_level
            && let Value::Object(fields) = &mut host
        {
            applied.declare_into(&mut declarations);
            applied.write(fields);
        }
        hosts.push(host);
    }
    // The controller orders virtual hosts by name (dots made underscores), not by hostname.
    hosts.sort_by(|a, b| a["name"].as_str().cmp(&b["name"].as_str()));
    // An invalid TrafficPolicy on the Gateway (or the configuration's one listener) leaves
    // nothing valid to route: one catch-all virtual host answers 500, as the reference does. One
    // on a listener set, for a port's shared configuration, keeps the set's virtual hosts, each
    // answering 500.
    let only = rc.listeners.first().map(|&li| &plan.listeners[li]);
    let own_listener = only.filter(|_| rc.https).map(|l| l.index);
    let owner = only.and_then(|l| l.set);
    let on_gateway =
        policies.invalid_on_gateway(plan.gateway, own_listener.filter(|_| owner.is_none()));
    let on_set = match &on_gateway {
        Some(_) => None,
        None => owner.and_then(|set| policies.invalid_on_gateway(set, own_listener)),
    };
    if on_gateway.is_some() || on_set.is_some() || listener_failed.is_some() {
        hosts = if on_gateway.is_none() && listener_failed.is_none() && !rc.https {
            hosts
                .iter()
                .map(|h| json!({"domains": h["domains"], "name": h["name"], "routes": replaced_routes()}))
                .collect()
        } else {
            vec![json!({"domains": ["*"], "name": "default", "routes": replaced_routes()})]
        };
        // Nothing of the valid policies is left on a replaced listener's own configuration, nor
        // of the Gateway's when it is the Gateway's policy that is invalid; a port's shared one
        // keeps the Gateway's.
        declarations.clear();
        if rc.https || on_gateway.is_some() {
            rc_policy = Applied::default();
        }
    }
    let mut value = Map::new();
    value.insert("ignorePortInHostMatching".into(), json!(true));
    value.insert("name".into(), json!(rc.name));
    rc_policy.declare_into(&mut declarations);
    rc_policy
        .metadata
        .retain(|k, _| !matches!(k.as_str(), "retry" | "timeouts"));
    rc_policy.write(&mut value);
    if !hosts.is_empty() {
        value.insert("virtualHosts".into(), Value::Array(hosts));
    }
    Rendered {
        value: Value::Object(value),
        declarations,
        replaced,
    }
}

/// The one route of a virtual host whose listener or Gateway has an invalid policy.
fn replaced_routes() -> Value {
    json!([{
        "directResponse": {"body": {"inlineString": INVALID_BODY}, "status": 500},
        "match": {"prefix": "/"},
    }])
}

fn domain_of(host: &Value) -> String {
    host.pointer("/domains/0")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

/// A route's `kgateway.dev/route-weight` annotation; 0 without one or when it is no integer.
fn route_weight(route: &Object) -> i64 {
    route
        .value
        .pointer("/metadata/annotations/kgateway.dev~1route-weight")
        .and_then(Value::as_str)
        .and_then(|w| w.trim().parse().ok())
        .unwrap_or(0)
}

/// `metadata.creationTimestamp`; one without sorts last.
fn created(route: &Object) -> (bool, &str) {
    match route
        .value
        .pointer("/metadata/creationTimestamp")
        .and_then(Value::as_str)
    {
        Some(t) => (false, t),
        None => (true, ""),
    }
}

/// `namespace/name` as one string compares (a namespace that prefixes another's sorts by the
/// separator).
fn ns_name(route: &Object) -> String {
    format!("{}/{}", route.id.namespace, route.id.name)
}

fn route_name(vhost: &str, i: usize, e: &Entry<'_>) -> String {
    let kind = e.route.id.kind.to_ascii_lowercase();
    let rule_name = e
        .rule
        .get("name")
        .and_then(Value::as_str)
        .map(|n| format!("-{n}"))
        .unwrap_or_default();
    format!(
        "{vhost}-route-{i}-{kind}-{}-{}-{}-{}{rule_name}-matcher-0",
        e.route.id.name, e.route.id.namespace, e.rule_index, e.match_index
    )
}

/// Why the proxy rejects an entry's matcher (a regular expression RE2 refuses), in the proxy's
/// words; `None` when it accepts it.
pub fn matcher_rejected(e: &Entry<'_>) -> Option<String> {
    matches::rejected_regex(&e.m, e.route.id.kind == "GRPCRoute")
}

fn route_match(e: &Entry<'_>) -> Result<Value, String> {
    if e.route.id.kind == "GRPCRoute" {
        matches::grpc(&e.m)
    } else {
        matches::http(&e.m)
    }
}

/// The direct response 500 that replaces an invalid rule, on the rule's own match. A match that
/// cannot be rendered (a path prefix without a leading `/`) has nothing to answer on: the route
/// is left out rather than answer on another path.
fn invalid(e: &Entry<'_>, name: String) -> Option<Value> {
    let m = route_match(e).ok()?;
    Some(json!({
        "directResponse": {"body": {"inlineString": INVALID_BODY}, "status": 500},
        "match": m,
        "name": name,
    }))
}

fn route(
    ctx: &Context<'_>,
    e: &Entry<'_>,
    name: String,
    shared: &Shared<'_, '_>,
    declarations: &mut BTreeMap<String, Value>,
) -> Result<Value, String> {
    let m = route_match(e)?;
    // A delegated child's rule with what it inherits of its parents' built-in settings.
    let rule = entries::inherited_rule(e);
    let f = filters::rule(ctx, e.route, &rule, &e.m, e.port)?;
    let parent = e.parents.first().copied();
    let mut policy = shared.policies.rule(e.route, e.rule_index, parent)?;
    if let Some(persistence) = rule.get("sessionPersistence") {
        session_persistence(&mut policy, persistence);
    }
    policy.declare_into(declarations);
    let mut out = Map::new();
    out.insert("match".into(), m);
    out.insert("name".into(), json!(name));
    let mut route_fields = f.route;
    if let Some(d) = f.direct {
        out.insert("directResponse".into(), d);
    } else if let Some(r) = f.redirect {
        out.insert("redirect".into(), r);
    } else {
        let mut action = action(ctx, e, &rule, &mut route_fields, declarations)?;
        action.extend(f.action);
        // The route's own timeouts, retries, host and path rewrites win over a TrafficPolicy's.
        let builtin_timeout = rule.get("timeouts").is_some();
        let builtin_retry = rule.get("retry").is_some();
        let rewrites_path =
            action.contains_key("regexRewrite") || action.contains_key("prefixRewrite");
        for (k, v) in &policy.action {
            let builtin = match k.as_str() {
                "retryPolicy" => builtin_retry,
                "timeout" | "idleTimeout" => builtin_timeout || builtin_retry,
                "regexRewrite" => rewrites_path,
                _ => false,
            };
            if !builtin {
                action.insert(k.clone(), v.clone());
            }
        }
        out.insert("route".into(), Value::Object(action));
    }
    out.extend(route_fields);
    policy.write(&mut out);
    Ok(Value::Object(out))
}

/// A rule's sessionPersistence: the stateful session filter, configured on the route.
fn session_persistence(policy: &mut Applied, p: &Value) {
    let name = "envoy.filters.http.stateful_session";
    policy
        .declarations
        .entry(name.to_string())
        .or_insert_with(|| {
            json!({
                "disabled": true,
                "name": name,
                "typedConfig": typed(
                    "envoy.extensions.filters.http.stateful_session.v3.StatefulSession",
                    json!({}),
                ),
            })
        });
    let session = p.get("sessionName").cloned().unwrap_or(json!("session"));
    let state = if p.get("type").and_then(Value::as_str) == Some("Header") {
        json!({
            "name": "envoy.http.stateful_session.header",
            "typedConfig": typed(
                "envoy.extensions.http.stateful_session.header.v3.HeaderBasedSessionState",
                json!({"name": session}),
            ),
        })
    } else {
        let mut cookie = json!({"name": session, "path": "/"});
        if let Some(ttl) = p
            .get("absoluteTimeout")
            .and_then(Value::as_str)
            .and_then(duration)
        {
            cookie["ttl"] = json!(ttl);
        }
        json!({
            "name": "envoy.http.stateful_session.cookie",
            "typedConfig": typed(
                "envoy.extensions.http.stateful_session.cookie.v3.CookieBasedSessionState",
                json!({"cookie": cookie}),
            ),
        })
    };
    policy.per_filter.insert(
        name.into(),
        typed(
            "envoy.extensions.filters.http.stateful_session.v3.StatefulSessionPerRoute",
            json!({"statefulSession": {"sessionState": state}}),
        ),
    );
}

/// The RouteAction: the backends, timeouts and retries of the rule.
fn action(
    ctx: &Context<'_>,
    e: &Entry<'_>,
    rule: &Value,
    route_fields: &mut Map<String, Value>,
    declarations: &mut BTreeMap<String, Value>,
) -> Result<Map<String, Value>, String> {
    let mut action = Map::new();
    let mut backends = Vec::new();
    let mut upgrade = false;
    for b in array(rule, "/backendRefs") {
        let weight = b.get("weight").and_then(Value::as_i64).unwrap_or(1);
        let t = clusters::target(ctx, e.route, b);
        upgrade |= t.app_protocol.as_deref() == Some("kubernetes.io/ws");
        if t.dynamic_forward_proxy {
            let (name, filter) = clusters::forward_proxy_filter();
            declarations.entry(name).or_insert(filter);
        }
        let mut per_backend = Map::new();
        let bf = b.get("filters").unwrap_or(&Value::Null);
        for f in bf.as_array().into_iter().flatten() {
            match f.get("type").and_then(Value::as_str) {
                Some("RequestHeaderModifier") => {
                    filters::headers(&mut per_backend, f.get("requestHeaderModifier"), "request")?
                }
                Some("ResponseHeaderModifier") => filters::headers(
                    &mut per_backend,
                    f.get("responseHeaderModifier"),
                    "response",
                )?,
                _ => {}
            }
        }
        backends.push((t.cluster, weight, per_backend));
    }
    match backends.len() {
        0 => {
            action.insert("cluster".into(), json!(clusters::BLACKHOLE));
        }
        1 => {
            let (cluster, _, per_backend) = backends.remove(0);
            action.insert("cluster".into(), json!(cluster));
            // One backend: its filters are the route's.
            for (k, v) in per_backend {
                if let (Some(Value::Array(list)), Value::Array(more)) =
                    (route_fields.get_mut(&k), &v)
                {
                    list.extend(more.iter().cloned());
                } else {
                    route_fields.insert(k, v);
                }
            }
        }
        _ => {
            let list: Vec<Value> = backends
                .into_iter()
                .filter(|(_, w, _)| *w > 0)
                .map(|(c, w, per_backend)| {
                    let mut entry = Map::new();
                    entry.insert("name".into(), json!(c));
                    entry.extend(per_backend);
                    entry.insert("weight".into(), json!(w));
                    Value::Object(entry)
                })
                .collect();
            action.insert("weightedClusters".into(), json!({"clusters": list}));
        }
    }
    action.insert(
        "clusterNotFoundResponseCode".into(),
        json!("INTERNAL_SERVER_ERROR"),
    );
    let request = rule
        .pointer("/timeouts/request")
        .and_then(Value::as_str)
        .and_then(duration);
    let backend = rule
        .pointer("/timeouts/backendRequest")
        .and_then(Value::as_str)
        .and_then(duration);
    if let Some(retry) = rule.get("retry") {
        let mut policy = Map::new();
        policy.insert(
            "numRetries".into(),
            json!(retry.get("attempts").and_then(Value::as_i64).unwrap_or(1)),
        );
        if let Some(b) = &backend {
            policy.insert("perTryTimeout".into(), json!(b));
        }
        let codes: Vec<Value> = array(retry, "/codes").cloned().collect();
        if !codes.is_empty() {
            policy.insert("retriableStatusCodes".into(), Value::Array(codes));
        }
        if let Some(b) = retry
            .get("backoff")
            .and_then(Value::as_str)
            .and_then(duration)
        {
            policy.insert("retryBackOff".into(), json!({"baseInterval": b}));
        }
        policy.insert(
            "retryOn".into(),
            json!("cancelled,connect-failure,refused-stream,retriable-headers,retriable-status-codes,unavailable"),
        );
        action.insert("retryPolicy".into(), Value::Object(policy));
        if let Some(t) = request.or(backend) {
            action.insert("timeout".into(), json!(t));
        }
    } else if let Some(t) = backend.or(request) {
        action.insert("timeout".into(), json!(t));
    }
    if upgrade {
        action.insert(
            "upgradeConfigs".into(),
            json!([{"upgradeType": "websocket"}]),
        );
    }
    Ok(action)
}
