//! The `kgateway.dev/*` TLS options a Gateway listener and a BackendTLSPolicy share (cipher
//! suites, curves, protocol versions, certificate hashes), and Envoy's names for them.

use serde_json::{Map, Value, json};

/// A comma-separated list: items trimmed, empty ones left out.
pub fn split_list(text: &str, sep: char) -> Vec<&str> {
    text.split(sep)
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .collect()
}

/// Envoy's name of a TLS protocol version: `1.2` -> `TLSv1_2`.
pub fn tls_version(version: &str) -> String {
    format!("TLSv{}", version.replace('.', "_"))
}

/// `kgateway.dev/verify-certificate-hash`: one hash, or a YAML-like list of them (`- HASH`
/// lines).
pub fn certificate_hashes(text: &str) -> Vec<&str> {
    text.split_whitespace().filter(|t| *t != "-").collect()
}

/// The common TLS context's `tlsParams` the options set: cipher suites, curves, then the
/// minimum and maximum protocol versions.
pub fn params<'o>(option: impl Fn(&str) -> Option<&'o str>) -> Map<String, Value> {
    let mut params = Map::new();
    for (key, field) in [
        ("kgateway.dev/cipher-suites", "cipherSuites"),
        ("kgateway.dev/ecdh-curves", "ecdhCurves"),
    ] {
        if let Some(text) = option(key) {
            params.insert(field.into(), json!(split_list(text, ',')));
        }
    }
    for (key, field) in [
        ("kgateway.dev/min-tls-version", "tlsMinimumProtocolVersion"),
        ("kgateway.dev/max-tls-version", "tlsMaximumProtocolVersion"),
    ] {
        if let Some(v) = option(key) {
            params.insert(field.into(), json!(tls_version(v)));
        }
    }
    params
}
