//! OpenAPI v3 schema (JSON) -> a tree of [`SchemaNode`]s ready for validation: regexes and CEL rules
//! compiled once, properties in hash maps. Compiled once per kind version and shared across threads.

use std::collections::HashMap;
use std::sync::Arc;

use regex::Regex;
use serde_json::{Map, Value};

use crate::cel::{CelLimits, CompiledRule};

pub use crate::fasthash::FastMap;

/// JSON types of the `type` keyword.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonType {
    Object,
    Array,
    String,
    Integer,
    Number,
    Boolean,
}

impl JsonType {
    pub fn name(self) -> &'static str {
        match self {
            JsonType::Object => "object",
            JsonType::Array => "array",
            JsonType::String => "string",
            JsonType::Integer => "integer",
            JsonType::Number => "number",
            JsonType::Boolean => "boolean",
        }
    }
}

/// String formats the API server checks. Numeric formats (int32, int64, double) are not checked by
/// the API server for custom resources, so they are not represented.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Ipv4,
    Ipv6,
    Cidr,
    DateTime,
    Date,
    Byte,
    Hostname,
    Uuid,
    Mac,
}

impl Format {
    fn parse(name: &str) -> Option<Format> {
        Some(match name {
            "ipv4" => Format::Ipv4,
            "ipv6" => Format::Ipv6,
            "cidr" => Format::Cidr,
            "date-time" | "datetime" => Format::DateTime,
            "date" => Format::Date,
            "byte" => Format::Byte,
            "hostname" => Format::Hostname,
            "uuid" => Format::Uuid,
            "mac" => Format::Mac,
            _ => return None,
        })
    }
}

/// What a string holds, beyond the API server's checks (schema extension `x-gwctl-format`):
/// gwctl checks the value for what it is (a CEL expression that must parse, a regex that must
/// compile as RE2 ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueFormat {
    CelExpression,
    Regex,
    HeaderName,
    Duration,
    Quantity,
    /// A quantity that counts bytes (a milli suffix is a fraction of a byte).
    ByteSize,
    Jwks,
    Htpasswd,
    /// A transformation template of the proxy data plane (Jinja syntax).
    Template,
    /// A TLS cipher suite name, as the proxy's TLS library knows them.
    TlsCipherSuite,
    /// A TLS key exchange (ECDH) curve name, as the proxy's TLS library knows them.
    TlsCurve,
}

impl ValueFormat {
    pub const ALL: [ValueFormat; 11] = [
        ValueFormat::CelExpression,
        ValueFormat::Regex,
        ValueFormat::HeaderName,
        ValueFormat::Duration,
        ValueFormat::Quantity,
        ValueFormat::ByteSize,
        ValueFormat::Jwks,
        ValueFormat::Htpasswd,
        ValueFormat::Template,
        ValueFormat::TlsCipherSuite,
        ValueFormat::TlsCurve,
    ];

    /// The extension's value naming this format.
    pub fn name(self) -> &'static str {
        match self {
            ValueFormat::CelExpression => "cel-expression",
            ValueFormat::Regex => "regex",
            ValueFormat::HeaderName => "header-name",
            ValueFormat::Duration => "duration",
            ValueFormat::Quantity => "quantity",
            ValueFormat::ByteSize => "byte-size",
            ValueFormat::Jwks => "jwks",
            ValueFormat::Htpasswd => "htpasswd",
            ValueFormat::Template => "template",
            ValueFormat::TlsCipherSuite => "tls-cipher-suite",
            ValueFormat::TlsCurve => "tls-curve",
        }
    }

    pub fn parse(name: &str) -> Option<ValueFormat> {
        ValueFormat::ALL.into_iter().find(|f| f.name() == name)
    }
}

#[derive(Debug, Clone)]
pub struct Pattern {
    pub source: String,
    /// `None` when the pattern does not compile (recorded in [`CompiledSchema::problems`]; the
    /// check is skipped).
    pub regex: Option<Regex>,
}

