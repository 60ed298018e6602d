//! Turns imported reference CRD versions into this API's schemas, driven by a data file
//! (`schemas/kgateway-transform.yaml`, read as JSON):
//!
//! ```yaml
//! kinds: {OldKind: NewKind, DroppedKind: null}     # renames; null drops the kind
//! words:                                           # whole-word renames, per kind (after kind renames)
//!   - {kinds: [Backend], from: aws, to: cloud}
//! edits:                                           # changes at schema paths of one kind
//!   - {kind: TrafficPolicy, path: .spec.apiKeyAuth, remove: true}
//! formats:                                         # value-semantics annotations (x-gwctl-format)
//!   - {kind: TrafficPolicy, path: .spec.rbac.policy.matchExpressions[], format: cel-expression}
//! ```
//!
//! A word rename applies to property names, `required` and list-map keys, enum values, string
//! defaults, and the text of CEL rules and their messages, so a rule keeps naming the fields it
//! checks. Paths use the reference's index notation: `.spec.a.b[]` (list items), `{}` (map values),
//! `*` (any one property) and `**` (any depth). An edit may instead select nodes by `ruleContains`
//! (every node with a CEL rule containing that text).
//!
//! Edit operations (any combination): `remove` (the property, also from its parent's `required`),
//! `set` (keys merged into the node; creates a missing property), `unset` (keys removed),
//! `removeEnum` (values), `removeRules` (by message), `text` (`[{from, to}]` plain replacements in
//! the node's rules and messages), `required` (`{add: [..], remove: [..]}`).

use regex::Regex;
use serde_json::{Map, Value};

use super::import::ImportedVersion;

/// Applies a transform to imported versions: kinds renamed or dropped, words renamed, edits and
/// format annotations applied. `Err` names a transform entry that matched nothing (a stale entry
/// would otherwise silently stop doing its job when the reference changes).
pub fn apply(
    versions: Vec<ImportedVersion>,
    transform: &Value,
) -> Result<Vec<ImportedVersion>, String> {
    let kinds = transform.get("kinds").and_then(Value::as_object);
    let mut out = Vec::with_capacity(versions.len());
    for mut v in versions {
        match kinds.and_then(|k| k.get(&v.kind)) {
            Some(Value::Null) => continue,
            Some(Value::String(new)) => {
                // The reference's name, for the finding on a manifest that still uses it.
                if let Value::Object(o) = &mut v.schema {
                    o.insert(RENAMED_FROM.into(), Value::String(v.kind.clone()));
                }
                v.kind = new.clone();
            }
            _ => {}
        }
        out.push(v);
    }
    for w in list(transform, "words") {
        let from = text(w, "from")?;
        let to = text(w, "to")?;
        let re = Regex::new(&format!(r"\b{}\b", regex::escape(from)))
            .map_err(|e| format!("word {from}: {e}"))?;
        let mut hit = false;
        for v in out.iter_mut().filter(|v| applies_to(w, &v.kind)) {
            hit |= rename_word(&mut v.schema, &re, to);
        }
        if !hit {
            return Err(format!("word {from}: not found"));
        }
    }
    for (section, is_format) in [("edits", false), ("formats", true)] {
        for e in list(transform, section) {
            let kind = text(e, "kind")?;
            let mut hits = 0;
            for v in out.iter_mut().filter(|v| v.kind == kind) {
                hits += edit_kind(&mut v.schema, e, is_format)?;
            }
            if hits == 0 {
                return Err(format!(
                    "{section}: {kind} {}: no node matched",
                    describe(e)
                ));
            }
        }
    }
    Ok(out)
}

fn list<'a>(v: &'a Value, key: &str) -> &'a [Value] {
    v.get(key)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

fn text<'a>(v: &'a Value, key: &str) -> Result<&'a str, String> {
    v.get(key)
        .and_then(Value::as_str)
        .ok_or(format!("transform entry without {key}: {v}"))
}

fn describe(e: &Value) -> String {
    e.get("path")
        .or(e.get("ruleContains"))
        .and_then(Value::as_str)
        .unwrap_or("?")
        .to_string()
}

fn applies_to(entry: &Value, kind: &str) -> bool {
    match entry.get("kinds").and_then(Value::as_array) {
        Some(kinds) => kinds.iter().any(|k| k.as_str() == Some(kind)),
        None => true,
    }
}

