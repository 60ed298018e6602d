//! What is printed in place of a secret: `<secret hmac:HEX>`, a keyed digest (HMAC-SHA256, the
//! first 64 bits). The key is drawn once per process from the operating system's random source
//! and never printed, so equal secrets show equal digests within one run (one `diff` compares
//! both sides with the same key) while a published output cannot be used to confirm a guessed
//! secret, as an unkeyed hash could.

use std::sync::OnceLock;

use sha2::{Digest, Sha256};

/// How a digest starts (the proto check recognises it as standing for bytes).
pub const PREFIX: &str = "<secret hmac:";

/// Hex digits of the digest shown: 64 bits, enough to tell secrets apart within a run.
const SHOWN: usize = 16;

const BLOCK: usize = 64;

/// The run's key: 256 bits from std's `RandomState`, whose seeds come from the operating
/// system's random source (128 bits of entropy per thread; no dependency needed for it).
fn key() -> &'static [u8; 32] {
    static KEY: OnceLock<[u8; 32]> = OnceLock::new();
    KEY.get_or_init(|| {
        use std::hash::BuildHasher;
        let mut key = [0u8; 32];
        for (i, chunk) in key.chunks_mut(8).enumerate() {
            let word = std::collections::hash_map::RandomState::new().hash_one(i);
            chunk.copy_from_slice(&word.to_le_bytes());
        }
        key
    })
}

/// HMAC-SHA256 (RFC 2104) of `message` under `key` (at most one block long, as ours is).
fn hmac(key: &[u8], message: &[u8]) -> [u8; 32] {
    let mut padded = [0u8; BLOCK];
    if key.len() > BLOCK {
        padded[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        padded[..key.len()].copy_from_slice(key);
    }
    let pad = |byte: u8| padded.map(|k| k ^ byte);
    let inner = Sha256::new()
        .chain_update(pad(0x36))
        .chain_update(message)
        .finalize();
    Sha256::new()
        .chain_update(pad(0x5c))
        .chain_update(inner)
        .finalize()
        .into()
}

/// The digest of a secret's bytes. Line breaks at the end are not part of the secret: a Secret
/// value written as a block scalar has one, the same value written inline has none.
pub fn digest_bytes(bytes: &[u8]) -> String {
    let end = bytes
        .iter()
        .rposition(|b| !matches!(b, b'\n' | b'\r'))
        .map_or(0, |i| i + 1);
    let mac = hmac(key(), &bytes[..end]);
    let hex: String = mac[..SHOWN / 2]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("{PREFIX}{hex}>")
}

/// The digest of a secret's text. A digest is returned as it is: a value the model already
/// replaced stays the same whichever stage shows it.
pub fn digest(text: &str) -> String {
    if is_digest(text) {
        return text.to_string();
    }
    digest_bytes(text.as_bytes())
}

/// Whether `text` is a digest this module made (any run's).
pub fn is_digest(text: &str) -> bool {
    text.strip_prefix(PREFIX)
        .and_then(|rest| rest.strip_suffix('>'))
        .is_some_and(|hex| hex.len() == SHOWN && hex.bytes().all(|b| b.is_ascii_hexdigit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    #[test]
    fn hmac_matches_rfc_4231() {
        // Test case 2 of RFC 4231.
        assert_eq!(
            hex(&hmac(b"Jefe", b"what do ya want for nothing?")),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
        // Test case 6: a key longer than a block is hashed first.
        assert_eq!(
            hex(&hmac(
                &[0xaa; 131],
                b"Test Using Larger Than Block-Size Key - Hash Key First"
            )),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        );
    }

    #[test]
    fn equal_secrets_share_a_digest_and_the_hash_alone_is_not_it() {
        let d = digest("hunter2");
        assert!(is_digest(&d), "{d}");
        assert_eq!(d, digest("hunter2"));
        assert_ne!(d, digest("hunter3"));
        assert_eq!(d, digest("hunter2\n"));
        // Idempotent: a digest shown again is the same digest.
        assert_eq!(digest(&d), d);
        // Not the unkeyed hash anyone could compute from a guess.
        let plain = hex(&Sha256::digest(b"hunter2"));
        assert!(!d.contains(&plain[..SHOWN]), "{d}");
    }
}
