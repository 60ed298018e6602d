//! CustomResourceDefinition -> per-version schemas. Used to build the embedded bundle and for user
//! CRDs (`--crds`), so it accepts any CRD, not only Gateway API ones.

use serde_json::{Map, Value};

/// One version of a CRD, with its OpenAPI v3 schema stripped of `description`s.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportedVersion {
    pub group: String,
    pub kind: String,
    pub version: String,
    pub served: bool,
    /// `Namespaced` or `Cluster`.
    pub scope: String,
    /// The status subresource is enabled: the API server drops `status` on create, so it is not validated.
    pub status_subresource: bool,
    pub schema: Value,
}

/// True when `doc` is a CustomResourceDefinition (any apiextensions version).
pub fn is_crd(doc: &Value) -> bool {
    doc.get("kind").and_then(Value::as_str) == Some("CustomResourceDefinition")
        && doc
            .get("apiVersion")
            .and_then(Value::as_str)
            .is_some_and(|v| v.starts_with("apiextensions.k8s.io/"))
}

/// The versions of a CRD. `Err` names what is missing. Versions without a schema are returned with
/// an empty schema that accepts anything (`x-kubernetes-preserve-unknown-fields`).
pub fn import_crd(doc: &Value) -> Result<Vec<ImportedVersion>, String> {
    if !is_crd(doc) {
        return Err("not a CustomResourceDefinition".to_string());
    }
    let spec = doc.get("spec").ok_or("CRD has no spec")?;
    let text = |v: Option<&Value>, what: &str| -> Result<String, String> {
        v.and_then(Value::as_str)
            .map(str::to_string)
            .ok_or(format!("CRD has no {what}"))
    };
    let group = text(spec.get("group"), "spec.group")?;
    let kind = text(spec.pointer("/names/kind"), "spec.names.kind")?;
    let scope = spec
        .get("scope")
        .and_then(Value::as_str)
        .unwrap_or("Namespaced")
        .to_string();
    // apiextensions v1beta1 allowed one schema and subresources for all versions at spec level.
    let shared_schema = spec.pointer("/validation/openAPIV3Schema");
    let shared_status = spec.pointer("/subresources/status").is_some();
    let versions = spec
        .get("versions")
        .and_then(Value::as_array)
        .ok_or("CRD has no spec.versions")?;
    let mut out = Vec::with_capacity(versions.len());
    for v in versions {
        let version = text(v.get("name"), "spec.versions[].name")?;
        let served = v.get("served").and_then(Value::as_bool).unwrap_or(true);
        let schema = v
            .pointer("/schema/openAPIV3Schema")
            .or(shared_schema)
            .map(strip_descriptions)
            .map(with_envelope)
            .unwrap_or_else(accept_anything);
        let status_subresource = v.pointer("/subresources/status").is_some() || shared_status;
        out.push(ImportedVersion {
            group: group.clone(),
            kind: kind.clone(),
            version,
            served,
            scope: scope.clone(),
            status_subresource,
            schema,
        });
    }
    Ok(out)
}

/// The API server accepts `apiVersion`, `kind` and `metadata` on every object whether or not the
/// CRD's schema lists them: add them where a schema leaves them out, also to a schema without
/// `properties` (which would otherwise make them unknown fields).
fn with_envelope(mut schema: Value) -> Value {
    let Value::Object(root) = &mut schema else {
        return schema;
    };
    let open = root
        .get("x-kubernetes-preserve-unknown-fields")
        .and_then(Value::as_bool)
        == Some(true);
    if open && !root.contains_key("properties") {
        return schema;
    }
    let props = root
        .entry("properties")
        .or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(props) = props else {
        return schema;
    };
    for (name, ty) in [
        ("apiVersion", "string"),
        ("kind", "string"),
        ("metadata", "object"),
    ] {
        props.entry(name).or_insert_with(|| {
            let mut m = Map::new();
            m.insert("type".into(), ty.into());
            Value::Object(m)
        });
    }
    schema
}

fn accept_anything() -> Value {
    let mut m = Map::new();
    m.insert("type".into(), "object".into());
    m.insert("x-kubernetes-preserve-unknown-fields".into(), true.into());
    Value::Object(m)
}

/// Keywords whose value is a schema, a list of schemas, or a map of name -> schema. Only these are
/// descended into, so a property that happens to be named `description` is kept.
const SCHEMA_VALUED: &[&str] = &["items", "additionalProperties", "not", "additionalItems"];
const SCHEMA_LISTS: &[&str] = &["oneOf", "anyOf", "allOf"];
const SCHEMA_MAPS: &[&str] = &["properties", "patternProperties", "definitions"];

/// A copy of a schema without `description` (documentation, most of a CRD's size).
pub fn strip_descriptions(schema: &Value) -> Value {
    let Value::Object(obj) = schema else {
        return schema.clone();
    };
    let mut out = Map::with_capacity(obj.len());
    for (key, value) in obj {
        let k = key.as_str();
        let stripped = if k == "description" {
            continue;
        } else if SCHEMA_VALUED.contains(&k) {
            strip_descriptions(value)
        } else if SCHEMA_LISTS.contains(&k) {
            match value {
                Value::Array(items) => Value::Array(items.iter().map(strip_descriptions).collect()),
                other => other.clone(),
            }
        } else if SCHEMA_MAPS.contains(&k) {
            match value {
                Value::Object(props) => Value::Object(
                    props
                        .iter()
                        .map(|(name, s)| (name.clone(), strip_descriptions(s)))
                        .collect(),
                ),
                other => other.clone(),
            }
        } else {
            value.clone()
        };
        out.insert(key.clone(), stripped);
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn imports_versions_and_strips_descriptions_but_not_properties_named_description() {
        let crd = json!({
            "apiVersion": "apiextensions.k8s.io/v1",
            "kind": "CustomResourceDefinition",
            "spec": {
                "group": "example.com",
                "names": {"kind": "Widget"},
                "scope": "Cluster",
                "versions": [
                    {"name": "v1", "served": true, "subresources": {"status": {}},
                     "schema": {"openAPIV3Schema": {
                        "description": "doc", "type": "object",
                        "properties": {"description": {"type": "string", "description": "doc"},
                                       "list": {"type": "array", "items": {"description": "x", "type": "integer"}}}}}},
                    {"name": "v0", "served": false}
                ]
            }
        });
        let versions = import_crd(&crd).unwrap();
        assert_eq!(versions.len(), 2);
        assert_eq!(versions[0].kind, "Widget");
        assert_eq!(versions[0].scope, "Cluster");
        assert!(versions[0].status_subresource);
        assert_eq!(
            versions[0].schema,
            json!({"type": "object", "properties": {
                "description": {"type": "string"},
                "list": {"type": "array", "items": {"type": "integer"}},
                "apiVersion": {"type": "string"}, "kind": {"type": "string"},
                "metadata": {"type": "object"}}})
        );
        assert!(!versions[1].served);
        assert_eq!(
            versions[1].schema["x-kubernetes-preserve-unknown-fields"],
            json!(true)
        );
    }

    #[test]
    fn rejects_other_kinds() {
        assert!(import_crd(&json!({"apiVersion": "v1", "kind": "Service"})).is_err());
    }
}
