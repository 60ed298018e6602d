//! The Gateway API's built-in route filters (header modifiers, redirects, rewrites, mirrors)
//! and the DirectResponse an ExtensionRef filter names, as fields of an Envoy Route.

use crate::render::pointer::Pointer;
use serde_json::{Map, Value, json};

use super::super::Context;
use super::clusters::{self, GATEWAY_GROUP};
use super::plan::array;
use crate::model::Object;
use crate::model::facts::{Facts, Spec};
use crate::model::facts_settings::REDIRECT_CODE;
use crate::render::json::{object, single};
use crate::resolve::DirectResponses;

/// What a rule's filters add to its Envoy Route.
#[derive(Default)]
pub struct RuleFilters {
    /// Fields of the Route (`requestHeadersToAdd` ...).
    pub route: Map<String, Value>,
    /// Fields of its RouteAction (`regexRewrite`, `hostRewriteLiteral` ...).
    pub action: Map<String, Value>,
    /// A RequestRedirect: the Route redirects instead of routing.
    pub redirect: Option<Value>,
    /// A DirectResponse named by an ExtensionRef.
    pub direct: Option<Value>,
}

/// The filters of a rule, given the path match they apply to and the listener port.
pub fn rule(
    ctx: &Context<'_>,
    route: &Object,
    rule: &Value,
    m: &Value,
    port: i64,
) -> Result<RuleFilters, String> {
    let mut out = RuleFilters::default();
    let mut direct_responses = DirectResponses::default();
    for f in array(rule, "/filters") {
        match f.field("type").and_then(Value::as_str).unwrap_or("") {
            "RequestHeaderModifier" => headers(
                &mut out.route,
                f.field("requestHeaderModifier"),
                Side::Request,
            )?,
            "ResponseHeaderModifier" => headers(
                &mut out.route,
                f.field("responseHeaderModifier"),
                Side::Response,
            )?,
            "RequestRedirect" => {
                let code = redirect_code(ctx, route, rule)?;
                let r = f.field("requestRedirect").unwrap_or(&Value::Null);
                out.redirect = Some(redirect(r, code, port)?)
            }
            "URLRewrite" => rewrite(
                &mut out.action,
                f.field("urlRewrite").unwrap_or(&Value::Null),
                m,
            )?,
            "RequestMirror" => mirror(ctx, route, f, &mut out.action),
            "ExtensionRef" => extension_ref(ctx, route, f, &mut direct_responses, &mut out)?,
            _ => {}
        }
    }
    Ok(out)
}

/// A RequestMirror filter: one more mirror policy on the RouteAction (none for a backend that
/// does not resolve).
fn mirror(ctx: &Context<'_>, route: &Object, f: &Value, action: &mut Map<String, Value>) {
    let Some(b) = f.at("/requestMirror/backendRef") else {
        return;
    };
    let t = clusters::target(ctx, route, clusters::BackendRef::json(b));
    if !t.resolved {
        return;
    }
    let mut policy =
        json!({"cluster": t.cluster, "runtimeFraction": {"defaultValue": {"numerator": 100}}});
    if let Some(p) = f.at("/requestMirror/percent").and_then(Value::as_i64) {
        policy["runtimeFraction"]["defaultValue"]["numerator"] = json!(p);
    }
    if let Value::Array(list) = action
        .entry("requestMirrorPolicies")
        .or_insert_with(|| Value::Array(Vec::new()))
    {
        list.push(policy);
    }
}

/// An ExtensionRef filter: a DirectResponse answers instead of routing; a TrafficPolicy is the
/// merge stage's, but one that does not exist invalidates the rule, as does any other kind.
fn extension_ref(
    ctx: &Context<'_>,
    route: &Object,
    f: &Value,
    direct_responses: &mut DirectResponses,
    out: &mut RuleFilters,
) -> Result<(), String> {
    let field = |k: &str| {
        f.at(&format!("/extensionRef/{k}"))
            .and_then(Value::as_str)
            .unwrap_or("")
    };
    let (group, kind, name) = (field("group"), field("kind"), field("name"));
    let ns = &route.id.namespace;
    match (group, kind) {
        (GATEWAY_GROUP, "DirectResponse") => {
            let Some(d) = ctx
                .inputs
                .facts_of(GATEWAY_GROUP, "DirectResponse", ns, name)
            else {
                return Err(format!("DirectResponse {name} not found"));
            };
            if !direct_responses.apply() {
                return Err(crate::status::SECOND_DIRECT_RESPONSE.to_string());
            }
            out.direct = Some(direct_response(d));
        }
        (GATEWAY_GROUP, "TrafficPolicy") => {
            if ctx
                .inputs
                .get(GATEWAY_GROUP, "TrafficPolicy", ns, name)
                .is_none()
            {
                return Err(format!("TrafficPolicy {name} not found"));
            }
        }
        _ => return Err(format!("unsupported ExtensionRef {group}/{kind} {name}")),
    }
    Ok(())
}

