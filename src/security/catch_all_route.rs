//! GW406: an HTTPRoute without `hostnames` whose rule matches every request (no `matches`, or a
//! match of `PathPrefix /` without header, query or method conditions). Such a route takes `/`
//! on every hostname its parent listeners accept, which often exposes a backend (or a
//! DirectResponse) on hosts it was never meant for, and shadows other teams' routes.
//!
//! Limits, until cross-resource resolution arrives: a parent listener with a `hostname` narrows
//! the route to that host, and gwctl does not read the parent yet (the help says so). Direct
//! responses attached by an AiGatewayPolicy `directResponse` are found through the policy's
//! target, which needs resolution too; only the route side is checked.

use super::{Findings, GATEWAY_API_GROUP};
use crate::parse::Node;
use crate::rules;
use crate::source::Span;

pub(super) fn check(f: &mut Findings<'_, '_>) {
    if !f.is(GATEWAY_API_GROUP, "HTTPRoute") {
        return;
    }
    let res = f.res;
    let Some(spec) = res.root.get("spec") else {
        return;
    };
    if spec
        .get("hostnames")
        .and_then(Node::as_seq)
        .is_some_and(|h| !h.is_empty())
    {
        return;
    }
    let rules = spec.get("rules").and_then(Node::as_seq).unwrap_or_default();
    for (i, rule) in rules.iter().enumerate() {
        if !serves(rule) {
            continue;
        }
        let Some((span, path)) = catch_all(rule, &format!("spec.rules[{i}]")) else {
            continue;
        };
        let answer = match direct_response(rule) {
            Some(name) => format!("answers with DirectResponse {name:?}"),
            None if has_items(rule, "backendRefs") => "forwards to its backends".to_string(),
            None => "applies its filters (a redirect, for example)".to_string(),
        };
        let d = f
            .diagnostic(
                rules::GW406,
                span,
                &path,
                format!("the route has no hostnames and this rule matches every path, so it {answer} for \"/\" on every hostname of its parent listeners"),
            )
            .with_help("set spec.hostnames or narrow the match; if the parent listener sets a hostname, the route is limited to it (gwctl does not resolve parents yet)");
        f.report(d);
    }
}

/// A rule that sends requests somewhere (a rule with neither backends nor filters only fails).
fn serves(rule: &Node) -> bool {
    has_items(rule, "backendRefs") || has_items(rule, "filters")
}

fn has_items(node: &Node, key: &str) -> bool {
    node.get(key)
        .and_then(Node::as_seq)
        .is_some_and(|s| !s.is_empty())
}

/// Where the rule matches everything, and the path of that place.
fn catch_all(rule: &Node, path: &str) -> Option<(Span, String)> {
    let matches = rule
        .get("matches")
        .and_then(Node::as_seq)
        .unwrap_or_default();
    if matches.is_empty() {
        // No matches means the default `PathPrefix /`: point at the rule itself.
        return Some((rule.span, path.to_string()));
    }
    matches.iter().enumerate().find_map(|(j, m)| {
        let narrowed =
            has_items(m, "headers") || has_items(m, "queryParams") || m.get("method").is_some();
        if narrowed {
            return None;
        }
        let at = format!("{path}.matches[{j}]");
        let Some(p) = m.get("path") else {
            return Some((m.span, at));
        };
        let prefix = p.get("type").and_then(Node::as_str).unwrap_or("PathPrefix") == "PathPrefix";
        match p.get("value") {
            Some(v) if prefix && v.as_str() == Some("/") => {
                Some((v.span, format!("{at}.path.value")))
            }
            None if prefix => Some((p.span, format!("{at}.path"))),
            _ => None,
        }
    })
}

/// The name of a DirectResponse the rule's filters refer to.
fn direct_response(rule: &Node) -> Option<&str> {
    rule.get("filters")?.as_seq()?.iter().find_map(|filter| {
        let r = filter.get("extensionRef")?;
        (r.get("kind")?.as_str()? == "DirectResponse")
            .then(|| r.get("name")?.as_str())
            .flatten()
    })
}