#[derive(Debug, Clone, Copy)]
pub struct Bound {
    pub value: f64,
    pub exclusive: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum ListType {
    #[default]
    Atomic,
    Set,
    /// Items are objects keyed by these fields.
    Map(Vec<String>),
}

/// How a rule failure is reported (`reason` of x-kubernetes-validations).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    Invalid,
    Forbidden,
    Required,
    Duplicate,
}

/// One x-kubernetes-validations entry.
pub struct Rule {
    pub rule: String,
    /// `Err` holds the compile error; the rule is then reported as not evaluated where it applies.
    pub compiled: Arc<Result<CompiledRule, String>>,
    pub message: Option<String>,
    pub message_expression: Option<Arc<Result<CompiledRule, String>>>,
    /// `.spec.x` style path relative to the node, appended to the node's path when reporting.
    pub field_path: Option<String>,
    pub reason: Reason,
    /// The API server's compile-time estimate of the rule's cost in one object (see
    /// [`crate::cel::STATIC_COST_LIMIT`]); 0 for a rule that does not compile.
    pub estimated_cost: u64,
}

impl Rule {
    pub fn is_transition(&self) -> bool {
        match &*self.compiled {
            Ok(c) => c.is_transition_rule(),
            Err(_) => self.rule.contains("oldSelf"),
        }
    }

    /// The rule needs a CEL value of its node up front: the tree evaluator cannot run it.
    pub fn needs_value(&self) -> bool {
        matches!(&*self.compiled, Ok(c) if !c.is_fast() && !c.is_transition_rule())
    }
}

/// What the CEL tree evaluator reads of a schema: declared fields, items, defaults, nullability.
impl crate::cel::SchemaView for SchemaNode {
    fn property(&self, name: &str) -> Option<&dyn crate::cel::SchemaView> {
        self.field(name).map(|s| s as &dyn crate::cel::SchemaView)
    }
    fn items(&self) -> Option<&dyn crate::cel::SchemaView> {
        self.items
            .as_deref()
            .map(|s| s as &dyn crate::cel::SchemaView)
    }
    fn default_value(&self) -> Option<&serde_json::Value> {
        self.default.as_ref()
    }
    fn nullable(&self) -> bool {
        self.nullable
    }
    fn defaults_fields(&self) -> bool {
        self.defaults_fields
    }
}

/// What an object accepts besides its declared properties.
#[derive(Default)]
pub enum Additional {
    /// Undeclared fields are unknown fields (the API server prunes or rejects them).
    #[default]
    Unknown,
    /// `additionalProperties: true` or preserve-unknown-fields.
    Any,
    /// A map whose values follow this schema.
    Schema(Box<SchemaNode>),
}

#[derive(Default)]
pub struct SchemaNode {
    pub ty: Option<JsonType>,
    pub nullable: bool,
    pub int_or_string: bool,
    pub preserve_unknown: bool,
    pub embedded_resource: bool,
    pub properties: Option<FastMap<Box<str>, SchemaNode>>,
    /// Property names in schema order (for suggestions and defaulting in a stable order).
    pub property_names: Vec<Box<str>>,
    /// Properties this API renamed from the reference's names: (the reference's, this API's).
    pub renamed: Vec<(Box<str>, Box<str>)>,
    /// Enum values this API renamed from the reference's: (the reference's, this API's).
    pub renamed_values: Vec<(Box<str>, Box<str>)>,
    pub additional: Additional,
    pub required: Vec<Box<str>>,
    pub items: Option<Box<SchemaNode>>,
    pub enum_values: Option<Vec<Value>>,
    pub pattern: Option<Pattern>,
    pub min_length: Option<u64>,
    pub max_length: Option<u64>,
    pub minimum: Option<Bound>,
    pub maximum: Option<Bound>,
    pub multiple_of: Option<f64>,
    pub min_items: Option<u64>,
    pub max_items: Option<u64>,
    pub min_properties: Option<u64>,
    pub max_properties: Option<u64>,
    pub format: Option<Format>,
    /// `x-gwctl-format`: checked by gwctl's value checkers (strings only).
    pub value_format: Option<ValueFormat>,
    pub default: Option<Value>,
    pub list_type: ListType,
    pub one_of: Vec<SchemaNode>,
    pub any_of: Vec<SchemaNode>,
    pub all_of: Vec<SchemaNode>,
    pub not: Option<Box<SchemaNode>>,
    pub rules: Vec<Rule>,
    /// This node or a node below it has CEL rules (subtrees without any skip rule bookkeeping).
    pub rules_below: bool,
    /// A field of this object has a default (declared or via additionalProperties): an absent
    /// field may read as a value.
    pub defaults_fields: bool,
}

