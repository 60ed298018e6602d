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
            let by_label = b.group() == Some(LABEL_GROUP);
            let ns = b.namespace().unwrap_or(&f.id.namespace);
            let candidates = if by_label && ns == ANY_NAMESPACE {
                all.as_slice()
            } else {
                by_namespace.get(ns).map(Vec::as_slice).unwrap_or(&[])
            };
            for &c in candidates {
                let child = &facts[c];
                let selected = if by_label {
                    child
                        .labels
                        .iter()
                        .any(|(k, v)| k == LABEL_KEY && *v == *b.name)
                } else {
                    &*b.name == "*" || child.id.name == *b.name
                };
                let Spec::Route(child_route) = &child.spec else {
                    continue;
                };
                if c != p
                    && selected
                    && child_route.hostnames.is_empty()
                    && names_parent(child_route, &child.id.namespace, f)
                {
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

fn delegates(b: &ObjRef) -> bool {
    let group = b.group().unwrap_or("");
    let kind = b.kind().unwrap_or("Service");
    (group == GATEWAY_API && kind == "HTTPRoute") || (group == LABEL_GROUP && kind == "label")
}

/// A child without parentRefs accepts any parent; one with parentRefs to routes must name this
/// one; one with only Gateway parentRefs is attached standalone, not delegated to.
fn names_parent(child: &RouteFacts, child_ns: &str, parent: &Facts) -> bool {
    let mut refs = child
        .parent_refs
        .iter()
        .filter(|r| r.kind() == Some("HTTPRoute"))
        .peekable();
    if refs.peek().is_none() {
        return child.parent_refs.is_empty();
    }
    refs.any(|r| {
        *r.name == *parent.id.name && r.namespace().unwrap_or(child_ns) == parent.id.namespace
    })
}
