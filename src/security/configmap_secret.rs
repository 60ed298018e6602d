//! GW403: secret material in a ConfigMap. ConfigMaps are readable by far more principals than
//! Secrets (views, dashboards, `kubectl describe`), are not encrypted at rest by the usual
//! encryption configuration, and end up in logs and support bundles. Two signals, each enough:
//! the key is named like a credential (`api-key`, `apiKey`, `token`, `password`, `secret`, ...),
//! or the value has the shape of one (a PEM private key, a well-known key prefix such as `sk-`,
//! a JSON Web Token, a long hex or base64 string). Only `data` is read: `binaryData` is base64 of
//! arbitrary bytes by design.

use super::Findings;
use crate::rules;

/// Words a credential key ends with, compared without case and separators (`db_password`,
/// `clientSecret`); ending rather than containing, so that `token-url` or `password-policy` pass.
const KEY_WORDS: &[&str] = &[
    "apikey",
    "token",
    "password",
    "passwd",
    "secret",
    "privatekey",
    "accesskey",
    "credentials",
];

pub(super) fn check(f: &mut Findings<'_, '_>) {
    let res = f.res;
    if !(res.group.is_empty() && res.kind == "ConfigMap") {
        return;
    }
    let Some(data) = res.root.get("data").and_then(|d| d.as_map()) else {
        return;
    };
    for e in data {
        let Some(value) = e.value.as_str() else {
            continue;
        };
        let what = match (credential_key(&e.key, value), value_shape(value)) {
            (_, Some(shape)) => format!("the value looks like {shape}"),
            (true, None) => "the key is named like a credential and has a value".to_string(),
            (false, None) => continue,
        };
        let d = f
            .diagnostic(
                rules::GW403,
                e.value.span,
                &format!("data.{}", e.key),
                format!("ConfigMap holds what looks like secret material: {what}"),
            )
            .with_help("move the value to a Secret and reference it from there; rotate it if this manifest was shared");
        f.report(d);
    }
}

fn credential_key(key: &str, value: &str) -> bool {
    let norm: String = key
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    let Some(word) = KEY_WORDS.iter().find(|w| norm.ends_with(*w)) else {
        return false;
    };
    let v = value.trim();
    // Short values, numbers, booleans and placeholders are settings, not credentials
    // (`max-token: "4096"`, `password: ${DB_PASSWORD}`).
    if v.chars().count() < 8
        || v.chars().all(|c| c.is_ascii_digit())
        || v.starts_with("${")
        || (v.starts_with('<') && v.ends_with('>'))
    {
        return false;
    }
    // `tls-secret: gateway-cert` names a Secret rather than holding one.
    let object_name = v
        .bytes()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-' || c == b'.');
    !(*word == "secret" && object_name)
}

/// What a value looks like when its shape alone gives a credential away.
fn value_shape(value: &str) -> Option<&'static str> {
    if value.contains("PRIVATE KEY-----") {
        return Some("a PEM private key");
    }
    let v = value.trim();
    if v.chars().any(char::is_whitespace) {
        return None;
    }
    let token_chars = |s: &str| {
        s.bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_')
    };
    for prefix in ["sk-", "ghp_", "github_pat_", "xoxb-", "xoxp-", "glpat-"] {
        if let Some(rest) = v.strip_prefix(prefix)
            && rest.len() >= 20
            && token_chars(rest)
        {
            return Some("an API key or access token");
        }
    }
    if v.len() == 20
        && v.starts_with("AKIA")
        && v.bytes()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
    {
        return Some("a cloud access key id");
    }
    let parts: Vec<&str> = v.split('.').collect();
    if parts.len() == 3 && v.starts_with("eyJ") && parts.iter().all(|p| token_chars(p)) {
        return Some("a JSON Web Token");
    }
    if v.len() >= 32 && v.bytes().all(|c| c.is_ascii_hexdigit()) {
        return Some("a long hex string (a key or token)");
    }
    let base64 = v
        .bytes()
        .all(|c| c.is_ascii_alphanumeric() || b"+/=_-".contains(&c));
    let mixed = v.bytes().any(|c| c.is_ascii_digit())
        && v.bytes().any(|c| c.is_ascii_lowercase())
        && v.bytes().any(|c| c.is_ascii_uppercase());
    if v.len() >= 40 && base64 && mixed && !v.starts_with('/') {
        return Some("a long base64 string (a key or token)");
    }
    None
}
