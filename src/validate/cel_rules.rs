//! CEL rules (x-kubernetes-validations): values for `self`, defaults, evaluation and the API
//! server's wording of failures.

use serde_json::Value as Json;

use crate::cel::{
    BoundSelf, CelValue, CompiledRule, PER_CALL_LIMIT, STATIC_COST_LIMIT, from_json, list_value,
    map_value, string_value,
};
use crate::diag::Diagnostic;
use crate::parse::{Node, Value};
use crate::rules;
use crate::schema::compile::{JsonType, Reason, Rule, SchemaNode};
use crate::source::Span;

use super::{Walker, display_path};

/// The CEL value of a node without schema information (fields the schema does not describe).
pub(super) fn json_value(node: &Node) -> CelValue {
    match &node.value {
        Value::Null => CelValue::Null,
        Value::Bool(b) => CelValue::Bool(*b),
        Value::Int(i) => CelValue::Int(*i),
        Value::Float(f) => CelValue::Float(*f),
        Value::Str(s) => string_value(&s.text),
        Value::Seq(items) => list_value(items.iter().map(json_value).collect()),
        Value::Map(entries) => map_value(
            entries
                .iter()
                .map(|e| (e.key.to_string(), json_value(&e.value)))
                .collect(),
        ),
    }
}

/// The CEL value of a property's default, itself defaulted below (the API server defaults the
/// fields of a defaulted object too).
pub(super) fn default_value(schema: &SchemaNode) -> CelValue {
    match &schema.default {
        Some(d) => with_defaults(d, schema),
        None => CelValue::Null,
    }
}

fn with_defaults(json: &Json, schema: &SchemaNode) -> CelValue {
    match json {
        Json::Object(obj) if schema.properties.is_some() => {
            let mut m: Vec<(String, CelValue)> = Vec::with_capacity(obj.len());
            for (k, v) in obj {
                let value = match schema.field(k) {
                    Some(s) => with_defaults(v, s),
                    None => from_json(v),
                };
                m.push((k.clone(), value));
            }
            for name in &schema.property_names {
                if let Some(p) = schema.property(name)
                    && p.default.is_some()
                    && !obj.contains_key(&**name)
                {
                    m.push((name.to_string(), default_value(p)));
                }
            }
            map_value(m)
        }
        Json::Array(items) => match &schema.items {
            Some(s) => list_value(items.iter().map(|i| with_defaults(i, s)).collect()),
            None => from_json(json),
        },
        _ => from_json(json),
    }
}

/// Items of the largest list or map in the node: how many times a loop of a rule on it can run
/// at most. Recursive (the tree is no deeper than the walk that got here) rather than with a
/// stack of its own, which was an allocation per node with a nested-loop rule.
fn largest_collection(node: &Node) -> usize {
    match &node.value {
        Value::Seq(items) => items
            .iter()
            .map(largest_collection)
            .fold(items.len(), usize::max),
        Value::Map(entries) => entries
            .iter()
            .map(|e| largest_collection(&e.value))
            .fold(entries.len(), usize::max),
        // A loop runs over lists and maps only.
        _ => 0,
    }
}

/// Why a rule over the API server's compile-time limit is not evaluated.
fn static_cost_excess(rule: &Rule) -> String {
    let cost = match rule.estimated_cost {
        // Saturated: u64::MAX is about 1.8 x 10^19.
        u64::MAX => "over 10^19".to_string(),
        cost => cost.to_string(),
    };
    format!(
        "its estimated cost from the schema, {cost}, exceeds the API server's limit of \
         {STATIC_COST_LIMIT} for one rule, which rejects the CRD: bound the lists, maps and \
         strings it reads with maxItems, maxProperties and maxLength"
    )
}

/// The message of a failed rule when it has none.
fn default_message(rule: &Rule) -> String {
    format!("failed rule: {}", rule.rule.trim())
}

