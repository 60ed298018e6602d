//! What the proxy refuses of a configuration the controller accepts (validation level strict):
//! the status stage predicts the conditions that say so, and render drops or replaces what it
//! refuses, from these same checks.

mod re2_words;

use serde_json::Value;

pub use re2_words::rejected as re2_refusal;

/// How the proxy's check of the configuration (validation level strict) begins its error.
pub const XDS: &str = "invalid xds configuration: error initializing configuration '/dev/fd/0': ";

/// The ports the proxy serves itself (admin, readiness, metrics, the AI data plane's admin):
/// the controller rejects a listener on one of them.
pub const RESERVED_PORTS: [i64; 4] = [8082, 9091, 15000, 19000];

/// Why the proxy rejects a match (an HTTPRoute's, or a GRPCRoute's with `grpc`): its first
/// regular expression RE2 refuses, in the words Envoy reports it with; `None` when it accepts
/// every one.
pub fn rejected_regex(m: &Value, grpc: bool) -> Option<String> {
    fn regex(v: &Value) -> Option<&str> {
        (v.get("type").and_then(Value::as_str) == Some("RegularExpression"))
            .then(|| v.get("value").and_then(Value::as_str))
            .flatten()
    }
    let array = |pointer: &str| {
        m.pointer(pointer)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
    };
    let path = if grpc {
        None
    } else {
        m.get("path").and_then(regex)
    };
    let queries = if grpc {
        None
    } else {
        Some(array("/queryParams"))
    };
    path.into_iter()
        .chain(array("/headers").filter_map(regex))
        .chain(queries.into_iter().flatten().filter_map(regex))
        .find_map(re2_refusal)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::rejected_regex;

    #[test]
    fn the_first_regex_the_proxy_rejects_is_named() {
        let m = json!({
            "path": {"type": "RegularExpression", "value": "/ok/.*"},
            "headers": [{"name": "x", "type": "RegularExpression", "value": "[x"}],
            "queryParams": [{"name": "q", "type": "RegularExpression", "value": "(q"}],
        });
        assert_eq!(rejected_regex(&m, false).as_deref(), Some("missing ]: [x"));
        let m = json!({"queryParams": [{"name": "q", "type": "RegularExpression", "value": "(q"}]});
        assert_eq!(rejected_regex(&m, false).as_deref(), Some("missing ): (q"));
        // A gRPC match has no path or query parameters of its own to reject.
        assert_eq!(rejected_regex(&m, true), None);
        let m = json!({"path": {"type": "PathPrefix", "value": "[x"}});
        assert_eq!(rejected_regex(&m, false), None, "not a regular expression");
    }
}
