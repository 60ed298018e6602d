//! Route delegation as the merge stage sees it: which rules delegate to which routes (an
//! HTTPRoute backendRef by name or `*`, or a `delegation.kgateway.dev` label), so that a child
//! route's rules inherit the policies of the rules and routes above them.

use crate::fasthash::FastMap;
use crate::model::facts::{Facts, GATEWAY_API, ObjRef, RouteFacts, Spec};

use super::Place;

/// The group and kind of a backendRef that selects child routes by label.
const LABEL_GROUP: &str = "delegation.kgateway.dev";
const LABEL_KEY: &str = "delegation.kgateway.dev/label";
/// The namespace of a label backendRef that selects children in every namespace.
const ANY_NAMESPACE: &str = "all";

/// Delegation both ways: per child route (facts index), the rules that delegate to it; per
/// delegating rule, the routes it delegates to; in facts order.
pub(super) type Links = (FastMap<usize, Vec<Place>>, FastMap<Place, Vec<usize>>);

pub(super) fn links(facts: &[Facts]) -> Links {
    let mut by_namespace: FastMap<&str, Vec<usize>> = FastMap::default();
    let mut all = Vec::new();
    for (i, f) in facts.iter().enumerate() {
        if is_http_route(f) {
            by_namespace
                .entry(f.id.namespace.as_str())
                .or_default()
                .push(i);
            all.push(i);
        }
    }
    let mut out: FastMap<usize, Vec<Place>> = FastMap::default();
    let mut children: FastMap<Place, Vec<usize>> = FastMap::default();
    for (p, f) in facts.iter().enumerate() {
        let Spec::Route(route) = &f.spec else {
            continue;
        };
        if !is_http_route(f) {
            continue;
        }
        for b in route.backend_refs.iter().filter(|b| delegates(b)) {
            let Some(rule) = super::hierarchy::rule_of(&b.path) else {
                continue;
            };
            let ns = b.namespace().unwrap_or(&f.id.namespace);
            let candidates = if b.group() == Some(LABEL_GROUP) && ns == ANY_NAMESPACE {
                all.as_slice()
            } else {
                by_namespace.get(ns).map(Vec::as_slice).unwrap_or(&[])
            };
            for &c in candidates {
                let child = &facts[c];
                // A child that sets hostnames is selected but invalid (the status stage says
                // so): it inherits nothing.
                let valid = matches!(&child.spec, Spec::Route(r) if r.hostnames.is_empty());
                if valid && delegates_to(f, b, child) {
                    let place = Place::Rule(p, rule);
                    let parents = out.entry(c).or_default();
                    if !parents.contains(&place) {
                        parents.push(place);
                        children.entry(place).or_default().push(c);
                    }
                }
            }
        }
    }
    (out, children)
}

fn is_http_route(f: &Facts) -> bool {
    f.id.kind == "HTTPRoute" && f.id.group == GATEWAY_API
}

/// Whether a route's backendRef delegates: it names HTTPRoutes (by name or `*`) or selects them
/// by the delegation label.
pub fn delegates(b: &ObjRef) -> bool {
    let group = b.group().unwrap_or("");
    let kind = b.kind().unwrap_or("Service");
    (group == GATEWAY_API && kind == "HTTPRoute") || (group == LABEL_GROUP && kind == "label")
}

/// Whether the delegating backendRef `b` of route `parent` selects `child` as its child, as the
/// reference controller selects one: another HTTPRoute that the backendRef names (in its
/// namespace, the parent's by default; by name, `*`, or the delegation label, in every
/// namespace with `all`) and that accepts this parent. The one place the merge stage (policy
/// inheritance, and render through it) and the status stage decide which routes are children;
/// a child setting `hostnames` is selected all the same (it is then an invalid child).
pub fn delegates_to(parent: &Facts, b: &ObjRef, child: &Facts) -> bool {
    !std::ptr::eq(parent, child) && selects(parent, b, child)
}

/// Whether the delegating backendRef `b` of `route` selects the route itself: a cycle of one
/// route, which the status stage reports as the controller does, and no child.
pub fn selects_itself(route: &Facts, b: &ObjRef) -> bool {
    selects(route, b, route)
}

/// [`delegates_to`], a route selecting itself included.
fn selects(parent: &Facts, b: &ObjRef, child: &Facts) -> bool {
    let Spec::Route(child_route) = &child.spec else {
        return false;
    };
    if !is_http_route(child) || !delegates(b) {
        return false;
    }
    let ns = b.namespace().unwrap_or(&parent.id.namespace);
    let selected = if b.group() == Some(LABEL_GROUP) {
        (ns == ANY_NAMESPACE || child.id.namespace == ns)
            && child
                .labels
                .iter()
                .any(|(k, v)| k == LABEL_KEY && *v == *b.name)
    } else {
        child.id.namespace == ns && (&*b.name == "*" || child.id.name == *b.name)
    };
    selected && accepts_parent(child_route, &child.id.namespace, parent)
}

/// Whether a child route accepts `parent` as its parent route: one without parentRefs accepts
/// any; one with parentRefs must name the parent among them (an HTTPRoute parentRef). A child
/// whose parentRefs are all Gateways is attached standalone and delegated to by no route
/// (kgateway's `ChildRouteCanAttachToParentRef`; its test `invalid_child_valid_standalone`
/// names both).
fn accepts_parent(child: &RouteFacts, child_ns: &str, parent: &Facts) -> bool {
    child.parent_refs.is_empty()
        || child.parent_refs.iter().any(|r| {
            r.group().unwrap_or(GATEWAY_API) == GATEWAY_API
                && r.kind() == Some("HTTPRoute")
                && *r.name == *parent.id.name
                && r.namespace().unwrap_or(child_ns) == parent.id.namespace
        })
}
