//! The controller setting `discoveryNamespaceSelectors` (chart value): the controller watches
//! only the namespaces whose labels one of the selectors matches, so what is in the others is
//! not there for it. Without selectors every namespace is watched.

use serde_json::Value;

use crate::fasthash::FastMap;
use crate::model::facts::Facts;

// The label every namespace carries, with its own name (set by the API server).
use crate::model::facts::NAMESPACE_NAME_LABEL as NAME_LABEL;

pub struct Discovery<'a> {
    selectors: &'a [Value],
    /// Labels of the Namespaces in the inputs.
    labels: FastMap<&'a str, &'a [(String, String)]>,
}

impl<'a> Discovery<'a> {
    pub fn new(facts: &'a [Facts], selectors: &'a [Value]) -> Self {
        let mut labels = FastMap::default();
        if !selectors.is_empty() {
            for f in facts.iter().filter(|f| f.id.kind == "Namespace") {
                labels.insert(f.id.name.as_str(), f.labels.as_slice());
            }
        }
        Discovery { selectors, labels }
    }

    /// Whether the controller sees objects of `namespace` (cluster-scoped ones always).
    pub fn sees(&self, namespace: &str) -> bool {
        if self.selectors.is_empty() || namespace.is_empty() {
            return true;
        }
        let label = |key: &str| -> Option<&str> {
            if key == NAME_LABEL {
                return Some(namespace);
            }
            let labels = self.labels.get(namespace)?;
            // A key written twice has its last value, as in JSON.
            labels
                .iter()
                .rev()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.as_str())
        };
        self.selectors.iter().any(|s| matches(s, &label))
    }
}

/// A label selector (matchLabels and matchExpressions, all of them) against labels.
fn matches<'l>(selector: &Value, label: &impl Fn(&str) -> Option<&'l str>) -> bool {
    let by_labels = selector
        .get("matchLabels")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .all(|(k, v)| label(k) == v.as_str());
    let expressions = selector
        .get("matchExpressions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten();
    by_labels
        && expressions.into_iter().all(|e| {
            let key = e.get("key").and_then(Value::as_str).unwrap_or("");
            let values: Vec<&str> = e
                .get("values")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            let have = label(key);
            match e.get("operator").and_then(Value::as_str) {
                Some("In") => have.is_some_and(|v| values.contains(&v)),
                Some("NotIn") => have.is_none_or(|v| !values.contains(&v)),
                Some("Exists") => have.is_some(),
                Some("DoesNotExist") => have.is_none(),
                _ => false,
            }
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn selectors_choose_namespaces_by_label() {
        let selectors = [
            json!({"matchExpressions": [{"key": NAME_LABEL, "operator": "In", "values": ["infra"]}]}),
            json!({"matchLabels": {"app": "a"}}),
        ];
        let labels = [("app".to_string(), "a".to_string())];
        let d = Discovery {
            selectors: &selectors,
            labels: FastMap::from_iter([("a", &labels[..])]),
        };
        assert!(d.sees("infra"), "by its name label");
        assert!(d.sees("a"), "by a label of its Namespace");
        assert!(!d.sees("b"), "no selector matches");
        assert!(d.sees(""), "cluster-scoped");
        let none = Discovery {
            selectors: &[],
            labels: FastMap::default(),
        };
        assert!(none.sees("b"), "no selectors: every namespace");
    }
}