/// A `messageExpression`'s message; like the API server, an empty or failing one falls back to
/// `message`.
fn message_from_expression(
    compiled: &Result<CompiledRule, String>,
    value: &CelValue,
    node: &Node,
) -> Option<String> {
    let compiled = compiled.as_ref().ok()?;
    if compiled
        .cost_bound(|| largest_collection(node))
        .is_some_and(|cost| cost > PER_CALL_LIMIT)
    {
        return None;
    }
    let text = compiled.eval_string(value).ok()?;
    let text = text.trim();
    (!text.is_empty() && !text.contains('\n')).then(|| text.to_string())
}

/// Evaluation errors caused by the data (a field read without `has()`), which the API server
/// reports as a failure of the rule; other errors are gwctl limitations.
fn is_data_error(e: &str) -> bool {
    e.get(..12)
        .is_some_and(|p| p.eq_ignore_ascii_case("no such key:"))
}

/// The API server rejects an object whose rule fails on its data too: "<error> evaluating rule:
/// <message>".
fn data_error_detail(rule: &Rule, e: &str) -> String {
    let what = match rule.message.as_deref().map(str::trim) {
        Some(m) if !m.is_empty() => m.to_string(),
        _ => rule.rule.trim().to_string(),
    };
    format!("{} evaluating rule: {what}", lower_first(e))
}

/// Where a rule's finding points: objects and lists at their key, scalars at their value.
fn rule_span(node: &Node, key_span: Span) -> Span {
    match node.value {
        Value::Map(_) | Value::Seq(_) => key_span,
        _ => node.span,
    }
}