impl SchemaNode {
    /// This API's name for the reference's `name`, in one of the node's rename lists
    /// (the `renamed` fields, the `renamed_values` of an enum).
    pub fn rename_of<'s>(list: &'s [(Box<str>, Box<str>)], name: &str) -> Option<&'s str> {
        list.iter()
            .find(|(from, _)| **from == *name)
            .map(|(_, to)| &**to)
    }

    pub fn property(&self, name: &str) -> Option<&SchemaNode> {
        self.properties.as_ref()?.get(name)
    }

    /// The schema of an object's field `name`, declared or via additionalProperties.
    pub fn field(&self, name: &str) -> Option<&SchemaNode> {
        match self.property(name) {
            Some(s) => Some(s),
            None => match &self.additional {
                Additional::Schema(s) => Some(s),
                _ => None,
            },
        }
    }

    /// Accepts fields it does not declare.
    pub fn allows_unknown(&self) -> bool {
        self.preserve_unknown || matches!(self.additional, Additional::Any)
    }

    pub fn has_combinators(&self) -> bool {
        !self.one_of.is_empty()
            || !self.any_of.is_empty()
            || !self.all_of.is_empty()
            || self.not.is_some()
    }
}

/// A compiled schema and what could not be compiled in it.
pub struct CompiledSchema {
    pub root: SchemaNode,
    /// Patterns that do not compile (their checks are skipped), as `path: error`.
    pub problems: Vec<String>,
}

/// [`compile_with`] under the default CEL limits (the built-in schemas).
pub fn compile(schema: &Value) -> CompiledSchema {
    compile_with(schema, &CelLimits::default())
}

/// Compiles a structural schema, its CEL rules under `cel_limits`. Never fails: unusable parts
/// are recorded in `problems`.
pub fn compile_with(schema: &Value, cel_limits: &CelLimits) -> CompiledSchema {
    let mut cx = Compiler {
        cel_limits: *cel_limits,
        ..Compiler::default()
    };
    let mut root = cx.node(schema, "");
    super::cost::estimate_rule_costs(&mut root, 1);
    CompiledSchema {
        root,
        problems: cx.problems,
    }
}

#[derive(Default)]
struct Compiler {
    problems: Vec<String>,
    regexes: HashMap<String, Option<Regex>>,
    rules: HashMap<String, Arc<Result<CompiledRule, String>>>,
    cel_limits: CelLimits,
}

impl Compiler {
    fn cel(&mut self, src: &str) -> Arc<Result<CompiledRule, String>> {
        self.rules
            .entry(src.to_string())
            .or_insert_with(|| Arc::new(CompiledRule::compile_with(src, &self.cel_limits)))
            .clone()
    }

    /// One schema object, by concept: its own keywords, the string checks that may not compile,
    /// its children, its CEL rules.
    fn node(&mut self, s: &Value, path: &str) -> SchemaNode {
        let Value::Object(o) = s else {
            return SchemaNode::default();
        };
        let mut n = keywords(o);
        self.string_checks(o, path, &mut n);
        self.children(o, path, &mut n);
        if let Some(Value::Array(rules)) = o.get("x-kubernetes-validations") {
            n.rules = rules.iter().filter_map(|r| self.rule(r)).collect();
            n.rules_below |= !n.rules.is_empty();
        }
        n
    }

