//! Values that must never be printed: Secret data, passwords and API keys, htpasswd lines, inline
//! JWKS, credential-bearing header values, ConfigMap values that look like credentials. One
//! classification ([`of_resource`]) decides, per object, which nodes are secret; its result
//! ([`Sensitive`]) is used twice:
//! - the lint stage records the secret leaves ([`Masked`]) and scrubs their text out of every
//!   finding's message ([`scrub_findings`]); the report stage blanks those bytes in every snippet,
//!   so no format can leak them whatever a rule chooses to quote;
//! - the model's JSON values (policy fields, whole objects for `render`) are built through
//!   [`Sensitive::json`], which puts the keyed [`digest`] in place of every secret node, so
//!   `explain`, `diff` and `render` never hold a secret's text at all.

pub(crate) mod credential;
mod digest;
mod flow;
mod scrub;
mod text;

pub use digest::{PREFIX as DIGEST_PREFIX, digest, digest_bytes, is_digest};
pub use scrub::scrub_findings;

use crate::parse::{Node, Value};
use crate::source::{FileId, Span};

/// One sensitive value: where it is and its decoded text (what a message would quote).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Masked {
    pub file: FileId,
    pub span: Span,
    pub text: String,
}

/// The secrets of one object (or document): its secret leaves for the report, and the nodes
/// whose whole value is secret, for the model.
#[derive(Debug, Default)]
pub struct Sensitive {
    pub masked: Vec<Masked>,
    /// Sorted by span; a node is known by its span.
    nodes: Vec<SecretNode>,
}

#[derive(Debug, Clone, Copy)]
struct SecretNode {
    span: Span,
    /// A Secret's `data` entry: base64 of the secret bytes, which the digest is of (so that the
    /// same secret in `data` and `stringData` shows the same digest).
    base64: bool,
}

impl Sensitive {
    /// The JSON value of `node` (a part of the object this was made of), with every secret node
    /// replaced by its digest.
    pub fn json(&self, node: &Node) -> serde_json::Value {
        if self.nodes.is_empty() {
            return node.to_json();
        }
        self.masked_json(node)
    }

    /// Whether no node of the object is secret: [`Sensitive::json`] is then `Node::to_json`.
    pub fn masks_nothing(&self) -> bool {
        self.nodes.is_empty()
    }

    fn masked_json(&self, node: &Node) -> serde_json::Value {
        if let Some(secret) = self.node_at(node.span) {
            return placeholder(node, secret.base64);
        }
        match &node.value {
            Value::Seq(items) => {
                serde_json::Value::Array(items.iter().map(|n| self.masked_json(n)).collect())
            }
            Value::Map(entries) => serde_json::Value::Object(
                entries
                    .iter()
                    .map(|e| (e.key.to_string(), self.masked_json(&e.value)))
                    .collect(),
            ),
            _ => node.to_json(),
        }
    }

    fn node_at(&self, span: Span) -> Option<&SecretNode> {
        let i = self
            .nodes
            .binary_search_by_key(&(span.start, span.end), |n| (n.span.start, n.span.end))
            .ok()?;
        self.nodes.get(i)
    }

    fn secret(&mut self, file: FileId, node: &Node, base64: bool) {
        leaves(file, node, &mut self.masked);
        if !matches!(node.value, Value::Null) {
            self.nodes.push(SecretNode {
                span: node.span,
                base64,
            });
        }
    }

    fn finish(mut self) -> Self {
        self.nodes
            .sort_by_key(|n| (n.span.start, n.span.end, n.base64));
        self.nodes.dedup_by_key(|n| (n.span.start, n.span.end));
        self
    }
}

/// What the model shows for a secret node: the digest of its text (a list, such as htpasswd
/// lines, is one secret: its lines joined), or of the bytes a Secret's base64 data stands for.
fn placeholder(node: &Node, base64: bool) -> serde_json::Value {
    let text = match &node.value {
        Value::Null => return serde_json::Value::Null,
        Value::Str(s) => s.text.to_string(),
        Value::Seq(items) => items
            .iter()
            .map(|n| match &n.value {
                Value::Str(s) => s.text.to_string(),
                _ => n.to_json().to_string(),
            })
            .collect::<Vec<_>>()
            .join("\n"),
        _ => node.to_json().to_string(),
    };
    let decoded = base64.then(|| crate::base64::decode(&text)).flatten();
    serde_json::Value::String(match decoded {
        Some(bytes) => digest_bytes(&bytes),
        None => digest(&text),
    })
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
pub fn of_document(file: FileId, root: &Node) -> Sensitive {
    let mut out = Sensitive::default();
    walk(file, root, "", &mut out);
    out.finish()
}

/// The object a classification reads: named by its parts, so that this module needs nothing of
/// the model (which builds its facts through the classification).
struct Object<'a> {
    file: FileId,
    group: &'a str,
    kind: &'a str,
    root: &'a Node,
}

