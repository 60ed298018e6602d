//! Guarded parsing: size and nesting limits before the ANTLR parser sees the text (it
//! recurses deeply and could overflow the stack), a panic guard, and error positions.

use std::collections::BTreeSet;
use std::panic::{AssertUnwindSafe, catch_unwind};

use cel::Env;
use cel::common::ast::{EntryExpr, Expr, SourceInfo};
use cel::parser::Expression;

use super::nesting;

/// Bounds checked on the text before the parser sees it (`--max-cel-length`, `--max-cel-depth`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CelLimits {
    /// Longest expression accepted, in bytes.
    pub max_length: usize,
    /// Deepest nesting accepted, as [`nesting`] counts it.
    pub max_depth: usize,
}

/// The defaults are the reader's (`parse::Limits`), where the flags set them.
impl Default for CelLimits {
    fn default() -> Self {
        CelLimits::from(&crate::parse::Limits::default())
    }
}

impl From<&crate::parse::Limits> for CelLimits {
    fn from(limits: &crate::parse::Limits) -> Self {
        CelLimits {
            max_length: limits.max_cel_length,
            max_depth: limits.max_cel_depth,
        }
    }
}

/// Which limit an expression exceeded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LimitHit {
    Length,
    Depth,
}

impl LimitHit {
    /// The flag that raises it.
    pub fn flag(self) -> &'static str {
        match self {
            LimitHit::Length => "--max-cel-length",
            LimitHit::Depth => "--max-cel-depth",
        }
    }
}

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
    /// Set when the expression was not parsed because it exceeds a [`CelLimits`] bound.
    pub limit: Option<LimitHit>,
}

impl std::fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for SyntaxError {}

/// [`check_syntax_with`] under the default limits.
pub fn check_syntax(expr: &str) -> Result<Vec<String>, SyntaxError> {
    check_syntax_with(expr, &CelLimits::default())
}

/// Parses a data-plane expression and returns the top-level identifiers it reads (variables,
/// not comprehension variables), sorted and deduplicated.
pub fn check_syntax_with(expr: &str, limits: &CelLimits) -> Result<Vec<String>, SyntaxError> {
    let env = env()?;
    let parsed = parse_guarded(env, expr, limits)?;
    let mut names = BTreeSet::new();
    free_identifiers(&parsed, &mut Vec::new(), &mut names);
    Ok(names.into_iter().collect())
}

/// The parsing environment; its failure to build is reported as an error at the start.
fn env() -> Result<&'static std::sync::Arc<Env>, SyntaxError> {
    super::env().map_err(|message| SyntaxError {
        message,
        offset: 0,
        line: 1,
        column: 1,
        limit: None,
    })
}

/// Parses with the environment's macros, after the pre-checks.
pub(super) fn parse_guarded(
    env: &Env,
    source: &str,
    limits: &CelLimits,
) -> Result<Expression, SyntaxError> {
    parse_guarded_with_info(env, source, limits).map(|(expr, _)| expr)
}

/// Parses a data-plane expression under the default limits, with the offset of every node
/// (the render stage writes the parsed expression as the proxy receives it).
pub fn parse_with_source_info(source: &str) -> Result<(Expression, SourceInfo), SyntaxError> {
    let env = env()?;
    parse_guarded_with_info(env, source, &CelLimits::default())
}

fn parse_guarded_with_info(
    env: &Env,
    source: &str,
    limits: &CelLimits,
) -> Result<(Expression, SourceInfo), SyntaxError> {
    check_limits(source, limits)?;
    let parser = env.parser();
    let outcome = catch_unwind(AssertUnwindSafe(|| parser.parse_with_source_info(source)));
    match outcome {
        Ok(Ok(parsed)) => Ok(parsed),
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
            limit: None,
        }),
    }
}

/// Rejects what the parser must not see: overlong text and deep nesting (see [`nesting`]).
/// Cheap: one pass over the text, no parsing.
pub fn check_limits(source: &str, limits: &CelLimits) -> Result<(), SyntaxError> {
    if source.len() > limits.max_length {
        return Err(SyntaxError {
            message: format!(
                "CEL expression is {} bytes long, more than --max-cel-length ({})",
                source.len(),
                limits.max_length
            ),
            offset: 0,
            line: 1,
            column: 1,
            limit: Some(LimitHit::Length),
        });
    }
    if let Some(offset) = nesting::first_beyond(source, limits.max_depth) {
        let (line, column) = line_column(source, offset);
        return Err(SyntaxError {
            message: format!(
                "CEL expression nests deeper than --max-cel-depth ({})",
                limits.max_depth
            ),
            offset,
            line,
            column,
            limit: Some(LimitHit::Depth),
        });
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
        limit: None,
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
