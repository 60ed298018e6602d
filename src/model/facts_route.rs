//! A route's facts: its parentRefs, hostnames, rules and backendRefs, with the annotations and
//! creation time render and merge read.

use crate::parse::Node;

use super::facts::{
    INHERIT_MATCHER, INHERITED_PRIORITY, ObjRef, ROUTE_WEIGHT, int, obj_ref, s, seq,
};
use super::facts_rules::{RuleFacts, RuleSettings, http_rules, rule_settings};

#[derive(Debug, Clone, Default)]
pub struct RouteFacts {
    pub parent_refs: Vec<ObjRef>,
    pub hostnames: Vec<String>,
    pub rule_names: Vec<String>,
    /// Every rule in order, with its name if it has one (the merge stage's rule places).
    pub rules: Vec<Option<String>>,
    pub backend_refs: Vec<ObjRef>,
    /// The `weight` of the backendRefs that write one: (index into `backend_refs`, weight).
    /// Sparse, as most routes leave it at its default of 1.
    pub backend_weights: Vec<(u32, i64)>,
    /// For each rule, the index in `backend_refs` of its first backendRef (see
    /// [`RouteFacts::rule_backends`]).
    pub rule_backend_start: Vec<u32>,
    /// HTTPRoute and GRPCRoute: each rule's timeouts and retry (see [`RouteFacts::settings`]).
    pub rule_settings: Vec<RuleSettings>,
    /// `filters[].extensionRef` of rules and backendRefs.
    pub extension_refs: Vec<ObjRef>,
    /// The `kgateway.dev/inherited-policy-priority` annotation: how the policies of a route
    /// that delegates combine with its child routes' (the merge stage reads it).
    pub inherited_priority: Option<Box<str>>,
    /// An HTTPRoute's rules: their matches and catch-all places (empty for other kinds).
    pub http_rules: Vec<RuleFacts>,
    /// `metadata.creationTimestamp` as written (RFC 3339 sorts as text): the first tie-break
    /// between conflicting routes (HTTPRoute and GRPCRoute).
    pub created: Option<Box<str>>,
    /// The `kgateway.dev/route-weight` annotation; 0 without one or when it is no integer
    /// (render's WeightedRoutePrecedence).
    pub weight: i64,
    /// The `delegation.kgateway.dev/inherit-parent-matcher: "true"` annotation: a delegated
    /// child's matches are relative to its parent's.
    pub inherits_matcher: bool,
}

static NO_SETTINGS: RuleSettings = RuleSettings {
    timeouts: None,
    retry: None,
    session: None,
};

impl RouteFacts {
    /// A rule's timeouts and retry (none for a rule that is not there).
    pub fn settings(&self, rule: usize) -> &RuleSettings {
        self.rule_settings.get(rule).unwrap_or(&NO_SETTINGS)
    }

    /// The backendRefs of a rule, in order, each with its weight (1 unless written).
    pub fn rule_backends(&self, rule: usize) -> impl Iterator<Item = (&ObjRef, i64)> + '_ {
        let at = |i: usize| self.rule_backend_start.get(i).map(|&s| s as usize);
        let start = at(rule).unwrap_or(self.backend_refs.len());
        let end = at(rule + 1).unwrap_or(self.backend_refs.len());
        (start..end).filter_map(move |i| {
            let weight = self
                .backend_weights
                .iter()
                .find(|(j, _)| *j as usize == i)
                .map_or(1, |(_, w)| *w);
            Some((self.backend_refs.get(i)?, weight))
        })
    }
}

/// A route's facts: its spec's, with the annotations and creation time render and merge read.
pub(super) fn route_facts(
    kind: &str,
    metadata: Option<&Node>,
    spec_node: Option<&Node>,
) -> RouteFacts {
    let mut facts = route(spec_node);
    let annotation = |key: &str| {
        metadata
            .and_then(|m| m.get("annotations"))
            .and_then(|a| a.get(key))
            .and_then(Node::as_str)
    };
    facts.inherited_priority = annotation(INHERITED_PRIORITY).map(Box::from);
    facts.weight = annotation(ROUTE_WEIGHT)
        .and_then(|w| w.trim().parse().ok())
        .unwrap_or(0);
    facts.inherits_matcher = annotation(INHERIT_MATCHER) == Some("true");
    if kind == "HTTPRoute" {
        facts.http_rules = http_rules(spec_node);
    }
    if matches!(kind, "HTTPRoute" | "GRPCRoute") {
        facts.rule_settings = rule_settings(spec_node);
        facts.created = metadata
            .and_then(|m| m.get("creationTimestamp"))
            .and_then(Node::as_str)
            .map(Box::from);
    }
    facts
}

fn route(spec: Option<&Node>) -> RouteFacts {
    let mut out = RouteFacts {
        parent_refs: seq(spec.and_then(|n| n.get("parentRefs")))
            .iter()
            .enumerate()
            .map(|(i, r)| obj_ref(r, format!("spec.parentRefs[{i}]")))
            .collect(),
        hostnames: seq(spec.and_then(|n| n.get("hostnames")))
            .iter()
            .filter_map(|h| h.as_str().map(str::to_string))
            .collect(),
        ..RouteFacts::default()
    };
    for (i, rule) in seq(spec.and_then(|n| n.get("rules"))).iter().enumerate() {
        let name = s(rule.get("name"));
        if let Some(name) = &name {
            out.rule_names.push(name.clone());
        }
        out.rules.push(name);
        let rule_path = format!("spec.rules[{i}]");
        out.rule_backend_start
            .push(u32::try_from(out.backend_refs.len()).unwrap_or(u32::MAX));
        filters(rule, &rule_path, &mut out.extension_refs);
        for (j, b) in seq(rule.get("backendRefs")).iter().enumerate() {
            let path = format!("{rule_path}.backendRefs[{j}]");
            filters(b, &path, &mut out.extension_refs);
            if let Some(w) = int(b.get("weight")) {
                out.backend_weights
                    .push((u32::try_from(out.backend_refs.len()).unwrap_or(u32::MAX), w));
            }
            out.backend_refs.push(obj_ref(b, path));
        }
    }
    // Kept for the whole run, one per route: no spare capacity.
    out.backend_refs.shrink_to_fit();
    out.backend_weights.shrink_to_fit();
    out.rule_backend_start.shrink_to_fit();
    out.extension_refs.shrink_to_fit();
    out.rule_names.shrink_to_fit();
    out.rules.shrink_to_fit();
    out
}

fn filters(node: &Node, path: &str, out: &mut Vec<ObjRef>) {
    for (k, f) in seq(node.get("filters")).iter().enumerate() {
        if let Some(r) = f.get("extensionRef") {
            out.push(obj_ref(r, format!("{path}.filters[{k}].extensionRef")));
        }
    }
}
