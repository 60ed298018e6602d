//! The spanned tree: every key and value keeps its byte span in the source file.

pub use super::text::Text;
use crate::source::Span;

/// A YAML/JSON node with its span. Scalars are resolved with the YAML 1.2 core schema
/// (what `kubectl` sends as JSON), and plain scalars keep a note of it for YAML 1.1 warnings.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub span: Span,
    pub value: Value,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Int(i64),
    /// Floats, and integers beyond i64 (kept as f64, as JSON decoders do).
    Float(f64),
    Str(Str),
    /// Collections are exact-size slices: no spare capacity is kept in the tree.
    Seq(Box<[Node]>),
    Map(Box<[Entry]>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Str {
    /// The text, and whether it was unquoted in the source (plain style): `on`, `yes` ... are
    /// then YAML 1.1 booleans to the API server.
    pub text: Text,
}

impl Str {
    pub fn new(text: &str, plain: bool) -> Str {
        Str {
            text: Text::with_flag(text, plain),
        }
    }

    /// Unquoted in the source.
    pub fn plain(&self) -> bool {
        self.text.flag()
    }
}

/// A mapping entry. Keys are strings (non-string keys are converted to their text, as JSON needs).
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub key: Text,
    pub key_span: Span,
    pub value: Node,
}

/// One step of a field path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathSeg<'a> {
    Key(&'a str),
    Index(usize),
}

impl Node {
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.entry(key).map(|e| &e.value)
    }

    pub fn entry(&self, key: &str) -> Option<&Entry> {
        match &self.value {
            Value::Map(entries) => entries.iter().find(|e| e.key == key),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::Str(s) => Some(&s.text),
            _ => None,
        }
    }

    pub fn as_map(&self) -> Option<&[Entry]> {
        match &self.value {
            Value::Map(entries) => Some(entries),
            _ => None,
        }
    }

    pub fn as_seq(&self) -> Option<&[Node]> {
        match &self.value {
            Value::Seq(items) => Some(items),
            _ => None,
        }
    }

    /// JSON type name as the API server prints it (`string`, `integer`, `number`, `boolean`, `object`, `array`, `null`).
    pub fn type_name(&self) -> &'static str {
        match &self.value {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Int(_) => "integer",
            Value::Float(_) => "number",
            Value::Str(_) => "string",
            Value::Seq(_) => "array",
            Value::Map(_) => "object",
        }
    }

    /// The node at a field path such as `spec.listeners[2].port`, with the span best used as a label:
    /// for a path ending in a key, the value's span.
    pub fn lookup(&self, path: &str) -> Option<&Node> {
        let mut node = self;
        for seg in parse_path(path)? {
            node = match seg {
                PathSeg::Key(k) => node.get(k)?,
                PathSeg::Index(i) => node.as_seq()?.get(i)?,
            };
        }
        Some(node)
    }

    /// Converts to JSON (for CEL contexts, `--format json` echoes and tests).
    pub fn to_json(&self) -> serde_json::Value {
        match &self.value {
            Value::Null => serde_json::Value::Null,
            Value::Bool(b) => serde_json::Value::Bool(*b),
            Value::Int(i) => serde_json::Value::from(*i),
            Value::Float(f) => serde_json::Number::from_f64(*f)
                .map(serde_json::Value::Number)
                .unwrap_or(serde_json::Value::Null),
            Value::Str(s) => serde_json::Value::String(s.text.to_string()),
            Value::Seq(items) => {
                serde_json::Value::Array(items.iter().map(Node::to_json).collect())
            }
            Value::Map(entries) => serde_json::Value::Object(
                entries
                    .iter()
                    .map(|e| (e.key.to_string(), e.value.to_json()))
                    .collect(),
            ),
        }
    }
}

/// Splits `a.b[2].c` into segments; `None` when malformed.
pub fn parse_path(path: &str) -> Option<Vec<PathSeg<'_>>> {
    let mut segs = Vec::new();
    for part in path.split('.').filter(|p| !p.is_empty()) {
        let (key, mut rest) = match part.find('[') {
            Some(i) => (&part[..i], &part[i..]),
            None => (part, ""),
        };
        if !key.is_empty() {
            segs.push(PathSeg::Key(key));
        }
        while let Some(stripped) = rest.strip_prefix('[') {
            let close = stripped.find(']')?;
            segs.push(PathSeg::Index(stripped[..close].parse().ok()?));
            rest = &stripped[close + 1..];
        }
        if !rest.is_empty() {
            return None;
        }
    }
    Some(segs)
}
