//! Printing values the way the API server's field errors do (Go `%q` for strings, `%v` for numbers,
//! JSON for objects and lists).

use std::collections::BTreeMap;
use std::fmt::Write;

use serde_json::Value as Json;

use crate::parse::{Node, Value};

/// A string quoted like Go's `strconv.Quote` (printable characters kept, controls escaped).
pub fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A float as Go's `%v` prints a float64 (integral values without a fraction).
pub fn go_float(f: f64) -> String {
    if f.is_finite() && f.fract() == 0.0 && f.abs() < 1e21 {
        format!("{}", f as i128)
    } else if f.is_finite() && f.abs() >= 1e21 {
        // Go switches to exponent form (`1e+21`) for large magnitudes.
        let s = format!("{f:e}");
        match s.split_once('e') {
            Some((m, e)) if !e.starts_with('-') => format!("{m}e+{e}"),
            _ => s,
        }
    } else {
        format!("{f}")
    }
}

/// A node's value as the API server prints an invalid value.
pub fn go_value(node: &Node) -> String {
    match &node.value {
        Value::Null => "null".to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => go_float(*f),
        Value::Str(s) => go_quote(&s.text),
        Value::Seq(_) | Value::Map(_) => canonical_json(&node.to_json()),
    }
}

/// A JSON value printed like Go's `json.Marshal` of decoded JSON: object keys sorted.
pub fn canonical_json(v: &Json) -> String {
    fn sorted(v: &Json) -> Json {
        match v {
            Json::Object(m) => {
                let b: BTreeMap<&String, Json> = m.iter().map(|(k, v)| (k, sorted(v))).collect();
                let mut out = serde_json::Map::new();
                for (k, v) in b {
                    out.insert(k.clone(), v);
                }
                Json::Object(out)
            }
            Json::Array(a) => Json::Array(a.iter().map(sorted).collect()),
            other => other.clone(),
        }
    }
    serde_json::to_string(&sorted(v)).unwrap_or_default()
}

/// An enum value as listed in "supported values": strings quoted, others as JSON.
pub fn supported_value(v: &Json) -> String {
    match v {
        Json::String(s) => go_quote(s),
        other => canonical_json(other),
    }
}

/// Characters of a string as the API server counts string length (runes).
pub fn char_len(s: &str) -> u64 {
    s.chars().count() as u64
}

/// The closest name to `wrong` among `candidates`, for "did you mean" help.
pub fn suggest<'a>(wrong: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let lower = wrong.to_ascii_lowercase();
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        // Scores are doubled edit distances; a truncated name (a prefix) beats a one-edit typo.
        let d = if c.to_ascii_lowercase() == lower {
            0
        } else if wrong.len() >= 3 && c.starts_with(wrong) {
            1
        } else {
            2 * strsim::damerau_levenshtein(wrong, c)
        };
        if best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    let limit = 2 * (wrong.chars().count() / 3).clamp(1, 3);
    best.filter(|(d, _)| *d <= limit).map(|(_, c)| c)
}

/// The one candidate closest to `wrong` (as [`suggest`] scores them), or `None` when none is
/// close or several are equally close: a fix renames only when the answer is certain.
pub fn suggest_unique<'a>(
    wrong: &str,
    candidates: impl Iterator<Item = &'a str> + Clone,
) -> Option<&'a str> {
    let best = suggest(wrong, candidates.clone())?;
    let score = |c: &str| {
        if c.eq_ignore_ascii_case(wrong) {
            0
        } else if wrong.len() >= 3 && c.starts_with(wrong) {
            1
        } else {
            2 * strsim::damerau_levenshtein(wrong, c)
        }
    };
    let s = score(best);
    (candidates.filter(|c| score(c) == s).count() == 1).then_some(best)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_formatting() {
        assert_eq!(go_quote("a\"b\n"), "\"a\\\"b\\n\"");
        assert_eq!(go_float(1.0), "1");
        assert_eq!(go_float(1.5), "1.5");
        assert_eq!(go_float(1e21), "1e+21");
        assert_eq!(
            canonical_json(&serde_json::json!({"b": 1, "a": "x"})),
            r#"{"a":"x","b":1}"#
        );
    }

    #[test]
    fn suggestions() {
        let names = ["protocol", "port", "name", "hostname"];
        assert_eq!(suggest("prot", names.iter().copied()), Some("protocol"));
        assert_eq!(suggest("potr", names.iter().copied()), Some("port"));
        assert_eq!(suggest("protocl", names.iter().copied()), Some("protocol"));
        assert_eq!(suggest("Hostname", names.iter().copied()), Some("hostname"));
        assert_eq!(suggest("zzzzzz", names.iter().copied()), None);
        assert_eq!(suggest_unique("potr", names.iter().copied()), Some("port"));
        let twins = ["path", "pate"];
        assert_eq!(suggest_unique("pat", twins.iter().copied()), None);
    }
}
