//! RouteConfigurations: one virtual host per hostname the attached routes serve, and in it one
//! Envoy Route per (route, rule, match), in Gateway API precedence.

use crate::render::pointer::Pointer;
use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value, json};

use super::super::{Context, ValidationLevel};
use super::entries::{self, Delegation, Entry};
use super::listeners::RouteConfig;
use super::matches;
use super::plan::{Plan, domains};
use super::policy::{Applied, METADATA, Policies};
use super::route::route;
use super::route_memo::{EntryMemo, RouteMemo};
use super::underscored;
use crate::model::Object;
use crate::model::facts::RouteFacts;
use crate::text::{Decimal, join};

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

/// The RouteConfiguration of an HTTP filter chain, of its [`collect`]ed entries; `memo` holds the
/// Gateway's repeated routes.
pub fn render(
    ctx: &Context<'_>,
    plan: &Plan<'_>,
    rc: &RouteConfig,
    collected: Collected<'_>,
    shared: &Shared<'_, '_>,
    memo: &mut RouteMemo,
) -> Rendered {
    let mut declarations = BTreeMap::new();
    let mut replaced = Vec::new();
    let mut rc_policy = collected.rc_policy;
    let mut hosts = Vec::new();
    for (domain, entries) in collected.by_domain {
        let vhost = if domain == "*" {
            format!("{}~*", rc.name)
        } else {
            format!("{}~{}", rc.name, underscored(&domain))
        };
        if collected.replaced_hosts.contains(&domain) {
            hosts.push(json!({"domains": [domain], "name": vhost, "routes": replaced_routes()}));
            continue;
        }
        let mut out = HostRoutes {
            declarations: &mut declarations,
            replaced: &mut replaced,
            memo,
        };
        let routes = host_routes(ctx, shared, &vhost, entries, &mut out);
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
        let listener_level = collected.host_policy.get(&domain_of(&host));
        host_policies(&mut host, listener_level, &rc_policy, &mut declarations);
        hosts.push(host);
    }
    // The controller orders virtual hosts by name (dots made underscores), not by hostname.
    hosts.sort_by(|a, b| a["name"].as_str().cmp(&b["name"].as_str()));
    if let Some(hosts_left) = invalid_policy_hosts(
        plan,
        rc,
        shared.policies,
        &hosts,
        collected.listener_failed.is_some(),
    ) {
        hosts = hosts_left.hosts;
        // Nothing of the valid policies is left on a replaced listener's own configuration, nor
        // of the Gateway's when it is the Gateway's policy that is invalid; a port's shared one
        // keeps the Gateway's.
        declarations.clear();
        if rc.https || hosts_left.on_gateway {
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

/// The entries of a route configuration by domain, with the policies of its listeners.
pub struct Collected<'a> {
    by_domain: BTreeMap<String, Vec<Entry<'a>>>,
    /// The configuration's own policy: its one HTTPS listener's, else the Gateway's.
    rc_policy: Applied,
    /// Listener-level policies per virtual host (a port shared by listeners).
    host_policy: BTreeMap<String, Applied>,
    /// The virtual hosts of listeners with an invalid listener-level TrafficPolicy: each answers
    /// 500 on every path.
    replaced_hosts: BTreeSet<String>,
    /// Why the HTTPS listener's own policy is invalid (the configuration then returns 500).
    listener_failed: Option<String>,
}

impl<'a> Collected<'a> {
    /// Every entry, of every domain.
    pub fn entries(&self) -> impl Iterator<Item = &Entry<'a>> {
        self.by_domain.values().flatten()
    }
}

/// The entries of the HTTP routes attached to the configuration's listeners, by domain; `memo`
/// holds those of the Gateway's routes made so far.
pub fn collect<'a>(
    ctx: &Context<'a>,
    plan: &Plan<'a>,
    rc: &RouteConfig,
    shared: &Shared<'_, '_>,
    memo: &mut EntryMemo<'a>,
) -> Collected<'a> {
    // Listener-level settings: on the route configuration when it serves one listener, else on
    // the virtual hosts of each listener.
    let policies = shared.policies;
    let listener_policy = |li: usize, only: bool| {
        let l = &plan.listeners[li];
        // A listener set's listener is a place of the set's (the merge stage ranks the set's
        // policies at the listener level, under the parent Gateway's).
        policies.listener(l.set.unwrap_or(plan.gateway), l.index, only)
    };
    let mut listener_failed = None;
    let rc_policy = if rc.https {
        listener_policy(rc.listeners[0], false).unwrap_or_else(|why| {
            listener_failed = Some(why);
            Applied::default()
        })
    } else {
        shared.gateway.clone()
    };
    let mut out = Collected {
        by_domain: BTreeMap::new(),
        rc_policy,
        host_policy: BTreeMap::new(),
        replaced_hosts: BTreeSet::new(),
        listener_failed,
    };
    for &li in &rc.listeners {
        let l = &plan.listeners[li];
        for route in &l.routes {
            if !matches!(route.id.kind.as_str(), "HTTPRoute" | "GRPCRoute") {
                continue;
            }
            let hostnames: Vec<&str> = entries::typed_route(ctx, route)
                .hostnames
                .iter()
                .map(String::as_str)
                .collect();
            for domain in domains(l.hostname, &hostnames) {
                if !rc.https && !out.host_policy.contains_key(&domain) {
                    let owner = l.set.unwrap_or(plan.gateway);
                    let applied = match listener_policy(li, true) {
                        Ok(a) if policies.invalid_on_listener(owner, l.index).is_none() => a,
                        _ => {
                            out.replaced_hosts.insert(domain.clone());
                            Applied::default()
                        }
                    };
                    out.host_policy.insert(domain.clone(), applied);
                }
                let entries = out.by_domain.entry(domain).or_default();
                if entries.iter().any(|e| std::ptr::eq(e.route, *route)) {
                    continue;
                }
                entries.extend_from_slice(memo.of_route(ctx, policies, route, l.port));
            }
        }
    }
    out
}

