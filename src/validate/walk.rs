//! The structural walk: types, properties (unknown, required, pruned nulls, defaults) and items,
//! building CEL values on the way where a rule needs them; a scalar's own checks are in
//! `walk_scalars`.

use crate::cel::{CelValue, list_value, map_value};
use crate::diag::{Edit, Fix};
use crate::parse::{Entry, Node, Value};
use crate::rules;
use crate::schema::compile::{JsonType, SchemaNode};
use crate::source::Span;

use super::cel_rules::{default_value, json_value};
use super::messages::{go_quote, suggest, suggest_unique};
use super::walk_scalars::{as_integer, scalar_value, yaml11_bool};
use super::{Seg, Walker};

/// The span that stands for an item of a list when something is missing in it: its first key.
pub(super) fn first_key_span(item: &Node) -> Span {
    match &item.value {
        Value::Map(entries) if !entries.is_empty() => entries[0].key_span,
        _ => item.span,
    }
}

/// Whether a property is in the mapping as the API server sees it: a null it prunes is absent.
fn present(entries: &[Entry], schema: &SchemaNode, name: &str) -> bool {
    entries.iter().any(|e| {
        e.key == name
            && !(matches!(e.value.value, Value::Null)
                && schema.field(name).is_some_and(|f| !f.nullable))
    })
}

/// An object's CEL value: its walked properties, then the defaults of those it lacks.
fn object_value(
    mut map: Vec<(String, CelValue)>,
    entries: &[Entry],
    schema: &SchemaNode,
) -> CelValue {
    for name in &schema.property_names {
        if let Some(p) = schema.property(name)
            && p.default.is_some()
            && !present(entries, schema, name)
        {
            map.push((name.to_string(), default_value(p)));
        }
    }
    map_value(map)
}

impl<'v> Walker<'v> {
    pub(super) fn walk_root(&mut self, root: &'v Node, schema: &'v SchemaNode) {
        let key_span = root.entry("kind").map_or(root.span, |e| e.key_span);
        self.walk(root, schema, key_span, false);
        if root.entry("metadata").is_none() {
            self.missing_name(key_span);
        }
    }

    /// Validates `node` against `schema`; returns its CEL value (with defaults) when the parent
    /// needs it. `key_span` is where a missing required field of this object is reported.
    pub(super) fn walk(
        &mut self,
        node: &'v Node,
        schema: &'v SchemaNode,
        key_span: Span,
        parent_wants_value: bool,
    ) -> Option<CelValue> {
        // Rules the tree evaluator runs need no CEL value; only the others make one up front.
        let want = parent_wants_value
            || (!self.value_only && schema.rules.iter().any(|r| r.needs_value()));
        let blocking_before = self.blocking;
        let findings_before = self.out.len();
        let value = self.check_node(node, schema, key_span, want);
        // Which alternative a placeholder's value would match is known once it is substituted.
        if schema.has_combinators() && !super::walk_scalars::holds_placeholder(node) {
            self.combinators(node, schema);
        }
        if !schema.rules.is_empty() && !self.value_only && self.blocking == blocking_before {
            self.eval_rules(node, schema, key_span, value.as_ref());
        }
        // What a string holds is checked only when the schema itself found nothing wrong with
        // it: one problem, one finding (a duration the CRD's pattern rule rejected is not
        // reported again by the duration parser).
        if let (Some(vf), Value::Str(s)) = (schema.value_format, &node.value)
            && !self.value_only
            && self.out.len() == findings_before
            && !super::walk_scalars::has_placeholder(&s.text)
        {
            self.check_value_format(node, &s.text, vf);
        }
        if parent_wants_value { value } else { None }
    }

    /// The CEL value of `node`, built on demand for a rule the tree evaluator could not decide:
    /// a value-only pass whose findings are dropped (the main walk reports them).
    pub(super) fn value_of(
        &mut self,
        node: &'v Node,
        schema: &'v SchemaNode,
        key_span: Span,
    ) -> Option<CelValue> {
        let saved_out = std::mem::take(&mut self.out);
        let saved_blocking = self.blocking;
        let saved_matched = self.matched;
        let saved_mode = std::mem::replace(&mut self.value_only, true);
        let value = self.check_node(node, schema, key_span, true);
        self.out = saved_out;
        self.blocking = saved_blocking;
        self.matched = saved_matched;
        self.value_only = saved_mode;
        value
    }

