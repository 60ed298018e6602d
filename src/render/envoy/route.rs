//! One Envoy Route of an entry: its match, the rule's filters, the RouteAction (backends,
//! timeouts, retries) and the TrafficPolicy settings of its place.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use crate::render::pointer::Pointer;

use super::super::Context;
use super::clusters;
use super::entries::{self, Entry};
use super::filters;
use super::plan::array;
use super::policy::Applied;
use super::routes::{Shared, route_match};
use super::{duration, typed};
use crate::model::facts_rules::{Retry, Session, Timeouts};

pub(super) fn route(
    ctx: &Context<'_>,
    e: &Entry<'_>,
    name: String,
    shared: &Shared<'_, '_>,
    declarations: &mut BTreeMap<String, Value>,
) -> Result<Value, String> {
    let m = route_match(e)?;
    // A delegated child's rule with what it inherits of its parents' built-in settings.
    let rule = entries::inherited_rule(ctx, e);
    let settings = entries::inherited_settings(ctx, e);
    let f = filters::rule(ctx, e.route, &rule, &e.m, e.port)?;
    let parent = e.parents.first().copied();
    let mut policy = shared.policies.rule(e.route, e.rule_index, parent)?;
    if let Some(session) = e.typed.settings(e.rule_index).session.as_deref() {
        session_persistence(&mut policy, session);
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
        let mut action = action(ctx, e, &rule, settings, &mut route_fields, declarations)?;
        action.extend(f.action);
        // The route's own timeouts, retries, host and path rewrites win over a TrafficPolicy's.
        let builtin_timeout = settings.0.is_some();
        let builtin_retry = settings.1.is_some();
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
fn session_persistence(policy: &mut Applied, p: &Session) {
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
    // Unnamed, the controller's own names.
    let default_name = if p.header {
        "x-session-persistence"
    } else {
        "sessionPersistence"
    };
    let session = p.name.clone().unwrap_or(json!(default_name));
    let state = if p.header {
        json!({
            "name": "envoy.http.stateful_session.header",
            "typedConfig": typed(
                "envoy.extensions.http.stateful_session.header.v3.HeaderBasedSessionState",
                json!({"name": session}),
            ),
        })
    } else {
        let mut cookie = json!({"name": session});
        if let Some(path) = &p.path {
            cookie["path"] = json!(path);
        }
        let ttl = p.absolute_timeout.as_deref().and_then(duration);
        // A session cookie has no expiry; a permanent one lives a year unless timed out.
        let ttl = match p.lifetime.as_deref() {
            Some("Session") => None,
            Some("Permanent") => ttl.or_else(|| Some(format!("{}s", 365 * 24 * 3600))),
            _ => ttl,
        };
        if let Some(ttl) = ttl {
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
    settings: (Option<&Timeouts>, Option<&Retry>),
    route_fields: &mut Map<String, Value>,
    declarations: &mut BTreeMap<String, Value>,
) -> Result<Map<String, Value>, String> {
    let mut action = Map::new();
    let (mut backends, upgrade) = backends(ctx, e, rule, declarations)?;
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
            action.insert(
                "weightedClusters".into(),
                Value::Object(Map::from_iter([("clusters".into(), Value::Array(list))])),
            );
        }
    }
    action.insert(
        "clusterNotFoundResponseCode".into(),
        json!("INTERNAL_SERVER_ERROR"),
    );
    timeouts(&mut action, settings);
    if upgrade {
        action.insert(
            "upgradeConfigs".into(),
            json!([{"upgradeType": "websocket"}]),
        );
    }
    Ok(action)
}

/// One backend of a rule: its cluster, weight and header modifiers.
type Backend = (String, i64, Map<String, Value>);

/// The rule's backends, and whether one of them asks for websocket upgrades.
fn backends(
    ctx: &Context<'_>,
    e: &Entry<'_>,
    rule: &Value,
    declarations: &mut BTreeMap<String, Value>,
) -> Result<(Vec<Backend>, bool), String> {
    let mut backends = Vec::new();
    let mut upgrade = false;
    // backendRefs are not inherited: the typed ones of the entry's own rule, each beside its
    // filters as written (one item of the rule's backendRefs each).
    let written = array(rule, "/backendRefs")
        .map(Some)
        .chain(std::iter::repeat(None));
    for ((b, weight), written) in e.typed.rule_backends(e.rule_index).zip(written) {
        let t = clusters::target(ctx, e.route, clusters::BackendRef::typed(b));
        upgrade |= t.app_protocol.as_deref() == Some("kubernetes.io/ws");
        if t.dynamic_forward_proxy {
            let (name, filter) = clusters::forward_proxy_filter();
            declarations.entry(name).or_insert(filter);
        }
        let mut per_backend = Map::new();
        let bf = written.and_then(|b| b.field("filters"));
        for f in bf.and_then(Value::as_array).into_iter().flatten() {
            match f.field("type").and_then(Value::as_str) {
                Some("RequestHeaderModifier") => filters::headers(
                    &mut per_backend,
                    f.field("requestHeaderModifier"),
                    filters::Side::Request,
                )?,
                Some("ResponseHeaderModifier") => filters::headers(
                    &mut per_backend,
                    f.field("responseHeaderModifier"),
                    filters::Side::Response,
                )?,
                _ => {}
            }
        }
        backends.push((t.cluster, weight, per_backend));
    }
    Ok((backends, upgrade))
}

/// The rule's timeouts and retry: with a retry, backendRequest is the per-try timeout and
/// request the overall one; without, backendRequest wins.
fn timeouts(
    action: &mut Map<String, Value>,
    (timeouts, retry): (Option<&Timeouts>, Option<&Retry>),
) {
    let request = timeouts
        .and_then(|t| t.request.as_deref())
        .and_then(duration);
    let backend = timeouts
        .and_then(|t| t.backend_request.as_deref())
        .and_then(duration);
    if let Some(retry) = retry {
        action.insert(
            "retryPolicy".into(),
            retry_policy(retry, backend.as_deref()),
        );
        if let Some(t) = request.or(backend) {
            action.insert("timeout".into(), json!(t));
        }
    } else if let Some(t) = backend.or(request) {
        action.insert("timeout".into(), json!(t));
    }
}

/// A rule's retry as the RouteAction's retryPolicy; `per_try` is its backendRequest timeout.
fn retry_policy(retry: &Retry, per_try: Option<&str>) -> Value {
    let mut policy = Map::new();
    policy.insert("numRetries".into(), json!(retry.attempts.unwrap_or(1)));
    if let Some(b) = per_try {
        policy.insert("perTryTimeout".into(), json!(b));
    }
    if !retry.codes.is_empty() {
        policy.insert(
            "retriableStatusCodes".into(),
            Value::Array(retry.codes.clone()),
        );
    }
    if let Some(b) = retry.backoff.as_deref().and_then(duration) {
        policy.insert("retryBackOff".into(), json!({"baseInterval": b}));
    }
    policy.insert(
        "retryOn".into(),
        json!("cancelled,connect-failure,refused-stream,retriable-headers,retriable-status-codes,unavailable"),
    );
    Value::Object(policy)
}
