//! The walk's checks of a scalar: YAML 1.1 booleans, enums (with their fix), string formats and
//! bounds, number bounds; and a scalar's CEL value.

use crate::cel::CelValue;
use crate::diag::{Applicability, Diagnostic, Edit, Fix, plain_as_string};
use crate::parse::{Node, Value};
use crate::rules;
use crate::schema::compile::{Bound, JsonType, SchemaNode};
use crate::source::FileId;

use super::cel_rules::json_value;
use super::messages::{char_len, go_float, go_quote, go_value, suggest_unique, supported_value};
use super::{Walker, formats};

/// Plain scalars that YAML 1.1 (what the API server's YAML decoder reads) takes as booleans.
pub(super) fn yaml11_bool(s: &str) -> Option<bool> {
    match s {
        "y" | "Y" | "yes" | "Yes" | "YES" | "on" | "On" | "ON" => Some(true),
        "n" | "N" | "no" | "No" | "NO" | "off" | "Off" | "OFF" => Some(false),
        _ => None,
    }
}

/// GW104's fix: this API's value for the reference's value of one it renamed (`renamed`, safe),
/// else the one allowed string that differs only in case (safe) or is the one close to the value
/// (unsafe), when it can be written in the value's place as it is.
fn enum_fix(
    file: FileId,
    source: &str,
    node: &Node,
    values: &[serde_json::Value],
    renamed: Option<&str>,
) -> Option<Fix> {
    let Value::Str(s) = &node.value else {
        return None;
    };
    let allowed = values.iter().filter_map(serde_json::Value::as_str);
    let same_case: Vec<&str> = allowed
        .clone()
        .filter(|v| v.eq_ignore_ascii_case(&s.text))
        .collect();
    let (to, applicability) = match (renamed, same_case.as_slice()) {
        (Some(to), _) => (to, Applicability::Safe),
        (None, [one]) => (*one, Applicability::Safe),
        (None, []) => (suggest_unique(&s.text, allowed)?, Applicability::Unsafe),
        _ => return None,
    };
    if s.plain() && !plain_as_string(to) {
        return None;
    }
    let edit = Edit::rename_scalar(file, source, node.span, to);
    Some(Fix::new(
        applicability,
        format!("replace with {}", go_quote(to)),
        vec![edit],
    ))
}

/// An integral float is an integer to the API server (`1.0` reaches it as JSON `1`).
pub(super) fn as_integer(node: &Node) -> Option<i64> {
    match node.value {
        Value::Int(i) => Some(i),
        Value::Float(f) if f.is_finite() && f.fract() == 0.0 && f.abs() < 9.2e18 => Some(f as i64),
        _ => None,
    }
}

