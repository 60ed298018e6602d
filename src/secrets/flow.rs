//! The text safety net for a JSON or flow-style document (`{kind: Secret, data: {...}}`) that did
//! not parse: a tolerant scan of its tokens, keeping the keys that lead to each value, so that
//! the same rules as the tree's find its secrets. Whatever cannot be read safely (a string that
//! never ends) is masked to the end of the document.

use super::{Masked, is_sensitive};
use crate::source::{FileId, Span};

/// A scalar or a bracket of the document, with its byte range in the file.
#[derive(Debug)]
enum Token {
    Open,
    Close,
    Comma,
    Colon,
    Scalar { span: Span, text: String },
}

/// One open mapping or sequence: the key it is the value of, and whether all of it is secret.
struct Frame {
    key: String,
    secret: bool,
    /// In a mapping: the key read last, once its `:` was seen.
    current: Option<String>,
    /// A scalar that may be a key, until a `:` or `,` says which it was.
    pending: Option<(Span, String)>,
}

/// The secrets of the document `text[from..to]`, which starts with `{` or `[`.
pub(super) fn document(file: FileId, text: &str, from: usize, to: usize, out: &mut Vec<Masked>) {
    let tokens = tokens(text, from, to);
    let secret_doc = is_secret(&tokens);
    let mut stack: Vec<Frame> = Vec::new();
    let mut mask = |found: Option<(Span, String)>| {
        if let Some((span, value)) = found
            && !value.trim().is_empty()
        {
            out.push(Masked {
                file,
                span,
                text: value,
            });
        }
    };
    for token in tokens {
        match token {
            Token::Open => {
                // A scalar before the bracket was no key after all.
                mask(settle(&mut stack, secret_doc));
                let Some(parent) = stack.last_mut() else {
                    stack.push(Frame::new(String::new(), false));
                    continue;
                };
                // In a sequence (or without a key) a collection carries the sequence's key, as
                // the tree's walk reads it.
                let key = parent.current.take().unwrap_or_else(|| parent.key.clone());
                let secret = parent.secret || sensitive(&stack, &key, secret_doc);
                stack.push(Frame::new(key, secret));
            }
            Token::Close => {
                mask(settle(&mut stack, secret_doc));
                stack.pop();
            }
            Token::Colon => {
                if let Some(frame) = stack.last_mut() {
                    frame.current = frame.pending.take().map(|(_, key)| key);
                }
            }
            Token::Comma => {
                mask(settle(&mut stack, secret_doc));
                if let Some(frame) = stack.last_mut() {
                    frame.current = None;
                }
            }
            Token::Scalar { span, text } => {
                // Two scalars in a row (broken syntax): the first was a value.
                mask(settle(&mut stack, secret_doc));
                if let Some(frame) = stack.last_mut() {
                    frame.pending = Some((span, text));
                }
            }
        }
    }
    // What was left open: its last scalars are values.
    while !stack.is_empty() {
        mask(settle(&mut stack, secret_doc));
        stack.pop();
    }
}

impl Frame {
    fn new(key: String, secret: bool) -> Self {
        Frame {
            key,
            secret,
            current: None,
            pending: None,
        }
    }
}

/// The innermost frame's pending scalar, taken as a value: returned when it is secret.
fn settle(stack: &mut [Frame], secret_doc: bool) -> Option<(Span, String)> {
    let frame = stack.last_mut()?;
    let found = frame.pending.take()?;
    let key = frame.current.take().unwrap_or_default();
    secret_scalar(stack, &key, secret_doc).then_some(found)
}

/// Whether a value under `key` of the innermost frame is secret.
fn secret_scalar(stack: &[Frame], key: &str, secret_doc: bool) -> bool {
    stack.last().is_some_and(|f| f.secret) || sensitive(stack, key, secret_doc)
}

/// The tree's rules: a Secret's `data` / `stringData` values, credential keys.
fn sensitive(stack: &[Frame], key: &str, secret_doc: bool) -> bool {
    let parent = stack.last().map_or("", |f| f.key.as_str());
    let in_data =
        secret_doc && stack.len() == 2 && matches!(stack[1].key.as_str(), "data" | "stringData");
    in_data || is_sensitive(key, parent)
}

/// Whether the document's top-level `kind` is `Secret`.
fn is_secret(tokens: &[Token]) -> bool {
    let mut depth = 0usize;
    let mut after_kind = false;
    let mut previous: Option<&str> = None;
    for t in tokens {
        match t {
            Token::Open => depth += 1,
            Token::Close => depth = depth.saturating_sub(1),
            Token::Colon => after_kind = depth == 1 && previous == Some("kind"),
            Token::Comma => after_kind = false,
            Token::Scalar { text, .. } => {
                if after_kind && text == "Secret" {
                    return true;
                }
                previous = Some(text);
            }
        }
    }
    false
}

