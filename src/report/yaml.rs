//! A small YAML writer for JSON values (block style, two-space indent), for `explain` output:
//! strings that YAML would read as something else are written JSON-quoted.

use std::fmt::Write as _;

use rayon::prelude::*;
use serde_json::Value;

/// The value as a YAML document (ends with a newline).
pub fn to_yaml(value: &Value) -> String {
    let mut out = String::new();
    match value {
        Value::Object(m) if !m.is_empty() => write_map(&mut out, m, 0),
        Value::Array(a) if !a.is_empty() => write_seq(&mut out, a, 0),
        v => {
            out.push_str(&scalar(v));
            out.push('\n');
        }
    }
    out
}

/// How many items of a document's top-level list are encoded before they are written.
const ITEMS_AT_A_TIME: usize = 1024;

/// [`to_yaml`] of a document, written to `out` a top-level field at a time, and a top-level list
/// an item at a time: the same text, never one string (a rendering's documents can be large).
pub fn write_document(out: &mut impl std::io::Write, value: &Value) -> std::io::Result<()> {
    let fields = match value {
        Value::Object(m) if !m.is_empty() => m,
        _ => return out.write_all(to_yaml(value).as_bytes()),
    };
    for (k, v) in fields {
        match v {
            Value::Array(items) if !items.is_empty() => {
                out.write_all(format!("{}:\n", key(k)).as_bytes())?;
                // A list can hold tens of thousands of items (the AI data plane's statuses, last
                // in a large rendering): encoded in parallel a chunk at a time, written in order.
                for chunk in items.chunks(ITEMS_AT_A_TIME) {
                    let texts: Vec<String> =
                        chunk.par_iter().map(|item| seq_item(item, 2)).collect();
                    for text in texts {
                        out.write_all(text.as_bytes())?;
                    }
                }
            }
            _ => {
                let mut line = key(k);
                line.push(':');
                write_child(&mut line, v, 0);
                out.write_all(line.as_bytes())?;
            }
        }
    }
    Ok(())
}

/// One item of a sequence, as [`to_yaml`] writes it inside a document's map at `indent` spaces
/// (a document's sequences are written an item at a time so).
pub fn seq_item(value: &Value, indent: usize) -> String {
    let mut out = String::new();
    write_seq(&mut out, std::slice::from_ref(value), indent);
    out
}

/// `key: value` lines of a field, indented by `indent` spaces.
pub fn field_lines(key: &str, value: &Value, indent: usize) -> Vec<String> {
    let mut out = String::new();
    let mut map = serde_json::Map::new();
    map.insert(key.to_string(), value.clone());
    write_map(&mut out, &map, indent);
    out.lines().map(str::to_string).collect()
}

pub(crate) fn pad(out: &mut String, indent: usize) {
    const SPACES: &str = "                                                                ";
    let mut left = indent;
    while left > 0 {
        let n = left.min(SPACES.len());
        out.push_str(&SPACES[..n]);
        left -= n;
    }
}

fn nested(v: &Value) -> bool {
    matches!(v, Value::Object(m) if !m.is_empty()) || matches!(v, Value::Array(a) if !a.is_empty())
}

fn write_map(out: &mut String, m: &serde_json::Map<String, Value>, indent: usize) {
    for (k, v) in m {
        pad(out, indent);
        write_entry(out, k, v, indent);
    }
}

/// `key: value` without the indent before the key.
fn write_entry(out: &mut String, k: &str, v: &Value, indent: usize) {
    write_key(out, k);
    out.push(':');
    write_child(out, v, indent);
}

fn write_seq(out: &mut String, a: &[Value], indent: usize) {
    for v in a {
        pad(out, indent);
        out.push('-');
        match v {
            Value::Object(m) if !m.is_empty() => {
                // The first key goes on the dash's line, the others under it (written in place:
                // nested lists of maps are common in a rendering, and a copy per level would
                // copy the deepest text once per level above it).
                out.push(' ');
                for (i, (k, v)) in m.iter().enumerate() {
                    if i > 0 {
                        pad(out, indent + 2);
                    }
                    write_entry(out, k, v, indent + 2);
                }
            }
            _ => write_child(out, v, indent),
        }
    }
}

fn write_child(out: &mut String, v: &Value, indent: usize) {
    if nested(v) {
        out.push('\n');
        match v {
            Value::Object(m) => write_map(out, m, indent + 2),
            Value::Array(a) => write_seq(out, a, indent + 2),
            _ => {}
        }
    } else {
        out.push(' ');
        write_scalar(out, v);
        out.push('\n');
    }
}

fn key(k: &str) -> String {
    let mut out = String::new();
    write_key(&mut out, k);
    out
}

