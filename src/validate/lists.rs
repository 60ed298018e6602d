//! x-kubernetes-list-type `set` and `map`: items (or their key fields) must be unique.

use crate::rules;
use std::collections::{BTreeMap, HashMap};

use serde_json::Value as Json;

use crate::diag::Diagnostic;
use crate::parse::{Node, Value};
use crate::schema::compile::{ListType, SchemaNode};

use super::Walker;
use super::messages::{canonical_json, go_value};

impl<'v> Walker<'v> {
    pub(super) fn check_list_type(&mut self, items: &'v [Node], schema: &SchemaNode) {
        if items.len() < 2 {
            return;
        }
        // Each item's identity as text, and how the API server prints it.
        let identity: Vec<Option<(String, String)>> = match &schema.list_type {
            ListType::Atomic => return,
            ListType::Set => items
                .iter()
                .map(|item| {
                    let shown = go_value(item);
                    let key = match &item.value {
                        Value::Seq(_) | Value::Map(_) => shown.clone(),
                        // Tag scalars by type so "1" and 1 differ.
                        _ => format!("{}:{shown}", item.type_name()),
                    };
                    Some((key, shown))
                })
                .collect(),
            ListType::Map(keys) => items
                .iter()
                .map(|item| map_key(item, keys, schema.items.as_deref()))
                .collect(),
        };
        let mut first: HashMap<&str, usize> = HashMap::with_capacity(items.len());
        for (i, id) in identity.iter().enumerate() {
            let Some((key, shown)) = id else { continue };
            match first.get(key.as_str()) {
                None => {
                    first.insert(key, i);
                }
                Some(&j) => {
                    let path = format!("{}[{i}]", self.path_string());
                    let message = format!("{path}: Duplicate value: {shown}");
                    let d = Diagnostic::new(rules::GW109, message)
                        .at(self.file, items[i].span)
                        .with_resource(Some(self.resource.clone()))
                        .with_path(path)
                        .with_related(self.file, items[j].span, "first occurrence");
                    self.emit_diag(d);
                }
            }
        }
    }
}

/// The key fields of a list-map item (defaults filled in), printed as a JSON object with sorted keys.
fn map_key(
    item: &Node,
    keys: &[String],
    item_schema: Option<&SchemaNode>,
) -> Option<(String, String)> {
    let Value::Map(entries) = &item.value else {
        return None;
    };
    let mut key: BTreeMap<&str, Json> = BTreeMap::new();
    for k in keys {
        let value = match entries.iter().find(|e| e.key == *k) {
            // NaN and infinities (reported as such) have no JSON form: not comparable keys.
            Some(e) if matches!(e.value.value, Value::Float(f) if !f.is_finite()) => return None,
            Some(e) if !matches!(e.value.value, Value::Null) => Some(e.value.to_json()),
            _ => item_schema
                .and_then(|s| s.property(k))
                .and_then(|p| p.default.clone()),
        };
        if let Some(v) = value {
            key.insert(k, v);
        }
    }
    let shown = canonical_json(&serde_json::to_value(&key).unwrap_or(Json::Null));
    Some((shown.clone(), shown))
}
