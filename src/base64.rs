//! Base64 as rendered configuration carries it: Envoy's inline bytes and the AI data plane's
//! certificates (standard alphabet, padded), JWKS key parts (URL alphabet, unpadded), and Secret
//! data read back (standard, padding and line breaks optional), which the secrets' digests
//! decode too.

const STANDARD: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Standard base64 with padding.
pub fn encode(bytes: &[u8]) -> String {
    encode_with(bytes, STANDARD, true)
}

/// Base64url without padding (JWK members).
pub fn encode_url(bytes: &[u8]) -> String {
    encode_with(bytes, URL, false)
}

fn encode_with(bytes: &[u8], alphabet: &[u8; 64], pad: bool) -> String {
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
                out.push(char::from(alphabet[((n >> (18 - 6 * i)) & 63) as usize]));
            } else if pad {
                out.push('=');
            }
        }
    }
    out
}

/// Standard base64, padding optional; whitespace is ignored (as Kubernetes does for data
/// written over several lines). `None` on any other character.
pub fn decode(text: &str) -> Option<Vec<u8>> {
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
    fn standard_round_trips_with_padding() {
        for text in ["", "a", "ab", "abc", "abcd", "Bearer sk-openai-secret-key"] {
            let encoded = encode(text.as_bytes());
            assert_eq!(decode(&encoded).as_deref(), Some(text.as_bytes()));
        }
        assert_eq!(encode(b"hello"), "aGVsbG8=");
        assert_eq!(encode(b"ab"), "YWI=");
        assert_eq!(encode(b"abc"), "YWJj");
        assert_eq!(decode("aGVsbG8").as_deref(), Some(&b"hello"[..]));
        assert_eq!(decode("aW52\nYWxpZA=="), Some(b"invalid".to_vec()));
        assert_eq!(decode("a?b"), None);
    }

    #[test]
    fn url_alphabet_without_padding() {
        assert_eq!(encode_url(&[1, 0, 1]), "AQAB");
        assert_eq!(encode_url(b"ab"), "YWI");
        assert_eq!(encode_url(&[0xfb, 0xff]), "-_8");
    }
}
