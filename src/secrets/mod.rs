//! Values that must never be printed: Secret data, passwords and API keys, htpasswd lines, inline
//! JWKS. The lint stage records where they are ([`Masked`]); the report stage blanks those bytes
//! in every snippet and scrubs their text out of messages (`crate::report`), so no format can leak
//! them whatever a rule chooses to quote.

mod text;

use crate::model::Resource;
use crate::parse::{Node, Value};
use crate::source::{FileId, Span};

/// One sensitive value: where it is and its decoded text (what a message would quote).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Masked {
    pub file: FileId,
    pub span: Span,
    pub text: String,
}

/// Keys whose string values are credentials wherever they appear (compared lowercased, without
/// `-` and `_`).
const SECRET_KEYS: &[&str] = &[
    "password",
    "passwd",
    "token",
    "bearertoken",
    "apikey",
    "secret",
    "clientsecret",
    "privatekey",
];

/// The secret-looking values of a file's text, found line by line: for what the tree does not hold
/// (a document with a syntax error, the second value of a duplicate key).
pub fn of_text(file: FileId, text: &str) -> Vec<Masked> {
    text::of_text(file, text)
}

/// The credentials of a document that is not an object (the chart's values file).
pub fn of_document(file: FileId, root: &Node) -> Vec<Masked> {
    let mut out = Vec::new();
    walk(file, root, "", &mut out);
    out
}

/// The sensitive values of one resource.
pub fn of_resource(res: &Resource<'_>) -> Vec<Masked> {
    let mut out = Vec::new();
    if res.group.is_empty() && res.kind == "Secret" {
        // Every value of a Secret is secret; the keys are not (they are shown, the values masked).
        for field in ["data", "stringData"] {
            if let Some(node) = res.root.get(field) {
                for entry in node.as_map().unwrap_or_default() {
                    leaves(res.file, &entry.value, &mut out);
                }
            }
        }
    }
    // The Gateway API kinds, Services and Namespaces have no credential fields (an unknown one is
    // reported by key, never by value), and they are most of a large input: not walked.
    let no_credentials = res.group.starts_with("gateway.networking.")
        || (res.group.is_empty() && matches!(res.kind, "Service" | "Namespace"));
    if !no_credentials {
        walk(res.file, res.root, "", &mut out);
    }
    out
}

/// Looks for credential-bearing keys at any depth.
/// `parent` is the key of the mapping that holds `node` (empty at the root): the only context
/// the sensitivity rules read.
fn walk(file: FileId, node: &Node, parent: &str, out: &mut Vec<Masked>) {
    match &node.value {
        Value::Map(entries) => {
            for e in entries {
                if is_sensitive(&e.key, parent) {
                    leaves(file, &e.value, out);
                } else {
                    walk(file, &e.value, &e.key, out);
                }
            }
        }
        Value::Seq(items) => items.iter().for_each(|n| walk(file, n, parent, out)),
        _ => {}
    }
}

fn normalized(key: &str) -> String {
    key.chars()
        .filter(|c| *c != '-' && *c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

/// `key` lowercased and without `-` and `_`, as bytes: this runs for every key of every linted
/// object, so it does not allocate.
fn key_bytes(key: &str) -> impl Iterator<Item = u8> + '_ {
    key.bytes()
        .filter(|b| *b != b'-' && *b != b'_')
        .map(|b| b.to_ascii_lowercase())
}

/// Whether `key`, normalized, is `target` (given normalized).
fn key_is(key: &str, target: &str) -> bool {
    key_bytes(key).eq(target.bytes())
}

/// Whether `key`, normalized, starts with `prefix` (given normalized).
fn key_starts_with(key: &str, prefix: &str) -> bool {
    let mut k = key_bytes(key);
    prefix.bytes().all(|p| k.next() == Some(p))
}

fn is_sensitive(key: &str, parent: &str) -> bool {
    SECRET_KEYS.iter().any(|t| key_is(key, t))
        // An inline API key (`auth.key`), not a selector's `key`.
        || (key_is(key, "key") && key_is(parent, "auth"))
        // Inline JWKS (`jwks.inline`, `jwks.local.inline`): may hold private members.
        || (key_is(key, "inline") && (key_is(parent, "jwks") || key_is(parent, "local")))
        // htpasswd lines of basic authentication.
        || (key_is(key, "users") && key_starts_with(parent, "basicauth"))
}

/// Every scalar at or below `node` (a Secret value is a scalar; a credential key may hold a list).
fn leaves(file: FileId, node: &Node, out: &mut Vec<Masked>) {
    match &node.value {
        Value::Map(entries) => entries.iter().for_each(|e| leaves(file, &e.value, out)),
        Value::Seq(items) => items.iter().for_each(|n| leaves(file, n, out)),
        Value::Null => {}
        Value::Str(s) => out.push(Masked {
            file,
            span: node.span,
            text: s.text.clone(),
        }),
        Value::Bool(b) => out.push(masked(file, node.span, b.to_string())),
        Value::Int(i) => out.push(masked(file, node.span, i.to_string())),
        Value::Float(f) => out.push(masked(file, node.span, f.to_string())),
    }
}

fn masked(file: FileId, span: Span, text: String) -> Masked {
    Masked { file, span, text }
}

/// `text` with the bytes of `spans` replaced by `*`, line breaks kept. Byte for byte, so every span
/// of the run still indexes the masked text (a non-ASCII secret character becomes several `*`).
pub fn mask_text(text: &str, spans: &[Span]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for span in spans {
        // Widened to whole characters, so that the result stays UTF-8.
        let Span { start, end } = span.within(text);
        for b in &mut bytes[start..end] {
            if *b != b'\n' && *b != b'\r' {
                *b = b'*';
            }
        }
    }
    // Whole characters were replaced by ASCII: always UTF-8; the fallback is never taken.
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Whether a secret is long enough to scrub from messages: shorter ones would mask ordinary words.
pub fn scrubbable(secret: &str) -> bool {
    secret.chars().nth(3).is_some()
}

/// `message` without any of `secrets` (each [`scrubbable`]); every occurrence becomes `****`.
pub fn scrub(message: &str, secrets: &[&str]) -> String {
    let mut out = message.to_string();
    for s in secrets {
        if out.contains(s) {
            out = out.replace(s, "****");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mask_keeps_lines_and_length() {
        let t = "a: secret\nb: x\n";
        let m = mask_text(t, &[Span::new(3, 9)]);
        assert_eq!(m, "a: ******\nb: x\n");
        assert_eq!(m.len(), t.len());
    }

    #[test]
    fn mask_multibyte_stays_valid() {
        let t = "k: é!";
        let m = mask_text(t, &[Span::new(3, 4)]);
        assert_eq!(m.len(), t.len());
        assert!(!m.contains('é'));
    }

    #[test]
    fn scrub_long_only() {
        let secrets: Vec<&str> = ["hunter2", "abc", "é€ab"]
            .into_iter()
            .filter(|s| scrubbable(s))
            .collect();
        assert_eq!(secrets, ["hunter2", "é€ab"]);
        assert_eq!(
            scrub("bad \"hunter2\" and abc", &secrets),
            "bad \"****\" and abc"
        );
    }
}
