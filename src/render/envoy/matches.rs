//! Route matches: an HTTPRoute or GRPCRoute match as an Envoy RouteMatch, and the Gateway API
//! precedence between matches.

use crate::render::pointer::Pointer;
use serde_json::{Value, json};

use crate::render::json::{object, single};

use super::plan::array;
pub use crate::status::proxy::rejected_regex;

/// The RouteMatch of one HTTPRoute match (`m` may be `Null`: match everything); `Err` says
/// why the controller finds the match invalid. A regular expression is written as given: only
/// the proxy checks it ([`rejected_regex`]).
pub fn http(m: &Value) -> Result<Value, String> {
    let mut out = serde_json::Map::new();
    let (path_type, value) = path(m);
    match path_type {
        "Exact" => {
            out.insert("path".into(), json!(value));
        }
        "RegularExpression" => {
            out.insert("safeRegex".into(), re2(value));
        }
        _ => {
            if !value.starts_with('/') {
                return Err(format!("path prefix {value:?} does not start with /"));
            }
            let trimmed = value.trim_end_matches('/');
            if trimmed.is_empty() {
                out.insert("prefix".into(), json!("/"));
            } else {
                out.insert("pathSeparatedPrefix".into(), json!(trimmed));
            }
        }
    }
    let mut headers: Vec<Value> = Vec::new();
    for h in array(m, "/headers") {
        headers.push(string_match(h)?);
    }
    if let Some(method) = m.field("method").and_then(Value::as_str) {
        headers.push(json!({"name": ":method", "stringMatch": {"exact": method}}));
    }
    if !headers.is_empty() {
        out.insert("headers".into(), Value::Array(headers));
    }
    let mut params = Vec::new();
    for q in array(m, "/queryParams") {
        params.push(string_match(q)?);
    }
    if !params.is_empty() {
        out.insert("queryParameters".into(), Value::Array(params));
    }
    Ok(Value::Object(out))
}

/// The RouteMatch of one GRPCRoute match: the method as the path `/<service>/<method>`.
pub fn grpc(m: &Value) -> Result<Value, String> {
    let mut out = serde_json::Map::new();
    let service = m.at("/method/service").and_then(Value::as_str);
    let method = m.at("/method/method").and_then(Value::as_str);
    match (service, method) {
        (Some(s), Some(me)) => out.insert("path".into(), json!(format!("/{s}/{me}"))),
        (Some(s), None) => out.insert("prefix".into(), json!(format!("/{s}/"))),
        (None, Some(me)) => out.insert(
            "safeRegex".into(),
            re2(&format!("/.+/{}", regex::escape(me))),
        ),
        (None, None) => out.insert("prefix".into(), json!("/")),
    };
    let mut headers = Vec::new();
    for h in array(m, "/headers") {
        headers.push(string_match(h)?);
    }
    if !headers.is_empty() {
        out.insert("headers".into(), Value::Array(headers));
    }
    Ok(Value::Object(out))
}

/// The rank of a path match by its type, and the length that orders matches of one rank.
fn path_rank(path_type: &str, value: &str) -> (u8, usize) {
    match path_type {
        "Exact" => (0, value.len()),
        // Regular expressions do not order by length: input order decides between them.
        "RegularExpression" => (1, 0),
        // A PathPrefix's trailing slash is ignored (Gateway API), so it does not count.
        _ => (2, value.trim_end_matches('/').len().max(1)),
    }
}

/// [`path_rank`] of the path a GRPCRoute match's method is matched as ([`grpc`]).
fn grpc_path_rank(m: &Value) -> (u8, usize) {
    let service = m.at("/method/service").and_then(Value::as_str);
    let method = m.at("/method/method").and_then(Value::as_str);
    match (service, method) {
        (Some(s), Some(me)) => path_rank("Exact", &format!("/{s}/{me}")),
        (Some(s), None) => path_rank("PathPrefix", &format!("/{s}/")),
        (None, Some(_)) => path_rank("RegularExpression", ""),
        (None, None) => path_rank("PathPrefix", "/"),
    }
}

