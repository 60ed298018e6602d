//! Inline JSON Web Key Sets: the text is JSON, a `keys` array of JWKs (or one JWK, or a PEM
//! public key, which the general gateway group also accepts), each with `kty` and the members
//! its type needs. Private members in a verification key set are warnings. Key material is
//! never put into a message.

use crate::rules;
use serde_json::{Map, Value};

use super::Finding;
use crate::validate::messages::go_quote;

/// Members each key type needs (RFC 7518 section 6, RFC 8037).
fn required_members(kty: &str) -> Option<&'static [&'static str]> {
    Some(match kty {
        "RSA" => &["n", "e"],
        "EC" => &["crv", "x", "y"],
        "OKP" => &["crv", "x"],
        "oct" => &["k"],
        _ => return None,
    })
}

/// Members that are secret: a key set for verifying tokens must not carry them.
fn private_members(kty: &str) -> &'static [&'static str] {
    match kty {
        "RSA" => &["d", "p", "q", "dp", "dq", "qi", "oth"],
        "EC" | "OKP" => &["d"],
        // A symmetric key is its own secret: the whole key is shared material.
        "oct" => &["k"],
        _ => &[],
    }
}

pub(crate) fn check(text: &str) -> Vec<Finding> {
    let trimmed = text.trim_start();
    if trimmed.starts_with("-----BEGIN") {
        return pem(text);
    }
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            let at = offset_of(text, e.line(), e.column());
            let width = text[at..].chars().next().map_or(0, char::len_utf8);
            return vec![Finding::new(
                rules::GW122,
                format!("JWKS is not valid JSON: {}", json_reason(&e)),
                Some(at..at + width),
            )];
        }
    };
    let Value::Object(obj) = &value else {
        return vec![invalid("JWKS must be a JSON object with a \"keys\" array")];
    };
    if !obj.contains_key("keys") {
        // A single JWK (accepted where the field allows "a key or a key set").
        return if obj.contains_key("kty") {
            check_key(obj, None)
        } else {
            vec![invalid("JWKS has no \"keys\" array")]
        };
    }
    let Some(keys) = obj.get("keys").and_then(Value::as_array) else {
        return vec![invalid("JWKS \"keys\" must be an array")];
    };
    if keys.is_empty() {
        return vec![invalid("JWKS \"keys\" is empty: no token can be verified")];
    }
    let mut out = Vec::new();
    for (i, key) in keys.iter().enumerate() {
        match key {
            Value::Object(k) => out.extend(check_key(k, Some(i))),
            _ => out.push(invalid(&format!("keys[{i}] is not a JSON object"))),
        }
    }
    out
}

fn invalid(message: &str) -> Finding {
    Finding::new(rules::GW122, message.to_string(), None)
}

fn check_key(key: &Map<String, Value>, index: Option<usize>) -> Vec<Finding> {
    let which = index.map_or("the key".to_string(), |i| format!("keys[{i}]"));
    let Some(kty) = key.get("kty").and_then(Value::as_str) else {
        return vec![invalid(&format!("{which} has no \"kty\" (key type)"))];
    };
    let Some(required) = required_members(kty) else {
        return vec![invalid(&format!(
            "{which} has the unknown key type {}; known: RSA, EC, OKP, oct",
            go_quote(kty)
        ))];
    };
    let mut out = Vec::new();
    let missing: Vec<&str> = required
        .iter()
        .copied()
        .filter(|m| {
            key.get(*m)
                .and_then(Value::as_str)
                .is_none_or(str::is_empty)
        })
        .collect();
    if !missing.is_empty() {
        out.push(invalid(&format!(
            "{which} ({kty}) lacks {}",
            missing
                .iter()
                .map(|m| go_quote(m))
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    let private: Vec<&str> = private_members(kty)
        .iter()
        .copied()
        .filter(|m| key.contains_key(*m))
        .collect();
    if !private.is_empty() {
        let what = if kty == "oct" {
            "is a symmetric (shared secret) key".to_string()
        } else {
            format!(
                "has private key members ({})",
                private
                    .iter()
                    .map(|m| go_quote(m))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        out.push(
            Finding::new(rules::GW123, format!("{which} {what}"), None).with_help(
                "publish only public keys; treat the private key as compromised and rotate it",
            ),
        );
    }
    out
}

/// A PEM block: armour lines that match, and a public key (a private key is a warning).
fn pem(text: &str) -> Vec<Finding> {
    let begin = text.trim_start().lines().next().unwrap_or("");
    let label = begin
        .strip_prefix("-----BEGIN ")
        .and_then(|l| l.strip_suffix("-----"))
        .unwrap_or("");
    if label.is_empty() || !text.contains(&format!("-----END {label}-----")) {
        return vec![invalid("PEM key has no matching BEGIN/END lines")];
    }
    if label.contains("PRIVATE") {
        return vec![
            Finding::new(
                rules::GW123,
                format!("PEM block is a {label}, not a public key"),
                None,
            )
            .with_help(
                "publish only public keys; treat the private key as compromised and rotate it",
            ),
        ];
    }
    Vec::new()
}

/// serde_json's message without its " at line L column C" tail (the position is the span).
fn json_reason(e: &serde_json::Error) -> String {
    let s = e.to_string();
    match s.rfind(" at line ") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

/// Byte offset of serde_json's 1-based line and column (column counts bytes; 0 means "before the line").
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 1..line {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    let mut at = (start + column.saturating_sub(1)).min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}
