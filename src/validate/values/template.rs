//! Transformation templates of the proxy data plane (TrafficPolicy `transformation`): Jinja
//! syntax, compiled when Envoy loads the route configuration. A template that does not compile
//! makes Envoy reject the configuration, so its syntax is checked here: the `{{ }}`, `{% %}` and
//! `{# #}` delimiters, strings and brackets inside them, and the nesting of block tags. The
//! expression grammar itself is not parsed; a name the data plane does not define is a runtime
//! matter (the template still loads).

use std::ops::Range;

use super::Finding;

use crate::rules;

const CODE: rules::Code = rules::GW127;
const HELP: &str = "the proxy compiles the template when it loads the route configuration and rejects the configuration when it does not compile";

/// Tags that open a block, with the tag that closes it.
const BLOCKS: &[(&str, &str)] = &[
    ("if", "endif"),
    ("for", "endfor"),
    ("with", "endwith"),
    ("block", "endblock"),
    ("macro", "endmacro"),
    ("call", "endcall"),
    ("filter", "endfilter"),
    ("autoescape", "endautoescape"),
    ("set", "endset"),
];

/// Tags that stand alone (or continue an open block).
const SINGLE: &[&str] = &[
    "elif", "else", "extends", "include", "import", "from", "do", "continue", "break",
    // `{% set x = ... %}`: an assignment (without `=` it opens a block).
    "set",
];

pub(super) fn check(text: &str) -> Vec<Finding> {
    match scan(text) {
        Ok(()) => Vec::new(),
        Err((message, range)) => {
            vec![
                Finding::new(CODE, format!("template: {message}"), Some(range))
                    .with_help(HELP)
                    .proxy_only(crate::diag::ProxyCheck::Template),
            ]
        }
    }
}

type Problem = (String, Range<usize>);

/// The first syntax error of the template.
fn scan(text: &str) -> Result<(), Problem> {
    let bytes = text.as_bytes();
    // Open block tags: (tag, where it was opened).
    let mut open: Vec<(&str, Range<usize>)> = Vec::new();
    let mut i = 0;
    while let Some(at) = next_opener(bytes, i) {
        let kind = bytes[at + 1];
        let mut start = at + 2;
        if matches!(bytes.get(start), Some(b'-' | b'+')) {
            start += 1;
        }
        match kind {
            b'#' => {
                let Some(end) = find(bytes, start, b"#}") else {
                    return Err(("`{#` is never closed with `#}`".into(), at..text.len()));
                };
                i = end + 2;
            }
            b'{' => {
                let (end, body) = expression(text, at, start, b'}')?;
                if body.trim().trim_end_matches(['-', '+']).trim().is_empty() {
                    return Err(("`{{ }}` holds no expression".into(), at..end));
                }
                i = end;
            }
            _ => {
                let (end, body) = expression(text, at, start, b'%')?;
                let body = body.trim().trim_end_matches(['-', '+']).trim_end();
                i = tag(text, body, at..end, &mut open)?;
            }
        }
    }
    match open.pop() {
        Some((name, range)) => Err((
            format!(
                "`{{% {name} %}}` is never closed with `{{% {} %}}`",
                closer(name)
            ),
            range,
        )),
        None => Ok(()),
    }
}

/// Where the next `{{`, `{%` or `{#` starts, from `from`.
fn next_opener(bytes: &[u8], from: usize) -> Option<usize> {
    (from..bytes.len().saturating_sub(1))
        .find(|&i| bytes[i] == b'{' && matches!(bytes[i + 1], b'{' | b'%' | b'#'))
}

fn find(bytes: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    (from..=bytes.len().saturating_sub(needle.len())).find(|&i| bytes[i..].starts_with(needle))
}

/// Reads an expression from `start` to its closing delimiter (`}}` or `%}`): strings must end
/// and brackets must balance. Returns the end (after the delimiter) and the text inside.
fn expression(
    text: &str,
    opener: usize,
    start: usize,
    close: u8,
) -> Result<(usize, &str), Problem> {
    let bytes = text.as_bytes();
    let delimiter = if close == b'}' { "}}" } else { "%}" };
    let block = if close == b'}' { "{{" } else { "{%" };
    let mut brackets: Vec<(u8, usize)> = Vec::new();
    let mut i = start;
    while i < bytes.len() {
        let c = bytes[i];
        if brackets.is_empty() && c == close && bytes.get(i + 1) == Some(&b'}') {
            return Ok((i + 2, &text[start..i]));
        }
        match c {
            b'"' | b'\'' => i = string_end(text, i)?,
            b'(' | b'[' | b'{' => brackets.push((c, i)),
            b')' | b']' | b'}' => {
                let expected = match brackets.pop() {
                    Some((open, _)) => pair(open),
                    None => {
                        return Err((
                            format!(
                                "unexpected `{}` in `{block}`; the block ends with `{delimiter}`",
                                c as char
                            ),
                            i..i + 1,
                        ));
                    }
                };
                if expected != c {
                    return Err((
                        format!(
                            "unexpected `{}`, expected `{}`",
                            c as char, expected as char
                        ),
                        i..i + 1,
                    ));
                }
            }
            _ => {}
        }
        i += 1;
    }
    if let Some(&(open, at)) = brackets.last() {
        return Err((
            format!(
                "`{}` is never closed with `{}`",
                open as char,
                pair(open) as char
            ),
            at..at + 1,
        ));
    }
    Err((
        format!("`{block}` is never closed with `{delimiter}`"),
        opener..text.len(),
    ))
}

