//! Scalar resolution (YAML 1.2 core schema) and the byte-level span fixes that saphyr's
//! scalar spans need (anchors/tags in front, comments after quotes, block scalar headers).

use super::{Str, Text, Value};
use saphyr_parser::{ScalarStyle, Tag};

const CORE_HANDLE: &str = "tag:yaml.org,2002:";

/// Resolves a scalar event to a value. Quoted and block scalars are always strings.
pub(super) fn resolve(text: String, style: ScalarStyle, tag: Option<&Tag>) -> Value {
    let plain = matches!(style, ScalarStyle::Plain);
    if let Some(tag) = tag {
        if let Some(v) = resolve_tagged(&text, tag) {
            return v;
        }
        // saphyr reports the non-specific tag `! 12` as handle "" with suffix "!".
        let non_specific = (tag.handle.is_empty() && tag.suffix == "!")
            || (tag.handle == "!" && tag.suffix.is_empty());
        if (tag.handle == CORE_HANDLE && tag.suffix == "str") || non_specific {
            // Explicitly a string: not subject to implicit (YAML 1.1 or 1.2) typing.
            return Value::Str(Str::new(&text, false));
        }
    }
    if !plain {
        return Value::Str(Str::new(&text, false));
    }
    resolve_plain(&text).unwrap_or_else(|| Value::Str(Str::new(&text, true)))
}

/// Core-schema tags other than `!!str`; `None` when the tag does not apply (or the text does not fit it,
/// in which case the scalar falls back to ordinary resolution).
fn resolve_tagged(text: &str, tag: &Tag) -> Option<Value> {
    if tag.handle != CORE_HANDLE {
        return None;
    }
    match tag.suffix.as_str() {
        "null" => Some(Value::Null),
        "bool" => resolve_bool(text).map(Value::Bool),
        "int" => resolve_int(text),
        "float" => match resolve_int(text) {
            Some(Value::Int(i)) => Some(Value::Float(i as f64)),
            Some(v) => Some(v),
            None => resolve_float(text),
        },
        _ => None,
    }
}

/// Implicit typing of a plain scalar; `None` means it is a string.
pub(super) fn resolve_plain(s: &str) -> Option<Value> {
    // Cheap first-byte dispatch: most plain scalars (names, paths) cannot be anything but strings.
    let first = match s.as_bytes().first() {
        None => return Some(Value::Null),
        Some(b) => *b,
    };
    match first {
        b'0'..=b'9' | b'+' | b'-' | b'.' => resolve_int(s).or_else(|| resolve_float(s)),
        b'~' | b'n' | b'N' => is_null(s).then_some(Value::Null),
        b't' | b'T' | b'f' | b'F' => resolve_bool(s).map(Value::Bool),
        _ => None,
    }
}

fn is_null(s: &str) -> bool {
    matches!(s, "" | "~" | "null" | "Null" | "NULL")
}

fn resolve_bool(s: &str) -> Option<bool> {
    match s {
        "true" | "True" | "TRUE" => Some(true),
        "false" | "False" | "FALSE" => Some(false),
        _ => None,
    }
}

fn all_digits(s: &str, radix: u32) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_digit(radix))
}

/// Decimal with optional sign, `0o` octal, `0x` hex. Beyond i64 the value becomes a float.
fn resolve_int(s: &str) -> Option<Value> {
    if let Some(hex) = s.strip_prefix("0x") {
        return all_digits(hex, 16).then(|| radix_value(hex, 16));
    }
    if let Some(oct) = s.strip_prefix("0o") {
        return all_digits(oct, 8).then(|| radix_value(oct, 8));
    }
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if !all_digits(digits, 10) {
        return None;
    }
    Some(match s.parse::<i64>() {
        Ok(i) => Value::Int(i),
        Err(_) => Value::Float(s.parse::<f64>().unwrap_or(f64::NAN)),
    })
}

fn radix_value(digits: &str, radix: u32) -> Value {
    match i64::from_str_radix(digits, radix) {
        Ok(i) => Value::Int(i),
        Err(_) => Value::Float(
            digits
                .chars()
                .filter_map(|c| c.to_digit(radix))
                .fold(0.0, |acc, d| acc * f64::from(radix) + f64::from(d)),
        ),
    }
}

