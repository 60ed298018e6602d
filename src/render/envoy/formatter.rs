//! The proxy's parse of the header values a route adds (its substitution formatter): `%%` is a
//! literal `%`, any other `%` begins a command `%NAME(arg):len%` that must be closed. The
//! controller sends the values as written; the proxy's check (validation level strict) refuses
//! a value it cannot parse, in the words below.

use serde_json::Value;

use super::plan::array;

/// The proxy's words for the first header value of `rule`'s header modifiers (the rule's and
/// its backends') it cannot parse; `None` when it parses them all.
pub fn rule_error(rule: &Value) -> Option<String> {
    let backend_filters = array(rule, "/backendRefs").flat_map(|b| array(b, "/filters"));
    array(rule, "/filters")
        .chain(backend_filters)
        .flat_map(|f| {
            ["requestHeaderModifier", "responseHeaderModifier"]
                .into_iter()
                .filter_map(move |k| f.get(k))
        })
        .flat_map(|m| array(m, "/add").chain(array(m, "/set")))
        .filter_map(|h| h.get("value").and_then(Value::as_str))
        .find_map(value_error)
}

/// Why the proxy cannot parse a header value, as it says it; `None` when it can.
fn value_error(format: &str) -> Option<String> {
    let b = format.as_bytes();
    let mut pos = 0;
    while pos < b.len() {
        if b[pos] != b'%' {
            pos += 1;
            continue;
        }
        if b.get(pos + 1) == Some(&b'%') {
            pos += 2;
            continue;
        }
        match command_len(&b[pos..]) {
            Some(n) => pos += n,
            None => {
                return Some(format!(
                    "Incorrect configuration: {format}. Couldn't find valid command at position {pos}"
                ));
            }
        }
    }
    None
}

/// The length of the command `%NAME(arg):len%` at the start of `b` (NAME of `A-Z`, `0-9`, `_`;
/// the argument and the length optional); `None` when `b` does not start with one.
fn command_len(b: &[u8]) -> Option<usize> {
    let mut i = 1;
    let name = |c: &u8| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == b'_';
    while b.get(i).is_some_and(name) {
        i += 1;
    }
    if i == 1 {
        return None;
    }
    if b.get(i) == Some(&b'(') {
        i += 1 + b[i + 1..].iter().position(|&c| c == b')')? + 1;
    }
    if b.get(i) == Some(&b':') {
        let digits = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
        if digits == 0 {
            return None;
        }
        i += 1 + digits;
    }
    (b.get(i) == Some(&b'%')).then_some(i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_unclosed_command_is_refused_where_it_starts() {
        assert_eq!(
            value_error("%REQ(Correlation-Id").as_deref(),
            Some(
                "Incorrect configuration: %REQ(Correlation-Id. Couldn't find valid command at position 0"
            )
        );
        assert_eq!(
            value_error("a %% b %START_TIME% c %x").as_deref(),
            Some(
                "Incorrect configuration: a %% b %START_TIME% c %x. Couldn't find valid command at position 22"
            )
        );
        assert_eq!(value_error("%REQ(x-id):10% and 100%%"), None);
        assert_eq!(value_error("plain"), None);
        assert!(value_error("%REQ(x):%").is_some(), "a length needs digits");
    }

    #[test]
    fn a_rule_is_refused_for_a_backends_header_value_too() {
        let rule = json!({"backendRefs": [{"filters": [{
            "type": "ResponseHeaderModifier",
            "responseHeaderModifier": {"set": [{"name": "x", "value": "%RESPONSE(y)"}]}
        }]}]});
        assert_eq!(
            rule_error(&rule).as_deref(),
            Some(
                "Incorrect configuration: %RESPONSE(y). Couldn't find valid command at position 0"
            )
        );
        assert_eq!(rule_error(&json!({"filters": []})), None);
    }
}