/// Keywords whose value is one schema, a list of schemas, or a map of name -> schema.
const SCHEMA_VALUED: &[&str] = &["items", "additionalProperties", "not"];
const SCHEMA_LISTS: &[&str] = &["oneOf", "anyOf", "allOf"];

/// The schema extension naming a property's (or, on a kind's schema, the kind's) name in the
/// reference, where this API renamed it.
pub const RENAMED_FROM: &str = "x-gwctl-renamed-from";

/// The schema extension mapping the reference's enum values to those this API renamed them to.
pub const RENAMED_VALUES: &str = "x-gwctl-renamed-values";

fn rename_word(schema: &mut Value, re: &Regex, to: &str) -> bool {
    let Value::Object(obj) = schema else {
        return false;
    };
    let mut hit = false;
    let mut replace = |s: &mut String| {
        if re.is_match(s) {
            *s = re.replace_all(s, regex::NoExpand(to)).into_owned();
            hit = true;
        }
    };
    // Enum values renamed keep the reference's value beside them, for the finding on a manifest
    // that still uses it.
    let mut renamed_values = Map::new();
    for key in ["required", "enum", "x-kubernetes-list-map-keys"] {
        if let Some(Value::Array(items)) = obj.get_mut(key) {
            items.iter_mut().for_each(|i| {
                if let Value::String(s) = i {
                    let before = s.clone();
                    replace(s);
                    if key == "enum" && *s != before {
                        renamed_values.insert(before, Value::String(s.clone()));
                    }
                }
            });
        }
    }
    if !renamed_values.is_empty() {
        // Each word's renames beside the earlier words'.
        let entry = obj
            .entry(RENAMED_VALUES)
            .or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(all) = entry {
            all.extend(renamed_values);
        }
    }
    if let Some(Value::String(s)) = obj.get_mut("default") {
        replace(s);
    }
    if let Some(Value::Array(rules)) = obj.get_mut("x-kubernetes-validations") {
        for r in rules.iter_mut().filter_map(Value::as_object_mut) {
            for key in ["rule", "message", "messageExpression", "fieldPath"] {
                if let Some(Value::String(s)) = r.get_mut(key) {
                    replace(s);
                }
            }
        }
    }
    if let Some(Value::Object(props)) = obj.get_mut("properties") {
        let renamed: Map<String, Value> = std::mem::take(props)
            .into_iter()
            .map(|(k, mut v)| {
                let new = re.replace_all(&k, regex::NoExpand(to)).into_owned();
                if new != k {
                    hit = true;
                    // The reference's name, for the finding on a manifest that still uses it.
                    if let Value::Object(o) = &mut v {
                        o.insert(RENAMED_FROM.into(), Value::String(k));
                    }
                }
                (new, v)
            })
            .collect();
        *props = renamed;
        for v in props.values_mut() {
            hit |= rename_word(v, re, to);
        }
    }
    for key in SCHEMA_VALUED {
        if let Some(v) = obj.get_mut(*key) {
            hit |= rename_word(v, re, to);
        }
    }
    for key in SCHEMA_LISTS {
        if let Some(Value::Array(items)) = obj.get_mut(*key) {
            for v in items {
                hit |= rename_word(v, re, to);
            }
        }
    }
    hit
}

/// One step of a path: a property name (or `*`), list items, map values, or any depth.
#[derive(Debug, Clone, PartialEq)]
enum Step {
    Prop(String),
    AnyProp,
    Items,
    Values,
    AnyDepth,
}

/// `.spec.a[].b{}` -> steps. The leading `.` is optional; `**` matches any number of steps.
fn parse_path(path: &str) -> Vec<Step> {
    let mut steps = Vec::new();
    for part in path.trim_start_matches('.').split('.') {
        let mut name = part;
        let mut suffix = Vec::new();
        loop {
            if let Some(n) = name.strip_suffix("[]") {
                suffix.push(Step::Items);
                name = n;
            } else if let Some(n) = name.strip_suffix("{}") {
                suffix.push(Step::Values);
                name = n;
            } else {
                break;
            }
        }
        match name {
            "" => {}
            "*" => steps.push(Step::AnyProp),
            "**" => steps.push(Step::AnyDepth),
            n => steps.push(Step::Prop(n.to_string())),
        }
        steps.extend(suffix.into_iter().rev());
    }
    steps
}