impl Walker<'_> {
    /// GW110 for a plain `on`/`yes`... where the schema wants a string or a boolean; for a boolean
    /// returns the value the API server reads.
    pub(super) fn yaml11_warning(
        &mut self,
        node: &Node,
        schema: &SchemaNode,
        text: &str,
        b: bool,
    ) -> Option<bool> {
        let (tail, result) = match schema.ty {
            Some(JsonType::Boolean) => (format!("write {b} to say so in YAML 1.2 too"), Some(b)),
            Some(JsonType::String) => ("quote it to keep a string".to_string(), None),
            None if schema.int_or_string => ("quote it to keep a string".to_string(), None),
            _ => return None,
        };
        if !self.yaml11_warnings {
            return result;
        }
        let path = self.path_string();
        let message = format!(
            "{}: plain scalar {} is the boolean {b} to the Kubernetes API server (YAML 1.1); {tail}",
            super::display_path(&path),
            go_quote(text),
        );
        // The same meaning in YAML 1.1 and 1.2: a quoted string, or the boolean spelt out.
        let (title, replacement) = match result {
            Some(b) => (format!("write {b}"), b.to_string()),
            None => ("quote it".to_string(), format!("\"{text}\"")),
        };
        let edit = Edit::replace(self.file, node.span, replacement);
        self.emit_diag(
            Diagnostic::new(rules::GW110, message)
                .at(self.file, node.span)
                .with_resource(Some(self.resource.clone()))
                .with_path(path)
                .with_fix(Fix::safe(title, vec![edit])),
        );
        result
    }

    pub(super) fn check_scalar(&mut self, node: &Node, schema: &SchemaNode, as_bool: Option<bool>) {
        // What a placeholder stands for is known once it is substituted: nothing to check.
        if let Value::Str(s) = &node.value
            && has_placeholder(&s.text)
        {
            return;
        }
        if let Some(values) = &schema.enum_values {
            let found = values.iter().any(|v| enum_value_is(v, node, as_bool));
            if found {
                self.matched += 1;
            } else {
                let supported: Vec<String> = values.iter().map(supported_value).collect();
                let shown = go_value(node);
                // The reference's value of one this API renamed: this API's, not a close one.
                let renamed = match &node.value {
                    Value::Str(s) => SchemaNode::rename_of(&schema.renamed_values, &s.text),
                    _ => None,
                };
                let fix = enum_fix(self.file, self.source, node, values, renamed);
                let before = self.out.len();
                self.report(rules::GW104, node.span, true, |p| {
                    format!(
                        "{p}: Unsupported value: {shown}: supported values: {}",
                        supported.join(", ")
                    )
                });
                if let Some(d) = self.out.get_mut(before) {
                    d.fix = fix;
                    if let Some(to) = renamed {
                        d.help = Some(format!(
                            "renamed in this API: {} (was {shown})",
                            go_quote(to)
                        ));
                    }
                }
            }
        }
        match &node.value {
            Value::Str(s) if as_bool.is_none() => self.check_string(node, &s.text, schema),
            Value::Int(_) | Value::Float(_) => self.check_number(node, schema),
            _ => {}
        }
    }

    fn check_string(&mut self, node: &Node, text: &str, schema: &SchemaNode) {
        let shown = || go_quote(text);
        if let Some(pat) = &schema.pattern
            && let Some(re) = &pat.regex
        {
            if re.is_match(text) {
                self.matched += 1;
            } else {
                let v = shown();
                let src = &pat.source;
                self.report(rules::GW105, node.span, false, |p| {
                    format!("{p}: Invalid value: {v}: {p} in body should match '{src}'")
                });
            }
        }
        if schema.min_length.is_some() || schema.max_length.is_some() {
            let len = char_len(text);
            if let Some(min) = schema.min_length.filter(|m| len < *m) {
                let v = shown();
                self.report(rules::GW106, node.span, false, |p| {
                    format!(
                        "{p}: Invalid value: {v}: {p} in body should be at least {min} chars long"
                    )
                });
            }
            if let Some(max) = schema.max_length.filter(|m| len > *m) {
                self.report(rules::GW106, node.span, true, |p| {
                    format!("{p}: Too long: may not be more than {max} bytes")
                });
            }
        }
        if let Some(f) = schema.format {
            if formats::is_valid(f, text) {
                self.matched += 1;
            } else {
                let v = shown();
                let name = formats::name(f);
                self.report(rules::GW111, node.span, true, |p| {
                    format!("{p}: Invalid value: {v}: {p} in body must be of type {name}: {v}")
                });
            }
        }
    }

    /// GW107 for a number beyond `minimum` (`than`: "greater than") or `maximum` ("less than").
    fn beyond_bound(&mut self, node: &Node, b: Bound, than: &str) {
        let rel = if b.exclusive {
            than.to_string()
        } else {
            format!("{than} or equal to")
        };
        // Shown only in a finding: most numbers have none.
        let (shown, m) = (go_value(node), go_float(b.value));
        self.report(rules::GW107, node.span, false, |p| {
            format!("{p}: Invalid value: {shown}: {p} in body should be {rel} {m}")
        });
    }

    fn check_number(&mut self, node: &Node, schema: &SchemaNode) {
        let x = match node.value {
            Value::Int(i) => i as f64,
            Value::Float(f) => f,
            _ => return,
        };
        if let Some(b) = schema.minimum
            && (x < b.value || (b.exclusive && x == b.value))
        {
            self.beyond_bound(node, b, "greater than");
        }
        if let Some(b) = schema.maximum
            && (x > b.value || (b.exclusive && x == b.value))
        {
            self.beyond_bound(node, b, "less than");
        }
        if let Some(m) = schema.multiple_of.filter(|m| *m > 0.0) {
            let q = x / m;
            if (q - q.round()).abs() > 1e-9 {
                let (shown, m) = (go_value(node), go_float(m));
                self.report(rules::GW107, node.span, false, |p| {
                    format!("{p}: Invalid value: {shown}: {p} in body should be a multiple of {m}")
                });
            }
        }
    }
}

/// Whether an allowed value of an enum is the scalar `node` (`as_bool`: what YAML 1.1 reads it
/// as), compared as JSON (numbers by value); without building the node's JSON, since every
/// enum field of every object is checked.
fn enum_value_is(allowed: &serde_json::Value, node: &Node, as_bool: Option<bool>) -> bool {
    use serde_json::Value as Json;
    if let Some(b) = as_bool {
        return *allowed == Json::Bool(b);
    }
    match (&node.value, allowed) {
        (Value::Null, Json::Null) => true,
        (Value::Bool(b), Json::Bool(a)) => a == b,
        (Value::Int(i), Json::Number(a)) => a.as_f64() == Some(*i as f64),
        // A float with no JSON form is JSON null.
        (Value::Float(f), Json::Number(a)) => f.is_finite() && a.as_f64() == Some(*f),
        (Value::Float(f), Json::Null) => !f.is_finite(),
        (Value::Str(s), Json::String(a)) => *a == *s.text,
        _ => false,
    }
}

/// The CEL value of a scalar node.
pub(super) fn scalar_value(node: &Node, schema: &SchemaNode, as_bool: Option<bool>) -> CelValue {
    if let Some(b) = as_bool {
        return CelValue::Bool(b);
    }
    match &node.value {
        Value::Float(_) if schema.ty == Some(JsonType::Integer) || schema.int_or_string => {
            as_integer(node).map_or(CelValue::Null, CelValue::Int)
        }
        _ => json_value(node),
    }
}

/// Whether a string holds a variable a GitOps tool substitutes before the object is applied
/// (`${NAME}`, as Flux's post-build substitution and envsubst write it, with an optional
/// `:-default` and the like).
pub(super) fn has_placeholder(text: &str) -> bool {
    let mut rest = text;
    while let Some(at) = rest.find("${") {
        let after = &rest[at + 2..];
        let name_len = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(after.len());
        let starts_well = after
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
        if starts_well && after[name_len..].contains('}') {
            return true;
        }
        rest = after;
    }
    false
}

/// Whether a node or anything below it holds a substitution placeholder ([`has_placeholder`]).
pub(super) fn holds_placeholder(node: &Node) -> bool {
    match &node.value {
        Value::Str(s) => has_placeholder(&s.text),
        Value::Seq(items) => items.iter().any(holds_placeholder),
        Value::Map(entries) => entries.iter().any(|e| holds_placeholder(&e.value)),
        _ => false,
    }
}
