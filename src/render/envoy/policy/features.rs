//! The TrafficPolicy features configured inline: their Envoy per-route configurations.

use serde_json::{Map, Value, json};

use super::super::{duration, typed};
use super::LOCAL_RATE_LIMIT;

/// A Kubernetes quantity (`65536`, `64Ki`, `1Mi`, `1k`) in bytes.
pub(crate) fn quantity(v: &Value) -> Option<u64> {
    if let Some(n) = v.as_u64() {
        return Some(n);
    }
    let text = v.as_str()?.trim();
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let number: u64 = text[..split].parse().ok()?;
    let factor: u64 = match &text[split..] {
        "" => 1,
        "k" => 1000,
        "M" => 1000 * 1000,
        "G" => 1000 * 1000 * 1000,
        "Ki" => 1 << 10,
        "Mi" => 1 << 20,
        "Gi" => 1 << 30,
        _ => return None,
    };
    number.checked_mul(factor)
}

pub(super) fn header_mutations(side: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    for (list, overwrite) in [("add", false), ("set", true)] {
        for h in side
            .get(list)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let mut append = json!({"header": {
                "key": h.get("name").cloned().unwrap_or_default(),
                "value": h.get("value").cloned().unwrap_or_default(),
            }});
            if overwrite {
                append["appendAction"] = json!("OVERWRITE_IF_EXISTS_OR_ADD");
            }
            out.push(json!({"append": append}));
        }
    }
    for r in side
        .get("remove")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        out.push(json!({"remove": r}));
    }
    out
}

