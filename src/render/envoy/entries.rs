//! The Envoy Routes a route contributes to a virtual host: one per match of each rule, and for
//! a rule that delegates (a backendRef to HTTPRoutes, by name, `*` or a delegation label) the
//! matching rules of its child routes (which the merge stage links), recursively.

use crate::render::pointer::Pointer;
use std::rc::Rc;

use serde_json::Value;

use super::super::Context;
use super::plan::array;
use super::policy::Policies;
use crate::merge::Place;
use crate::model::Object;
use crate::model::facts::{RouteFacts, Spec};
use crate::model::facts_rules::{Retry, Timeouts};

/// Delegation deeper than this is treated as a cycle.
const MAX_DEPTH: usize = 8;
/// Entries of one virtual host past which delegation stops expanding: routes delegating to
/// each other by `*` would otherwise multiply at every level.
const MAX_ENTRIES: usize = 10_000;

/// What an entry's rule does with its backends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delegation {
    /// Routes to its backends.
    None,
    /// Delegates; its children are entries of their own.
    Children,
    /// Delegates to no valid child (or in a cycle): a direct response 500.
    Invalid(&'static str),
}

/// One Envoy Route to be: a match of a rule of a route.
#[derive(Clone)]
pub struct Entry<'a> {
    pub route: &'a Object,
    /// The typed model of `route` (hostnames, rule names, annotations).
    pub typed: &'a RouteFacts,
    pub rule_index: usize,
    pub rule: &'a Value,
    pub match_index: usize,
    /// The match, with a parent's when the child inherits it (shared by the copies of the entry
    /// on each virtual host that serves it).
    pub m: Rc<Value>,
    /// The port of the listener it came in by (a redirect's default port).
    pub port: i64,
    pub delegation: Delegation,
    /// The route attached to the listener: `route` itself, or the top of its delegation chain.
    pub root: &'a Object,
    /// The typed model of `root`.
    pub root_typed: &'a RouteFacts,
    /// Its position among the root's entries, children before the rule that delegates to them
    /// (the reference's last tie-break).
    pub order: usize,
    /// The delegating rules above it, nearest first: (parent route, its rule index).
    pub parents: Vec<(&'a Object, usize)>,
}

/// Adds the entries of a route attached to a listener.
pub fn of_route<'a>(
    ctx: &Context<'a>,
    policies: &Policies<'_>,
    route: &'a Object,
    port: i64,
    out: &mut Vec<Entry<'a>>,
) {
    let start = out.len();
    let mut path = vec![(route, 0)];
    let walk = Walk {
        ctx,
        policies,
        port,
    };
    expand(&walk, route, None, &mut path, out);
    let root_typed = typed_route(ctx, route);
    for (order, e) in out[start..].iter_mut().enumerate() {
        e.root = route;
        e.root_typed = root_typed;
        e.order = order;
    }
}

static NO_ROUTE_FACTS: std::sync::LazyLock<RouteFacts> =
    std::sync::LazyLock::new(RouteFacts::default);

/// The typed model of a route of the inputs (see [`crate::status::Inputs::facts_at`]); empty
/// facts for an object that is not there.
pub fn typed_route<'a>(ctx: &Context<'a>, route: &Object) -> &'a RouteFacts {
    match ctx.inputs.facts_at(route).map(|f| &f.spec) {
        Some(Spec::Route(r)) => r,
        _ => &NO_ROUTE_FACTS,
    }
}

/// What expanding a route's entries reads: the inputs, the facts index of an object, and the
/// port of the listener the route came in by.
struct Walk<'w, 'a> {
    ctx: &'w Context<'a>,
    policies: &'w Policies<'w>,
    port: i64,
}