/// cel-go's errors start in lower case.
fn lower_first(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// One rule on one node as decided before any CEL value is built.
enum OnTree {
    /// A transition rule: checked against the old object, not here.
    Transition,
    /// Too costly to run (GW113): why.
    TooCostly(String),
    /// The tree evaluator's result; `None` when it cannot decide or the rule did not compile.
    Evaluated(Option<bool>),
}

impl OnTree {
    /// Nothing to report and nothing left to evaluate.
    fn passed(&self) -> bool {
        matches!(self, OnTree::Transition | OnTree::Evaluated(Some(true)))
    }
}

/// `rule` on `node`: the cost limits first (a rule over them is never run), then the tree
/// evaluator. `largest` is the node's largest collection, counted on first need.
fn on_tree(rule: &Rule, node: &Node, schema: &SchemaNode, largest: &mut Option<usize>) -> OnTree {
    let compiled = match &*rule.compiled {
        _ if rule.is_transition() => return OnTree::Transition,
        Ok(c) => c,
        Err(_) => return OnTree::Evaluated(None),
    };
    // The API server would have refused the CRD: never run, whatever the data.
    if rule.estimated_cost > STATIC_COST_LIMIT {
        return OnTree::TooCostly(static_cost_excess(rule));
    }
    let bound = compiled.cost_bound(|| *largest.get_or_insert_with(|| largest_collection(node)));
    if let Some(cost) = bound.filter(|cost| *cost > PER_CALL_LIMIT) {
        return OnTree::TooCostly(format!(
            "its estimated cost, {cost}, exceeds the limit of {PER_CALL_LIMIT} for one evaluation"
        ));
    }
    OnTree::Evaluated(compiled.eval_node(node, Some(schema)))
}

impl<'v> Walker<'v> {
    /// Evaluates the node's non-transition rules: on the tree directly where the rule allows it,
    /// else with `self` = the node's CEL value (`value`, or built here on first need).
    pub(super) fn eval_rules(
        &mut self,
        node: &'v Node,
        schema: &'v SchemaNode,
        key_span: Span,
        value: Option<&CelValue>,
    ) {
        // Nearly every node passes every rule on the tree: decided without allocating. The rare
        // node with a failure, an undecided or a too costly rule goes through its rules again.
        let mut largest = None;
        if schema
            .rules
            .iter()
            .all(|rule| on_tree(rule, node, schema, &mut largest).passed())
        {
            return;
        }
        // A rule over a placeholder's value is decided once it is substituted.
        if super::walk_scalars::holds_placeholder(node) {
            return;
        }
        let span = rule_span(node, key_span);
        let outcomes: Vec<OnTree> = schema
            .rules
            .iter()
            .map(|rule| on_tree(rule, node, schema, &mut largest))
            .collect();
        // Rules whose cost could exceed the budget are not evaluated at all (GW113): as if
        // they passed. Only rules the tree evaluator cannot decide (and failures whose message
        // is an expression) need the node's CEL value, built and bound once for all of them.
        let mut all_passed = true;
        for (rule, outcome) in schema.rules.iter().zip(&outcomes) {
            match outcome {
                OnTree::TooCostly(why) => self.not_evaluated(rule, span, why),
                o => all_passed &= o.passed(),
            }
        }
        if all_passed {
            return;
        }
        self.eval_undecided(node, schema, key_span, value, outcomes);
    }

    /// The rules the tree evaluator failed or could not decide, run by the full engine with
    /// `self` = the node's CEL value (`value`, or built here), and their failures reported.
    fn eval_undecided(
        &mut self,
        node: &'v Node,
        schema: &'v SchemaNode,
        key_span: Span,
        value: Option<&CelValue>,
        outcomes: Vec<OnTree>,
    ) {
        let span = rule_span(node, key_span);
        let built;
        let value = match value {
            Some(v) => v,
            None => {
                built = self
                    .value_of(node, schema, key_span)
                    .unwrap_or(CelValue::Null);
                &built
            }
        };
        let bound = BoundSelf::new(value);
        for (rule, outcome) in schema.rules.iter().zip(outcomes) {
            let OnTree::Evaluated(fast @ (None | Some(false))) = outcome else {
                continue;
            };
            let (result, compiled) = match (&*rule.compiled, fast, &bound) {
                (Ok(_), Some(false), _) => (Ok(false), true),
                (Ok(compiled), _, Ok(bound)) => (compiled.eval_bound(bound), true),
                (Ok(_), _, Err(e)) => (Err(e.clone()), true),
                (Err(e), _, _) => (Err(e.clone()), false),
            };
            match result {
                Ok(true) => {}
                Ok(false) => {
                    let detail = rule
                        .message_expression
                        .as_ref()
                        .and_then(|e| message_from_expression(e, value, node))
                        .or_else(|| rule.message.clone())
                        .unwrap_or_else(|| default_message(rule));
                    self.rule_failed(node, schema, rule, span, detail);
                }
                Err(e) if compiled && is_data_error(&e) => {
                    self.rule_failed(node, schema, rule, span, data_error_detail(rule, &e));
                }
                Err(e) => self.not_evaluated(rule, span, &e),
            }
        }
    }

    /// GW113: the rule could not be evaluated (`why`), so the object is not checked against it.
    fn not_evaluated(&mut self, rule: &Rule, span: Span, why: &str) {
        let path = self.path_string();
        let what = rule
            .message
            .clone()
            .unwrap_or_else(|| default_message(rule));
        let message = format!(
            "{}: rule not evaluated ({why}); it checks: {what}",
            display_path(&path)
        );
        self.emit_diag(
            Diagnostic::new(rules::GW113, message)
                .at(self.file, span)
                .with_resource(Some(self.resource.clone()))
                .with_path(path)
                .with_help(format!("rule: {}", rule.rule.trim())),
        );
    }

    fn rule_failed(
        &mut self,
        node: &'v Node,
        schema: &SchemaNode,
        rule: &Rule,
        span: Span,
        detail: String,
    ) {
        let mut path = self.path_string();
        let mut span = span;
        if let Some(fp) = rule.field_path.as_deref() {
            let rel = fp.trim_start_matches('.');
            if let Some(target) = node.lookup(rel) {
                span = target.span;
            }
            if !rel.is_empty() {
                if !path.is_empty() && !rel.starts_with('[') {
                    path.push('.');
                }
                path.push_str(rel);
            }
        }
        let p = display_path(&path);
        let message = match rule.reason {
            Reason::Invalid => {
                let ty = schema.ty.map_or("", JsonType::name);
                format!("{p}: Invalid value: \"{ty}\": {detail}")
            }
            Reason::Forbidden => format!("{p}: Forbidden: {detail}"),
            Reason::Required => format!("{p}: Required value: {detail}"),
            Reason::Duplicate => format!("{p}: Duplicate value: {detail}"),
        };
        self.emit(rules::GW112, span, path, message);
    }
}
