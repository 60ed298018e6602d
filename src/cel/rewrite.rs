//! Compile-time rewrites of a parsed rule, each making it behave as on the API server:
//!
//! 1. Property-name escaping. Kubernetes exposes an object property whose name is a CEL
//!    reserved word, or contains `-`, `.`, `/` or `__`, under an escaped name
//!    (`namespace` -> `__namespace__`, `a-b` -> `a__dash__b`). Rather than storing escaped
//!    keys in maps (which would also change the keys that `self.all(k, ...)` sees on label
//!    maps), every field selection and `has()` test is unescaped here, once.
//! 2. `matches`. The standard `matches` compiles its regex on every call; calls are renamed
//!    to [`CACHED_MATCHES`], which uses a process-wide cache, and a constant pattern is
//!    compiled now so that an invalid one is a compile error, as on the API server.

use cel::common::ast::{EntryExpr, Expr, LiteralValue};
use cel::parser::Expression;

use super::k8s_functions::{CACHED_MATCHES, cached_regex};

/// CEL reserved words that Kubernetes escapes as `__{word}__`.
const RESERVED: &[&str] = &[
    "true",
    "false",
    "null",
    "in",
    "as",
    "break",
    "const",
    "continue",
    "else",
    "for",
    "function",
    "if",
    "import",
    "let",
    "loop",
    "package",
    "namespace",
    "return",
    "var",
    "void",
    "while",
];

pub(super) fn rewrite(expr: &mut Expression) -> Result<(), String> {
    match &mut expr.expr {
        Expr::Select(select) => {
            if let Some(name) = unescape(&select.field) {
                select.field = name;
            }
            rewrite(&mut select.operand)?;
        }
        Expr::Call(call) => {
            if call.func_name == "matches" {
                let pattern = if call.target.is_some() {
                    call.args.first()
                } else {
                    call.args.get(1)
                };
                if let Some(Expression {
                    expr: Expr::Literal(LiteralValue::String(p)),
                    ..
                }) = pattern
                {
                    cached_regex(p.inner())?;
                }
                call.func_name = CACHED_MATCHES.to_string();
            }
            if let Some(target) = &mut call.target {
                rewrite(target)?;
            }
            for arg in &mut call.args {
                rewrite(arg)?;
            }
        }
        Expr::List(list) => {
            for e in &mut list.elements {
                rewrite(e)?;
            }
        }
        Expr::Map(map) => entries(&mut map.entries)?,
        Expr::Struct(s) => entries(&mut s.entries)?,
        Expr::Comprehension(c) => {
            rewrite(&mut c.iter_range)?;
            rewrite(&mut c.accu_init)?;
            rewrite(&mut c.loop_cond)?;
            rewrite(&mut c.loop_step)?;
            rewrite(&mut c.result)?;
        }
        Expr::Ident(_) | Expr::Literal(_) | Expr::Unspecified => {}
    }
    Ok(())
}

fn entries(entries: &mut [cel::common::ast::IdedEntryExpr]) -> Result<(), String> {
    for entry in entries {
        match &mut entry.expr {
            EntryExpr::StructField(f) => rewrite(&mut f.value)?,
            EntryExpr::MapEntry(m) => {
                rewrite(&mut m.key)?;
                rewrite(&mut m.value)?;
            }
        }
    }
    Ok(())
}

/// The property name an escaped field name stands for, or `None` when it is not escaped.
pub(super) fn unescape(name: &str) -> Option<String> {
    if !name.contains("__") {
        return None;
    }
    if let Some(word) = name.strip_prefix("__").and_then(|n| n.strip_suffix("__"))
        && RESERVED.contains(&word)
    {
        return Some(word.to_string());
    }
    // One left-to-right pass, so that `__underscores__dot__underscores__` is `__dot__`.
    let mut out = String::with_capacity(name.len());
    let mut rest = name;
    let mut changed = false;
    'scan: while !rest.is_empty() {
        for (escape, plain) in [
            ("__underscores__", "__"),
            ("__dot__", "."),
            ("__dash__", "-"),
            ("__slash__", "/"),
        ] {
            if let Some(after) = rest.strip_prefix(escape) {
                out.push_str(plain);
                rest = after;
                changed = true;
                continue 'scan;
            }
        }
        let mut chars = rest.chars();
        if let Some(c) = chars.next() {
            out.push(c);
        }
        rest = chars.as_str();
    }
    changed.then_some(out)
}

/// The escaped name under which Kubernetes exposes a property, or `None` when the property
/// cannot be accessed from CEL at all.
pub fn escape(name: &str) -> Option<String> {
    if RESERVED.contains(&name) {
        return Some(format!("__{name}__"));
    }
    let mut chars = name.chars();
    let first_ok = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || matches!(c, '_' | '.' | '-' | '/'));
    let rest_ok = chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-' | '/'));
    if !first_ok || !rest_ok {
        return None;
    }
    Some(
        name.replace("__", "__underscores__")
            .replace('.', "__dot__")
            .replace('-', "__dash__")
            .replace('/', "__slash__"),
    )
}