/// The sensitive values of one resource (its file, API group, kind and whole mapping).
pub fn of_resource(file: FileId, group: &str, kind: &str, root: &Node) -> Sensitive {
    let res = Object {
        file,
        group,
        kind,
        root,
    };
    let mut out = Sensitive::default();
    if res.group.is_empty() && res.kind == "Secret" {
        // Every value of a Secret is secret; the keys are not (they are shown, the values masked).
        for (field, base64) in [("data", true), ("stringData", false)] {
            if let Some(node) = res.root.get(field) {
                for entry in node.as_map().unwrap_or_default() {
                    out.secret(res.file, &entry.value, base64);
                }
            }
        }
    }
    if res.group.is_empty() && res.kind == "ConfigMap" {
        // What GW403 reports as secret material in a ConfigMap is masked like a Secret's value.
        for entry in res
            .root
            .get("data")
            .and_then(Node::as_map)
            .unwrap_or_default()
        {
            if let Some(value) = entry.value.as_str()
                && credential::looks_like_secret(&entry.key, value)
            {
                out.secret(res.file, &entry.value, false);
            }
        }
    }
    let spec = res.root.get("spec");
    if res.group.starts_with("gateway.networking.") {
        // The Gateway API kinds have no credential fields, and they are most of a large input:
        // only the header values of route filters and matches are read.
        for rule in spec
            .and_then(|s| s.get("rules"))
            .and_then(Node::as_seq)
            .unwrap_or_default()
        {
            walk(res.file, rule, "rules", &mut out);
        }
    } else if !(res.group.is_empty() && matches!(res.kind, "Service" | "Namespace")) {
        walk(res.file, res.root, "", &mut out);
    }
    out.finish()
}

/// Looks for credential-bearing keys at any depth.
/// `parent` is the key of the mapping that holds `node` (empty at the root): the only context
/// the sensitivity rules read, besides a header's name beside its value.
fn walk(file: FileId, node: &Node, parent: &str, out: &mut Sensitive) {
    match &node.value {
        Value::Map(entries) => {
            // Per mapping, not per key: this runs for every key of most objects.
            let header = credential_header_entry(node);
            let header_map = key_contains(parent, "header");
            let context = Parent::of(parent);
            for e in entries {
                let key = ShortKey::of(&e.key);
                let public_jwks =
                    key.is_jwks(context) && e.value.as_str().is_some_and(|t| !private_jwks(t));
                if (key.is_sensitive(context) && !public_jwks)
                    || (header && e.key == "value")
                    || (header_map && is_credential_header(&e.key))
                {
                    out.secret(file, &e.value, false);
                } else {
                    walk(file, &e.value, &e.key, out);
                }
            }
        }
        Value::Seq(items) => items.iter().for_each(|n| walk(file, n, parent, out)),
        _ => {}
    }
}

/// What the sensitivity rules read of the key of the mapping a key is in, found once per
/// mapping rather than once per key.
#[derive(Clone, Copy)]
struct Parent {
    auth: bool,
    jwks: bool,
    basic_auth: bool,
}

impl Parent {
    fn of(parent: &str) -> Self {
        Parent {
            auth: key_is(parent, "auth"),
            jwks: key_is(parent, "jwks") || key_is(parent, "local"),
            basic_auth: key_starts_with(parent, "basicauth"),
        }
    }
}

/// The longest key the rules name, normalized (`clientsecret`).
const SHORT_KEY: usize = 12;

/// A key normalized once ([`key_bytes`]), when it is short enough to be one the rules name:
/// every key of most objects is compared with a dozen names, and a longer key is none of them.
struct ShortKey {
    bytes: [u8; SHORT_KEY],
    /// Bytes used; 0 for a longer key (the names are not empty, so it equals none).
    len: usize,
}

impl ShortKey {
    fn of(key: &str) -> Self {
        let mut out = ShortKey {
            bytes: [0; SHORT_KEY],
            len: 0,
        };
        for b in key_bytes(key) {
            let Some(slot) = out.bytes.get_mut(out.len) else {
                out.len = 0;
                return out;
            };
            *slot = b;
            out.len += 1;
        }
        out
    }

