//! Facts of an HTTPRoute's rules that the resolve stage judges once it knows where the route
//! attaches: what each rule matches (conflicting routes, GW214) and whether it matches every
//! request (a catch-all rule, GW406).

use crate::parse::Node;
use crate::source::Span;

use super::facts::{int, seq};

/// One rule of an HTTPRoute.
#[derive(Debug, Clone)]
pub struct RuleFacts {
    /// The rule's list item.
    pub span: Span,
    /// Each match in a canonical form (defaults filled in, headers and query parameters sorted),
    /// with its span; a rule without matches has the default `PathPrefix /`, at the rule.
    pub matches: Vec<(Box<str>, Span)>,
    /// Where the rule matches every request, and what it then does.
    pub catch_all: Option<Box<CatchAll>>,
}

#[derive(Debug, Clone)]
pub struct CatchAll {
    pub span: Span,
    /// `spec.rules[i]` or the match (or its path) that matches everything.
    pub path: Box<str>,
    /// What the rule does with every request: "forwards to its backends", ...
    pub answer: Box<str>,
}

fn text<'n>(node: &'n Node, key: &str) -> Option<&'n str> {
    node.get(key).and_then(Node::as_str)
}

/// The facts of the rules of an HTTPRoute's spec.
pub fn http_rules(spec: Option<&Node>) -> Vec<RuleFacts> {
    seq(spec.and_then(|n| n.get("rules")))
        .iter()
        .enumerate()
        .map(|(i, rule)| {
            let path = format!("spec.rules[{i}]");
            let matches = seq(rule.get("matches"));
            RuleFacts {
                span: rule.span,
                matches: if matches.is_empty() {
                    vec![(canonical(None), rule.span)]
                } else {
                    matches
                        .iter()
                        .map(|m| (canonical(Some(m)), m.span))
                        .collect()
                },
                catch_all: catch_all(rule, &path).map(Box::new),
            }
        })
        .collect()
}

/// A match as one string, equal for two matches the Gateway API treats as the same.
fn canonical(m: Option<&Node>) -> Box<str> {
    let path = m.and_then(|m| m.get("path"));
    let path_type = path.and_then(|p| text(p, "type")).unwrap_or("PathPrefix");
    let path_value = path.and_then(|p| text(p, "value")).unwrap_or("/");
    let method = m.and_then(|m| text(m, "method")).unwrap_or("");
    // Header names are case-insensitive; query parameter names are not.
    let pairs = |key: &str, fold: bool| {
        let mut items: Vec<String> = seq(m.and_then(|m| m.get(key)))
            .iter()
            .map(|h| {
                let name = text(h, "name").unwrap_or("");
                let name = if fold {
                    name.to_ascii_lowercase()
                } else {
                    name.to_string()
                };
                match text(h, "type").unwrap_or("Exact") {
                    "Exact" => format!("{name}={}", text(h, "value").unwrap_or("")),
                    other => format!("{name}~{other}:{}", text(h, "value").unwrap_or("")),
                }
            })
            .collect();
        items.sort();
        items.join(",")
    };
    let mut out = format!("{path_type} {path_value}");
    if !method.is_empty() {
        out.push_str(&format!(", method {method}"));
    }
    for (what, key, fold) in [
        ("headers", "headers", true),
        ("query", "queryParams", false),
    ] {
        let list = pairs(key, fold);
        if !list.is_empty() {
            out.push_str(&format!(", {what} {list}"));
        }
    }
    out.into()
}

fn has_items(node: &Node, key: &str) -> bool {
    !seq(node.get(key)).is_empty()
}

/// Where a rule that sends requests somewhere matches every request (no matches, or a match of
/// `PathPrefix /` without header, query or method conditions).
fn catch_all(rule: &Node, path: &str) -> Option<CatchAll> {
    // A rule with neither backends nor filters only fails; one that only sends clients to
    // HTTPS, on the host and path they asked for, exposes nothing.
    if !has_items(rule, "backendRefs") && (!has_items(rule, "filters") || upgrades_to_https(rule)) {
        return None;
    }
    let matches = seq(rule.get("matches"));
    let (span, path) = if matches.is_empty() {
        // No matches means the default `PathPrefix /`: point at the rule itself.
        (rule.span, path.to_string())
    } else {
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
            let prefix = text(p, "type").unwrap_or("PathPrefix") == "PathPrefix";
            match p.get("value") {
                Some(v) if prefix && v.as_str() == Some("/") => {
                    Some((v.span, format!("{at}.path.value")))
                }
                None if prefix => Some((p.span, format!("{at}.path"))),
                _ => None,
            }
        })?
    };
    let answer = match direct_response(rule) {
        Some(name) => format!("answers with DirectResponse {name:?}"),
        None if has_items(rule, "backendRefs") => "forwards to its backends".to_string(),
        None => "applies its filters (a redirect, for example)".to_string(),
    };
    Some(CatchAll {
        span,
        path: path.into(),
        answer: answer.into(),
    })
}