fn expand<'a>(
    walk: &Walk<'_, 'a>,
    route: &'a Object,
    parent_match: Option<&Value>,
    path: &mut Vec<(&'a Object, usize)>,
    out: &mut Vec<Entry<'a>>,
) {
    let typed = typed_route(walk.ctx, route);
    let inherits = typed.inherits_matcher;
    // The delegating rules above this route, nearest first.
    let parents: Vec<(&'a Object, usize)> = path.iter().rev().skip(1).copied().collect();
    let settings = super::settings::route(walk.ctx, route);
    for (ri, rule) in settings.rules.iter().enumerate() {
        let ms = settings.matches(ri);
        let ms: Vec<(usize, Value)> = if ms.is_empty() {
            vec![(0, Value::Null)]
        } else {
            ms.into_iter().enumerate().collect()
        };
        let delegates = typed
            .rule_backends(ri)
            .any(|(b, _)| crate::merge::delegates(b));
        // A rule's own entries follow the children of all its matches, as the reference
        // flattens them.
        let mut own = Vec::new();
        for (mi, m) in ms {
            let m = match parent_match {
                // A child that inherits its parent's matcher is relative to it.
                Some(pm) if inherits => inherited(&m, pm),
                // Otherwise its rule must stay within its parent's match.
                Some(pm) if !within(&m, pm) => continue,
                _ => m,
            };
            let mut delegation = Delegation::None;
            if delegates {
                if let Some(last) = path.last_mut() {
                    last.1 = ri;
                }
                delegation = delegate(walk, route, ri, &m, path, out);
            }
            own.push(Entry {
                route,
                typed,
                rule_index: ri,
                rule,
                match_index: mi,
                m: Rc::new(m),
                port: walk.port,
                delegation,
                root: route,
                root_typed: typed,
                order: 0,
                parents: parents.clone(),
            });
        }
        out.extend(own);
    }
}

/// Expands a delegating rule's children under one of its matches.
fn delegate<'a>(
    walk: &Walk<'_, 'a>,
    route: &'a Object,
    rule: usize,
    m: &Value,
    path: &mut Vec<(&'a Object, usize)>,
    out: &mut Vec<Entry<'a>>,
) -> Delegation {
    if path.len() > MAX_DEPTH {
        return Delegation::Invalid("route delegation is too deep");
    }
    if out.len() > MAX_ENTRIES {
        return Delegation::Invalid("route delegation expands to too many routes");
    }
    let before = out.len();
    for child in children(walk, route, rule) {
        if path.iter().any(|(p, _)| std::ptr::eq(*p, child)) {
            out.truncate(before);
            return Delegation::Invalid("route delegation forms a cycle");
        }
        path.push((child, 0));
        expand(walk, child, Some(m), path, out);
        path.pop();
    }
    if out.len() > before {
        Delegation::Children
    } else {
        Delegation::Invalid("delegates to no valid child route")
    }
}

/// A child's match under its parent's: the paths joined, the parent's headers and query
/// parameters first, the parent's method if it has one, else the child's.
fn inherited(child: &Value, parent: &Value) -> Value {
    // A malformed match (not a map) counts as an empty one.
    let mut out = if child.is_object() {
        child.clone()
    } else {
        Value::Object(serde_json::Map::new())
    };
    let parent_path = parent
        .at("/path/value")
        .and_then(Value::as_str)
        .unwrap_or("/")
        .trim_end_matches('/');
    let child_path = child
        .at("/path/value")
        .and_then(Value::as_str)
        .unwrap_or("/");
    let joined = if child_path == "/" {
        if parent_path.is_empty() {
            "/".to_string()
        } else {
            parent_path.to_string()
        }
    } else {
        format!("{parent_path}{child_path}")
    };
    let path_type = child
        .at("/path/type")
        .cloned()
        .unwrap_or(Value::String("PathPrefix".into()));
    out["path"] = serde_json::json!({"type": path_type, "value": joined});
    for key in ["headers", "queryParams"] {
        let mut list: Vec<Value> = array(parent, &format!("/{key}")).cloned().collect();
        list.extend(array(child, &format!("/{key}")).cloned());
        if !list.is_empty() {
            out[key] = Value::Array(list);
        }
    }
    // The parent's method wins over the child's.
    if let Some(m) = parent.field("method") {
        out["method"] = m.clone();
    }
    out
}

/// The child routes a delegating rule selects (the merge stage's delegation links: by name,
/// `*` or label, without hostnames, naming this route when they name parent routes), by name.
fn children<'a>(walk: &Walk<'_, 'a>, parent: &Object, rule: usize) -> Vec<&'a Object> {
    let ctx = walk.ctx;
    let (Some(model), Some(merged)) = (ctx.run.model.as_ref(), ctx.merged) else {
        return Vec::new();
    };
    let Some(p) = walk.policies.index(parent) else {
        return Vec::new();
    };
    let linked = merged.hierarchy.delegates.get(&Place::Rule(p, rule));
    let mut out: Vec<&'a Object> = linked
        .into_iter()
        .flatten()
        .filter_map(|&c| {
            let id = &model.facts[c].id;
            ctx.inputs.get(&id.group, &id.kind, &id.namespace, &id.name)
        })
        .collect();
    out.sort_by(|a, b| a.id.name.cmp(&b.id.name));
    out
}

/// A child's match lies within its parent's: its path starts with the parent's path prefix,
/// and it requires every header, query parameter and method the parent requires.
fn within(child: &Value, parent: &Value) -> bool {
    let includes = |key: &str| {
        array(parent, &format!("/{key}")).all(|p| array(child, &format!("/{key}")).any(|c| c == p))
    };
    let method = parent
        .field("method")
        .is_none_or(|m| child.field("method") == Some(m));
    path_within(child, parent) && includes("headers") && includes("queryParams") && method
}

fn path_within(child: &Value, parent: &Value) -> bool {
    let path = |m: &Value| {
        m.at("/path/value")
            .and_then(Value::as_str)
            .unwrap_or("/")
            .to_string()
    };
    let prefix = path(parent);
    let prefix = prefix.trim_end_matches('/');
    let own = path(child);
    own == prefix
        || own
            .strip_prefix(prefix)
            .is_some_and(|rest| rest.starts_with('/') || prefix.is_empty())
}

/// The rule's timeouts and retry with what it inherits from the rules delegating to it (nearest
/// first): each it does not set itself, or that a parent preferring its own settings sets.
pub fn inherited_settings<'a>(
    ctx: &Context<'a>,
    e: &Entry<'a>,
) -> (Option<&'a Timeouts>, Option<&'a Retry>) {
    let own = e.typed.settings(e.rule_index);
    let (mut timeouts, mut retry) = (own.timeouts.as_deref(), own.retry.as_deref());
    // A rule that is not a mapping has no field to inherit into.
    if !e.rule.is_object() {
        return (timeouts, retry);
    }
    for &(parent, ri) in &e.parents {
        let typed = typed_route(ctx, parent);
        let prefers_parent = prefers_parent(typed);
        let theirs = typed.settings(ri);
        if let Some(t) = theirs.timeouts.as_deref()
            && (prefers_parent || timeouts.is_none())
        {
            timeouts = Some(t);
        }
        if let Some(r) = theirs.retry.as_deref()
            && (prefers_parent || retry.is_none())
        {
            retry = Some(r);
        }
    }
    (timeouts, retry)
}

