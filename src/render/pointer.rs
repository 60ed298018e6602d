//! JSON pointer lookups for the renderers without allocating: `Value::pointer` unescapes every
//! token into a new `String` (`~1`, `~0`), which showed in render's profile (~5% of its CPU,
//! most of it in the precedence of route matches). The renderers' pointers are literals.

use serde_json::Value;

/// `Value::pointer` without the allocations.
pub trait Pointer {
    /// The value at a JSON pointer (`/a/0/b`), as [`Value::pointer`] finds it.
    fn at(&self, pointer: &str) -> Option<&Value>;
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
            Value::Object(map) => map.get(token),
            Value::Array(items) => index(token).and_then(|i| items.get(i)),
            _ => None,
        })
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
        assert_eq!(v.at("/a/01"), None);
    }
}