/// Whether the rule's filters redirect to HTTPS keeping the host and the path (the usual
/// HTTP-to-HTTPS redirect of a plain listener).
fn upgrades_to_https(rule: &Node) -> bool {
    seq(rule.get("filters")).iter().any(|filter| {
        filter.get("requestRedirect").is_some_and(|r| {
            text(r, "scheme") == Some("https")
                && r.get("hostname").is_none()
                && r.get("path").is_none()
        })
    })
}

/// The name of a DirectResponse the rule's filters refer to.
fn direct_response(rule: &Node) -> Option<&str> {
    seq(rule.get("filters")).iter().find_map(|filter| {
        let r = filter.get("extensionRef")?;
        (text(r, "kind")? == "DirectResponse")
            .then(|| text(r, "name"))
            .flatten()
    })
}

/// A rule's built-in `timeouts`, `retry` and `sessionPersistence` as written (HTTPRoute and
/// GRPCRoute): the first two are what a delegated child inherits of the rules delegating to it.
#[derive(Debug, Clone, Default)]
pub struct RuleSettings {
    /// Set when the rule writes `timeouts` (whatever it holds).
    pub timeouts: Option<Box<Timeouts>>,
    /// Set when the rule writes `retry`.
    pub retry: Option<Box<Retry>>,
    /// Set when the rule writes `sessionPersistence` (not inherited by delegated children).
    pub session: Option<Box<Session>>,
}

/// A rule's `sessionPersistence`, as released Gateway API versions write it (`sessionName`,
/// `cookieConfig`) or as the development bundle does (`cookie` and `header`, each with its
/// `name`): the schema accepts both.
#[derive(Debug, Clone, Default)]
pub struct Session {
    /// The session's name as written (`sessionName`, else the cookie's or header's `name`): the
    /// output copies it.
    pub name: Option<serde_json::Value>,
    /// `type: Header` (else a cookie).
    pub header: bool,
    pub absolute_timeout: Option<Box<str>>,
    /// The cookie's `lifetimeType` (`Permanent` or `Session`).
    pub lifetime: Option<Box<str>>,
    /// The cookie's `path`, when written.
    pub path: Option<Box<str>>,
}

#[derive(Debug, Clone, Default)]
pub struct Timeouts {
    pub request: Option<Box<str>>,
    pub backend_request: Option<Box<str>>,
}

#[derive(Debug, Clone, Default)]
pub struct Retry {
    pub attempts: Option<i64>,
    /// The status codes as written: the output copies them.
    pub codes: Vec<serde_json::Value>,
    pub backoff: Option<Box<str>>,
}

/// The settings of each rule; empty when no rule writes any (most routes).
pub fn rule_settings(spec: Option<&Node>) -> Vec<RuleSettings> {
    let rules = seq(spec.and_then(|n| n.get("rules")));
    if !rules.iter().any(|r| {
        ["timeouts", "retry", "sessionPersistence"]
            .iter()
            .any(|k| r.get(k).is_some())
    }) {
        return Vec::new();
    }
    let boxed = |n: &Node, key: &str| text(n, key).map(Box::from);
    rules
        .iter()
        .map(|rule| RuleSettings {
            timeouts: rule.get("timeouts").map(|t| {
                Box::new(Timeouts {
                    request: boxed(t, "request"),
                    backend_request: boxed(t, "backendRequest"),
                })
            }),
            retry: rule.get("retry").map(|r| {
                Box::new(Retry {
                    attempts: int(r.get("attempts")),
                    codes: seq(r.get("codes")).iter().map(Node::to_json).collect(),
                    backoff: boxed(r, "backoff"),
                })
            }),
            session: rule.get("sessionPersistence").map(|p| {
                let header = text(p, "type") == Some("Header");
                let state = p.get(if header { "header" } else { "cookie" });
                let cookie = p.get("cookieConfig").or_else(|| p.get("cookie"));
                Box::new(Session {
                    name: p
                        .get("sessionName")
                        .or_else(|| state.and_then(|s| s.get("name")))
                        .map(Node::to_json),
                    header,
                    absolute_timeout: boxed(p, "absoluteTimeout"),
                    lifetime: cookie.and_then(|c| boxed(c, "lifetimeType")),
                    path: p.get("cookie").and_then(|c| boxed(c, "path")),
                })
            }),
        })
        .collect()
}
