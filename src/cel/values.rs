//! Building `CelValue`s, and lending them to the interpreter without copying strings.
//!
//! Map keys are stored verbatim (never escaped): property-name escaping is undone in the
//! expression instead (see `rewrite`), so that iterating a map yields its real keys.

use std::collections::HashMap;
use std::sync::Arc;

use cel::common::types::{
    CelBool, CelBytes, CelDouble, CelInt, CelList, CelMap, CelMapKey, CelNull, CelString, CelUInt,
};
use cel::common::value::Val;
use cel::objects::{Key, Map};

use super::CelValue;

/// Converts a JSON value (a schema default) into a CEL value. Integral numbers become `int`
/// (or `uint` above `i64::MAX`), others `double`, as the API server decodes JSON.
pub fn from_json(value: &serde_json::Value) -> CelValue {
    match value {
        serde_json::Value::Null => CelValue::Null,
        serde_json::Value::Bool(b) => CelValue::Bool(*b),
        serde_json::Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                CelValue::Int(i)
            } else if let Some(u) = n.as_u64() {
                CelValue::UInt(u)
            } else {
                CelValue::Float(n.as_f64().unwrap_or(f64::NAN))
            }
        }
        serde_json::Value::String(s) => string_value(s),
        serde_json::Value::Array(items) => list_value(items.iter().map(from_json).collect()),
        serde_json::Value::Object(map) => {
            map_value(map.iter().map(|(k, v)| (k.clone(), from_json(v))).collect())
        }
    }
}

/// A map (object) value. Keys are kept as written; a later duplicate replaces an earlier one.
pub fn map_value(entries: Vec<(String, CelValue)>) -> CelValue {
    let map: HashMap<Key, CelValue> = entries
        .into_iter()
        .map(|(k, v)| (Key::String(Arc::new(k)), v))
        .collect();
    CelValue::Map(Map { map: Arc::new(map) })
}

pub fn list_value(items: Vec<CelValue>) -> CelValue {
    CelValue::List(Arc::new(items))
}

pub fn string_value(s: &str) -> CelValue {
    CelValue::String(Arc::new(s.to_string()))
}

/// Lends `value` to the interpreter. The crate's own conversion copies every string; this
/// one borrows them, which matters because `self` is converted on every evaluation.
pub(super) fn to_val(value: &CelValue) -> Box<dyn Val + '_> {
    match value {
        CelValue::Bool(b) => Box::new(CelBool::from(*b)),
        CelValue::Int(i) => Box::new(CelInt::from(*i)),
        CelValue::UInt(u) => Box::new(CelUInt::from(*u)),
        CelValue::Float(f) => Box::new(CelDouble::from(*f)),
        CelValue::String(s) => Box::new(CelString::from(s.as_str())),
        CelValue::Null => Box::new(CelNull),
        CelValue::Bytes(b) => Box::new(CelBytes::from(b.as_slice().to_vec())),
        CelValue::List(items) => {
            let items: Vec<Box<dyn Val + '_>> = items.iter().map(to_val).collect();
            Box::new(CelList::from(items))
        }
        CelValue::Map(map) => {
            let entries: HashMap<CelMapKey<'_>, Box<dyn Val + '_>> = map
                .map
                .iter()
                .map(|(k, v)| (map_key(k), to_val(v)))
                .collect();
            Box::new(CelMap::from(entries))
        }
        // Rare in schema values (durations, timestamps, opaque values): the crate's
        // conversion is fine for them.
        other => {
            let converted: Result<Box<dyn Val>, _> = other.clone().try_into();
            converted.unwrap_or_else(|_| Box::new(CelNull))
        }
    }
}

fn map_key(key: &Key) -> CelMapKey<'_> {
    match key {
        Key::Int(i) => CelMapKey::from(*i),
        Key::Uint(u) => CelMapKey::from(*u),
        Key::Bool(b) => CelMapKey::from(*b),
        Key::String(s) => CelMapKey::from(s.as_str()),
    }
}