/// What rendering a virtual host's routes adds to: its configuration's declarations and replaced
/// routes, and the Gateway's repeated routes.
struct HostRoutes<'o> {
    declarations: &'o mut BTreeMap<String, Value>,
    replaced: &'o mut Vec<crate::render::ReplacedRoute>,
    memo: &'o mut RouteMemo,
}

/// The Envoy routes of one virtual host: its entries in precedence order, each rendered, replaced
/// by a direct response when the controller's (or, strict, the proxy's) check refuses it, or left
/// out.
fn host_routes(
    ctx: &Context<'_>,
    shared: &Shared<'_, '_>,
    vhost: &str,
    mut entries: Vec<Entry<'_>>,
    out: &mut HostRoutes<'_>,
) -> Vec<Value> {
    sort_entries(ctx, &mut entries);
    let strict = ctx.options.validation_level == ValidationLevel::Strict;
    let mut routes = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        // Numbered in precedence order among every entry, as the reference numbers them (a
        // delegating rule takes a number, its children are routes; a dropped one keeps its
        // number).
        let name = route_name(vhost, i, e);
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
        if let Some(message) = refusal(e, &name, strict) {
            let id = &e.route.id;
            out.replaced.push(crate::render::ReplacedRoute {
                kind: id.kind.clone(),
                namespace: id.namespace.clone(),
                name: id.name.clone(),
                match_index: e.match_index,
                message,
            });
            routes.extend(invalid(e, name));
            continue;
        }
        let rendered = out
            .memo
            .route(e, name.clone(), out.declarations, |name, declarations| {
                route(ctx, e, name, shared, declarations)
            });
        match rendered {
            Ok(r) => routes.push(r),
            Err(_) => routes.extend(invalid(e, name)),
        }
    }
    routes
}

