//! JSON values built by moving their parts in: `json!` copies each value it is given through
//! serialisation, which showed for the large values (a listener's filter chains) and the many
//! small ones (each route's matches, each policy's features and statuses) the renderers make.

use serde_json::Value;

/// An object of the fields given, in their order.
pub fn object<const N: usize>(fields: [(&str, Value); N]) -> Value {
    Value::Object(
        fields
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    )
}

/// `{key: value}`.
pub fn single(key: &str, value: impl Into<Value>) -> Value {
    object([(key, value.into())])
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::{object, single};

    #[test]
    fn objects_are_what_json_makes() {
        let fields = object([("b", json!(1)), ("a", json!([true])), ("c", Value::Null)]);
        assert_eq!(fields, json!({"b": 1, "a": [true], "c": null}));
        assert_eq!(single("k", "v"), json!({"k": "v"}));
    }
}