    fn check_node(
        &mut self,
        node: &'v Node,
        schema: &'v SchemaNode,
        key_span: Span,
        want: bool,
    ) -> Option<CelValue> {
        let mut as_bool = None;
        if let Value::Str(s) = &node.value
            && s.plain()
            && !self.value_only
            && let Some(b) = yaml11_bool(&s.text)
        {
            as_bool = self.yaml11_warning(node, schema, &s.text, b);
        }
        if let Value::Null = node.value
            && (schema.nullable || (schema.ty.is_none() && !schema.int_or_string))
        {
            return want.then_some(CelValue::Null);
        }
        if !self.type_ok(node, schema, as_bool) {
            return None;
        }
        match &node.value {
            Value::Map(entries) => self.check_object(node, entries, schema, key_span, want),
            Value::Seq(items) => self.check_array(node, items, schema, want),
            _ => {
                self.check_scalar(node, schema, as_bool);
                want.then(|| scalar_value(node, schema, as_bool))
            }
        }
    }

    fn type_ok(&mut self, node: &Node, schema: &SchemaNode, as_bool: Option<bool>) -> bool {
        // `.nan` / `.inf` are YAML floats with no JSON form: kubectl cannot send them at all.
        if let Value::Float(f) = node.value
            && !f.is_finite()
        {
            // `.inf`, `-.inf` and `.nan` are at most 5 characters; a longer one is a literal beyond
            // a 64-bit float (a million digits), which is not the infinity it parsed to.
            let huge = f.is_infinite() && node.span.len() > 5;
            self.report(rules::GW103, node.span, true, |p| {
                if huge {
                    format!(
                        "{p}: Invalid value: a number of {} characters: beyond the range of a 64-bit float, which JSON numbers have",
                        node.span.len()
                    )
                } else {
                    format!("{p}: Invalid value: {f}: NaN and infinities have no JSON form")
                }
            });
            return false;
        }
        // A placeholder is substituted before the object is applied, as whatever type it holds.
        if let Value::Str(s) = &node.value
            && super::walk_scalars::has_placeholder(&s.text)
        {
            return true;
        }
        let actual = node.type_name();
        let ok = match schema.ty {
            Some(JsonType::Object) => matches!(node.value, Value::Map(_)),
            Some(JsonType::Array) => matches!(node.value, Value::Seq(_)),
            Some(JsonType::String) => matches!(node.value, Value::Str(_)),
            Some(JsonType::Integer) => as_integer(node).is_some(),
            Some(JsonType::Number) => matches!(node.value, Value::Int(_) | Value::Float(_)),
            Some(JsonType::Boolean) => matches!(node.value, Value::Bool(_)) || as_bool.is_some(),
            // int-or-string with an explicit anyOf is checked by the anyOf.
            None if schema.int_or_string && schema.any_of.is_empty() => {
                as_integer(node).is_some() || matches!(node.value, Value::Str(_))
            }
            None => true,
        };
        if ok {
            self.matched += 1;
            return true;
        }
        let expected = schema.ty.map_or("integer,string", JsonType::name);
        self.report(rules::GW103, node.span, true, |p| {
            format!("{p}: Invalid value: \"{actual}\": {p} in body must be of type {expected}: \"{actual}\"")
        });
        false
    }

    /// Emits a finding whose message needs the path more than once.
    pub(super) fn report(
        &mut self,
        code: rules::Code,
        span: Span,
        blocking: bool,
        message: impl FnOnce(&str) -> String,
    ) {
        if blocking {
            self.blocking += 1;
        }
        let path = self.path_string();
        let message = message(super::display_path(&path));
        self.emit(code, span, path, message);
    }

    /// Validates a mapping against an object schema: its properties, the required ones and their
    /// number; returns its CEL value, with the defaults it lacks, when `want`.
    fn check_object(
        &mut self,
        node: &'v Node,
        entries: &'v [Entry],
        schema: &'v SchemaNode,
        key_span: Span,
        want: bool,
    ) -> Option<CelValue> {
        let (map, count) = self.walk_properties(entries, schema, want);
        self.check_required(entries, schema, key_span);
        self.check_property_count(node, schema, count);
        Some(object_value(map?, entries, schema))
    }

    /// Walks each entry of a mapping, its CEL values collected when `want`; returns them and the
    /// number of properties the API server validates (neither pruned nor dropped).
    fn walk_properties(
        &mut self,
        entries: &'v [Entry],
        schema: &'v SchemaNode,
        want: bool,
    ) -> (Option<Vec<(String, CelValue)>>, u64) {
        let at_root = self.path.is_empty() && !self.value_only && !self.plain_document;
        let mut map: Option<Vec<(String, CelValue)>> = want.then(Vec::new);
        let mut count = 0u64;
        for e in entries {
            if at_root {
                if e.key == "metadata" {
                    count += 1;
                    let v = self.check_metadata(e, want);
                    if let (Some(m), Some(v)) = (&mut map, v) {
                        m.push((e.key.to_string(), v));
                    }
                    continue;
                }
                if e.key == "status" && self.kind.status_subresource {
                    // Dropped by the API server on create: not validated.
                    continue;
                }
            }
            let field = schema.field(&e.key);
            if matches!(e.value.value, Value::Null) && field.is_some_and(|f| !f.nullable) {
                // Pruned before validation (a default, if any, then applies).
                continue;
            }
            count += 1;
            self.path.push(Seg::Key(&e.key));
            match field {
                Some(f) => {
                    let v = self.walk(&e.value, f, e.key_span, want);
                    if let (Some(m), Some(v)) = (&mut map, v) {
                        m.push((e.key.to_string(), v));
                    }
                }
                None => {
                    let embedded_meta = schema.embedded_resource
                        && matches!(e.key.as_str(), "apiVersion" | "kind" | "metadata");
                    if !(schema.allows_unknown() || self.value_only || embedded_meta) {
                        self.unknown_field(e, entries, schema);
                    } else if let Some(m) = &mut map {
                        m.push((e.key.to_string(), json_value(&e.value)));
                    }
                }
            }
            self.path.pop();
        }
        (map, count)
    }