    fn is(&self, name: &str) -> bool {
        self.bytes.get(..self.len) == Some(name.as_bytes())
    }

    fn is_jwks(&self, parent: Parent) -> bool {
        parent.jwks && self.is("inline")
    }

    /// [`is_sensitive`] of this key under `parent`.
    fn is_sensitive(&self, parent: Parent) -> bool {
        SECRET_KEYS.iter().any(|t| self.is(t))
            // An inline API key (`auth.key`), not a selector's `key`.
            || (parent.auth && self.is("key"))
            // Inline JWKS (`jwks.inline`, `jwks.local.inline`), unless public (see `walk`).
            || self.is_jwks(parent)
            // htpasswd lines of basic authentication.
            || (parent.basic_auth && self.is("users"))
    }
}

/// Whether an inline key set holds key material that must stay secret: a symmetric (`k`) or
/// private member (`d`, `p`, `q`, `dp`, `dq`, `qi`, `oth`), a PEM that is not a public key, or
/// text that cannot be read as a key set (it may be anything). Public keys (`n`, `e`, `x`, `y`)
/// are shown: they are what a reader checks.
fn private_jwks(text: &str) -> bool {
    let t = text.trim();
    if t.starts_with("-----BEGIN") {
        return !(t.starts_with("-----BEGIN PUBLIC KEY-----")
            || t.starts_with("-----BEGIN RSA PUBLIC KEY-----"));
    }
    let Ok(value) = serde_json::from_str::<serde_json::Value>(t) else {
        return true;
    };
    let keys = match value.get("keys") {
        Some(serde_json::Value::Array(keys)) => keys.iter().collect(),
        Some(_) => return true,
        None => vec![&value],
    };
    keys.iter().any(|k| {
        k.as_object().is_none_or(|o| {
            ["k", "d", "p", "q", "dp", "dq", "qi", "oth"]
                .iter()
                .any(|m| o.contains_key(*m))
        })
    })
}

/// `{name: Authorization, value: ...}`: a header set, added or matched, whose value is a
/// credential.
fn credential_header_entry(node: &Node) -> bool {
    node.get("value").is_some()
        && node
            .get("name")
            .and_then(Node::as_str)
            .is_some_and(is_credential_header)
}

/// Header names whose values are credentials: authorization, cookies, API keys and tokens.
fn is_credential_header(name: &str) -> bool {
    // An ASCII name (nearly every one) is normalized on the stack: this runs per mapping.
    let mut buf = [0u8; 64];
    if !name.is_ascii() || name.len() > buf.len() {
        return credential_header_name(normalized(name).as_bytes());
    }
    let mut len = 0;
    for b in key_bytes(name) {
        buf[len] = b;
        len += 1;
    }
    credential_header_name(&buf[..len])
}

/// [`is_credential_header`] of a normalized name.
fn credential_header_name(n: &[u8]) -> bool {
    matches!(
        n,
        b"authorization" | b"proxyauthorization" | b"cookie" | b"setcookie"
    ) || [
        "apikey",
        "token",
        "secret",
        "password",
        "credential",
        "session",
    ]
    .iter()
    .any(|w| n.windows(w.len()).any(|x| x == w.as_bytes()))
}

/// Whether `key` contains `word` (lowercase, without separators), in any case; no allocation.
fn key_contains(key: &str, word: &str) -> bool {
    key.as_bytes()
        .windows(word.len())
        .any(|w| w.eq_ignore_ascii_case(word.as_bytes()))
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
    ShortKey::of(key).is_sensitive(Parent::of(parent))
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
            text: s.text.to_string(),
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
    fn only_key_sets_with_private_or_symmetric_members_are_secret() {
        let public = r#"{"keys": [{"kty": "RSA", "n": "AQAB", "e": "AQAB"}, {"kty": "EC", "x": "a", "y": "b"}]}"#;
        assert!(!private_jwks(public));
        assert!(!private_jwks(
            "-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----"
        ));
        assert!(private_jwks(
            r#"{"keys": [{"kty": "oct", "k": "c2VjcmV0"}]}"#
        ));
        assert!(private_jwks(
            r#"{"kty": "EC", "x": "a", "y": "b", "d": "c"}"#
        ));
        assert!(private_jwks(
            "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----"
        ));
        assert!(private_jwks("{not json"));
        assert!(private_jwks(r#"{"keys": "oops"}"#));
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
