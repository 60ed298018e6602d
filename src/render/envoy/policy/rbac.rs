//! TrafficPolicy `rbac`: the RBAC filter's per-route matcher, one CEL matcher per
//! `matchExpressions` item, each expression written parsed (`cel.expr.ParsedExpr`) as the
//! reference writes it: node ids in parse order and positions in characters from the start.

use crate::render::pointer::Pointer;
use cel::common::ast::{EntryExpr, Expr, IdedExpr, LiteralValue};
use serde_json::{Map, Value, json};

use super::super::typed;
use super::{Applied, declare};

pub(super) const FILTER: &str = "envoy.filters.http.rbac";
const ACTION: &str = "envoy.config.rbac.v3.Action";

pub(super) fn rbac(out: &mut Applied, value: &Value) -> Result<(), String> {
    let expressions: Vec<&str> = value
        .at("/policy/matchExpressions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    if expressions.is_empty() {
        return Err("rbac.policy.matchExpressions is empty".into());
    }
    let mut predicates = Vec::new();
    for text in expressions {
        predicates.push(cel_predicate(text)?);
    }
    let predicate = if predicates.len() == 1 {
        predicates.remove(0)
    } else {
        json!({"orMatcher": {"predicate": predicates}})
    };
    let deny = json!({"action": "DENY", "name": "deny-request"});
    let on_match = match value.get("action").and_then(Value::as_str) {
        Some("Deny") => deny.clone(),
        // Allow is the action's zero value: only its name is written.
        _ => json!({"name": "allow-request"}),
    };
    // The reference denies what no expression matches, whatever the policy's action.
    let matcher = json!({
        "matcherList": {"matchers": [{
            "onMatch": {"action": {"name": "envoy.filters.rbac.action", "typedConfig": typed(ACTION, on_match)}},
            "predicate": predicate,
        }]},
        "onNoMatch": {"action": {"name": "action", "typedConfig": typed(ACTION, deny)}},
    });
    declare(
        out,
        FILTER,
        false,
        typed("envoy.extensions.filters.http.rbac.v3.RBAC", json!({})),
    );
    out.per_filter.insert(
        FILTER.into(),
        typed(
            "envoy.extensions.filters.http.rbac.v3.RBACPerRoute",
            json!({"rbac": {"matcher": matcher}}),
        ),
    );
    Ok(())
}

/// One expression as a CEL matcher on the request's attributes.
fn cel_predicate(text: &str) -> Result<Value, String> {
    let parsed = parsed_expr(text)?;
    Ok(json!({"singlePredicate": {
        "customMatch": {
            "name": "envoy.matching.matchers.cel_matcher",
            "typedConfig": typed("xds.type.matcher.v3.CelMatcher", json!({"exprMatch": {"celExprParsed": parsed}})),
        },
        "input": {
            "name": "envoy.matching.inputs.cel_data_input",
            "typedConfig": typed("xds.type.matcher.v3.HttpAttributesCelMatchInput", json!({})),
        },
    }}))
}

/// A CEL expression as the JSON of a `cel.expr.ParsedExpr`.
pub(crate) fn parsed_expr(text: &str) -> Result<Value, String> {
    let (expr, info) = crate::cel::parse_with_source_info(text)
        .map_err(|e| format!("rbac expression {text:?}: {e}"))?;
    let mut positions = Map::new();
    let tree = expr_json(&expr, &mut |id| {
        if let Some((start, _)) = info.offset_for(id) {
            positions.insert(id.to_string(), json!(chars_before(text, start)));
        }
    });
    Ok(json!({
        "expr": tree,
        "sourceInfo": {
            "lineOffsets": line_offsets(text),
            "location": "<input>",
            "positions": sort_by_id(positions),
        },
    }))
}

/// The parser's offsets are in bytes; the proto's positions count characters.
fn chars_before(text: &str, byte: u32) -> usize {
    let byte = byte as usize;
    text.get(..byte)
        .map_or(byte, |prefix| prefix.chars().count())
}

/// Where each line after the first starts, and one past the end (in characters).
fn line_offsets(text: &str) -> Vec<usize> {
    let mut offset = 0;
    text.split('\n')
        .map(|line| {
            offset += line.chars().count() + 1;
            offset
        })
        .collect()
}

fn sort_by_id(positions: Map<String, Value>) -> Value {
    let mut list: Vec<(String, Value)> = positions.into_iter().collect();
    list.sort_by_key(|(id, _)| id.parse::<u64>().unwrap_or(u64::MAX));
    Value::Object(list.into_iter().collect())
}

