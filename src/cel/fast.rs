//! A direct evaluator for the subset of CEL that most schema rules use, reading the spanned tree
//! in place (with schema defaults) instead of building a CEL value of the whole subtree per node.
//!
//! Why: building `cel::Value`s and converting them for every node with rules cost three times the
//! YAML parse on a large corpus. The subset here (field selection, `has`, comparisons, boolean
//! logic, `in`, `size`, the string predicates, `matches`, and the `all`/`exists`/`exists_one`/
//! `filter`/`map` comprehensions) covers the Gateway API rules on the hot path.
//!
//! Safety valve: anything outside the subset, and any evaluation error, yields `None`, and the
//! caller evaluates the rule with the full engine, which also words the error. CEL's error
//! absorption (`false && error == false`, `true || error == true`) makes it sound to treat
//! "unsupported here" like an error: a result that absorbs it does not depend on its value.

use std::borrow::Cow;

use cel::common::ast::{Expr, LiteralValue, operators};

use super::k8s_functions::{CACHED_MATCHES, cached_regex};
use crate::parse::{Node, Value as NodeValue};
use cel::IdedExpr as Expression;

/// What the evaluator needs of a schema: defaults of absent fields, and whether `null` is kept.
pub trait SchemaView: Sync {
    fn property(&self, name: &str) -> Option<&dyn SchemaView>;
    fn items(&self) -> Option<&dyn SchemaView>;
    fn default_value(&self) -> Option<&serde_json::Value>;
    fn nullable(&self) -> bool;
}

/// Whether every construct of `expr` is one this evaluator knows (checked once per rule).
pub(super) fn supported(expr: &Expression) -> bool {
    match &expr.expr {
        Expr::Ident(_) => true,
        Expr::Literal(lit) => !matches!(lit, LiteralValue::Bytes(_)),
        Expr::List(list) => list.optional_indices.is_empty() && list.elements.iter().all(supported),
        Expr::Select(sel) => supported(&sel.operand),
        Expr::Call(call) => {
            const FUNCTIONS: &[&str] = &[
                operators::CONDITIONAL,
                operators::LOGICAL_AND,
                operators::LOGICAL_OR,
                operators::LOGICAL_NOT,
                operators::NOT_STRICTLY_FALSE,
                operators::EQUALS,
                operators::NOT_EQUALS,
                operators::LESS,
                operators::LESS_EQUALS,
                operators::GREATER,
                operators::GREATER_EQUALS,
                operators::ADD,
                operators::SUBSTRACT,
                operators::NEGATE,
                operators::INDEX,
                operators::IN,
                "size",
                "contains",
                "startsWith",
                "endsWith",
                CACHED_MATCHES,
            ];
            FUNCTIONS.contains(&call.func_name.as_str())
                && call.target.as_deref().is_none_or(supported)
                && call.args.iter().all(supported)
        }
        Expr::Comprehension(c) => {
            c.iter_var2.is_none()
                && [
                    &c.iter_range,
                    &c.accu_init,
                    &c.loop_cond,
                    &c.loop_step,
                    &c.result,
                ]
                .into_iter()
                .all(supported)
        }
        Expr::Map(_) | Expr::Struct(_) | Expr::Unspecified => false,
    }
}

/// Evaluates `expr` with `self` = `node` (described by `schema`). `None`: use the full engine.
pub(super) fn eval(
    expr: &Expression,
    node: &Node,
    schema: Option<&dyn SchemaView>,
) -> Option<bool> {
    let mut scope = Scope { vars: Vec::new() };
    scope.vars.push(("self", from_node(node, schema)?));
    match scope.eval(expr) {
        Ok(V::Bool(b)) => Some(b),
        _ => None,
    }
}