/// Applies one edit (or format) entry to every matching node of a kind's schema; returns how many
/// nodes it changed.
fn edit_kind(schema: &mut Value, e: &Value, is_format: bool) -> Result<usize, String> {
    if let Some(needle) = e.get("ruleContains").and_then(Value::as_str) {
        let mut hits = 0;
        visit_all(schema, &mut |node| {
            if has_rule_containing(node, needle) {
                hits += edit_node(node, e, is_format);
            }
        });
        return Ok(hits);
    }
    let steps = parse_path(text(e, "path")?);
    let remove = e.get("remove").and_then(Value::as_bool) == Some(true);
    // The root schema is the object; paths start at its properties (`.spec`).
    let mut hits = 0;
    if remove {
        let Some((last, parent)) = steps.split_last() else {
            return Err("cannot remove the root".into());
        };
        let Step::Prop(name) = last else {
            return Err(format!("remove needs a property name: {}", describe(e)));
        };
        walk(schema, parent, &mut |node| {
            if let Some(obj) = node.as_object_mut() {
                let removed = obj
                    .get_mut("properties")
                    .and_then(Value::as_object_mut)
                    .and_then(|p| p.remove(name))
                    .is_some();
                if removed {
                    hits += 1;
                    if let Some(Value::Array(req)) = obj.get_mut("required") {
                        req.retain(|r| r.as_str() != Some(name));
                    }
                }
            }
        });
        return Ok(hits);
    }
    let creates = e.get("set").is_some();
    walk_creating(schema, &steps, creates, &mut |node| {
        hits += edit_node(node, e, is_format);
    });
    Ok(hits)
}

fn has_rule_containing(node: &Value, needle: &str) -> bool {
    node.get("x-kubernetes-validations")
        .and_then(Value::as_array)
        .is_some_and(|rules| {
            rules.iter().any(|r| {
                r.get("rule")
                    .and_then(Value::as_str)
                    .is_some_and(|s| s.contains(needle))
            })
        })
}

fn children(node: &mut Value) -> Vec<&mut Value> {
    let mut out = Vec::new();
    if let Value::Object(obj) = node {
        for (k, v) in obj.iter_mut() {
            match k.as_str() {
                "properties" => {
                    if let Value::Object(p) = v {
                        out.extend(p.values_mut());
                    }
                }
                "items" | "additionalProperties" => out.push(v),
                _ => {}
            }
        }
    }
    out
}

fn visit_all(node: &mut Value, f: &mut dyn FnMut(&mut Value)) {
    f(node);
    for c in children(node) {
        visit_all(c, f);
    }
}

fn walk(node: &mut Value, steps: &[Step], f: &mut dyn FnMut(&mut Value)) {
    walk_creating(node, steps, false, f)
}

/// Calls `f` on each node the steps reach. With `create`, a missing last property is created.
fn walk_creating(node: &mut Value, steps: &[Step], create: bool, f: &mut dyn FnMut(&mut Value)) {
    let Some((first, rest)) = steps.split_first() else {
        f(node);
        return;
    };
    match first {
        Step::Prop(name) => {
            let Some(obj) = node.as_object_mut() else {
                return;
            };
            let props = obj.get_mut("properties").and_then(Value::as_object_mut);
            match props {
                Some(p) if p.contains_key(name) => {
                    if let Some(child) = p.get_mut(name) {
                        walk_creating(child, rest, create, f);
                    }
                }
                Some(p) if create && rest.is_empty() => {
                    let child = p.entry(name.clone()).or_insert(Value::Object(Map::new()));
                    f(child);
                }
                _ => {}
            }
        }
        Step::AnyProp => {
            if let Some(Value::Object(p)) = node.get_mut("properties") {
                for child in p.values_mut() {
                    walk_creating(child, rest, create, f);
                }
            }
        }
        Step::Items => {
            if let Some(child) = node.get_mut("items") {
                walk_creating(child, rest, create, f);
            }
        }
        Step::Values => {
            if let Some(child) = node.get_mut("additionalProperties") {
                walk_creating(child, rest, create, f);
            }
        }
        Step::AnyDepth => {
            // Zero steps here, or one step down and `**` again.
            walk_creating(node, rest, create, f);
            for c in children(node) {
                walk_creating(c, steps, create, f);
            }
        }
    }
}