/// The headers a header modifier changes: of the request or of the response.
#[derive(Clone, Copy)]
pub enum Side {
    Request,
    Response,
}

impl Side {
    /// The Route's fields of the headers added and of those removed.
    fn keys(self) -> (&'static str, &'static str) {
        match self {
            Side::Request => ("requestHeadersToAdd", "requestHeadersToRemove"),
            Side::Response => ("responseHeadersToAdd", "responseHeadersToRemove"),
        }
    }
}

/// Header modifiers: `add` appends, `set` overwrites, `remove` removes.
pub fn headers(
    into: &mut Map<String, Value>,
    modifier: Option<&Value>,
    side: Side,
) -> Result<(), String> {
    let Some(modifier) = modifier else {
        return Ok(());
    };
    let (add_key, remove_key) = side.keys();
    let mut added = Vec::new();
    for (list, overwrite) in [("/add", false), ("/set", true)] {
        for h in array(modifier, list) {
            added.push(header_to_add(h, overwrite)?);
        }
    }
    if !added.is_empty()
        && let Value::Array(list) = into
            .entry(add_key)
            .or_insert_with(|| Value::Array(Vec::new()))
    {
        list.extend(added);
    }
    let removed = modifier.field("remove").and_then(Value::as_array);
    if let Some(removed) = removed.filter(|r| !r.is_empty())
        && let Value::Array(list) = into
            .entry(remove_key)
            .or_insert_with(|| Value::Array(Vec::new()))
    {
        list.extend(removed.iter().cloned());
    }
    Ok(())
}

/// One header of a modifier's `add` or (`overwrite`) `set` as a HeaderValueOption.
fn header_to_add(h: &Value, overwrite: bool) -> Result<Value, String> {
    let name = h.field("name").and_then(Value::as_str).unwrap_or("");
    let value = h.field("value").and_then(Value::as_str).unwrap_or("");
    if name.is_empty() || name.contains(|c: char| c.is_whitespace() || c == ':') {
        return Err(format!("invalid header name {name:?}"));
    }
    // Envoy reads `%COMMAND%` in header values; an unpaired `%` (not `%%`) is rejected. Taking
    // out the `%%` pairs leaves the count's parity as it is: the count itself tells.
    if value.bytes().filter(|&b| b == b'%').count() % 2 == 1 {
        return Err(format!(
            "header {name:?}: value {value:?} has an unterminated % command"
        ));
    }
    let header = object([("key", name.into()), ("value", value.into())]);
    let mut entry = single("header", header);
    if overwrite {
        entry["appendAction"] = "OVERWRITE_IF_EXISTS_OR_ADD".into();
    }
    Ok(entry)
}

/// The status code of a RequestRedirect as the route's [`REDIRECT_CODE`] annotation overrides
/// it: one code for the route, or `rule=code` pairs by rule name.
fn redirect_code(ctx: &Context<'_>, route: &Object, rule: &Value) -> Result<Option<i64>, String> {
    let Some(text) = super::settings::route(ctx, route).redirect_code.as_deref() else {
        return Ok(None);
    };
    let parse = |c: &str| {
        c.trim()
            .parse::<i64>()
            .map_err(|_| format!("{REDIRECT_CODE}: {c:?} is not a status code"))
    };
    if !text.contains('=') {
        return parse(text).map(Some);
    }
    let name = rule.field("name").and_then(Value::as_str);
    for pair in text.split(',') {
        if let Some((rule_name, code)) = pair.split_once('=')
            && Some(rule_name.trim()) == name
        {
            return parse(code).map(Some);
        }
    }
    Ok(None)
}

