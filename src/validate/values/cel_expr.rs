//! Data-plane CEL expressions (decisions.md section 8): syntax, and top-level names against the
//! data plane's context.

use crate::rules;
use std::cell::RefCell;

use super::Finding;
use crate::cel::{CelLimits, skip_string};
use crate::memo::Accepted;
use crate::validate::messages::{go_quote, suggest};

/// The variables the data plane binds for an expression.
pub(crate) const CONTEXT_NAMES: &[&str] = &[
    "request",
    "response",
    "source",
    "destination",
    "jwt",
    "apiKey",
    "basicAuth",
    "llm",
    "llmRequest",
    "mcp",
    "backend",
    "extauthz",
    "extproc",
    "metadata",
    "env",
    "proxy",
];

/// CEL type denotations, which parse as identifiers (`type(x) == string`).
const TYPE_NAMES: &[&str] = &[
    "int",
    "uint",
    "double",
    "bool",
    "string",
    "bytes",
    "list",
    "map",
    "null_type",
    "type",
    "dyn",
];

thread_local! {
    /// Expressions that parsed, with their top-level names.
    static PARSED: RefCell<Accepted<CelLimits, Vec<String>>> = RefCell::default();
}

pub(crate) fn check(expr: &str, limits: &CelLimits) -> Vec<Finding> {
    let parsed = PARSED
        .with_borrow(|memo| memo.get(*limits, expr))
        .map(Ok)
        .unwrap_or_else(|| {
            let parsed = crate::cel::check_syntax_with(expr, limits);
            if let Ok(names) = &parsed {
                PARSED.with_borrow_mut(|memo| memo.remember(*limits, expr, names.clone()));
            }
            parsed
        });
    let names = match parsed {
        Ok(names) => names,
        Err(e) if e.limit.is_some() => {
            let help = e.limit.map(|hit| {
                format!(
                    "raise the limit with {} if the expression is meant",
                    hit.flag()
                )
            });
            let mut f = Finding::new(rules::GW116, e.message, Some(char_at(expr, e.offset)));
            f.help = help;
            return vec![f];
        }
        Err(e) => {
            return vec![Finding::new(
                rules::GW116,
                // The parser's messages start with "Syntax error: " already.
                format!(
                    "CEL syntax error: {}",
                    e.message
                        .strip_prefix("Syntax error: ")
                        .unwrap_or(&e.message)
                ),
                Some(char_at(expr, e.offset)),
            )];
        }
    };
    names
        .iter()
        .filter(|n| !CONTEXT_NAMES.contains(&n.as_str()) && !TYPE_NAMES.contains(&n.as_str()))
        .map(|name| {
            let range = find_identifier(expr, name).map(|at| at..at + name.len());
            let help = match suggest(name, CONTEXT_NAMES.iter().copied()) {
                Some(s) => format!("did you mean {}?", go_quote(s)),
                None => format!("the data plane provides: {}", CONTEXT_NAMES.join(", ")),
            };
            Finding::new(
                rules::GW117,
                format!(
                    "CEL expression reads {}, which is not a variable of the data plane",
                    go_quote(name)
                ),
                range,
            )
            .with_help(help)
        })
        .collect()
}

/// The character at `offset` (empty at the end of the text).
fn char_at(expr: &str, offset: usize) -> std::ops::Range<usize> {
    let width = expr
        .get(offset..)
        .and_then(|rest| rest.chars().next())
        .map_or(0, char::len_utf8);
    offset..offset + width
}

/// Byte offset of the first free use of identifier `name`: a whole word outside string literals,
/// not selected with `.` (`x.name` is a field, not a variable).
pub(crate) fn find_identifier(expr: &str, name: &str) -> Option<usize> {
    let b = expr.as_bytes();
    let is_ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut i = 0;
    let mut last_significant = 0u8;
    while i < b.len() {
        let c = b[i];
        if c == b'"' || c == b'\'' {
            i = skip_string(b, i);
            last_significant = c;
            continue;
        }
        if is_ident(c) {
            let start = i;
            while i < b.len() && is_ident(b[i]) {
                i += 1;
            }
            if &expr[start..i] == name && last_significant != b'.' {
                return Some(start);
            }
            last_significant = b[i - 1];
            continue;
        }
        if !c.is_ascii_whitespace() {
            last_significant = c;
        }
        i += 1;
    }
    None
}
