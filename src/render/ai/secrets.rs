//! Values read from Secrets and ConfigMaps, and how a rendered resource shows a credential.

use serde_json::Value;

use super::super::secret_digest;
use super::Context;

/// The bytes of entry `key` of the Secret `namespace/name`: `data` base64-decoded, else
/// `stringData`. `None` when the Secret or the entry is missing or not base64.
pub(super) fn secret_bytes(
    ctx: &Context<'_>,
    namespace: &str,
    name: &str,
    key: &str,
) -> Option<Vec<u8>> {
    let secret = ctx.inputs.get("", "Secret", namespace, name)?;
    if let Some(data) = secret.value["data"][key].as_str() {
        return base64_decode(data);
    }
    secret.value["stringData"][key]
        .as_str()
        .map(|s| s.as_bytes().to_vec())
}

/// Entry `key` of the ConfigMap `namespace/name`.
pub(super) fn config_map_text<'c>(
    ctx: &Context<'c>,
    namespace: &str,
    name: &str,
    key: &str,
) -> Option<&'c str> {
    ctx.inputs
        .get("", "ConfigMap", namespace, name)?
        .value
        .pointer(&format!(
            "/data/{}",
            key.replace('~', "~0").replace('/', "~1")
        ))
        .and_then(Value::as_str)
}

/// A credential as the output shows it: its digest, never the value.
pub(super) fn shown(value: String) -> Value {
    Value::String(secret_digest(&value))
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

pub(super) fn base64_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Standard base64 with optional padding; whitespace is ignored (as Kubernetes does for data
/// written over several lines). `None` on any other character.
pub(super) fn base64_decode(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let mut acc: u32 = 0;
    let mut bits = 0;
    for c in text.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' | b' ' | b'\n' | b'\r' | b'\t' => continue,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_round_trips() {
        for text in ["", "a", "ab", "abc", "abcd", "Bearer sk-openai-secret-key"] {
            let encoded = base64_encode(text.as_bytes());
            assert_eq!(base64_decode(&encoded).as_deref(), Some(text.as_bytes()));
        }
        assert_eq!(base64_encode(b"invalid"), "aW52YWxpZA==");
        assert_eq!(base64_decode("aW52\nYWxpZA=="), Some(b"invalid".to_vec()));
        assert_eq!(base64_decode("a*b"), None);
    }
}