#[derive(Clone)]
enum V<'a> {
    Null,
    Bool(bool),
    Int(i64),
    UInt(u64),
    Double(f64),
    Str(Cow<'a, str>),
    /// A mapping or sequence of the document.
    Node(&'a Node, Option<&'a dyn SchemaView>),
    /// A mapping or array from a schema default.
    Json(&'a serde_json::Value, Option<&'a dyn SchemaView>),
    List(Vec<V<'a>>),
}

/// Not evaluated here; the full engine decides (and words any error).
struct Fallback;

type R<'a> = Result<V<'a>, Fallback>;

/// The plain scalars YAML 1.1 reads as booleans: their value depends on the schema type, which is
/// the full engine's business.
const YAML11_BOOLS: &[&str] = &[
    "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "on", "On", "ON", "off", "Off",
    "OFF",
];

fn from_node<'a>(node: &'a Node, schema: Option<&'a dyn SchemaView>) -> Option<V<'a>> {
    Some(match &node.value {
        NodeValue::Null => V::Null,
        NodeValue::Bool(b) => V::Bool(*b),
        NodeValue::Int(i) => V::Int(*i),
        NodeValue::Float(f) => V::Double(*f),
        NodeValue::Str(s)
            if s.plain && s.text.len() <= 3 && YAML11_BOOLS.contains(&s.text.as_str()) =>
        {
            return None;
        }
        NodeValue::Str(s) => V::Str(Cow::Borrowed(&s.text)),
        NodeValue::Seq(_) | NodeValue::Map(_) => V::Node(node, schema),
    })
}

fn from_json<'a>(json: &'a serde_json::Value, schema: Option<&'a dyn SchemaView>) -> R<'a> {
    Ok(match json {
        serde_json::Value::Null => V::Null,
        serde_json::Value::Bool(b) => V::Bool(*b),
        serde_json::Value::Number(n) => match n.as_i64() {
            Some(i) => V::Int(i),
            None => V::Double(n.as_f64().ok_or(Fallback)?),
        },
        serde_json::Value::String(s) => V::Str(Cow::Borrowed(s)),
        serde_json::Value::Array(_) | serde_json::Value::Object(_) => V::Json(json, schema),
    })
}

/// A field of a mapping: present (nulls of non-nullable fields are pruned, as the API server
/// does), else the schema default, else `None`.
fn field<'a>(v: &V<'a>, name: &str) -> Result<Option<V<'a>>, Fallback> {
    match v {
        V::Node(node, schema) => {
            let entries = node.as_map().ok_or(Fallback)?;
            let prop = schema.and_then(|s| s.property(name));
            if let Some(e) = entries.iter().find(|e| e.key == name) {
                let pruned =
                    matches!(e.value.value, NodeValue::Null) && !prop.is_some_and(|p| p.nullable());
                if !pruned {
                    return from_node(&e.value, prop).map(Some).ok_or(Fallback);
                }
            }
            match prop.and_then(|p| p.default_value().map(|d| (p, d))) {
                Some((p, d)) => from_json(d, Some(p)).map(Some),
                None => Ok(None),
            }
        }
        V::Json(serde_json::Value::Object(map), schema) => {
            let prop = schema.and_then(|s| s.property(name));
            match map.get(name) {
                Some(j) => from_json(j, prop).map(Some),
                None => match prop.and_then(|p| p.default_value().map(|d| (p, d))) {
                    Some((p, d)) => from_json(d, Some(p)).map(Some),
                    None => Ok(None),
                },
            }
        }
        _ => Err(Fallback),
    }
}

/// The items of a list value (maps are not iterated here: their defaulted keys complicate it).
fn items<'a>(v: &V<'a>) -> Result<Vec<V<'a>>, Fallback> {
    match v {
        V::Node(node, schema) => {
            let seq = node.as_seq().ok_or(Fallback)?;
            let item_schema = schema.and_then(|s| s.items());
            seq.iter()
                .map(|n| from_node(n, item_schema).ok_or(Fallback))
                .collect()
        }
        V::Json(serde_json::Value::Array(arr), schema) => {
            let item_schema = schema.and_then(|s| s.items());
            arr.iter().map(|j| from_json(j, item_schema)).collect()
        }
        V::List(items) => Ok(items.clone()),
        _ => Err(Fallback),
    }
}

fn size(v: &V<'_>) -> R<'static> {
    let n = match v {
        V::Str(s) => s.chars().count(),
        V::Node(node, _) if node.as_seq().is_some() => node.as_seq().map_or(0, <[Node]>::len),
        V::Json(serde_json::Value::Array(a), _) => a.len(),
        V::List(items) => items.len(),
        _ => return Err(Fallback),
    };
    i64::try_from(n).map(V::Int).map_err(|_| Fallback)
}

/// CEL equality for the values compared here; structured values go to the full engine.
fn equal(a: &V<'_>, b: &V<'_>) -> Result<bool, Fallback> {
    Ok(match (a, b) {
        (V::Null, V::Null) => true,
        (V::Bool(x), V::Bool(y)) => x == y,
        (V::Str(x), V::Str(y)) => x == y,
        (V::Int(_) | V::UInt(_) | V::Double(_), V::Int(_) | V::UInt(_) | V::Double(_)) => {
            number_cmp(a, b)? == std::cmp::Ordering::Equal
        }
        (V::Node(..) | V::Json(..) | V::List(_), _)
        | (_, V::Node(..) | V::Json(..) | V::List(_)) => {
            return Err(Fallback);
        }
        _ => false,
    })
}

fn number_cmp(a: &V<'_>, b: &V<'_>) -> Result<std::cmp::Ordering, Fallback> {
    match (a, b) {
        (V::Int(x), V::Int(y)) => Ok(x.cmp(y)),
        (V::UInt(x), V::UInt(y)) => Ok(x.cmp(y)),
        (V::Int(x), V::UInt(y)) => Ok(i128::from(*x).cmp(&i128::from(*y))),
        (V::UInt(x), V::Int(y)) => Ok(i128::from(*x).cmp(&i128::from(*y))),
        _ => {
            let f = |v: &V<'_>| match v {
                V::Int(i) => Some(*i as f64),
                V::UInt(u) => Some(*u as f64),
                V::Double(d) => Some(*d),
                _ => None,
            };
            f(a).zip(f(b))
                .and_then(|(x, y)| x.partial_cmp(&y))
                .ok_or(Fallback)
        }
    }
}