pub(super) fn cors(v: &Value) -> Value {
    let mut out = Map::new();
    let list = |key: &str| -> Vec<Value> {
        v.get(key)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let origins: Vec<Value> = list("allowOrigins")
        .iter()
        .filter_map(Value::as_str)
        .map(|o| {
            if o == "*" {
                json!({"prefix": ""})
            } else if o.contains('*') {
                json!({"safeRegex": {"googleRe2": {}, "regex": regex::escape(o).replace("\\*", "[^.]+")}})
            } else {
                json!({"exact": o})
            }
        })
        .collect();
    if !origins.is_empty() {
        out.insert("allowOriginStringMatch".into(), Value::Array(origins));
    }
    for (key, field) in [
        ("allowMethods", "allowMethods"),
        ("allowHeaders", "allowHeaders"),
        ("exposeHeaders", "exposeHeaders"),
    ] {
        let items: Vec<String> = list(key)
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect();
        if !items.is_empty() {
            out.insert(field.into(), json!(items.join(",")));
        }
    }
    if let Some(b) = v.get("allowCredentials").and_then(Value::as_bool) {
        out.insert("allowCredentials".into(), json!(b));
    }
    let age = v.get("maxAge").and_then(|a| {
        a.as_i64()
            .map(|n| n.to_string())
            .or_else(|| a.as_str().map(str::to_string))
    });
    // The reference writes 5 seconds when the policy sets none.
    out.insert(
        "maxAge".into(),
        json!(age.unwrap_or_else(|| "5".to_string())),
    );
    typed(
        "envoy.extensions.filters.http.cors.v3.CorsPolicy",
        Value::Object(out),
    )
}

const CSRF: &str = "envoy.extensions.filters.http.csrf.v3.CsrfPolicy";

/// The CSRF filter the listener declares: enforcing on no request (each route enables it).
pub(super) fn csrf_filter() -> Value {
    typed(CSRF, json!({"filterEnabled": {"defaultValue": {}}}))
}

/// A route's CSRF policy: the percentage enforced (none when unset) or only tracked, and the
/// origins accepted besides the request's own, as the reference translates them.
pub(super) fn csrf(v: &Value) -> Value {
    let percent = |n: &Value, key: &str| {
        // Zero is the default, which the reference's output leaves out.
        let numerator = n.as_u64().unwrap_or(0);
        let value = if numerator == 0 {
            json!({})
        } else {
            json!({"numerator": numerator})
        };
        json!({"defaultValue": value, "runtimeKey": key})
    };
    let mut out = Map::new();
    out.insert(
        "filterEnabled".into(),
        percent(&v["percentageEnabled"], "envoy.csrf.filter_enabled"),
    );
    if !v["percentageShadowed"].is_null() {
        out.insert(
            "shadowEnabled".into(),
            percent(&v["percentageShadowed"], "envoy.csrf.shadow_enabled"),
        );
    }
    let origins: Vec<Value> = v
        .get("additionalOrigins")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(string_matcher)
        .collect();
    if !origins.is_empty() {
        out.insert("additionalOrigins".into(), Value::Array(origins));
    }
    typed(CSRF, Value::Object(out))
}

/// An Envoy StringMatcher of the API's (one of exact, prefix, suffix, contains, safeRegex).
fn string_matcher(m: &Value) -> Value {
    let mut out = Map::new();
    for key in ["exact", "prefix", "suffix", "contains"] {
        if let Some(v) = m.get(key) {
            out.insert(key.into(), v.clone());
        }
    }
    if let Some(r) = m.get("safeRegex") {
        out.insert("safeRegex".into(), json!({"googleRe2": {}, "regex": r}));
    }
    if m.get("ignoreCase").and_then(Value::as_bool) == Some(true) {
        out.insert("ignoreCase".into(), json!(true));
    }
    Value::Object(out)
}

pub(super) fn local_rate_limit(local: &Value) -> Result<Value, String> {
    let bucket = local.get("tokenBucket").unwrap_or(&Value::Null);
    let fill = bucket
        .get("fillInterval")
        .and_then(Value::as_str)
        .and_then(duration)
        .ok_or("rateLimit.local.tokenBucket.fillInterval is not a duration")?;
    let max = bucket.get("maxTokens").and_then(Value::as_i64).unwrap_or(1);
    let per_fill = bucket
        .get("tokensPerFill")
        .and_then(Value::as_i64)
        .unwrap_or(1);
    let percent = |key: &str| json!({"defaultValue": {"numerator": 100}, "runtimeKey": key});
    Ok(typed(
        LOCAL_RATE_LIMIT,
        json!({
            "filterEnabled": percent("local_rate_limit_enabled"),
            "filterEnforced": percent("local_rate_limit_enforced"),
            "statPrefix": "http_local_rate_limiter",
            "tokenBucket": {"fillInterval": fill, "maxTokens": max, "tokensPerFill": per_fill},
        }),
    ))
}

pub(super) fn retry(v: &Value) -> Value {
    let mut out = Map::new();
    out.insert(
        "numRetries".into(),
        json!(v.get("attempts").and_then(Value::as_i64).unwrap_or(1)),
    );
    if let Some(t) = v
        .get("perTryTimeout")
        .and_then(Value::as_str)
        .and_then(duration)
    {
        out.insert("perTryTimeout".into(), json!(t));
    }
    let codes: Vec<Value> = v
        .get("statusCodes")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    // Envoy's default base interval, written out as the reference does.
    let backoff = v
        .get("backoffBaseInterval")
        .and_then(Value::as_str)
        .and_then(duration)
        .unwrap_or_else(|| "0.025s".to_string());
    out.insert("retryBackOff".into(), json!({"baseInterval": backoff}));
    let mut on: Vec<String> = v
        .get("retryOn")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_string)
        .collect();
    if !codes.is_empty() {
        on.push("retriable-status-codes".into());
        out.insert("retriableStatusCodes".into(), Value::Array(codes));
    }
    if !on.is_empty() {
        out.insert("retryOn".into(), json!(on.join(",")));
    }
    Value::Object(out)
}

/// A filter enabled on a route or route configuration where the listener declares it disabled.
pub(super) fn enabled() -> Value {
    typed(FILTER_CONFIG, json!({"config": {}}))
}

/// A filter switched off on a route or route configuration by the generic per-route config, for
/// a filter whose own per-route config has no switch (basic auth).
pub(super) fn disabled() -> Value {
    typed(FILTER_CONFIG, json!({"config": {}, "disabled": true}))
}

const FILTER_CONFIG: &str = "envoy.config.route.v3.FilterConfig";

/// The set_metadata filter that, enabled, switches every filter of a kind off.
pub(super) fn disable_switch(namespace: &str) -> Value {
    typed(
        "envoy.extensions.filters.http.set_metadata.v3.Config",
        json!({"metadata": [{"metadataNamespace": namespace, "value": {"disable": true}}]}),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shadowed_csrf_policy_enforces_on_no_request_and_tracks_the_share() {
        let policy = csrf(&json!({"percentageShadowed": 25}));
        assert_eq!(
            policy,
            json!({
                "@type": "type.googleapis.com/envoy.extensions.filters.http.csrf.v3.CsrfPolicy",
                "filterEnabled": {"defaultValue": {}, "runtimeKey": "envoy.csrf.filter_enabled"},
                "shadowEnabled": {
                    "defaultValue": {"numerator": 25},
                    "runtimeKey": "envoy.csrf.shadow_enabled",
                },
            })
        );
    }
}