fn redirect(r: &Value, code_override: Option<i64>, listener_port: i64) -> Result<Value, String> {
    let mut out = Map::new();
    if let Some(s) = r.field("scheme").and_then(Value::as_str) {
        out.insert("schemeRedirect".into(), json!(s));
    }
    if let Some(h) = r.field("hostname").and_then(Value::as_str) {
        out.insert("hostRedirect".into(), json!(h));
    }
    // Without a port or a scheme, the redirect keeps the listener's port (Gateway API).
    match r.field("port").and_then(Value::as_i64) {
        Some(p) => {
            out.insert("portRedirect".into(), json!(p));
        }
        None if r.field("scheme").is_none() => {
            out.insert("portRedirect".into(), json!(listener_port));
        }
        None => {}
    }
    match r.at("/path/type").and_then(Value::as_str) {
        Some("ReplaceFullPath") => {
            let v = r
                .at("/path/replaceFullPath")
                .and_then(Value::as_str)
                .unwrap_or("/");
            out.insert("pathRedirect".into(), json!(v));
        }
        Some("ReplacePrefixMatch") => {
            let v = r
                .at("/path/replacePrefixMatch")
                .and_then(Value::as_str)
                .unwrap_or("/");
            out.insert("prefixRewrite".into(), json!(v));
        }
        _ => {}
    }
    let written = code_override.or_else(|| r.field("statusCode").and_then(Value::as_i64));
    // 301 is the enum's zero value (MOVED_PERMANENTLY), which proto3 JSON leaves unwritten, as
    // the reference's output does.
    let code = match written {
        None | Some(301) => None,
        Some(302) => Some("FOUND"),
        Some(303) => Some("SEE_OTHER"),
        Some(307) => Some("TEMPORARY_REDIRECT"),
        Some(308) => Some("PERMANENT_REDIRECT"),
        Some(c) => return Err(format!("unsupported redirect status code {c}")),
    };
    if let Some(code) = code {
        out.insert("responseCode".into(), json!(code));
    }
    Ok(Value::Object(out))
}

/// A rewritten path Envoy would normalise differently from what was written (`//`, `.`, `..`
/// segments) is rejected, as the reference rejects it.
fn check_path(path: &str) -> Result<(), String> {
    let bad = path.contains("//")
        || path.split('/').any(|seg| seg == "." || seg == "..")
        || !path.starts_with('/');
    if bad {
        Err(format!(
            "rewritten path {path:?} is not a normalised absolute path"
        ))
    } else {
        Ok(())
    }
}

fn rewrite(action: &mut Map<String, Value>, r: &Value, m: &Value) -> Result<(), String> {
    if let Some(h) = r.field("hostname").and_then(Value::as_str) {
        action.insert("hostRewriteLiteral".into(), json!(h));
    }
    match r.at("/path/type").and_then(Value::as_str) {
        Some("ReplaceFullPath") => {
            let v = r
                .at("/path/replaceFullPath")
                .and_then(Value::as_str)
                .unwrap_or("/");
            check_path(v)?;
            action.insert(
                "regexRewrite".into(),
                json!({"pattern": {"regex": ".*"}, "substitution": v}),
            );
        }
        Some("ReplacePrefixMatch") => {
            let v = r
                .at("/path/replacePrefixMatch")
                .and_then(Value::as_str)
                .unwrap_or("/");
            check_path(v)?;
            let prefix = m.at("/path/value").and_then(Value::as_str).unwrap_or("/");
            let prefix = prefix.trim_end_matches('/');
            if v == "/" {
                action.insert(
                    "regexRewrite".into(),
                    json!({"pattern": {"regex": format!("^{}\\/*", regex::escape(prefix))}, "substitution": "/"}),
                );
            } else {
                action.insert("prefixRewrite".into(), json!(v));
            }
        }
        _ => {}
    }
    Ok(())
}

/// A DirectResponse's status and body.
fn direct_response(facts: &Facts) -> Value {
    let (status, body) = match &facts.spec {
        Spec::DirectResponse { status, body } => (*status, body.as_deref()),
        _ => (None, None),
    };
    let mut out = json!({"status": status.unwrap_or(200)});
    if let Some(body) = body {
        out["body"] = json!({"inlineString": body});
    }
    out
}