/// One node, with its children; `seen` is told every node id.
fn expr_json(e: &IdedExpr, seen: &mut dyn FnMut(u64)) -> Value {
    seen(e.id);
    let mut out = Map::new();
    out.insert("id".into(), json!(e.id.to_string()));
    let (key, body) = match &e.expr {
        Expr::Unspecified => return Value::Object(out),
        Expr::Ident(name) => ("identExpr", json!({"name": name})),
        Expr::Literal(literal) => ("constExpr", constant(literal)),
        Expr::Select(select) => {
            let mut s = Map::new();
            s.insert("operand".into(), expr_json(&select.operand, seen));
            s.insert("field".into(), json!(select.field));
            if select.test {
                s.insert("testOnly".into(), json!(true));
            }
            ("selectExpr", Value::Object(s))
        }
        Expr::Call(call) => {
            let mut c = Map::new();
            if let Some(target) = &call.target {
                c.insert("target".into(), expr_json(target, seen));
            }
            c.insert("function".into(), json!(call.func_name));
            let args: Vec<Value> = call.args.iter().map(|a| expr_json(a, seen)).collect();
            if !args.is_empty() {
                c.insert("args".into(), Value::Array(args));
            }
            ("callExpr", Value::Object(c))
        }
        Expr::List(list) => {
            let mut l = Map::new();
            let elements: Vec<Value> = list.elements.iter().map(|a| expr_json(a, seen)).collect();
            if !elements.is_empty() {
                l.insert("elements".into(), Value::Array(elements));
            }
            if !list.optional_indices.is_empty() {
                l.insert("optionalIndices".into(), json!(list.optional_indices));
            }
            ("listExpr", Value::Object(l))
        }
        Expr::Map(map) => ("structExpr", entries(None, &map.entries, seen)),
        Expr::Struct(s) => ("structExpr", entries(Some(&s.type_name), &s.entries, seen)),
        Expr::Comprehension(c) => {
            let mut m = Map::new();
            m.insert("iterVar".into(), json!(c.iter_var));
            if let Some(second) = &c.iter_var2 {
                m.insert("iterVar2".into(), json!(second));
            }
            m.insert("iterRange".into(), expr_json(&c.iter_range, seen));
            m.insert("accuVar".into(), json!(c.accu_var));
            m.insert("accuInit".into(), expr_json(&c.accu_init, seen));
            m.insert("loopCondition".into(), expr_json(&c.loop_cond, seen));
            m.insert("loopStep".into(), expr_json(&c.loop_step, seen));
            m.insert("result".into(), expr_json(&c.result, seen));
            ("comprehensionExpr", Value::Object(m))
        }
    };
    out.insert(key.into(), body);
    Value::Object(out)
}

/// A map or message literal's entries (`CreateStruct`).
fn entries(
    message: Option<&str>,
    list: &[cel::common::ast::IdedEntryExpr],
    seen: &mut dyn FnMut(u64),
) -> Value {
    let mut out = Map::new();
    if let Some(name) = message {
        out.insert("messageName".into(), json!(name));
    }
    let items: Vec<Value> = list
        .iter()
        .map(|entry| {
            seen(entry.id);
            let mut e = Map::new();
            e.insert("id".into(), json!(entry.id.to_string()));
            let optional = match &entry.expr {
                EntryExpr::StructField(f) => {
                    e.insert("fieldKey".into(), json!(f.field));
                    e.insert("value".into(), expr_json(&f.value, seen));
                    f.optional
                }
                EntryExpr::MapEntry(m) => {
                    e.insert("mapKey".into(), expr_json(&m.key, seen));
                    e.insert("value".into(), expr_json(&m.value, seen));
                    m.optional
                }
            };
            if optional {
                e.insert("optionalEntry".into(), json!(true));
            }
            Value::Object(e)
        })
        .collect();
    if !items.is_empty() {
        out.insert("entries".into(), Value::Array(items));
    }
    Value::Object(out)
}

/// A literal as a `cel.expr.Constant` (64-bit integers are strings in proto JSON).
fn constant(literal: &LiteralValue) -> Value {
    match literal {
        LiteralValue::Null => json!({"nullValue": "NULL_VALUE"}),
        LiteralValue::Boolean(b) => json!({"boolValue": *b.inner()}),
        LiteralValue::Int(i) => json!({"int64Value": i.inner().to_string()}),
        LiteralValue::UInt(u) => json!({"uint64Value": u.inner().to_string()}),
        LiteralValue::Double(d) => {
            let d = *d.inner();
            if d.is_finite() {
                json!({"doubleValue": d})
            } else {
                json!({"doubleValue": d.to_string()})
            }
        }
        LiteralValue::String(s) => json!({"stringValue": s.inner()}),
        LiteralValue::Bytes(b) => {
            json!({"bytesValue": crate::render::base64::encode(b.inner())})
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_and_equality_ids_and_positions() {
        let parsed = parsed_expr("request.headers['x-foo'] == 'bar'").unwrap_or_default();
        assert_eq!(
            parsed["expr"],
            json!({"id": "5", "callExpr": {"function": "_==_", "args": [
                {"id": "3", "callExpr": {"function": "_[_]", "args": [
                    {"id": "2", "selectExpr": {"operand": {"id": "1", "identExpr": {"name": "request"}}, "field": "headers"}},
                    {"id": "4", "constExpr": {"stringValue": "x-foo"}},
                ]}},
                {"id": "6", "constExpr": {"stringValue": "bar"}},
            ]}})
        );
        assert_eq!(
            parsed["sourceInfo"],
            json!({"lineOffsets": [34], "location": "<input>",
                "positions": {"1": 0, "2": 7, "3": 15, "4": 16, "5": 25, "6": 28}})
        );
    }

    #[test]
    fn member_call_and_literals() {
        let parsed = parsed_expr("a.contains(\"é\") && 1u > -2").unwrap_or_default();
        let call = &parsed["expr"]["callExpr"];
        assert_eq!(call["function"], json!("_&&_"));
        assert_eq!(call["args"][0]["callExpr"]["function"], json!("contains"));
        assert_eq!(
            call["args"][0]["callExpr"]["target"]["identExpr"]["name"],
            json!("a")
        );
        assert_eq!(
            call["args"][1]["callExpr"]["args"][0]["constExpr"],
            json!({"uint64Value": "1"})
        );
        // Positions count characters: `&&` follows the two-byte `é`.
        let and_id = parsed["expr"]["id"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        assert_eq!(
            parsed["sourceInfo"]["positions"][and_id.as_str()],
            json!(16)
        );
        assert_eq!(parsed["sourceInfo"]["lineOffsets"], json!([27]));
    }

    #[test]
    fn syntax_error_is_an_error() {
        assert!(parsed_expr("request.headers[").is_err());
    }
}
