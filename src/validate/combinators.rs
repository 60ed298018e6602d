//! oneOf / anyOf / allOf / not, reported as kube-openapi does: a composite error naming the field,
//! plus the errors of the closest failing alternative.

use crate::rules;
use serde_json::Value as Json;

use crate::diag::Diagnostic;
use crate::parse::{Node, Value};
use crate::schema::compile::{JsonType, SchemaNode};

use super::messages::{char_len, go_quote};
use super::{Walker, display_path, formats};

/// The outcome of validating a node against one alternative.
struct Outcome {
    diagnostics: Vec<Diagnostic>,
    blocking: usize,
    matched: usize,
}

impl Outcome {
    fn valid(&self) -> bool {
        self.diagnostics.is_empty()
    }
}

impl<'v> Walker<'v> {
    pub(super) fn combinators(&mut self, node: &'v Node, schema: &'v SchemaNode) {
        let any_of = &schema.any_of;
        if !schema.all_of.is_empty() {
            let outcomes: Vec<Outcome> = schema
                .all_of
                .iter()
                .map(|alt| self.alternative(node, alt, schema))
                .collect();
            let valid = outcomes.iter().filter(|o| o.valid()).count();
            if valid < outcomes.len() {
                let suffix = if valid == 0 { ". None validated" } else { "" };
                self.composite(node, |p| {
                    format!("{p} must validate all the schemas (allOf){suffix}")
                });
            }
            for o in outcomes {
                self.merge(o);
            }
        }
        if !any_of.is_empty() {
            let mut best: Option<Outcome> = None;
            let mut ok = false;
            for alt in any_of {
                let o = self.alternative(node, alt, schema);
                if o.valid() {
                    ok = true;
                    break;
                }
                if best.as_ref().is_none_or(|b| o.matched > b.matched) {
                    best = Some(o);
                }
            }
            if !ok {
                self.composite(node, |p| {
                    format!("{p} must validate at least one schema (anyOf)")
                });
                if let Some(b) = best {
                    self.merge(b);
                }
            }
        }
        if !schema.one_of.is_empty() {
            let mut best: Option<Outcome> = None;
            let mut valid = 0;
            for alt in &schema.one_of {
                let o = self.alternative(node, alt, schema);
                if o.valid() {
                    valid += 1;
                } else if valid == 0 && best.as_ref().is_none_or(|b| o.matched > b.matched) {
                    best = Some(o);
                }
            }
            if valid != 1 {
                let found = if valid == 0 {
                    "Found none valid".to_string()
                } else {
                    format!("Found {valid} valid alternatives")
                };
                self.composite(node, |p| {
                    format!("{p} must validate one and only one schema (oneOf). {found}")
                });
                if valid == 0
                    && let Some(b) = best
                {
                    self.merge(b);
                }
            }
        }
        if let Some(not) = &schema.not
            && self.alternative(node, not, schema).valid()
        {
            self.composite(node, |p| format!("{p} must not validate the schema (not)"));
        }
    }

    /// Validates `node` against a value-validation alternative without reporting. Fields the node
    /// lacks but the structural schema defaults are checked with their default, as the API server
    /// validates defaulted objects.
    fn alternative(
        &mut self,
        node: &'v Node,
        alt: &'v SchemaNode,
        structural: &SchemaNode,
    ) -> Outcome {
        let saved_out = std::mem::take(&mut self.out);
        let saved_blocking = std::mem::replace(&mut self.blocking, 0);
        let saved_matched = std::mem::replace(&mut self.matched, 0);
        let saved_mode = std::mem::replace(&mut self.value_only, true);
        self.walk(node, alt, node.span, false);
        if let (Value::Map(entries), Some(props)) = (&node.value, &alt.properties) {
            for (name, sub) in props {
                if entries.iter().any(|e| e.key == **name) {
                    continue;
                }
                let Some(default) = structural.property(name).and_then(|p| p.default.as_ref())
                else {
                    continue;
                };
                if json_ok(default, sub) {
                    self.matched += 1;
                } else {
                    let path = format!("{}.{name}", self.path_string());
                    let message = format!(
                        "{path}: Invalid value: {}: the default does not match the alternative",
                        super::messages::canonical_json(default)
                    );
                    self.emit(rules::GW114, node.span, path, message);
                }
            }
        }
        let outcome = Outcome {
            diagnostics: std::mem::replace(&mut self.out, saved_out),
            blocking: std::mem::replace(&mut self.blocking, saved_blocking),
            matched: std::mem::replace(&mut self.matched, saved_matched),
        };
        self.value_only = saved_mode;
        outcome
    }

    fn merge(&mut self, o: Outcome) {
        self.blocking += o.blocking;
        self.out.extend(o.diagnostics);
    }

    /// A composite error; kube-openapi names the field in quotes and has no field path of its own.
    fn composite(&mut self, node: &Node, message: impl FnOnce(&str) -> String) {
        let path = self.path_string();
        let quoted = go_quote(display_path(&path));
        let text = message(&quoted);
        self.emit(rules::GW114, node.span, path, text);
    }
}

/// Whether a JSON value (a default) satisfies a value-validation schema.
fn json_ok(v: &Json, s: &SchemaNode) -> bool {
    let type_ok = match s.ty {
        None => true,
        Some(JsonType::Object) => v.is_object(),
        Some(JsonType::Array) => v.is_array(),
        Some(JsonType::String) => v.is_string(),
        Some(JsonType::Integer) => v.is_i64() || v.is_u64(),
        Some(JsonType::Number) => v.is_number(),
        Some(JsonType::Boolean) => v.is_boolean(),
    };
    if !type_ok || s.enum_values.as_ref().is_some_and(|e| !e.contains(v)) {
        return false;
    }
    if let Json::String(text) = v {
        let len = char_len(text);
        if s.min_length.is_some_and(|m| len < m)
            || s.max_length.is_some_and(|m| len > m)
            || s.pattern
                .as_ref()
                .and_then(|p| p.regex.as_ref())
                .is_some_and(|re| !re.is_match(text))
            || s.format.is_some_and(|f| !formats::is_valid(f, text))
        {
            return false;
        }
    }
    if let Some(x) = v.as_f64()
        && (s
            .minimum
            .is_some_and(|b| x < b.value || (b.exclusive && x == b.value))
            || s.maximum
                .is_some_and(|b| x > b.value || (b.exclusive && x == b.value)))
    {
        return false;
    }
    if let (Json::Object(o), Some(props)) = (v, &s.properties)
        && o.iter()
            .any(|(k, val)| props.get(k.as_str()).is_some_and(|p| !json_ok(val, p)))
    {
        return false;
    }
    if let (Json::Array(items), Some(item)) = (v, &s.items)
        && items.iter().any(|i| !json_ok(i, item))
    {
        return false;
    }
    s.all_of.iter().all(|a| json_ok(v, a))
        && (s.any_of.is_empty() || s.any_of.iter().any(|a| json_ok(v, a)))
        && (s.one_of.is_empty() || s.one_of.iter().filter(|a| json_ok(v, a)).count() == 1)
        && s.not.as_ref().is_none_or(|n| !json_ok(v, n))
}