/// Gateway API precedence among the entries of one virtual host.
fn sort_entries(ctx: &Context<'_>, entries: &mut [Entry<'_>]) {
    // Ties between equal matches: the attached (root) route's age and name; then the less
    // deeply delegated first (the reference's goldens: a delegating rule's number comes
    // before its children's), a delegated entry's own route's age and name, and the order
    // the root's delegation tree flattens in.
    // WeightedRoutePrecedence: a heavier entry's own route first, whatever its match. The
    // key is made once per entry: a match's precedence reads its JSON.
    let weighted = ctx.options.weighted_route_precedence;
    entries.sort_by_cached_key(|e| {
        let weight = if weighted { e.typed.weight } else { 0 };
        (
            std::cmp::Reverse(weight),
            matches::precedence(&e.m, e.route.id.kind == "GRPCRoute"),
            created(e.root_typed),
            ns_name(e.root),
            e.parents.len(),
            created(e.typed),
            ns_name(e.route),
            e.order,
        )
    });
}

/// Why the controller replaces the entry's route: its check of each generated route fails, or
/// (strict validation) the proxy's check refuses a header value it cannot parse, which the
/// controller reports in the proxy's words.
fn refusal(e: &Entry<'_>, name: &str, strict: bool) -> Option<String> {
    super::route_check::rule_error(e.rule)
        .map(|why| format!("invalid route configuration: error {name}: {why}"))
        .or_else(|| {
            let why = strict
                .then(|| super::formatter::rule_error(e.rule))
                .flatten()?;
            Some(format!(
                "invalid route configuration: validation failed: {}{why}",
                super::XDS
            ))
        })
}

/// Gateway- and listener-level settings of a virtual host: retries apply per virtual host, and a
/// listener's own policy (a port shared by listeners) is written on it.
fn host_policies(
    host: &mut Value,
    listener_level: Option<&Applied>,
    rc_policy: &Applied,
    declarations: &mut BTreeMap<String, Value>,
) {
    let retry_from = listener_level
        .filter(|a| a.action.contains_key("retryPolicy"))
        .unwrap_or(rc_policy);
    if let Some(retry) = retry_from.action.get("retryPolicy") {
        host["retryPolicy"] = retry.clone();
        if let Some(refs) = retry_from.metadata.get("retry") {
            host["metadata"] = json!({"filterMetadata": {METADATA: {"retry": refs}}});
        }
    }
    if let Some(applied) = listener_level
        && let Value::Object(fields) = host
    {
        applied.declare_into(declarations);
        applied.write(fields);
    }
}

/// The virtual hosts left when an invalid TrafficPolicy applies to the configuration.
struct InvalidPolicyHosts {
    hosts: Vec<Value>,
    /// The invalid policy is the Gateway's (not a listener set's or the listener's own).
    on_gateway: bool,
}

/// An invalid TrafficPolicy on the Gateway (or the configuration's one listener) leaves nothing
/// valid to route: one catch-all virtual host answers 500, as the reference does. One on a
/// listener set, for a port's shared configuration, keeps the set's virtual hosts, each answering
/// 500. `None` when no invalid policy applies.
fn invalid_policy_hosts(
    plan: &Plan<'_>,
    rc: &RouteConfig,
    policies: &Policies<'_>,
    hosts: &[Value],
    listener_failed: bool,
) -> Option<InvalidPolicyHosts> {
    let only = rc.listeners.first().map(|&li| &plan.listeners[li]);
    let own_listener = only.filter(|_| rc.https).map(|l| l.index);
    let owner = only.and_then(|l| l.set);
    let on_gateway =
        policies.invalid_on_gateway(plan.gateway, own_listener.filter(|_| owner.is_none()));
    let on_set = match &on_gateway {
        Some(_) => None,
        None => owner.and_then(|set| policies.invalid_on_gateway(set, own_listener)),
    };
    if on_gateway.is_none() && on_set.is_none() && !listener_failed {
        return None;
    }
    let hosts = if on_gateway.is_none() && !listener_failed && !rc.https {
        hosts
            .iter()
            .map(|h| json!({"domains": h["domains"], "name": h["name"], "routes": replaced_routes()}))
            .collect()
    } else {
        vec![json!({"domains": ["*"], "name": "default", "routes": replaced_routes()})]
    };
    Some(InvalidPolicyHosts {
        hosts,
        on_gateway: on_gateway.is_some(),
    })
}

