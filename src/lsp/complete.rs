//! Completion: field names and enum values from the schema at the cursor's path, `kind` and
//! `apiVersion` pairs, and in references the names of existing objects of the right kind,
//! namespaces, and the listener or rule names a sectionName can take. The path is read from the
//! text's indentation, since the line being typed often does not parse yet.

use std::collections::BTreeSet;

use lsp_types::{CompletionItem, CompletionItemKind, CompletionParams, CompletionResponse};
use serde_json::Value as Json;

use crate::model::facts::{Facts, Spec};
use crate::report::lsp::offset;
use crate::schema::Registry;
use crate::source::SourceFile;

use super::hover::schema_of;
use super::locate::Seg;
use super::workspace::Workspace;

/// The line being typed: the mapping it is in, its key, and the value so far when past `:`.
#[derive(Debug, PartialEq, Eq)]
struct Typing {
    /// The path of the mapping holding the key (list items as index 0).
    parent: Vec<Seg>,
    key: String,
    /// `Some` when the cursor is in the key's value.
    value: Option<String>,
    /// The other keys of the mapping with their values (for a reference: its kind and name).
    siblings: Vec<(String, String)>,
}

pub fn completion(ws: &Workspace, p: CompletionParams) -> Option<CompletionResponse> {
    let at = p.text_document_position;
    let file = ws.file(&super::path_of(&at.text_document.uri)?)?;
    let cursor = offset(file, at.position);
    let typing = typing(file, cursor);
    let items = match &typing.value {
        Some(_) => values(ws, file, cursor, &typing),
        None => fields(ws, file, cursor, &typing),
    };
    Some(CompletionResponse::Array(items))
}

/// `(indentation, whether a "- " item marker follows, the rest)` of a line.
fn split_line(line: &str) -> (usize, bool, &str) {
    let spaces = line.len() - line.trim_start_matches(' ').len();
    let rest = &line[spaces..];
    match rest
        .strip_prefix("- ")
        .or_else(|| (rest == "-").then_some(""))
    {
        Some(after) => {
            let more = after.len() - after.trim_start_matches(' ').len();
            (spaces, true, &after[more..])
        }
        None => (spaces, false, rest),
    }
}

/// The key of a `key: value` text and its value.
fn key_value(rest: &str) -> Option<(&str, &str)> {
    let (k, v) = rest.split_once(':')?;
    let k = k.trim().trim_matches(['"', '\'']);
    (!k.is_empty() && !k.contains(' ')).then(|| (k, v.trim().trim_matches(['"', '\''])))
}

fn is_skipped(line: &str) -> bool {
    let t = line.trim();
    t.is_empty() || t.starts_with('#')
}

fn typing(file: &SourceFile, cursor: usize) -> Typing {
    let line_no = file.line_index(cursor);
    let (range, _) = file.line_range(line_no);
    let before = &file.text[range.start..cursor.max(range.start)];
    let (spaces, dash, rest) = split_line(before);
    let key_col = spaces
        + if dash {
            before[spaces..].len() - rest.len()
        } else {
            0
        };
    let (key, value) = match key_value(rest) {
        Some((k, v)) => (k.to_string(), Some(v.to_string())),
        None => (rest.trim().to_string(), None),
    };
    let mut parent = Vec::new();
    // The column a parent's key must be left of; a list item's parent key may be level with
    // its dash.
    let mut limit = key_col;
    let mut level_ok = false;
    if dash {
        parent.push(Seg::Index(0));
        limit = spaces;
        level_ok = true;
    }
    for l in (0..line_no).rev() {
        let line = file.line_text(l + 1);
        if line.starts_with("---") {
            break;
        }
        if is_skipped(line) {
            continue;
        }
        let (sp, d, r) = split_line(line);
        let col = sp + if d { line[sp..].len() - r.len() } else { 0 };
        if d && (sp < limit || (level_ok && sp <= limit)) && col >= limit {
            // Inside this list item (its key is a sibling, not a parent).
            parent.push(Seg::Index(0));
            limit = sp;
            level_ok = true;
            continue;
        }
        if col < limit || (level_ok && col <= limit && !d) {
            if let Some((k, _)) = key_value(r) {
                parent.push(Seg::Key(k.to_string()));
            }
            if d {
                parent.push(Seg::Index(0));
            }
            limit = sp;
            level_ok = d;
            if sp == 0 && !d {
                break;
            }
        }
    }
    parent.reverse();
    Typing {
        siblings: siblings(file, line_no, key_col),
        parent,
        key,
        value,
    }
}

/// The keys written at `col` around line `line_no`, in the same mapping.
fn siblings(file: &SourceFile, line_no: usize, col: usize) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut scan = |l: usize| -> bool {
        let line = file.line_text(l + 1);
        if is_skipped(line) {
            return true;
        }
        if line.starts_with("---") {
            return false;
        }
        let (sp, d, r) = split_line(line);
        let c = sp + if d { line[sp..].len() - r.len() } else { 0 };
        if c == col {
            if let Some((k, v)) = key_value(r) {
                out.push((k.to_string(), v.to_string()));
            }
            // A dash at this key's item starts the mapping: going up, it is the last line;
            // going down, it is the next item's. Either way the scan stops there.
            return !d;
        }
        c > col
    };
    for l in (0..line_no).rev() {
        if !scan(l) {
            break;
        }
    }
    for l in line_no + 1..file.line_count() {
        if !scan(l) {
            break;
        }
    }
    // The line being typed is not a sibling; but its own dash line may have been counted above.
    out
}