fn compare(a: &V<'_>, b: &V<'_>) -> Result<std::cmp::Ordering, Fallback> {
    match (a, b) {
        (V::Str(x), V::Str(y)) => Ok(x.cmp(y)),
        _ => number_cmp(a, b),
    }
}

fn string<'b>(v: &'b V<'_>) -> Result<&'b str, Fallback> {
    match v {
        V::Str(s) => Ok(s),
        _ => Err(Fallback),
    }
}

fn boolean(v: &V<'_>) -> Result<bool, Fallback> {
    match v {
        V::Bool(b) => Ok(*b),
        _ => Err(Fallback),
    }
}

struct Scope<'a> {
    vars: Vec<(&'a str, V<'a>)>,
}

impl<'a> Scope<'a> {
    fn eval(&mut self, expr: &'a Expression) -> R<'a> {
        match &expr.expr {
            Expr::Ident(name) => self
                .vars
                .iter()
                .rev()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.clone())
                .ok_or(Fallback),
            Expr::Literal(lit) => Ok(match lit {
                LiteralValue::Boolean(b) => V::Bool(**b),
                LiteralValue::Int(i) => V::Int(**i),
                LiteralValue::UInt(u) => V::UInt(**u),
                LiteralValue::Double(d) => V::Double(**d),
                LiteralValue::String(s) => V::Str(Cow::Borrowed(s.inner())),
                LiteralValue::Null => V::Null,
                LiteralValue::Bytes(_) => return Err(Fallback),
            }),
            Expr::List(list) => list
                .elements
                .iter()
                .map(|e| self.eval(e))
                .collect::<Result<_, _>>()
                .map(V::List),
            Expr::Select(sel) => {
                let operand = self.eval(&sel.operand)?;
                let found = field(&operand, &sel.field)?;
                if sel.test {
                    Ok(V::Bool(found.is_some()))
                } else {
                    found.ok_or(Fallback)
                }
            }
            Expr::Call(call) => self.call(&call.func_name, call.target.as_deref(), &call.args),
            Expr::Comprehension(c) => {
                let range = items(&self.eval(&c.iter_range)?)?;
                let accu = self.eval(&c.accu_init);
                let base = self.vars.len();
                self.vars
                    .push((c.accu_var.as_str(), accu.unwrap_or(V::Null)));
                let mut result = Ok(());
                for item in range {
                    self.vars.truncate(base + 1);
                    self.vars.push((c.iter_var.as_str(), item));
                    match self.eval(&c.loop_cond).and_then(|v| boolean(&v)) {
                        Ok(true) => {}
                        Ok(false) => break,
                        Err(e) => {
                            result = Err(e);
                            break;
                        }
                    }
                    match self.eval(&c.loop_step) {
                        Ok(v) => self.vars[base].1 = v,
                        Err(e) => {
                            result = Err(e);
                            break;
                        }
                    }
                }
                self.vars.truncate(base + 1);
                let out = result.and_then(|()| self.eval(&c.result));
                self.vars.truncate(base);
                out
            }
            Expr::Map(_) | Expr::Struct(_) | Expr::Unspecified => Err(Fallback),
        }
    }