/// A match's path type and value, with the Gateway API defaults (a prefix of `/`); the path is
/// looked up once for both.
fn path(m: &Value) -> (&str, &str) {
    let path = m.field("path");
    let text = |key: &str| path.and_then(|p| p.field(key)).and_then(Value::as_str);
    (
        text("type").unwrap_or("PathPrefix"),
        text("value").unwrap_or("/"),
    )
}

/// A RegexMatcher with the RE2 engine, as the reference writes it.
fn re2(regex: &str) -> Value {
    json!({"googleRe2": {}, "regex": regex})
}

/// A header or query parameter match.
fn string_match(h: &Value) -> Result<Value, String> {
    let name = h.field("name").and_then(Value::as_str).unwrap_or("");
    let value = h.field("value").and_then(Value::as_str).unwrap_or("");
    let matcher = match h.field("type").and_then(Value::as_str).unwrap_or("Exact") {
        "RegularExpression" => single("safeRegex", re2(value)),
        _ => single("exact", value),
    };
    Ok(object([("name", name.into()), ("stringMatch", matcher)]))
}

/// Precedence of a match (Gateway API): sorts before when smaller. Exact paths first, then
/// regular expressions, then longer prefixes; then a method; then more headers, then more
/// query parameters. A GRPCRoute's match (`grpc`) is ranked by the path its method is matched
/// as ([`grpc`]), among the HTTPRoutes' of the same virtual host.
pub fn precedence(
    m: &Value,
    grpc: bool,
) -> (
    u8,
    std::cmp::Reverse<usize>,
    u8,
    std::cmp::Reverse<usize>,
    std::cmp::Reverse<usize>,
) {
    let (rank, length) = if grpc {
        grpc_path_rank(m)
    } else {
        let (path_type, value) = path(m);
        path_rank(path_type, value)
    };
    // A GRPCRoute's method is its path, never an HTTP method.
    let method = u8::from(grpc || m.field("method").is_none());
    let headers = array(m, "/headers").count();
    let params = array(m, "/queryParams").count();
    (
        rank,
        std::cmp::Reverse(length),
        method,
        std::cmp::Reverse(headers),
        std::cmp::Reverse(params),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_grpc_match_ranks_by_the_path_its_method_is_matched_as() {
        let http = |path_type: &str, value: &str| {
            precedence(&json!({"path": {"type": path_type, "value": value}}), false)
        };
        let grpc = |method: Value| precedence(&json!({ "method": method }), true);
        let exact = grpc(json!({"service": "svc.S", "method": "Get"}));
        let service = grpc(json!({"service": "svc.S"}));
        let method_only = grpc(json!({"method": "Get"}));
        // An exact method before an HTTP regular expression; a method alone (a regular
        // expression) before any HTTP prefix; a service (a prefix) by its length.
        assert!(exact < http("RegularExpression", "/a.*"));
        assert!(exact > http("Exact", "/a-longer-exact-path"));
        assert!(method_only < http("PathPrefix", "/a-much-longer-prefix"));
        assert!(service < http("PathPrefix", "/c1"));
        assert!(service > http("PathPrefix", "/a-much-longer-prefix"));
        assert_eq!(grpc(json!({})), http("PathPrefix", "/"));
    }

    #[test]
    fn paths() {
        assert_eq!(http(&Value::Null).unwrap(), json!({"prefix": "/"}));
        let m = json!({"path": {"type": "PathPrefix", "value": "/login/"}});
        assert_eq!(http(&m).unwrap(), json!({"pathSeparatedPrefix": "/login"}));
        let m = json!({"path": {"type": "Exact", "value": "/a"}, "method": "GET"});
        assert_eq!(
            http(&m).unwrap(),
            json!({"path": "/a", "headers": [{"name": ":method", "stringMatch": {"exact": "GET"}}]})
        );
        // A regular expression is the proxy's to check: written as given.
        let m = json!({"path": {"type": "RegularExpression", "value": "(a"}});
        assert_eq!(
            http(&m).unwrap(),
            json!({"safeRegex": {"googleRe2": {}, "regex": "(a"}})
        );
        let m = json!({"path": {"type": "PathPrefix", "value": "login"}});
        assert!(
            http(&m).is_err(),
            "a prefix without / is the controller's error"
        );
    }
}