    /// `x-gwctl-format` and `pattern`: recorded in `problems` when unusable.
    fn string_checks(&mut self, o: &Map<String, Value>, path: &str, n: &mut SchemaNode) {
        let str_of = |k: &str| o.get(k).and_then(Value::as_str);
        if let Some(name) = str_of("x-gwctl-format") {
            n.value_format = ValueFormat::parse(name);
            if n.value_format.is_none() {
                self.problems
                    .push(format!("{path}: unknown x-gwctl-format {name:?}"));
            }
        }
        if let Some(src) = str_of("pattern") {
            let regex = self
                .regexes
                .entry(src.to_string())
                .or_insert_with(|| Regex::new(src).ok())
                .clone();
            if regex.is_none() {
                self.problems
                    .push(format!("{path}: pattern {src:?} does not compile"));
            }
            n.pattern = Some(Pattern {
                source: src.to_string(),
                regex,
            });
        }
    }

    /// Properties, additionalProperties, items and the combinators, each compiled in turn;
    /// `rules_below` gathered from them.
    fn children(&mut self, o: &Map<String, Value>, path: &str, n: &mut SchemaNode) {
        if let Some(Value::Object(props)) = o.get("properties") {
            let mut map = FastMap::default();
            for (name, sub) in props {
                let child = self.node(sub, &format!("{path}.{name}"));
                n.rules_below |= child.rules_below;
                if let Some(Value::String(from)) = sub.get(super::transform::RENAMED_FROM) {
                    n.renamed
                        .push((Box::from(from.as_str()), Box::from(name.as_str())));
                }
                n.property_names.push(Box::from(name.as_str()));
                map.insert(Box::from(name.as_str()), child);
            }
            n.properties = Some(map);
        }
        n.additional = match o.get("additionalProperties") {
            Some(Value::Bool(true)) => Additional::Any,
            Some(sub @ Value::Object(_)) => {
                let child = self.node(sub, &format!("{path}.*"));
                n.rules_below |= child.rules_below;
                Additional::Schema(Box::new(child))
            }
            _ if n.preserve_unknown => Additional::Any,
            _ => Additional::Unknown,
        };
        n.defaults_fields = n
            .properties
            .iter()
            .flat_map(|map| map.values())
            .chain(match &n.additional {
                Additional::Schema(s) => Some(&**s),
                _ => None,
            })
            .any(|s| s.default.is_some());
        if let Some(items) = o.get("items") {
            let child = self.node(items, &format!("{path}[*]"));
            n.rules_below |= child.rules_below;
            n.items = Some(Box::new(child));
        }
        let list = |cx: &mut Compiler, key: &str| -> Vec<SchemaNode> {
            o.get(key)
                .and_then(Value::as_array)
                .map(|alts| {
                    alts.iter()
                        .map(|a| cx.node(a, &format!("{path}({key})")))
                        .collect()
                })
                .unwrap_or_default()
        };
        n.one_of = list(self, "oneOf");
        n.any_of = list(self, "anyOf");
        n.all_of = list(self, "allOf");
        if let Some(not) = o.get("not") {
            n.not = Some(Box::new(self.node(not, &format!("{path}(not)"))));
        }
    }

    /// One `x-kubernetes-validations` entry; `None` without a `rule`.
    fn rule(&mut self, r: &Value) -> Option<Rule> {
        let src = r.get("rule").and_then(Value::as_str)?;
        let compiled = self.cel(src);
        let text = |k: &str| r.get(k).and_then(Value::as_str).map(str::to_string);
        Some(Rule {
            rule: src.to_string(),
            compiled,
            message: text("message"),
            message_expression: r
                .get("messageExpression")
                .and_then(Value::as_str)
                .map(|e| self.cel(e)),
            field_path: text("fieldPath"),
            reason: match r.get("reason").and_then(Value::as_str) {
                Some("FieldValueForbidden") => Reason::Forbidden,
                Some("FieldValueRequired") => Reason::Required,
                Some("FieldValueDuplicate") => Reason::Duplicate,
                _ => Reason::Invalid,
            },
            estimated_cost: 0,
        })
    }
}