/// The tokens of `text[from..to]`: brackets, `,`, `:`, quoted and plain scalars; comments
/// skipped. A string that does not end is one scalar to the end of the document.
fn tokens(text: &str, from: usize, to: usize) -> Vec<Token> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = from;
    while i < to {
        let b = bytes[i];
        match b {
            b'{' | b'[' => out.push(Token::Open),
            b'}' | b']' => out.push(Token::Close),
            b',' => out.push(Token::Comma),
            b':' => out.push(Token::Colon),
            b'#' if i == from || bytes[i - 1].is_ascii_whitespace() => {
                while i < to && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'"' | b'\'' => {
                let (end, value) = quoted(text, i, to);
                out.push(Token::Scalar {
                    span: Span::new(i, end),
                    text: value,
                });
                i = end;
                continue;
            }
            _ if b.is_ascii_whitespace() => {}
            _ => {
                let start = i;
                while i < to && !plain_end(bytes, i, to) {
                    i += 1;
                }
                let raw = text.get(start..i).unwrap_or("").trim_end();
                out.push(Token::Scalar {
                    span: Span::new(start, start + raw.len()),
                    text: raw.to_string(),
                });
                continue;
            }
        }
        i += 1;
    }
    out
}

/// Whether a plain scalar ends at byte `i`: a flow indicator, or `:` followed by a space, a
/// flow indicator or the end.
fn plain_end(bytes: &[u8], i: usize, to: usize) -> bool {
    match bytes[i] {
        b',' | b'[' | b']' | b'{' | b'}' | b'\n' => true,
        b':' => {
            i + 1 >= to
                || matches!(
                    bytes[i + 1],
                    b' ' | b'\t' | b'\n' | b'\r' | b',' | b']' | b'}'
                )
        }
        b'#' => i > 0 && bytes[i - 1].is_ascii_whitespace(),
        _ => false,
    }
}

/// A quoted scalar starting at `start`: where it ends (after the closing quote, or `to`) and its
/// text (escapes kept as written: it is only compared and masked).
fn quoted(text: &str, start: usize, to: usize) -> (usize, String) {
    let bytes = text.as_bytes();
    let quote = bytes[start];
    let mut i = start + 1;
    while i < to {
        match bytes[i] {
            b'\\' if quote == b'"' => i += 2,
            b'\'' if quote == b'\'' && bytes.get(i + 1) == Some(&b'\'') && i + 1 < to => i += 2,
            b if b == quote => {
                let inner = text.get(start + 1..i).unwrap_or("");
                return (i + 1, inner.to_string());
            }
            _ => i += 1,
        }
    }
    (to, text.get(start + 1..to).unwrap_or("").to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn masked(text: &str) -> String {
        let mut out = Vec::new();
        document(0, text, 0, text.len(), &mut out);
        let spans: Vec<Span> = out.iter().map(|m| m.span).collect();
        super::super::mask_text(text, &spans)
    }

    #[test]
    fn one_line_flow_secret_with_a_syntax_error() {
        let t = "{apiVersion: v1, kind: Secret, metadata: {name: s}, stringData: {password: hunter22, other: [x, y}, data: {a: b}\n";
        assert_eq!(
            masked(t),
            "{apiVersion: v1, kind: Secret, metadata: {name: s}, stringData: {password: ********, other: [*, *}, data: {a: *}\n"
        );
    }

    #[test]
    fn json_secret_and_credentials_elsewhere() {
        let t = r#"{"kind": "Secret", "data": {"token": "c2VjcmV0", "n": 1}, "metadata": {"name": "keep"}, "x": "#;
        assert_eq!(
            masked(t),
            r#"{"kind": "Secret", "data": {"token": **********, "n": *}, "metadata": {"name": "keep"}, "x": "#
        );
        let t = r#"{"kind": "TrafficPolicy", "spec": {"auth": {"key": "sk-live", "name": "keep"}, "password": "pw!!"#;
        assert_eq!(
            masked(t),
            r#"{"kind": "TrafficPolicy", "spec": {"auth": {"key": *********, "name": "keep"}, "password": *****"#
        );
    }

    #[test]
    fn other_kinds_keep_their_data() {
        let t = "{kind: ConfigMap, data: {a: visible}, broken: [\n";
        assert_eq!(masked(t), t);
    }
}
