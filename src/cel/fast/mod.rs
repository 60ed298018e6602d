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

mod compile;
mod eval;

use std::borrow::Cow;

pub(super) use compile::{Op as Program, compile};
use eval::Scope;

use crate::parse::{Node, Value as NodeValue};

/// What the evaluator needs of a schema: defaults of absent fields, and whether `null` is kept.
pub trait SchemaView: Sync {
    fn property(&self, name: &str) -> Option<&dyn SchemaView>;
    fn items(&self) -> Option<&dyn SchemaView>;
    fn default_value(&self) -> Option<&serde_json::Value>;
    fn nullable(&self) -> bool;
    /// Whether an absent field may have a default: without one, an absent field is absent
    /// without looking its schema up.
    fn defaults_fields(&self) -> bool {
        true
    }
}

/// Evaluates a compiled rule with `self` = `node` (described by `schema`). `None`: use the full
/// engine.
pub(super) fn eval(
    program: &Program,
    node: &Node,
    schema: Option<&dyn SchemaView>,
) -> Option<bool> {
    // Only comprehensions push variables: most rules evaluate without allocating.
    let mut scope = Scope {
        this: from_node(node, schema)?,
        vars: Vec::new(),
    };
    scope.truth(program).ok()
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
            if s.plain() && s.text.len() <= 3 && YAML11_BOOLS.contains(&s.text.as_str()) =>
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
            let found = entries.iter().find(|e| e.key == name).map(|e| &e.value);
            // A present scalar needs no schema: most selections end at one, and the schema
            // lookup would cost more than the rest of the selection.
            if let Some(value) = found
                && !matches!(
                    value.value,
                    NodeValue::Null | NodeValue::Map(_) | NodeValue::Seq(_)
                )
            {
                return from_node(value, None).map(Some).ok_or(Fallback);
            }
            if found.is_none() && schema.is_none_or(|s| !s.defaults_fields()) {
                return Ok(None);
            }
            let prop = schema.and_then(|s| s.property(name));
            if let Some(value) = found {
                let pruned =
                    matches!(value.value, NodeValue::Null) && !prop.is_some_and(|p| p.nullable());
                if !pruned {
                    return from_node(value, prop).map(Some).ok_or(Fallback);
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

/// `has(v.name)`: the field is present or defaulted.
fn has_field(v: &V<'_>, name: &str) -> Result<bool, Fallback> {
    // Present and not null: no schema lookup (only a null may be pruned, only an absent field
    // may be defaulted).
    if let V::Node(node, _) = v
        && let Some(found) = node.get(name)
        && !matches!(found.value, NodeValue::Null)
    {
        return Ok(true);
    }
    field(v, name).map(|f| f.is_some())
}

/// `v[index]` of a list, without materialising the others.
fn item<'a>(v: &V<'a>, index: usize) -> R<'a> {
    match v {
        V::Node(node, schema) => {
            let n = node.as_seq().ok_or(Fallback)?.get(index).ok_or(Fallback)?;
            from_node(n, schema.and_then(|s| s.items())).ok_or(Fallback)
        }
        V::Json(serde_json::Value::Array(arr), schema) => from_json(
            arr.get(index).ok_or(Fallback)?,
            schema.and_then(|s| s.items()),
        ),
        V::List(items) => items.get(index).cloned().ok_or(Fallback),
        _ => Err(Fallback),
    }
}

/// The number of items of a list value (maps are not iterated here: their defaulted keys
/// complicate it); [`item`] reads each.
fn len(v: &V<'_>) -> Result<usize, Fallback> {
    match v {
        V::Node(node, _) => node.as_seq().map(<[Node]>::len).ok_or(Fallback),
        V::Json(serde_json::Value::Array(arr), _) => Ok(arr.len()),
        V::List(items) => Ok(items.len()),
        _ => Err(Fallback),
    }
}

/// The items of a list value, each as [`item`] reads it (a list concatenation needs them all).
fn items(v: V<'_>) -> Result<Vec<V<'_>>, Fallback> {
    if let V::List(items) = v {
        return Ok(items);
    }
    (0..len(&v)?).map(|index| item(&v, index)).collect()
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
