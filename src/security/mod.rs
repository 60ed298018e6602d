//! Security stage (GW4xx): practices that the API server accepts but that weaken a gateway
//! (disabled certificate checks, weak password hashes, secrets in ConfigMaps, open CORS, failing
//! open, tokens for any audience, open forward proxies, HTTPS listeners without TLS).
//!
//! Each rule is one file with one `check` over a resource's spanned tree; [`CHECKS`] is the
//! registry. A rule that needs to know about the whole input set (an open forward proxy is only
//! open when no policy authenticates) records facts in [`SetFacts`], merged across files and
//! finished once per run.
//!
//! Messages never quote secret material (hashes, keys, tokens): they name the field, and for an
//! htpasswd line the user.

mod configmap_secret;
mod cors_any_origin;
mod extauth_fail_open;
mod https_without_tls;
mod insecure_tls;
mod jwt_any_audience;
mod open_forward_proxy;
mod weak_password_hash;

#[cfg(test)]
mod tests;

use std::fmt::Display;

use crate::diag::Diagnostic;
use crate::model::Resource;
use crate::parse::{Entry, Node};
use crate::rules;
use crate::source::Span;

/// Default API groups of the two gateway data planes. The config file's `apiGroups` is not
/// threaded into the per-file stages yet (the schemas are registered under these names too).
pub(crate) const GATEWAY_GROUP: &str = "gateway.kgateway.dev";
pub(crate) const AI_GROUP: &str = "agentgateway.dev";
pub(crate) const GATEWAY_API_GROUP: &str = "gateway.networking.k8s.io";

type Check = fn(&mut Findings<'_, '_>);

/// Every rule of the stage with the code it emits; a test keeps it in step with the rule table.
/// GW406 (a route matching every host) needs the route's listeners: the resolve stage checks it.
pub(crate) static CHECKS: &[(rules::Code, Check)] = &[
    (rules::GW401, insecure_tls::check),
    (rules::GW402, weak_password_hash::check),
    (rules::GW403, configmap_secret::check),
    (rules::GW404, cors_any_origin::check),
    (rules::GW405, extauth_fail_open::check),
    (rules::GW407, jwt_any_audience::check),
    (rules::GW408, open_forward_proxy::check),
    (rules::GW409, https_without_tls::check),
];

/// The stage's findings for one resource; facts for the set-wide rules go to `set`.
pub fn check_resource(res: &Resource<'_>, set: &mut SetFacts) -> Vec<Diagnostic> {
    let mut f = Findings {
        res,
        out: Vec::new(),
        set,
    };
    for (_, check) in CHECKS {
        check(&mut f);
    }
    f.out
}

/// What the set-wide rules learnt from some files; merged in input order, finished once.
#[derive(Debug, Default, Clone)]
pub struct SetFacts {
    /// Findings that stand unless some resource of the set configures authentication.
    open_proxies: Vec<Diagnostic>,
    /// A TrafficPolicy or AiGatewayPolicy of the set configures authentication.
    authenticates: bool,
}

impl SetFacts {
    /// Whether nothing was learnt.
    pub fn is_empty(&self) -> bool {
        self.open_proxies.is_empty() && !self.authenticates
    }

    pub fn merge(&mut self, other: SetFacts) {
        self.open_proxies.extend(other.open_proxies);
        self.authenticates |= other.authenticates;
    }

    /// The findings that depend on the whole set.
    pub fn finish(self) -> Vec<Diagnostic> {
        if self.authenticates {
            Vec::new()
        } else {
            self.open_proxies
        }
    }
}

/// The resource a rule looks at, and where its findings go.
pub(crate) struct Findings<'r, 'a> {
    pub(crate) res: &'r Resource<'a>,
    out: Vec<Diagnostic>,
    pub(crate) set: &'r mut SetFacts,
}

impl Findings<'_, '_> {
    /// A finding at `span`, with the message `<path>: <rest>` as the schema findings have it.
    pub(crate) fn diagnostic(
        &self,
        code: rules::Code,
        span: Span,
        path: &str,
        rest: impl Display,
    ) -> Diagnostic {
        Diagnostic::new(code, format!("{path}: {rest}"))
            .at(self.res.file, span)
            .with_resource(Some(self.res.reference()))
            .with_path(path)
    }

    pub(crate) fn report(&mut self, d: Diagnostic) {
        self.out.push(d);
    }

    pub(crate) fn is(&self, group: &str, kind: &str) -> bool {
        self.res.group == group && self.res.kind == kind
    }
}

/// Calls `f` with the path and node of every match of `pattern` below `node`: keys separated by
/// dots, a key ending in `[]` stands for each item of that list (`spec.rules[].filters[].cors`).
/// The path is built in one buffer: this runs for every resource.
pub(crate) fn each<'n>(node: &'n Node, pattern: &str, f: &mut dyn FnMut(&str, &'n Node)) {
    let segs: Vec<&str> = pattern.split('.').collect();
    each_in(node, &segs, &mut String::new(), f);
}

fn each_in<'n>(
    node: &'n Node,
    segs: &[&str],
    path: &mut String,
    f: &mut dyn FnMut(&str, &'n Node),
) {
    let Some((first, rest)) = segs.split_first() else {
        f(path, node);
        return;
    };
    let (key, all) = match first.strip_suffix("[]") {
        Some(k) => (k, true),
        None => (*first, false),
    };
    let Some(child) = node.get(key) else {
        return;
    };
    let len = path.len();
    if len > 0 {
        path.push('.');
    }
    path.push_str(key);
    if all {
        let with_key = path.len();
        for (i, item) in child.as_seq().unwrap_or_default().iter().enumerate() {
            push_index(path, i);
            each_in(item, rest, path, f);
            path.truncate(with_key);
        }
    } else {
        each_in(child, rest, path, f);
    }
    path.truncate(len);
}

/// Calls `f` with the path of every mapping entry below `node` (depth first, in file order).
/// The path is built in one buffer: this walks every node of every resource.
pub(crate) fn each_entry<'n>(node: &'n Node, path: &str, f: &mut dyn FnMut(&str, &'n Entry)) {
    let mut buf = String::from(path);
    each_entry_in(node, &mut buf, f);
}

fn each_entry_in<'n>(node: &'n Node, path: &mut String, f: &mut dyn FnMut(&str, &'n Entry)) {
    let len = path.len();
    if let Some(entries) = node.as_map() {
        for e in entries {
            if len > 0 {
                path.push('.');
            }
            path.push_str(&e.key);
            f(path, e);
            each_entry_in(&e.value, path, f);
            path.truncate(len);
        }
    } else if let Some(items) = node.as_seq() {
        for (i, item) in items.iter().enumerate() {
            push_index(path, i);
            each_entry_in(item, path, f);
            path.truncate(len);
        }
    }
}

/// Appends `[i]` without the formatting machinery (this runs for every list item of every object).
fn push_index(path: &mut String, i: usize) {
    path.push('[');
    path.push_str(crate::text::Decimal::unsigned(i as u64).as_str());
    path.push(']');
}

/// `true` only for the boolean `true` (a quoted "true" is a type error reported elsewhere).
pub(crate) fn is_true(node: Option<&Node>) -> bool {
    matches!(
        node.map(|n| &n.value),
        Some(crate::parse::Value::Bool(true))
    )
}
