//! Route delegation as the reference's controller does it: an HTTPRoute whose backendRef names
//! HTTPRoutes (by name, `*` for every route of a namespace, or by the delegation label) hands the
//! matching requests to those child routes, which may delegate further. Which routes a
//! backendRef selects is the merge stage's decision ([`crate::merge::delegates_to`]); here, which
//! of them take the parent's matches, and the conditions. A child gets a status for each parent
//! route; a parent whose delegation finds no valid child, or a cycle, does not resolve all its
//! references.

use serde_json::Value;

use super::lookup::Lookup;
use super::{Attachment, Context};
use crate::merge::{delegates, delegates_to, selects_itself};
use crate::model::Object;
use crate::model::facts::{Facts, ObjRef, RouteFacts, Spec};
use crate::resolve::Condition;

/// The group of a backendRef that selects child routes by label, and the namespace that
/// selects them in every namespace.
const LABEL_GROUP: &str = "delegation.kgateway.dev";
const ALL_NAMESPACES: &str = "all";

const HOSTNAMES: &str =
    "spec.hostnames must be unset on a delegatee route as they are inherited from the parent route";

/// A child route's status for one parent route.
pub(super) struct Child<'a> {
    pub route: &'a Object,
    pub parent: &'a Object,
    pub accepted: Condition,
    pub resolved_refs: Condition,
}

#[derive(Default)]
pub(super) struct Delegation<'a> {
    pub children: Vec<Child<'a>>,
    /// Routes whose delegation does not resolve, with their ResolvedRefs.
    pub unresolved: Vec<(&'a Object, Condition)>,
}

pub(super) fn delegation<'a>(
    ctx: &Context<'a>,
    lookup: &Lookup<'a>,
    attached: &[Attachment<'a>],
) -> Delegation<'a> {
    let mut out = Delegation::default();
    let mut roots: Vec<&Object> = Vec::new();
    for a in attached {
        if a.route.id.kind == "HTTPRoute"
            && a.status.accepted.status
            && !roots.iter().any(|r| std::ptr::eq(*r, a.route))
        {
            roots.push(a.route);
        }
    }
    // Only routes that delegate have children.
    roots
        .retain(|r| route_facts(ctx, r).is_some_and(|(_, f)| f.backend_refs.iter().any(delegates)));
    for root in roots {
        let matches = rule_matches(ctx, root);
        visit(ctx, lookup, root, &matches, &mut vec![root], &mut out);
    }
    out
}

/// The children of `route` (the last of `path`, the routes from a root down to it), whose
/// rules match what `matches` says (per rule: its own matches, or those it inherits).
fn visit<'a>(
    ctx: &Context<'a>,
    lookup: &Lookup<'a>,
    route: &'a Object,
    matches: &[Vec<Match>],
    path: &mut Vec<&'a Object>,
    out: &mut Delegation<'a>,
) {
    let Some((parent, facts)) = route_facts(ctx, route) else {
        return;
    };
    for b in facts.backend_refs.iter().filter(|b| delegates(b)) {
        let Some(rule) = crate::merge::rule_of(&b.path) else {
            continue;
        };
        let parent_matches = matches.get(rule).map(Vec::as_slice).unwrap_or_default();
        let selector = Selector::of(b, &route.id.namespace);
        // A child skipped for a cycle is reported instead, whatever its matches.
        let cycle = |child: &Object| {
            let message = format!(
                "{}: ignoring child route {}/{} for parent {}/{}: cyclic reference detected while evaluating delegated routes",
                selector.written,
                child.id.namespace,
                child.id.name,
                route.id.namespace,
                route.id.name
            );
            (route, failed("RefNotPermitted", message))
        };
        // A valid child found; a child skipped for a cycle.
        let (mut valid, mut cyclic) = (false, selects_itself(parent, b));
        if cyclic {
            out.unresolved.push(cycle(route));
        }
        for &child in lookup.http_routes(selector.namespace()) {
            let Some((child_facts, child_route)) = route_facts(ctx, child) else {
                continue;
            };
            if !delegates_to(parent, b, child_facts) {
                continue;
            }
            if path.iter().any(|p| std::ptr::eq(*p, child)) {
                cyclic = true;
                out.unresolved.push(cycle(child));
                continue;
            }
            let found = Found {
                parent: route,
                route: child,
                facts: child_route,
                parent_matches,
            };
            if matches_within(ctx, found.facts.inherits_matcher, child, parent_matches) {
                valid |= adopt(ctx, lookup, &found, path, out);
            }
        }
        if !valid && !cyclic {
            let message = format!("{}: unresolved reference", selector.written);
            out.unresolved
                .push((route, failed("BackendNotFound", message)));
        }
    }
}

/// A child route a parent's delegating backendRef selects, with the parent rule's matches.
struct Found<'a, 'm> {
    parent: &'a Object,
    route: &'a Object,
    facts: &'a RouteFacts,
    parent_matches: &'m [Match],
}