/// The one route of a virtual host whose listener or Gateway has an invalid policy.
fn replaced_routes() -> Value {
    json!([{
        "directResponse": {"body": {"inlineString": INVALID_BODY}, "status": 500},
        "match": {"prefix": "/"},
    }])
}

fn domain_of(host: &Value) -> String {
    host.at("/domains/0")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

/// `metadata.creationTimestamp`; one without sorts last.
fn created(route: &RouteFacts) -> (bool, &str) {
    match route.created.as_deref() {
        Some(t) => (false, t),
        None => (true, ""),
    }
}

/// `namespace/name`, compared as the one string it reads as (a namespace that prefixes another's
/// sorts by the separator), without making it: the sort key of every entry has two.
fn ns_name(route: &Object) -> NsName<'_> {
    NsName(&route.id.namespace, &route.id.name)
}

struct NsName<'a>(&'a str, &'a str);

impl Ord for NsName<'_> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        if self.0 == other.0 {
            return self.1.cmp(other.1);
        }
        let text = |n: &Self| {
            let (ns, name) = (n.0.bytes(), n.1.bytes());
            ns.chain(std::iter::once(b'/')).chain(name)
        };
        text(self).cmp(text(other))
    }
}

impl PartialOrd for NsName<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for NsName<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other).is_eq()
    }
}

impl Eq for NsName<'_> {}

fn route_name(vhost: &str, i: usize, e: &Entry<'_>) -> String {
    let id = &e.route.id;
    let kind: std::borrow::Cow<'_, str> = match id.kind.as_str() {
        "HTTPRoute" => "httproute".into(),
        "GRPCRoute" => "grpcroute".into(),
        other => other.to_ascii_lowercase().into(),
    };
    let rule_name = e.typed.rules.get(e.rule_index).and_then(Option::as_deref);
    let (i, rule, m) = (
        Decimal::unsigned(i as u64),
        Decimal::unsigned(e.rule_index as u64),
        Decimal::unsigned(e.match_index as u64),
    );
    join(&[
        vhost,
        "-route-",
        i.as_str(),
        "-",
        &kind,
        "-",
        &id.name,
        "-",
        &id.namespace,
        "-",
        rule.as_str(),
        "-",
        m.as_str(),
        if rule_name.is_some() { "-" } else { "" },
        rule_name.unwrap_or_default(),
        "-matcher-0",
    ])
}

/// Why the proxy rejects an entry's matcher (a regular expression RE2 refuses), in the proxy's
/// words; `None` when it accepts it.
pub fn matcher_rejected(e: &Entry<'_>) -> Option<String> {
    matches::rejected_regex(&e.m, e.route.id.kind == "GRPCRoute")
}

pub(super) fn route_match(e: &Entry<'_>) -> Result<Value, String> {
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

#[cfg(test)]
mod tests {
    use super::NsName;

    #[test]
    fn namespace_and_name_compare_as_the_joined_text() {
        let pairs = [
            ("a", "x"),
            ("a", "y"),
            ("a-b", "x"),
            ("ab", "x"),
            ("a", ""),
            ("", "a"),
        ];
        for (l_ns, l_name) in pairs {
            for (r_ns, r_name) in pairs {
                let joined = format!("{l_ns}/{l_name}").cmp(&format!("{r_ns}/{r_name}"));
                let key = NsName(l_ns, l_name).cmp(&NsName(r_ns, r_name));
                assert_eq!(key, joined, "{l_ns}/{l_name} vs {r_ns}/{r_name}");
            }
        }
    }
}