    fn call(
        &mut self,
        name: &str,
        target: Option<&'a Expression>,
        args: &'a [Expression],
    ) -> R<'a> {
        match (name, target, args) {
            (operators::LOGICAL_AND, None, [a, b]) => {
                // CEL: false wins over an error on either side.
                let left = self.eval(a).and_then(|v| boolean(&v));
                if matches!(left, Ok(false)) {
                    return Ok(V::Bool(false));
                }
                let right = self.eval(b).and_then(|v| boolean(&v));
                match (left, right) {
                    (_, Ok(false)) => Ok(V::Bool(false)),
                    (Ok(true), Ok(true)) => Ok(V::Bool(true)),
                    _ => Err(Fallback),
                }
            }
            (operators::LOGICAL_OR, None, [a, b]) => {
                let left = self.eval(a).and_then(|v| boolean(&v));
                if matches!(left, Ok(true)) {
                    return Ok(V::Bool(true));
                }
                let right = self.eval(b).and_then(|v| boolean(&v));
                match (left, right) {
                    (_, Ok(true)) => Ok(V::Bool(true)),
                    (Ok(false), Ok(false)) => Ok(V::Bool(false)),
                    _ => Err(Fallback),
                }
            }
            (operators::CONDITIONAL, None, [c, t, f]) => {
                if boolean(&self.eval(c)?)? {
                    self.eval(t)
                } else {
                    self.eval(f)
                }
            }
            (operators::NOT_STRICTLY_FALSE, None, [a]) => {
                Ok(V::Bool(!matches!(self.eval(a), Ok(V::Bool(false)))))
            }
            (operators::LOGICAL_NOT, None, [a]) => Ok(V::Bool(!boolean(&self.eval(a)?)?)),
            (operators::NEGATE, None, [a]) => match self.eval(a)? {
                V::Int(i) => i.checked_neg().map(V::Int).ok_or(Fallback),
                V::Double(d) => Ok(V::Double(-d)),
                _ => Err(Fallback),
            },
            (operators::EQUALS, None, [a, b]) => {
                Ok(V::Bool(equal(&self.eval(a)?, &self.eval(b)?)?))
            }
            (operators::NOT_EQUALS, None, [a, b]) => {
                Ok(V::Bool(!equal(&self.eval(a)?, &self.eval(b)?)?))
            }
            (operators::LESS, None, [a, b]) => {
                Ok(V::Bool(compare(&self.eval(a)?, &self.eval(b)?)?.is_lt()))
            }
            (operators::LESS_EQUALS, None, [a, b]) => {
                Ok(V::Bool(compare(&self.eval(a)?, &self.eval(b)?)?.is_le()))
            }
            (operators::GREATER, None, [a, b]) => {
                Ok(V::Bool(compare(&self.eval(a)?, &self.eval(b)?)?.is_gt()))
            }
            (operators::GREATER_EQUALS, None, [a, b]) => {
                Ok(V::Bool(compare(&self.eval(a)?, &self.eval(b)?)?.is_ge()))
            }
            (operators::ADD, None, [a, b]) => match (self.eval(a)?, self.eval(b)?) {
                (V::Int(x), V::Int(y)) => x.checked_add(y).map(V::Int).ok_or(Fallback),
                (V::UInt(x), V::UInt(y)) => x.checked_add(y).map(V::UInt).ok_or(Fallback),
                (V::Double(x), V::Double(y)) => Ok(V::Double(x + y)),
                (V::Str(x), V::Str(y)) => Ok(V::Str(Cow::Owned(format!("{x}{y}")))),
                (x @ (V::List(_) | V::Node(..) | V::Json(..)), y) => {
                    let mut out = items(&x)?;
                    out.extend(items(&y)?);
                    Ok(V::List(out))
                }
                _ => Err(Fallback),
            },
            (operators::SUBSTRACT, None, [a, b]) => match (self.eval(a)?, self.eval(b)?) {
                (V::Int(x), V::Int(y)) => x.checked_sub(y).map(V::Int).ok_or(Fallback),
                (V::Double(x), V::Double(y)) => Ok(V::Double(x - y)),
                _ => Err(Fallback),
            },
            (operators::INDEX, None, [a, i]) => {
                let container = self.eval(a)?;
                match self.eval(i)? {
                    V::Int(idx) => {
                        let idx = usize::try_from(idx).map_err(|_| Fallback)?;
                        items(&container)?.into_iter().nth(idx).ok_or(Fallback)
                    }
                    V::Str(key) => field(&container, &key)?.ok_or(Fallback),
                    _ => Err(Fallback),
                }
            }
            (operators::IN, None, [elem, container]) => {
                let elem = self.eval(elem)?;
                let container = self.eval(container)?;
                let mut found = false;
                for item in items(&container)? {
                    found |= equal(&elem, &item)?;
                }
                Ok(V::Bool(found))
            }
            ("size", None, [a]) | ("size", Some(a), []) => size(&self.eval(a)?),
            ("contains" | "startsWith" | "endsWith" | CACHED_MATCHES, Some(recv), [arg])
            | (CACHED_MATCHES, None, [recv, arg]) => {
                let recv = self.eval(recv)?;
                let arg = self.eval(arg)?;
                let (s, p) = (string(&recv)?, string(&arg)?);
                Ok(V::Bool(match name {
                    "contains" => s.contains(p),
                    "startsWith" => s.starts_with(p),
                    "endsWith" => s.ends_with(p),
                    _ => cached_regex(p).map_err(|_| Fallback)?.is_match(s),
                }))
            }
            _ => Err(Fallback),
        }
    }
}
