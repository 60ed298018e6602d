//! The controller's own check of a generated route before it sends it (the reference's
//! `validateEnvoyRoute`): the redirect's path, host and scheme and every prefix rewrite must be
//! RFC 3986 path characters without `//`, `/./`, `/../`, `%2f`, `#` or a trailing `/.` or `/..`.
//! A route that fails is replaced with the direct response 500, at every validation level.

use crate::render::pointer::Pointer;
use serde_json::Value;

use super::plan::array;

/// The characters of the reference's pattern, besides `%` and two hex digits.
const PCHARS: &str = "/:@._~!$&'()*+,=;-";

/// How the reference writes its pattern in the error.
const PATTERN: &str = "^(?:([A-Za-z0-9/:@._~!$&'()*+,:=;-]*|[%][0-9a-fA-F]{2}))*$";

const SEQUENCES: &[&str] = &["//", "/./", "/../", "%2f", "%2F", "#"];
const SUFFIXES: &[&str] = &["/..", "/."];

/// Why the controller rejects a path, in its words; `None` when it accepts it.
fn path_error(s: &str) -> Option<String> {
    if s.is_empty() {
        return None;
    }
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'%' {
            let hex = |k: usize| b.get(k).is_some_and(u8::is_ascii_hexdigit);
            if !(hex(i + 1) && hex(i + 2)) {
                return Some(format!(
                    "must only contain valid characters matching pattern {PATTERN}"
                ));
            }
            i += 3;
            continue;
        }
        if !(c.is_ascii_alphanumeric() || PCHARS.as_bytes().contains(&c)) {
            return Some(format!(
                "must only contain valid characters matching pattern {PATTERN}"
            ));
        }
        i += 1;
    }
    if let Some(bad) = SEQUENCES.iter().find(|q| s.contains(*q)) {
        return Some(format!("path [{s}] cannot contain [{bad}]"));
    }
    SUFFIXES
        .iter()
        .find(|q| s.ends_with(*q))
        .map(|bad| format!("path [{s}] cannot end with [{bad}]"))
}

fn path(s: &str, errors: &mut Vec<String>) {
    if let Some(e) = path_error(s) {
        errors.push(format!("the \"{s}\" path is invalid: {e}"));
    }
}

/// A rewrite is checked as a URL: its path only (before a query or fragment).
fn prefix_rewrite(s: &str, errors: &mut Vec<String>) {
    let url_path = s.split(['?', '#']).next().unwrap_or("");
    if let Some(e) = path_error(url_path) {
        errors.push(format!("the rewrite {s} is invalid: {e}"));
    }
}

/// Why the controller replaces the routes of `rule`, one error a line, as its check joins them;
/// `None` when they pass.
pub fn rule_error(rule: &Value) -> Option<String> {
    let text = |v: &Value, p: &str| v.at(p).and_then(Value::as_str).map(str::to_string);
    let mut errors = Vec::new();
    let mut rewrites = Vec::new();
    for f in array(rule, "/filters") {
        match f.field("type").and_then(Value::as_str) {
            Some("RequestRedirect") => {
                let r = f.field("requestRedirect").unwrap_or(&Value::Null);
                match text(r, "/path/type").as_deref() {
                    Some("ReplaceFullPath") => path(
                        &text(r, "/path/replaceFullPath").unwrap_or_default(),
                        &mut errors,
                    ),
                    Some("ReplacePrefixMatch") => {
                        rewrites.push(text(r, "/path/replacePrefixMatch").unwrap_or_default())
                    }
                    _ => {}
                }
                path(&text(r, "/hostname").unwrap_or_default(), &mut errors);
                path(&text(r, "/scheme").unwrap_or_default(), &mut errors);
            }
            // A prefix of `/` is rendered as a regex rewrite, which is not checked.
            Some("URLRewrite") => {
                let r = f.field("urlRewrite").unwrap_or(&Value::Null);
                if text(r, "/path/type").as_deref() == Some("ReplacePrefixMatch") {
                    let v = text(r, "/path/replacePrefixMatch").unwrap_or_default();
                    if v != "/" {
                        rewrites.insert(0, v);
                    }
                }
            }
            _ => {}
        }
    }
    for r in &rewrites {
        prefix_rewrite(r, &mut errors);
    }
    (!errors.is_empty()).then(|| errors.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rewrite(prefix: &str) -> Value {
        json!({"filters": [{"type": "URLRewrite", "urlRewrite": {"path": {"type": "ReplacePrefixMatch", "replacePrefixMatch": prefix}}}]})
    }

    #[test]
    fn a_rewrite_with_a_double_slash_or_a_bracket_is_replaced() {
        assert_eq!(
            rule_error(&rewrite("/new//../path")).as_deref(),
            Some("the rewrite /new//../path is invalid: path [/new//../path] cannot contain [//]")
        );
        assert_eq!(
            rule_error(&rewrite("a-[b")),
            Some(format!(
                "the rewrite a-[b is invalid: must only contain valid characters matching pattern {PATTERN}"
            ))
        );
        assert_eq!(
            rule_error(&rewrite("/a/..")).as_deref(),
            Some("the rewrite /a/.. is invalid: path [/a/..] cannot end with [/..]")
        );
    }

    #[test]
    fn clean_rewrites_and_the_root_pass() {
        for ok in ["/", "/v2/api", "/a%20b", "/x?y=//", "relative"] {
            assert_eq!(rule_error(&rewrite(ok)), None, "{ok}");
        }
    }
}