/// Applies the operations of one entry to one node; returns 1 when the node changed.
fn edit_node(node: &mut Value, e: &Value, is_format: bool) -> usize {
    let Some(obj) = node.as_object_mut() else {
        return 0;
    };
    let before = obj.clone();
    if is_format {
        if let Some(f) = e.get("format") {
            obj.insert("x-gwctl-format".into(), f.clone());
        }
        return 1;
    }
    if let Some(Value::Object(set)) = e.get("set") {
        for (k, v) in set {
            obj.insert(k.clone(), v.clone());
        }
    }
    for k in list(e, "unset").iter().filter_map(Value::as_str) {
        obj.remove(k);
    }
    if let Some(Value::Array(values)) = obj.get_mut("enum") {
        values.retain(|v| !list(e, "removeEnum").contains(v));
    }
    if let Some(req) = e.get("required") {
        let mut current: Vec<Value> = obj
            .get("required")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        current.retain(|r| !list(req, "remove").contains(r));
        for a in list(req, "add") {
            if !current.contains(a) {
                current.push(a.clone());
            }
        }
        if current.is_empty() {
            obj.remove("required");
        } else {
            obj.insert("required".into(), Value::Array(current));
        }
    }
    if let Some(Value::Array(rules)) = obj.get_mut("x-kubernetes-validations") {
        let drop = list(e, "removeRules");
        rules.retain(|r| r.get("message").is_none_or(|m| !drop.contains(m)));
        for edit in list(e, "text") {
            let (Some(from), Some(to)) = (
                edit.get("from").and_then(Value::as_str),
                edit.get("to").and_then(Value::as_str),
            ) else {
                continue;
            };
            for r in rules.iter_mut().filter_map(Value::as_object_mut) {
                for key in ["rule", "message"] {
                    if let Some(Value::String(s)) = r.get_mut(key) {
                        *s = s.replace(from, to);
                    }
                }
            }
        }
        if rules.is_empty() {
            obj.remove("x-kubernetes-validations");
        }
    }
    usize::from(*obj != before)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn version(kind: &str, schema: Value) -> ImportedVersion {
        ImportedVersion {
            group: "g.io".into(),
            kind: kind.into(),
            version: "v1".into(),
            served: true,
            scope: "Namespaced".into(),
            status_subresource: true,
            schema,
        }
    }

    #[test]
    fn renames_words_in_names_enums_and_rules_and_edits_paths() {
        let schema = json!({"type": "object", "properties": {"spec": {"type": "object",
            "required": ["aws"],
            "x-kubernetes-validations": [{"rule": "has(self.aws) || self.type == 'AWS'", "message": "aws when AWS"}],
            "properties": {
                "aws": {"type": "object", "properties": {"lambda": {"type": "string"}}},
                "awsome": {"type": "string"},
                "type": {"type": "string", "enum": ["AWS", "Static"]},
                "list": {"type": "array", "items": {"type": "object", "properties": {"expr": {"type": "string"}}}},
                "old": {"type": "string"}}}}});
        let transform = json!({
            "kinds": {"Old": "New", "Gone": null},
            "words": [{"kinds": ["New"], "from": "aws", "to": "cloud"},
                      {"from": "AWS", "to": "Cloud"}],
            "edits": [{"kind": "New", "path": ".spec.old", "remove": true},
                      {"kind": "New", "path": ".spec.type", "removeEnum": ["Static"]},
                      {"kind": "New", "path": ".spec.added", "set": {"type": "integer"}}],
            "formats": [{"kind": "New", "path": "**.list[].expr", "format": "cel-expression"}]
        });
        let out = apply(
            vec![version("Old", schema), version("Gone", json!({}))],
            &transform,
        )
        .unwrap();
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].kind, "New");
        let spec = &out[0].schema["properties"]["spec"];
        assert_eq!(spec["required"], json!(["cloud"]));
        assert!(spec["properties"]["cloud"]["properties"]["lambda"].is_object());
        assert!(spec["properties"]["awsome"].is_object(), "whole words only");
        assert!(spec["properties"].get("old").is_none());
        assert_eq!(spec["properties"]["type"]["enum"], json!(["Cloud"]));
        assert_eq!(spec["properties"]["added"]["type"], "integer");
        assert_eq!(
            spec["x-kubernetes-validations"][0]["rule"],
            "has(self.cloud) || self.type == 'Cloud'"
        );
        assert_eq!(
            spec["properties"]["list"]["items"]["properties"]["expr"]["x-gwctl-format"],
            "cel-expression"
        );
    }

    #[test]
    fn an_entry_that_matches_nothing_is_an_error() {
        let transform = json!({"edits": [{"kind": "K", "path": ".spec.nothing", "remove": true}]});
        let v = version(
            "K",
            json!({"type": "object", "properties": {"spec": {"type": "object"}}}),
        );
        assert!(apply(vec![v], &transform).is_err());
    }
}
