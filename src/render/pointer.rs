//! JSON pointer lookups for the renderers without allocating: `Value::pointer` unescapes every
//! token into a new `String` (`~1`, `~0`), which showed in render's profile (~5% of its CPU,
//! most of it in the precedence of route matches). The renderers' pointers are literals.
//!
//! A small object's field is found by comparing its few keys: serde_json's maps hash every key
//! looked up with SipHash, which costs more than the comparisons (most objects a renderer reads,
//! a match, a filter, a header, have a handful of fields).

use serde_json::{Map, Value};

/// Objects of up to this many fields are scanned rather than hashed into.
const SCAN: usize = 8;

/// `Value::pointer` without the allocations.
pub trait Pointer {
    /// The value at a JSON pointer (`/a/0/b`), as [`Value::pointer`] finds it.
    fn at(&self, pointer: &str) -> Option<&Value>;

    /// The field `key` of an object, as [`Value::get`] finds it.
    fn field(&self, key: &str) -> Option<&Value>;
}

/// The field `key` of `map`, as [`Map::get`] finds it.
pub fn field<'m>(map: &'m Map<String, Value>, key: &str) -> Option<&'m Value> {
    if map.len() <= SCAN {
        map.iter().find(|(k, _)| k.as_str() == key).map(|(_, v)| v)
    } else {
        map.get(key)
    }
}

impl Pointer for Value {
    fn at(&self, pointer: &str) -> Option<&Value> {
        if pointer.is_empty() {
            return Some(self);
        }
        let tokens = pointer.strip_prefix('/')?;
        // An escaped token (`~0`, `~1`) takes the general path.
        if tokens.contains('~') {
            return self.pointer(pointer);
        }
        tokens.split('/').try_fold(self, |v, token| match v {
            Value::Object(map) => field(map, token),
            Value::Array(items) => index(token).and_then(|i| items.get(i)),
            _ => None,
        })
    }

    fn field(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Object(map) => field(map, key),
            _ => None,
        }
    }
}

/// An array index as a JSON pointer writes it: digits, without a sign or a leading zero.
fn index(token: &str) -> Option<usize> {
    if token.starts_with('+') || (token.starts_with('0') && token.len() != 1) {
        return None;
    }
    token.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::Pointer;
    use serde_json::json;

    #[test]
    fn finds_what_value_pointer_finds() {
        let v = json!({"a": [{"b": 1}, {"c/d": 2, "e~f": 3}], "": {"x": 4}, "0": 5});
        for p in [
            "",
            "/a",
            "/a/0/b",
            "/a/1",
            "/a/01",
            "/a/+1",
            "/a/2",
            "/a/1/c~1d",
            "/a/1/e~0f",
            "/a/0/b/c",
            "a",
            "/",
            "//x",
            "/0",
            "/a/-1",
            "/missing",
        ] {
            assert_eq!(v.at(p), v.pointer(p), "{p}");
        }
        assert_eq!(v.at("/a/0/b"), Some(&json!(1)));
        let wide: serde_json::Map<_, _> = (0..20).map(|i| (format!("k{i}"), json!(i))).collect();
        let wide = serde_json::Value::Object(wide);
        for (value, key) in [
            (&v, "a"),
            (&v, ""),
            (&v, "x"),
            (&wide, "k19"),
            (&wide, "k20"),
        ] {
            assert_eq!(value.field(key), value.get(key), "{key}");
        }
        assert_eq!(json!([1]).field("0"), None);
        assert_eq!(v.at("/a/01"), None);
    }
}