fn item(label: String, detail: String, kind: CompletionItemKind) -> CompletionItem {
    CompletionItem {
        label,
        detail: Some(detail),
        kind: Some(kind),
        ..CompletionItem::default()
    }
}

/// The `apiVersion` and `kind` of the document the cursor is in, read from its lines (the
/// document being typed may not parse).
fn header(file: &SourceFile, cursor: usize) -> Option<(String, String)> {
    let here = file.line_index(cursor);
    let is_start = |l: usize| file.line_text(l + 1).starts_with("---");
    let first = (0..=here).rev().find(|&l| is_start(l)).map_or(0, |l| l + 1);
    let last = (here + 1..file.line_count())
        .find(|&l| is_start(l))
        .unwrap_or(file.line_count());
    let (mut api_version, mut kind) = (None, None);
    for l in first..last {
        let line = file.line_text(l + 1);
        if let Some((k, v)) = key_value(line).filter(|_| !line.starts_with(' ')) {
            match k {
                "apiVersion" => api_version = Some(v.to_string()),
                "kind" => kind = Some(v.to_string()),
                _ => {}
            }
        }
    }
    Some((api_version?, kind?))
}

fn fields(ws: &Workspace, file: &SourceFile, cursor: usize, t: &Typing) -> Vec<CompletionItem> {
    if t.parent.is_empty() {
        return ["apiVersion", "kind", "metadata", "spec"]
            .into_iter()
            .map(|k| item(k.into(), "field".into(), CompletionItemKind::FIELD))
            .collect();
    }
    let Some((api_version, kind)) = header(file, cursor) else {
        return Vec::new();
    };
    let Some(schema) = schema_of(ws.registry(), (&api_version, &kind), &t.parent) else {
        return Vec::new();
    };
    let written: BTreeSet<&str> = t.siblings.iter().map(|(k, _)| k.as_str()).collect();
    schema
        .get("properties")
        .and_then(Json::as_object)
        .into_iter()
        .flatten()
        .filter(|(k, _)| !written.contains(k.as_str()))
        .map(|(k, v)| {
            let ty = v.get("type").and_then(Json::as_str).unwrap_or("field");
            let mut it = item(k.clone(), ty.to_string(), CompletionItemKind::FIELD);
            it.insert_text = Some(format!("{k}: "));
            it
        })
        .collect()
}

/// The kind a reference field names by default.
fn default_kind(field: &str) -> Option<&'static str> {
    Some(match field {
        "parentRefs" | "parentRef" => "Gateway",
        "backendRefs" | "backendRef" => "Service",
        "certificateRefs" | "caCertificateRefs" | "secretRef" => "Secret",
        "configMapRef" => "ConfigMap",
        "extensionRef" => "GatewayExtension",
        _ => return None,
    })
}

fn values(ws: &Workspace, file: &SourceFile, cursor: usize, t: &Typing) -> Vec<CompletionItem> {
    let registry = ws.registry();
    if t.parent.is_empty()
        && let Some(items) = header_values(registry, &t.key)
    {
        return items;
    }
    let facts = ws
        .run
        .model
        .as_ref()
        .map_or(&[][..], |m| m.facts.as_slice());
    if let Some(items) = reference_values(facts, t) {
        return items;
    }
    // An enumerated field: its values.
    let Some((api_version, kind)) = header(file, cursor) else {
        return Vec::new();
    };
    let mut path = t.parent.clone();
    path.push(Seg::Key(t.key.clone()));
    schema_of(registry, (&api_version, &kind), &path)
        .and_then(|s| {
            s.get("enum")
                .or_else(|| s.get("items").and_then(|i| i.get("enum")))
        })
        .and_then(Json::as_array)
        .into_iter()
        .flatten()
        .filter_map(Json::as_str)
        .map(|v| {
            item(
                v.to_string(),
                "value".into(),
                CompletionItemKind::ENUM_MEMBER,
            )
        })
        .collect()
}

/// A document's `kind` (the registry's kinds) or `apiVersion` (its group versions); `None` for
/// another key.
fn header_values(registry: &Registry, key: &str) -> Option<Vec<CompletionItem>> {
    match key {
        "kind" => Some(
            registry
                .kinds()
                .into_iter()
                .map(|(group, kind, versions)| {
                    let av = api_version(&group, versions.first().map_or("v1", String::as_str));
                    item(kind, av, CompletionItemKind::CLASS)
                })
                .collect(),
        ),
        "apiVersion" => {
            let mut seen = BTreeSet::new();
            Some(
                registry
                    .kinds()
                    .into_iter()
                    .flat_map(|(group, kind, versions)| {
                        versions
                            .into_iter()
                            .map(move |v| (api_version(&group, &v), kind.clone()))
                    })
                    .filter(|(av, _)| seen.insert(av.clone()))
                    .map(|(av, kind)| item(av, format!("e.g. {kind}"), CompletionItemKind::MODULE))
                    .collect(),
            )
        }
        _ => None,
    }
}