    /// GW102 for each required property absent without a default; a match for each other.
    fn check_required(&mut self, entries: &[Entry], schema: &'v SchemaNode, key_span: Span) {
        for name in &schema.required {
            let has_default = schema.property(name).is_some_and(|p| p.default.is_some());
            if !has_default && !present(entries, schema, name) {
                self.path.push(Seg::Key(name));
                self.blocking_error(rules::GW102, key_span, "Required value");
                self.path.pop();
            } else {
                self.matched += 1;
            }
        }
    }

    /// GW108 for fewer properties than `minProperties` or more than `maxProperties`.
    fn check_property_count(&mut self, node: &Node, schema: &SchemaNode, count: u64) {
        if let Some(min) = schema.min_properties.filter(|m| count < *m) {
            self.report(rules::GW108, node.span, false, |p| {
                format!(
                    "{p}: Invalid value: {count}: {p} in body should have at least {min} properties"
                )
            });
        }
        if let Some(max) = schema.max_properties.filter(|m| count > *m) {
            self.report(rules::GW108, node.span, true, |p| {
                format!("{p}: Too many: {count}: must have at most {max} items")
            });
        }
    }

    fn unknown_field(&mut self, e: &Entry, entries: &[Entry], schema: &SchemaNode) {
        let path = self.path_string();
        let mut d = crate::diag::Diagnostic::new(
            rules::GW101,
            format!("unknown field {}", go_quote(&path)),
        )
        .at(self.file, e.key_span)
        .with_resource(Some(self.resource.clone()))
        .with_path(path);
        // The reference's name of a field this API renamed: its name here, not a close one.
        let renamed = SchemaNode::rename_of(&schema.renamed, &e.key);
        if let Some(s) = renamed {
            d = d.with_help(format!(
                "renamed in this API: {} (was {})",
                go_quote(s),
                go_quote(&e.key)
            ));
        } else if let Some(s) = suggest(&e.key, schema.property_names.iter().map(|n| &**n)) {
            d = d.with_help(format!("did you mean {}?", go_quote(s)));
        }
        // Renamed only to the one close name, and not onto a key the mapping already has.
        let names = schema.property_names.iter().map(|n| &**n);
        if let Some(s) = renamed.or_else(|| suggest_unique(&e.key, names))
            && !entries.iter().any(|other| other.key == s)
        {
            let edit = Edit::rename_scalar(self.file, self.source, e.key_span, s);
            d = d.with_fix(Fix::safe(format!("rename to {}", go_quote(s)), vec![edit]));
        }
        self.emit_diag(d);
    }

    fn check_array(
        &mut self,
        node: &'v Node,
        items: &'v [Node],
        schema: &'v SchemaNode,
        want: bool,
    ) -> Option<CelValue> {
        let mut list = want.then(|| Vec::with_capacity(items.len()));
        match &schema.items {
            Some(item_schema) => {
                for (i, item) in items.iter().enumerate() {
                    self.path.push(Seg::Index(i));
                    let v = self.walk(item, item_schema, first_key_span(item), want);
                    self.path.pop();
                    if let Some(l) = &mut list {
                        l.push(v.unwrap_or(CelValue::Null));
                    }
                }
            }
            None => {
                if let Some(l) = &mut list {
                    l.extend(items.iter().map(json_value));
                }
            }
        }
        let n = items.len() as u64;
        if let Some(max) = schema.max_items.filter(|m| n > *m) {
            self.report(rules::GW108, node.span, true, |p| {
                format!("{p}: Too many: {n}: must have at most {max} items")
            });
        }
        if let Some(min) = schema.min_items.filter(|m| n < *m) {
            self.report(rules::GW108, node.span, false, |p| {
                format!("{p}: Invalid value: {n}: {p} in body should have at least {min} items")
            });
        }
        if !self.value_only {
            self.check_list_type(items, schema);
        }
        list.map(list_value)
    }
}
