//! What a credential looks like: a key named like one, or a value shaped like one. GW403 reports
//! ConfigMap entries by it, and the secrets' classification masks the same values, so that a
//! value the report calls a secret is never shown.

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

/// Whether GW403 reports a ConfigMap entry: the secrets classification masks the same values.
pub(crate) fn looks_like_secret(key: &str, value: &str) -> bool {
    credential_key(key, value) || value_shape(value).is_some()
}

pub(crate) fn credential_key(key: &str, value: &str) -> bool {
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
pub(crate) fn value_shape(value: &str) -> Option<&'static str> {
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