/// Records the child's status under the parent (the last of `path`) and visits its own
/// children; whether it is a valid child (one that sets no hostnames of its own).
fn adopt<'a>(
    ctx: &Context<'a>,
    lookup: &Lookup<'a>,
    found: &Found<'a, '_>,
    path: &mut Vec<&'a Object>,
    out: &mut Delegation<'a>,
) -> bool {
    let (child, route) = (found.route, found.parent);
    let delegatee_hostnames = !found.facts.hostnames.is_empty();
    if out
        .children
        .iter()
        .any(|c| std::ptr::eq(c.route, child) && std::ptr::eq(c.parent, route))
    {
        return !delegatee_hostnames;
    }
    out.children.push(Child {
        route: child,
        parent: route,
        accepted: if delegatee_hostnames {
            failed("UnsupportedValue", HOSTNAMES.to_string())
        } else {
            held("Accepted")
        },
        resolved_refs: ctx.backends_condition(child),
    });
    if delegatee_hostnames {
        return false;
    }
    let inherits = found.facts.inherits_matcher;
    let child_matches: Vec<Vec<Match>> = rule_matches(ctx, child)
        .into_iter()
        .map(|own| {
            if !inherits {
                return own;
            }
            found
                .parent_matches
                .iter()
                .flat_map(|p| own.iter().map(move |m| p.then(m)))
                .collect()
        })
        .collect();
    path.push(child);
    visit(ctx, lookup, child, &child_matches, path, out);
    path.pop();
    true
}

/// A delegating backendRef, as the status names it and looks its children up.
struct Selector<'v> {
    /// `group/kind/namespace/name`, as the controller names the reference in its messages.
    written: String,
    namespace: &'v str,
    by_label: bool,
}

impl<'v> Selector<'v> {
    fn of(r: &'v ObjRef, namespace: &'v str) -> Self {
        let group = r.group().unwrap_or("");
        let kind = r.kind().unwrap_or("Service");
        let namespace = r.namespace().unwrap_or(namespace);
        Selector {
            written: format!("{group}/{kind}/{namespace}/{}", r.name),
            namespace,
            by_label: group == LABEL_GROUP,
        }
    }

    /// The namespace its children are in; `None` for every namespace.
    fn namespace(&self) -> Option<&'v str> {
        (!(self.by_label && self.namespace == ALL_NAMESPACES)).then_some(self.namespace)
    }
}

/// A route's typed facts (the merge stage decides delegation on them) and its route facts.
fn route_facts<'a>(ctx: &Context<'a>, route: &Object) -> Option<(&'a Facts, &'a RouteFacts)> {
    let facts = ctx.inputs.facts_at(route)?;
    match &facts.spec {
        Spec::Route(r) => Some((facts, r)),
        _ => None,
    }
}

/// Each rule's own matches; a rule without any matches every request (path prefix `/`).
fn rule_matches(ctx: &Context<'_>, route: &Object) -> Vec<Vec<Match>> {
    let (_, settings) = ctx.inputs.route(route);
    (0..settings.rules.len())
        .map(|i| {
            let matches = settings.matches(i);
            if matches.is_empty() {
                return vec![Match {
                    path: "/".into(),
                    ..Match::default()
                }];
            }
            matches.iter().map(Match::of).collect()
        })
        .collect()
}

/// What a route match requires: a path (prefix), headers, query parameters, a method.
#[derive(Debug, Clone, Default)]
struct Match {
    path: String,
    headers: Vec<(String, String)>,
    query: Vec<(String, String)>,
    method: Option<String>,
}

impl Match {
    fn of(m: &Value) -> Self {
        let listed = |key: &str| -> Vec<(String, String)> {
            let items = m.get(key).and_then(Value::as_array);
            items
                .into_iter()
                .flatten()
                .map(|h| {
                    let text = |k: &str| h.get(k).and_then(Value::as_str).unwrap_or("");
                    (text("name").to_ascii_lowercase(), text("value").to_string())
                })
                .collect()
        };
        Match {
            path: m
                .pointer("/path/value")
                .and_then(Value::as_str)
                .unwrap_or("/")
                .to_string(),
            headers: listed("headers"),
            query: listed("queryParams"),
            method: m.get("method").and_then(Value::as_str).map(str::to_string),
        }
    }

    /// A child's match under this one, for a child that inherits its parent's matcher: the
    /// paths joined, the requirements of both.
    fn then(&self, child: &Match) -> Match {
        let path = match child.path.as_str() {
            "/" => self.path.clone(),
            p => format!("{}{p}", self.path.trim_end_matches('/')),
        };
        let union = |a: &[(String, String)], b: &[(String, String)]| {
            let mut u = a.to_vec();
            u.extend(b.iter().filter(|x| !a.contains(x)).cloned());
            u
        };
        Match {
            path,
            headers: union(&self.headers, &child.headers),
            query: union(&self.query, &child.query),
            method: child.method.clone().or_else(|| self.method.clone()),
        }
    }

    /// Whether every request this match takes is one `parent` takes too.
    fn within(&self, parent: &Match) -> bool {
        self.path.starts_with(&parent.path)
            && parent.headers.iter().all(|h| self.headers.contains(h))
            && parent.query.iter().all(|q| self.query.contains(q))
            && parent
                .method
                .as_ref()
                .is_none_or(|m| self.method.as_ref() == Some(m))
    }
}

/// Whether some match of the child lies within one of the parent rule's matches. A child that
/// inherits its parent's matcher (`inherits`) always does.
fn matches_within(ctx: &Context<'_>, inherits: bool, child: &Object, parent: &[Match]) -> bool {
    inherits
        || rule_matches(ctx, child)
            .into_iter()
            .flatten()
            .any(|m| parent.iter().any(|p| m.within(p)))
}

fn held(reason: &'static str) -> Condition {
    Condition {
        status: true,
        reason,
        message: String::new(),
    }
}

fn failed(reason: &'static str, message: String) -> Condition {
    Condition {
        status: false,
        reason,
        message,
    }
}
