//! htpasswd lines (`user:hash`): well-formed, and the hash in a scheme the data plane knows.
//! Whether a scheme is strong enough is a security rule, not this one. Hashes are never quoted
//! in messages; the user name is (it is not secret, and it tells which line is meant).

use super::Finding;
use crate::rules;
use crate::validate::messages::go_quote;

const CRYPT_ALPHABET: &[u8] = b"./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

fn crypt64(s: &str) -> bool {
    s.bytes().all(|c| CRYPT_ALPHABET.contains(&c))
}

/// Checks every non-empty, non-comment line of the value.
pub(crate) fn check(text: &str) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        let content = line.trim_end_matches(['\n', '\r']);
        let at = start;
        start += line.len();
        if content.trim().is_empty() || content.starts_with('#') {
            continue;
        }
        if let Some(message) = line_error(content) {
            out.push(Finding::new(
                rules::GW124,
                message,
                Some(at..at + content.len()),
            ));
        }
    }
    out
}

fn line_error(line: &str) -> Option<String> {
    let Some((user, hash)) = line.split_once(':') else {
        return Some("htpasswd line is not <user>:<hash> (no ':')".to_string());
    };
    if user.is_empty() {
        return Some("htpasswd line has an empty user name".to_string());
    }
    let who = go_quote(user);
    if user.chars().any(char::is_whitespace) {
        return Some(format!("htpasswd user {who} contains whitespace"));
    }
    if hash.is_empty() {
        return Some(format!("htpasswd line of user {who} has no password hash"));
    }
    match scheme(hash) {
        Ok(_) => None,
        Err(Problem::Malformed(name)) => Some(format!(
            "htpasswd hash of user {who} is not a well-formed {name} hash"
        )),
        Err(Problem::Unknown) => Some(format!(
            "htpasswd hash of user {who} is in no known scheme (a plain-text password?); use {{SHA}}, $apr1$, bcrypt ($2y$), $5$/$6$ or crypt"
        )),
    }
}

/// The scheme of a well-formed hash (`SHA-1`, `MD5`, `bcrypt`, `SHA-256 crypt`, `SHA-512 crypt`,
/// `DES crypt`); `None` for a malformed or unknown one, which GW124 reports. The security rule
/// on weak schemes (GW402) asks here so that the schemes are recognised in one place.
pub(crate) fn scheme_of(hash: &str) -> Option<&'static str> {
    scheme(hash).ok()
}

enum Problem {
    Malformed(&'static str),
    Unknown,
}

/// The scheme's name when the hash is well-formed.
fn scheme(hash: &str) -> Result<&'static str, Problem> {
    if let Some(b64) = hash.strip_prefix("{SHA}") {
        // base64 of a 20-byte SHA-1 digest.
        let ok = b64.len() == 28
            && b64.ends_with('=')
            && b64[..27]
                .bytes()
                .all(|c| c.is_ascii_alphanumeric() || c == b'+' || c == b'/');
        return ok.then_some("SHA-1").ok_or(Problem::Malformed("{SHA}"));
    }
    if let Some(rest) = hash
        .strip_prefix("$apr1$")
        .or_else(|| hash.strip_prefix("$1$"))
    {
        // salt (1-8) $ 22 characters.
        let ok = rest.split_once('$').is_some_and(|(salt, h)| {
            (1..=8).contains(&salt.len()) && crypt64(salt) && h.len() == 22 && crypt64(h)
        });
        return ok
            .then_some("MD5")
            .ok_or(Problem::Malformed("MD5 ($apr1$)"));
    }
    for prefix in ["$2a$", "$2b$", "$2y$"] {
        if let Some(rest) = hash.strip_prefix(prefix) {
            // cost (04-31) $ 22 salt + 31 hash characters.
            let ok = rest.split_once('$').is_some_and(|(cost, h)| {
                cost.len() == 2
                    && cost.parse::<u8>().is_ok_and(|c| (4..=31).contains(&c))
                    && h.len() == 53
                    && crypt64(h)
            });
            return ok.then_some("bcrypt").ok_or(Problem::Malformed("bcrypt"));
        }
    }
    for (prefix, len, name) in [("$5$", 43, "SHA-256 crypt"), ("$6$", 86, "SHA-512 crypt")] {
        if let Some(rest) = hash.strip_prefix(prefix) {
            let rest = match rest.strip_prefix("rounds=") {
                Some(r) => match r.split_once('$') {
                    Some((n, tail)) if n.parse::<u32>().is_ok() => tail,
                    _ => return Err(Problem::Malformed(name)),
                },
                None => rest,
            };
            let ok = rest.split_once('$').is_some_and(|(salt, h)| {
                salt.len() <= 16 && crypt64(salt) && h.len() == len && crypt64(h)
            });
            return ok.then_some(name).ok_or(Problem::Malformed(name));
        }
    }
    // Traditional DES crypt: 2 salt + 11 hash characters.
    if hash.len() == 13 && crypt64(hash) {
        return Ok("DES crypt");
    }
    Err(Problem::Unknown)
}