/// The keywords that need no compiling: type, flags, bounds, format, default, enum, list type,
/// required.
fn keywords(o: &Map<String, Value>) -> SchemaNode {
    let str_of = |k: &str| o.get(k).and_then(Value::as_str);
    let bool_of = |k: &str| o.get(k).and_then(Value::as_bool).unwrap_or(false);
    let u64_of = |k: &str| o.get(k).and_then(Value::as_u64);
    let bound = |k: &str, exclusive: &str| {
        o.get(k).and_then(Value::as_f64).map(|value| Bound {
            value,
            exclusive: bool_of(exclusive),
        })
    };
    SchemaNode {
        ty: str_of("type").and_then(|t| {
            Some(match t {
                "object" => JsonType::Object,
                "array" => JsonType::Array,
                "string" => JsonType::String,
                "integer" => JsonType::Integer,
                "number" => JsonType::Number,
                "boolean" => JsonType::Boolean,
                _ => return None,
            })
        }),
        nullable: bool_of("nullable"),
        int_or_string: bool_of("x-kubernetes-int-or-string"),
        preserve_unknown: bool_of("x-kubernetes-preserve-unknown-fields"),
        embedded_resource: bool_of("x-kubernetes-embedded-resource"),
        min_length: u64_of("minLength"),
        max_length: u64_of("maxLength"),
        min_items: u64_of("minItems"),
        max_items: u64_of("maxItems"),
        min_properties: u64_of("minProperties"),
        max_properties: u64_of("maxProperties"),
        multiple_of: o.get("multipleOf").and_then(Value::as_f64),
        minimum: bound("minimum", "exclusiveMinimum"),
        maximum: bound("maximum", "exclusiveMaximum"),
        format: str_of("format").and_then(Format::parse),
        default: o.get("default").cloned(),
        enum_values: o.get("enum").and_then(Value::as_array).cloned(),
        list_type: match str_of("x-kubernetes-list-type") {
            Some("set") => ListType::Set,
            Some("map") => ListType::Map(
                strings(o, "x-kubernetes-list-map-keys")
                    .map(str::to_string)
                    .collect(),
            ),
            _ => ListType::Atomic,
        },
        required: strings(o, "required").map(Box::from).collect(),
        renamed_values: o
            .get(super::transform::RENAMED_VALUES)
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .filter_map(|(from, to)| Some((Box::from(from.as_str()), Box::from(to.as_str()?))))
            .collect(),
        ..SchemaNode::default()
    }
}

/// The strings of the array `key` (none when absent or not an array).
fn strings<'a>(o: &'a Map<String, Value>, key: &str) -> impl Iterator<Item = &'a str> {
    o.get(key)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn compiles_keywords_and_records_bad_patterns() {
        let c = compile(&json!({
            "type": "object",
            "required": ["a"],
            "properties": {
                "a": {"type": "string", "pattern": "^(a$", "maxLength": 3},
                "b": {"type": "array", "x-kubernetes-list-type": "map",
                      "x-kubernetes-list-map-keys": ["name"],
                      "items": {"type": "object", "x-kubernetes-validations": [{"rule": "true", "reason": "FieldValueForbidden"}]}},
                "c": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 1}}
            }
        }));
        let root = &c.root;
        assert_eq!(root.ty, Some(JsonType::Object));
        assert_eq!(root.required, vec![Box::from("a")]);
        let a = root.property("a").unwrap();
        assert!(a.pattern.as_ref().unwrap().regex.is_none());
        assert_eq!(c.problems.len(), 1);
        assert_eq!(a.max_length, Some(3));
        let b = root.property("b").unwrap();
        assert_eq!(b.list_type, ListType::Map(vec!["name".into()]));
        assert!(root.rules_below && b.rules_below);
        assert_eq!(b.items.as_ref().unwrap().rules[0].reason, Reason::Forbidden);
        let c_field = root.property("c").unwrap().field("anything").unwrap();
        assert_eq!(c_field.minimum.unwrap().value, 1.0);
    }
}