/// `[-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?` and the `.inf` / `.nan` forms.
fn resolve_float(s: &str) -> Option<Value> {
    let unsigned = s.strip_prefix(['+', '-']).unwrap_or(s);
    if matches!(unsigned, ".inf" | ".Inf" | ".INF") {
        let inf = if s.starts_with('-') {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        return Some(Value::Float(inf));
    }
    if matches!(s, ".nan" | ".NaN" | ".NAN") {
        return Some(Value::Float(f64::NAN));
    }
    let b = unsigned.as_bytes();
    let mut i = 0;
    let int_digits = count_digits(b, &mut i);
    let mut frac_digits = 0;
    if b.get(i) == Some(&b'.') {
        i += 1;
        frac_digits = count_digits(b, &mut i);
    }
    if int_digits == 0 && frac_digits == 0 {
        return None;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if count_digits(b, &mut i) == 0 {
            return None;
        }
    }
    if i != b.len() {
        return None;
    }
    s.parse::<f64>().ok().map(Value::Float)
}

fn count_digits(b: &[u8], i: &mut usize) -> usize {
    let start = *i;
    while b.get(*i).is_some_and(u8::is_ascii_digit) {
        *i += 1;
    }
    *i - start
}

/// Text of a resolved scalar used as a mapping key (JSON keys are strings).
pub(super) fn key_text(value: Value) -> Option<Text> {
    Some(match value {
        // The scalar's own text, moved: no copy for the commonest key.
        Value::Str(s) => s.text.without_flag(),
        Value::Null => Text::from("null"),
        Value::Bool(b) => Text::from(b.to_string()),
        Value::Int(i) => Text::from(i.to_string()),
        Value::Float(f) => Text::from(f.to_string()),
        Value::Seq(_) | Value::Map(_) => return None,
    })
}

// ---- span helpers; all positions are byte offsets into the whole file text ----

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

/// Skips node properties (`&anchor`, `!tag`), whitespace and comments that saphyr includes at the start
/// of a node's span, so the span starts at the content.
pub(super) fn skip_props(text: &str, mut pos: usize, limit: usize) -> usize {
    let b = text.as_bytes();
    let limit = limit.min(b.len());
    let start = pos;
    while pos < limit {
        match b[pos] {
            b'&' | b'!' => {
                while pos < limit && !is_space(b[pos]) {
                    pos += 1;
                }
            }
            b'#' if pos == start || is_space(b[pos - 1]) => {
                while pos < limit && b[pos] != b'\n' {
                    pos += 1;
                }
            }
            c if is_space(c) => pos += 1,
            _ => return pos,
        }
    }
    pos.min(limit)
}

/// End (exclusive) of the quoted scalar starting at `start`, closing quote included.
pub(super) fn quoted_end(text: &str, start: usize) -> Option<usize> {
    let b = text.as_bytes();
    let quote = *b.get(start)?;
    let mut i = start + 1;
    match quote {
        b'"' => {
            while i < b.len() {
                match b[i] {
                    b'\\' => i += 2,
                    b'"' => return Some(i + 1),
                    _ => i += 1,
                }
            }
        }
        b'\'' => {
            while i < b.len() {
                if b[i] == b'\'' {
                    if b.get(i + 1) == Some(&b'\'') {
                        i += 2;
                        continue;
                    }
                    return Some(i + 1);
                }
                i += 1;
            }
        }
        _ => {}
    }
    None
}

/// Position of a block scalar's `|` / `>` indicator, searched on the first non-blank line before the
/// content (saphyr's span starts at the content).
pub(super) fn block_header(text: &str, content_start: usize) -> Option<usize> {
    let b = text.as_bytes();
    let mut line_start = line_start_of(b, content_start.min(b.len()));
    // Leading blank lines belong to the content; the header is the first non-blank line above.
    loop {
        if line_start == 0 {
            return None;
        }
        let prev_start = line_start_of(b, line_start - 1);
        let line = &b[prev_start..line_start];
        if line.iter().all(|c| is_space(*c)) {
            line_start = prev_start;
            continue;
        }
        return header_indicator(line).map(|i| prev_start + i);
    }
}

fn line_start_of(b: &[u8], pos: usize) -> usize {
    b[..pos]
        .iter()
        .rposition(|c| *c == b'\n')
        .map_or(0, |i| i + 1)
}

/// The first `|`/`>` followed only by indicators, blanks and an optional comment.
fn header_indicator(line: &[u8]) -> Option<usize> {
    (0..line.len()).find(|&p| {
        matches!(line[p], b'|' | b'>') && {
            let rest = &line[p + 1..];
            let ind = rest
                .iter()
                .take_while(|c| c.is_ascii_digit() || matches!(c, b'+' | b'-'))
                .count();
            let rest = &rest[ind..];
            let blanks = rest.iter().take_while(|c| is_space(**c)).count();
            blanks == rest.len() || (blanks > 0 && rest[blanks] == b'#')
        }
    })
}

/// `end` moved back over trailing whitespace and line breaks, not before `floor`.
pub(super) fn trim_end(text: &str, floor: usize, end: usize) -> usize {
    let b = text.as_bytes();
    let mut end = end.min(b.len());
    while end > floor && is_space(b[end - 1]) {
        end -= 1;
    }
    end
}