fn pair(open: u8) -> u8 {
    match open {
        b'(' => b')',
        b'[' => b']',
        _ => b'}',
    }
}

/// The index of a string literal's closing quote (the literal starts at `at`).
fn string_end(text: &str, at: usize) -> Result<usize, Problem> {
    let bytes = text.as_bytes();
    let quote = bytes[at];
    let mut i = at + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            c if c == quote => return Ok(i),
            _ => i += 1,
        }
    }
    Err(("string is never closed".into(), at..text.len()))
}

/// Checks a block tag against the open blocks; returns where scanning goes on.
fn tag<'t>(
    text: &'t str,
    body: &'t str,
    range: Range<usize>,
    open: &mut Vec<(&'t str, Range<usize>)>,
) -> Result<usize, Problem> {
    let name_len = body
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(body.len());
    let name = &body[..name_len];
    let rest = &body[name_len..];
    if name.is_empty() {
        return Err(("`{% %}` holds no tag".into(), range));
    }
    if name == "raw" {
        // Everything up to `{% endraw %}` is text.
        return raw_end(text, range.end).ok_or((
            "`{% raw %}` is never closed with `{% endraw %}`".into(),
            range,
        ));
    }
    // `{% set x = ... %}` assigns; `{% set x %}...{% endset %}` opens a block.
    let opens = BLOCKS.iter().any(|(o, _)| *o == name) && !(name == "set" && has_assignment(rest));
    if opens {
        open.push((name, range.clone()));
        return Ok(range.end);
    }
    if let Some((opener, _)) = BLOCKS.iter().find(|(_, c)| *c == name) {
        return match open.pop() {
            Some((o, _)) if o == *opener => Ok(range.end),
            Some((o, _)) => Err((
                format!(
                    "unexpected `{{% {name} %}}`, expected `{{% {} %}}`",
                    closer(o)
                ),
                range,
            )),
            None => Err((format!("`{{% {name} %}}` closes no open block"), range)),
        };
    }
    let inside = |tags: &[&str]| open.last().is_some_and(|(o, _)| tags.contains(o));
    match name {
        "elif" if !inside(&["if"]) => Err(("`{% elif %}` outside `{% if %}`".into(), range)),
        "else" if !inside(&["if", "for"]) => Err((
            "`{% else %}` outside `{% if %}` or `{% for %}`".into(),
            range,
        )),
        _ if SINGLE.contains(&name) => Ok(range.end),
        _ => Err((format!("unknown tag `{name}`"), range)),
    }
}

/// Whether a `set` tag's text assigns (`=` outside brackets and strings, not `==`).
fn has_assignment(rest: &str) -> bool {
    let bytes = rest.as_bytes();
    let mut depth = 0usize;
    let mut quote = None;
    for (i, &c) in bytes.iter().enumerate() {
        match (quote, c) {
            (Some(q), _) if c == q => quote = None,
            (Some(_), _) => {}
            (None, b'"' | b'\'') => quote = Some(c),
            (None, b'(' | b'[' | b'{') => depth += 1,
            (None, b')' | b']' | b'}') => depth = depth.saturating_sub(1),
            (None, b'=') if depth == 0 => {
                let before = i.checked_sub(1).map(|j| bytes[j]);
                let after = bytes.get(i + 1).copied();
                let compares =
                    matches!(before, Some(b'=' | b'!' | b'<' | b'>')) || after == Some(b'=');
                if !compares {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

/// Where the text after a `{% raw %}` ends: after its `{% endraw %}`.
fn raw_end(text: &str, from: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut i = from;
    while let Some(at) = find(bytes, i, b"{%") {
        let end = find(bytes, at + 2, b"%}")?;
        let inner = text[at + 2..end].trim_matches(|c: char| c == '-' || c == '+');
        if inner.trim() == "endraw" {
            return Some(end + 2);
        }
        i = at + 2;
    }
    None
}

fn closer(opener: &str) -> &'static str {
    BLOCKS
        .iter()
        .find(|(o, _)| *o == opener)
        .map_or("end", |(_, c)| c)
}