/// Inside a reference (a parentRef, backendRef, targetRef ...) or at `gatewayClassName`: the
/// names, namespaces or sectionNames of the model's objects; `None` elsewhere.
fn reference_values(facts: &[Facts], t: &Typing) -> Option<Vec<CompletionItem>> {
    let field = t.parent.iter().rev().find_map(|s| match s {
        Seg::Key(k) => Some(k.as_str()),
        Seg::Index(_) => None,
    });
    let sibling = |name: &str| {
        t.siblings
            .iter()
            .find(|(k, v)| k == name && !v.is_empty())
            .map(|(_, v)| v.as_str())
    };
    let in_ref =
        field.and_then(default_kind).is_some() || matches!(field, Some("targetRefs" | "targetRef"));
    let kind = || sibling("kind").or_else(|| field.and_then(default_kind));
    if t.key == "gatewayClassName" || (in_ref && t.key == "name") {
        let kind = if t.key == "gatewayClassName" {
            Some("GatewayClass")
        } else {
            kind()
        };
        return Some(object_names(facts, kind));
    }
    if !in_ref {
        return None;
    }
    match t.key.as_str() {
        "namespace" => Some(namespaces(facts)),
        "sectionName" => Some(section_names(facts, kind(), sibling("name"))),
        _ => None,
    }
}

/// The names of the objects of `kind` (any kind but policies with `None`), each once.
fn object_names(facts: &[Facts], kind: Option<&str>) -> Vec<CompletionItem> {
    let mut seen = BTreeSet::new();
    facts
        .iter()
        .filter(|f| kind.is_none_or(|k| f.id.kind == k) && !matches!(f.spec, Spec::Policy(_)))
        .filter(|f| seen.insert(f.id.name.clone()))
        .map(|f| {
            item(
                f.id.name.clone(),
                format!("{} {}", f.id.kind, f.id.namespace),
                CompletionItemKind::REFERENCE,
            )
        })
        .collect()
}

/// The namespaces of the model's objects.
fn namespaces(facts: &[Facts]) -> Vec<CompletionItem> {
    let names: BTreeSet<&str> = facts
        .iter()
        .map(|f| f.id.namespace.as_str())
        .filter(|n| !n.is_empty())
        .collect();
    names
        .into_iter()
        .map(|n| {
            item(
                n.to_string(),
                "namespace".into(),
                CompletionItemKind::MODULE,
            )
        })
        .collect()
}

/// The listener names (of Gateways and ListenerSets) and rule names (of routes) a sectionName
/// can pick, on the objects of `kind` named `name` when given.
fn section_names(facts: &[Facts], kind: Option<&str>, name: Option<&str>) -> Vec<CompletionItem> {
    let mut out = BTreeSet::new();
    for f in facts.iter().filter(|f| name.is_none_or(|n| f.id.name == n)) {
        if kind.is_some_and(|k| f.id.kind != k) {
            continue;
        }
        match &f.spec {
            Spec::Gateway { listeners, .. } | Spec::ListenerSet { listeners, .. } => {
                out.extend(listeners.iter().map(|l| (l.name.clone(), "listener")));
            }
            Spec::Route(r) => out.extend(r.rule_names.iter().map(|n| (n.clone(), "rule"))),
            _ => {}
        }
    }
    out.into_iter()
        .filter(|(n, _)| !n.is_empty())
        .map(|(n, what)| item(n, what.into(), CompletionItemKind::ENUM_MEMBER))
        .collect()
}

fn api_version(group: &str, version: &str) -> String {
    if group.is_empty() {
        version.to_string()
    } else {
        format!("{group}/{version}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> Typing {
        let cursor = text.find('|').unwrap_or(text.len());
        let file = SourceFile::new(0, "a.yaml", text.replace('|', ""));
        typing(&file, cursor)
    }

    #[test]
    fn the_path_comes_from_the_indentation() {
        let t = at("kind: HTTPRoute\nspec:\n  parentRefs:\n  - kind: Gateway\n    name: |\n");
        assert_eq!(
            t.parent,
            [
                Seg::Key("spec".into()),
                Seg::Key("parentRefs".into()),
                Seg::Index(0)
            ]
        );
        assert_eq!(t.key, "name");
        assert_eq!(t.value.as_deref(), Some(""));
        assert_eq!(t.siblings, [("kind".to_string(), "Gateway".to_string())]);
        let t = at("spec:\n  rules:\n    - matches:\n        - path:\n            ty|");
        assert_eq!(
            t.parent,
            [
                Seg::Key("spec".into()),
                Seg::Key("rules".into()),
                Seg::Index(0),
                Seg::Key("matches".into()),
                Seg::Index(0),
                Seg::Key("path".into()),
            ]
        );
        assert_eq!((t.key.as_str(), t.value), ("ty", None));
        let t = at("kind: |");
        assert!(t.parent.is_empty());
        assert_eq!(t.key, "kind");
    }
}
