//! Guarded parsing: size and nesting limits before the ANTLR parser sees the text (it
//! recurses deeply and could overflow the stack), a panic guard, and error positions.

use std::collections::BTreeSet;
use std::panic::{AssertUnwindSafe, catch_unwind};

use cel::Env;
use cel::common::ast::{EntryExpr, Expr};
use cel::parser::Expression;

/// Longest expression accepted, in bytes.
pub const MAX_EXPRESSION_BYTES: usize = 100 * 1024;
/// Deepest nesting of `(`, `[` and `{` accepted.
pub const MAX_NESTING: usize = 64;

/// A syntax error at a position of the expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    pub message: String,
    /// Byte offset in the expression.
    pub offset: usize,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
}

impl std::fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for SyntaxError {}

/// Parses a data-plane expression and returns the top-level identifiers it reads (variables,
/// not comprehension variables), sorted and deduplicated.
pub fn check_syntax(expr: &str) -> Result<Vec<String>, SyntaxError> {
    let env = super::env().map_err(|message| SyntaxError {
        message,
        offset: 0,
        line: 1,
        column: 1,
    })?;
    let parsed = parse_guarded(env, expr)?;
    let mut names = BTreeSet::new();
    free_identifiers(&parsed, &mut Vec::new(), &mut names);
    Ok(names.into_iter().collect())
}

/// Parses with the environment's macros, after the pre-checks.
pub(super) fn parse_guarded(env: &Env, source: &str) -> Result<Expression, SyntaxError> {
    precheck(source)?;
    let parser = env.parser();
    let outcome = catch_unwind(AssertUnwindSafe(|| parser.parse(source)));
    match outcome {
        Ok(Ok(expr)) => Ok(expr),
        Ok(Err(errors)) => {
            let first = errors.errors.first();
            let (line, column) = first
                .map(|e| (e.pos.0.max(1) as usize, e.pos.1.max(1) as usize))
                .unwrap_or((1, 1));
            let message = first
                .map(|e| e.msg.clone())
                .unwrap_or_else(|| "syntax error".to_string());
            Err(at_line_column(source, message, line, column))
        }
        Err(_) => Err(SyntaxError {
            message: "the CEL parser failed on this expression".to_string(),
            offset: 0,
            line: 1,
            column: 1,
        }),
    }
}

/// Rejects what the parser must not see: overlong text and deep nesting. Brackets inside
/// string literals are not counted.
fn precheck(source: &str) -> Result<(), SyntaxError> {
    if source.len() > MAX_EXPRESSION_BYTES {
        return Err(SyntaxError {
            message: format!(
                "expression is {} bytes long; the limit is {MAX_EXPRESSION_BYTES}",
                source.len()
            ),
            offset: 0,
            line: 1,
            column: 1,
        });
    }
    let bytes = source.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'"' || c == b'\'' {
            // Skip a string literal: raw (`r"..."`) strings have no escapes, and triple-quoted
            // ones end only at three quotes.
            let raw = i > 0 && matches!(bytes[i - 1], b'r' | b'R');
            let triple = bytes.get(i + 1) == Some(&c) && bytes.get(i + 2) == Some(&c);
            i += if triple { 3 } else { 1 };
            while i < bytes.len() {
                if !raw && bytes[i] == b'\\' {
                    i += 2;
                    continue;
                }
                if bytes[i] == c
                    && (!triple || (bytes.get(i + 1) == Some(&c) && bytes.get(i + 2) == Some(&c)))
                {
                    i += if triple { 3 } else { 1 };
                    break;
                }
                i += 1;
            }
            continue;
        }
        match c {
            b'(' | b'[' | b'{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    let (line, column) = line_column(source, i);
                    return Err(SyntaxError {
                        message: format!(
                            "expression nests deeper than {MAX_NESTING} levels of brackets"
                        ),
                        offset: i,
                        line,
                        column,
                    });
                }
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

fn at_line_column(source: &str, message: String, line: usize, column: usize) -> SyntaxError {
    let offset = offset_of(source, line, column);
    SyntaxError {
        message,
        offset,
        line,
        column,
    }
}

/// Byte offset of a 1-based (line, character column), clamped to the text.
fn offset_of(source: &str, line: usize, column: usize) -> usize {
    let mut line_start = 0;
    for _ in 1..line {
        match source[line_start..].find('\n') {
            Some(i) => line_start += i + 1,
            None => return source.len(),
        }
    }
    let rest = &source[line_start..];
    rest.char_indices()
        .nth(column.saturating_sub(1))
        .map(|(i, _)| line_start + i)
        .unwrap_or(source.len())
}

fn line_column(source: &str, offset: usize) -> (usize, usize) {
    let before = &source[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
    (line, before[line_start..].chars().count() + 1)
}

/// True when `name` is read as a free variable.
pub(super) fn references_variable(expr: &Expression, name: &str) -> bool {
    let mut names = BTreeSet::new();
    free_identifiers(expr, &mut Vec::new(), &mut names);
    names.contains(name)
}

/// Collects identifiers not bound by an enclosing comprehension.
fn free_identifiers(expr: &Expression, bound: &mut Vec<String>, out: &mut BTreeSet<String>) {
    match &expr.expr {
        Expr::Ident(name) => {
            if !bound.iter().any(|b| b == name) {
                out.insert(name.clone());
            }
        }
        Expr::Call(call) => {
            if let Some(target) = &call.target {
                free_identifiers(target, bound, out);
            }
            for arg in &call.args {
                free_identifiers(arg, bound, out);
            }
        }
        Expr::Select(select) => free_identifiers(&select.operand, bound, out),
        Expr::List(list) => {
            for e in &list.elements {
                free_identifiers(e, bound, out);
            }
        }
        Expr::Map(map) => entries(&map.entries, bound, out),
        Expr::Struct(s) => entries(&s.entries, bound, out),
        Expr::Comprehension(c) => {
            free_identifiers(&c.iter_range, bound, out);
            free_identifiers(&c.accu_init, bound, out);
            let before = bound.len();
            bound.push(c.iter_var.clone());
            bound.extend(c.iter_var2.iter().cloned());
            bound.push(c.accu_var.clone());
            free_identifiers(&c.loop_cond, bound, out);
            free_identifiers(&c.loop_step, bound, out);
            bound.truncate(before);
            // The result sees the accumulator but not the iteration variables.
            bound.push(c.accu_var.clone());
            free_identifiers(&c.result, bound, out);
            bound.truncate(before);
        }
        Expr::Literal(_) | Expr::Unspecified => {}
    }
}

fn entries(
    entries: &[cel::common::ast::IdedEntryExpr],
    bound: &mut Vec<String>,
    out: &mut BTreeSet<String>,
) {
    for entry in entries {
        match &entry.expr {
            EntryExpr::StructField(f) => free_identifiers(&f.value, bound, out),
            EntryExpr::MapEntry(m) => {
                free_identifiers(&m.key, bound, out);
                free_identifiers(&m.value, bound, out);
            }
        }
    }
}