fn write_key(out: &mut String, k: &str) {
    if plain(k) {
        out.push_str(k);
    } else {
        out.push_str(&quoted(k));
    }
}

/// [`scalar`], written to `out`.
fn write_scalar(out: &mut String, v: &Value) {
    match v {
        Value::String(s) if plain(s) => out.push_str(s),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Null => out.push_str("null"),
        Value::Number(n) => {
            // A number's text as `to_string` makes it, without a string of its own.
            let _ = write!(out, "{n}");
        }
        _ => out.push_str(&scalar(v)),
    }
}

fn scalar(v: &Value) -> String {
    match v {
        Value::String(s) if plain(s) => s.clone(),
        Value::String(s) => quoted(s),
        Value::Object(_) => "{}".to_string(),
        Value::Array(_) => "[]".to_string(),
        other => other.to_string(),
    }
}

/// JSON quoting, which YAML reads as a double-quoted scalar; JSON leaves DEL, C1 controls and bidi
/// marks raw, which YAML does not allow or a terminal acts on, so they are written `\uXXXX` too.
pub(crate) fn quoted(s: &str) -> String {
    let json = serde_json::to_string(s).unwrap_or_default();
    if !json.chars().any(super::escape::is_unsafe) {
        return json;
    }
    let mut out = String::with_capacity(json.len() + 8);
    for c in json.chars() {
        if super::escape::is_unsafe(c) {
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// Whether a string reads back as the same string without quotes. One pass over the bytes,
/// most of them looked up once in a table: a rendering's YAML is mostly short strings (hundreds
/// of MB of them in a large repository's), each tested here.
pub(crate) fn plain(s: &str) -> bool {
    let bytes = s.as_bytes();
    let (Some(&first), Some(&last)) = (bytes.first(), bytes.last()) else {
        return false;
    };
    if BYTE[first as usize] & NOT_FIRST != 0 || last == b' ' || last == b':' {
        return false;
    }
    // Words YAML reads as booleans or null are at most 5 bytes; a number (as f64 reads one,
    // `inf` and `nan` too) starts with a sign, a digit, a dot, `i` or `n`.
    let class = BYTE[first as usize];
    let reserved = class & WORD_START != 0
        && bytes.len() <= 5
        && [
            "true", "false", "null", "~", "yes", "no", "on", "off", "y", "n",
        ]
        .iter()
        .any(|r| s.eq_ignore_ascii_case(r));
    let number = class & NUMBER_START != 0 && s.parse::<f64>().is_ok();
    if reserved || number {
        return false;
    }
    let mut ascii = true;
    for (i, &b) in bytes.iter().enumerate() {
        if BYTE[b as usize] & LOOK != 0 {
            let next = bytes.get(i + 1).copied();
            match b {
                // `: ` and ` #` are quoted.
                b':' if next == Some(b' ') => return false,
                b' ' if next == Some(b'#') => return false,
                b':' | b' ' => {}
                // The first byte of a character beyond ASCII: the characters are read below.
                0x80.. => ascii = false,
                // Control bytes (tab and newline among them) and DEL are quoted.
                _ => return false,
            }
        }
    }
    ascii || !s.chars().any(super::escape::is_unsafe)
}

/// [`BYTE`]: a string starting with the byte is quoted.
const NOT_FIRST: u8 = 1;
/// [`BYTE`]: the first byte of a reserved word (`true`, `false`, `null`, `~`, `yes`, `no`, `on`,
/// `off`, `y`, `n`, any case).
const WORD_START: u8 = 2;
/// [`BYTE`]: the first byte of a number as f64 reads one (a sign, a digit, a dot, `inf`, `nan`).
const NUMBER_START: u8 = 4;
/// [`BYTE`]: the byte is looked at anywhere in a string (`:`, a space, a control byte, DEL, a
/// byte of a character beyond ASCII).
const LOOK: u8 = 8;

/// What [`plain`] asks of each byte.
static BYTE: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        let mut class = 0;
        if byte.is_ascii_whitespace() || is_indicator(byte) {
            class |= NOT_FIRST;
        }
        if matches!(
            byte.to_ascii_lowercase(),
            b't' | b'f' | b'n' | b'~' | b'y' | b'o'
        ) {
            class |= WORD_START;
        }
        if matches!(
            byte.to_ascii_lowercase(),
            b'+' | b'.' | b'0'..=b'9' | b'i' | b'n'
        ) {
            class |= NUMBER_START;
        }
        if byte < 0x20 || byte >= 0x7f || byte == b':' || byte == b' ' {
            class |= LOOK;
        }
        table[b] = class;
        b += 1;
    }
    table
};

/// A YAML indicator: a plain scalar cannot start with one.
const fn is_indicator(b: u8) -> bool {
    matches!(
        b,
        b'-' | b'?'
            | b':'
            | b','
            | b'['
            | b']'
            | b'{'
            | b'}'
            | b'#'
            | b'&'
            | b'*'
            | b'!'
            | b'|'
            | b'>'
            | b'\''
            | b'"'
            | b'%'
            | b'@'
            | b'`'
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_document_written_a_field_and_an_item_at_a_time_is_its_yaml() {
        let docs = [
            serde_json::json!({
                "Gateway": "ns/gw",
                "Listeners": [{"name": "l", "ports": [80, 443]}, [], "x: y", {}],
                "empty": [],
                "Statuses": {"a": [{"b": null}], "on": "yes"},
                "key with: colon": 1,
            }),
            serde_json::json!({}),
            serde_json::json!([1, {"a": 2}]),
            serde_json::json!("text"),
        ];
        for doc in docs {
            let mut written = Vec::new();
            assert!(write_document(&mut written, &doc).is_ok());
            assert_eq!(String::from_utf8_lossy(&written), to_yaml(&doc), "{doc}");
        }
    }

    #[test]
    fn writes_block_yaml_and_quotes_what_would_change_type() {
        let v = serde_json::json!({
            "a": {"b": [1, {"c": "x", "d": "true"}], "e": {}},
            "f": "1s", "g": "10", "h": "", "i": "a: b"
        });
        assert_eq!(
            to_yaml(&v),
            "a:\n  b:\n    - 1\n    - c: x\n      d: \"true\"\n  e: {}\nf: 1s\ng: \"10\"\nh: \"\"\ni: \"a: b\"\n"
        );
    }

    #[test]
    fn control_characters_are_quoted_and_escaped() {
        let v = serde_json::json!({"n\u{1b}": "a\u{1b}[31mb\u{7}\u{85}\u{202e}"});
        assert_eq!(
            to_yaml(&v),
            "\"n\\u001b\": \"a\\u001b[31mb\\u0007\\u0085\\u202e\"\n"
        );
    }
}

#[cfg(test)]
mod plain_tests {
    use super::plain;

    /// `plain` as it was written before its one pass: the reference.
    fn reference(s: &str) -> bool {
        let Some(first) = s.chars().next() else {
            return false;
        };
        let reserved = [
            "true", "false", "null", "~", "yes", "no", "on", "off", "y", "n",
        ]
        .iter()
        .any(|r| s.eq_ignore_ascii_case(r));
        !reserved
            && s.parse::<f64>().is_err()
            && !first.is_ascii_whitespace()
            && !s.ends_with(' ')
            && !"-?:,[]{}#&*!|>'\"%@`".contains(first)
            && !s.contains(": ")
            && !s.contains(" #")
            && !s.ends_with(':')
            && !s.contains('\n')
            && !s
                .chars()
                .any(|c| c == '\t' || super::super::escape::is_unsafe(c))
    }

    #[test]
    fn says_what_the_reference_says() {
        let words = [
            "",
            "a",
            "1s",
            "10",
            "1.5",
            ".5",
            "5.",
            "+1",
            "-1",
            "1e5",
            "e5",
            "inf",
            "-inf",
            "+inf",
            "Infinity",
            "infinit",
            "NaN",
            "nan",
            "nano",
            "nAn",
            "True",
            "ON",
            "Yes",
            "y",
            "N",
            "~",
            "~a",
            "off!",
            "a: b",
            "a:b",
            "a:",
            "a :",
            "a #b",
            "a#b",
            "#a",
            " a",
            "a ",
            "\ta",
            "a\tb",
            "a\nb",
            "a\rb",
            "a\u{7f}",
            "a\u{1b}[0m",
            "é",
            "ü €",
            "a\u{85}",
            "a\u{202e}b",
            "a\u{2066}",
            "a\u{200b}",
            "日本",
            "-",
            "?",
            ":",
            ",x",
            "[a]",
            "{a}",
            "&a",
            "*a",
            "!a",
            "|a",
            ">a",
            "'a'",
            "\"a\"",
            "%a",
            "@a",
            "`a`",
            "a-b",
            "a?b",
            "/path/x",
            "x.y.z",
            "0x10",
            "1_000",
            "00",
            "1e",
            "i",
            "n1",
            "in",
            "infinityx",
            "a\u{7f}b",
            "a:b",
            "a: b",
            "a #b",
            "a#b",
            "a\tb",
            "~",
            "~a",
            "On",
            "OFFx",
            "Y",
            "é:",
        ];
        for w in words {
            assert_eq!(plain(w), reference(w), "{w:?}");
        }
    }
}