/// Whether a delegating route's settings win over its children's (`...PreferParent`) or give
/// way to them (the default, `...PreferChild`).
fn prefers_parent(route: &RouteFacts) -> bool {
    crate::merge::InheritedPriority::parse(route.inherited_priority.as_deref()).prefers_parent()
}

/// The rule of an entry with the filters it inherits from the rules delegating to it (nearest
/// first): each type of filter (but ExtensionRefs, which the merge stage follows) the rule does
/// not set itself, or that a parent preferring its own settings sets. A rule that is not
/// delegated is returned as it is.
pub fn inherited_rule<'a>(ctx: &Context<'a>, e: &Entry<'a>) -> std::borrow::Cow<'a, Value> {
    use std::borrow::Cow;
    let mut rule = Cow::Borrowed(e.rule);
    for &(parent, ri) in &e.parents {
        let Some(parent_rule) = super::settings::route(ctx, parent).rules.get(ri) else {
            continue;
        };
        let prefers_parent = prefers_parent(typed_route(ctx, parent));
        let kind = |f: &Value| f.field("type").and_then(Value::as_str).map(str::to_string);
        let mut types: Vec<String> = array(parent_rule, "/filters").filter_map(kind).collect();
        types.retain(|t| t != "ExtensionRef");
        types.dedup();
        for t in types {
            let own = array(&rule, "/filters").any(|f| kind(f).as_deref() == Some(&t));
            if own && !prefers_parent {
                continue;
            }
            let theirs = array(parent_rule, "/filters").filter(|f| kind(f).as_deref() == Some(&t));
            let mut filters: Vec<Value> = array(&rule, "/filters")
                .filter(|f| kind(f).as_deref() != Some(&t))
                .cloned()
                .collect();
            filters.extend(theirs.cloned());
            if let Value::Object(fields) = rule.to_mut() {
                fields.insert("filters".into(), Value::Array(filters));
            }
        }
    }
    rule
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use crate::lint::{LintOptions, lint_sources};
    use crate::render::pointer::Pointer;
    use crate::render::{RenderOptions, render, render_options};
    use crate::source::SourceFile;

    /// A parent route whose rule on GET /a (timeout 5s, header x: p) delegates to `c1` (PUT
    /// /one relative to its parent's match, nothing of its own) and `c2` (GET /a/two, timeout
    /// 10s, header x: c), `parent_annotation` on the parent.
    fn docs(parent_annotation: &str) -> String {
        format!(
            r#"apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {{name: gw}}
spec:
  gatewayClassName: kgateway
  listeners: [{{name: http, protocol: HTTP, port: 80}}]
---
apiVersion: v1
kind: Service
metadata: {{name: svc}}
spec:
  ports: [{{port: 80}}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {{name: p, annotations: {{{parent_annotation}}}}}
spec:
  parentRefs: [{{name: gw}}]
  rules:
  - matches: [{{path: {{type: PathPrefix, value: /a}}, method: GET}}]
    timeouts: {{request: 5s}}
    filters:
    - type: RequestHeaderModifier
      requestHeaderModifier: {{add: [{{name: x, value: p}}]}}
    backendRefs: [{{group: gateway.networking.k8s.io, kind: HTTPRoute, name: "*"}}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: c1
  annotations: {{delegation.kgateway.dev/inherit-parent-matcher: "true"}}
spec:
  rules:
  - matches: [{{path: {{type: PathPrefix, value: /one}}, method: PUT}}]
    backendRefs: [{{name: svc, port: 80}}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {{name: c2}}
spec:
  rules:
  - matches: [{{path: {{type: PathPrefix, value: /a/two}}, method: GET}}]
    timeouts: {{request: 10s}}
    filters:
    - type: RequestHeaderModifier
      requestHeaderModifier: {{add: [{{name: x, value: c}}]}}
    backendRefs: [{{name: svc, port: 80}}]
"#
        )
    }

    /// Per rendered route: (name, match, timeout, the value of the header it adds).
    fn routes(text: String) -> Vec<(String, String, String, String)> {
        let files = vec![SourceFile::new(0, "t.yaml", text)];
        let run = lint_sources(files, &render_options(LintOptions::default()));
        let rendered = render(&run, &RenderOptions::default());
        let doc = rendered
            .gateways
            .first()
            .map(|g| g.document(&["route"], false))
            .unwrap_or_default();
        let mut out = Vec::new();
        for r in doc
            .at("/Routes/0/virtualHosts/0/routes")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let text = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or("").to_string();
            out.push((
                text(r.field("name")),
                r["match"].to_string(),
                text(r.at("/route/timeout")),
                text(r.at("/requestHeadersToAdd/0/header/value")),
            ));
        }
        out
    }

    #[test]
    fn children_inherit_what_they_do_not_set_and_their_parents_matcher() {
        let got = routes(docs(""));
        // Equal matches: by the child's name; the parent's method wins over c1's PUT.
        let want = [
            (
                "listener~80~*-route-0-httproute-c1-default-0-0-matcher-0",
                r#"{"pathSeparatedPrefix":"/a/one","headers":[{"name":":method","stringMatch":{"exact":"GET"}}]}"#,
                "5s",
                "p",
            ),
            (
                "listener~80~*-route-1-httproute-c2-default-0-0-matcher-0",
                r#"{"pathSeparatedPrefix":"/a/two","headers":[{"name":":method","stringMatch":{"exact":"GET"}}]}"#,
                "10s",
                "c",
            ),
        ];
        let want: Vec<_> = want
            .iter()
            .map(|(a, b, c, d)| (a.to_string(), b.to_string(), c.to_string(), d.to_string()))
            .collect();
        assert_eq!(got, want);
    }

    #[test]
    fn a_parent_preferring_its_own_settings_overrides_its_children() {
        let got = routes(docs(
            "kgateway.dev/inherited-policy-priority: ShallowMergePreferParent",
        ));
        let settings: Vec<(&str, &str)> = got
            .iter()
            .map(|(_, _, timeout, header)| (timeout.as_str(), header.as_str()))
            .collect();
        assert_eq!(settings, [("5s", "p"), ("5s", "p")]);
    }
}
