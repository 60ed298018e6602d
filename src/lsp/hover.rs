//! Hover: on a reference, the object it names (or why it names none); on a Gateway, listener,
//! route or rule, its effective policy as `gwctl explain` prints it; on a policy, where it
//! attaches and its predicted status; on a field, what its schema says.

use lsp_types::{Hover, HoverContents, HoverParams, MarkupContent, MarkupKind};
use serde_json::Value as Json;

use crate::merge::Place;
use crate::merge::explain::{explain, status_index};
use crate::model::facts::Spec;
use crate::parse::Node;
use crate::report::lsp::findings_markdown;
use crate::report::{ExplainFormat, render_explanation};
use crate::resolve::Index;
use crate::run::Model;
use crate::schema::Registry;

use super::locate::{Cursor, RefAt, Seg, fact_at, path_at, ref_at};
use super::workspace::Workspace;

pub fn hover(ws: &Workspace, p: HoverParams) -> Option<Hover> {
    let at = p.text_document_position_params;
    let cursor = Cursor::new(ws, &at.text_document.uri, at.position)?;
    let text = hover_text(ws, &cursor)?;
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: text,
        }),
        range: None,
    })
}

fn hover_text(ws: &Workspace, cursor: &Cursor<'_>) -> Option<String> {
    let root = cursor.object()?;
    let (path, _) = path_at(root, cursor.offset);
    if let Some(model) = &ws.run.model
        && let Some(i) = fact_at(model, cursor.file.id, cursor.offset)
    {
        if let Some(r) = ref_at(&model.facts[i], cursor.offset) {
            return Some(reference(ws, model, &r, cursor.file.id));
        }
        if let Some(place) = place_at(model, i, &path) {
            return Some(match &model.facts[i].spec {
                Spec::Policy(_) => policy(ws, model, i),
                _ => effective(ws, model, place),
            });
        }
    }
    field(registry(ws), root, &path)
}

fn registry(ws: &Workspace) -> &Registry {
    ws.registry()
}

/// The place of the merge a path of object `i` stands for: the object itself (its name, its
/// kind, or no field), a listener, or a rule.
fn place_at(model: &Model, i: usize, path: &[Seg]) -> Option<Place> {
    let key = |n: usize| match path.get(n) {
        Some(Seg::Key(k)) => Some(k.as_str()),
        _ => None,
    };
    let whole = match &model.facts[i].spec {
        Spec::Gateway { .. } | Spec::ListenerSet { .. } => Place::Gateway(i),
        Spec::Route(_) => Place::Route(i),
        Spec::Policy(_) => Place::Gateway(i),
        _ => return None,
    };
    match (key(0), path.get(2), path.len()) {
        (None, _, 0) | (Some("kind"), _, 1) => Some(whole),
        (Some("metadata"), _, 2) if key(1) == Some("name") => Some(whole),
        (Some("spec"), Some(Seg::Index(n)), 3 | 4)
            if key(1) == Some("listeners") && (path.len() == 3 || key(3) == Some("name")) =>
        {
            Some(Place::Listener(i, *n))
        }
        (Some("spec"), Some(Seg::Index(n)), 3 | 4)
            if key(1) == Some("rules")
                && matches!(whole, Place::Route(_))
                && (path.len() == 3 || key(3) == Some("name")) =>
        {
            Some(Place::Rule(i, *n))
        }
        _ => None,
    }
}

fn effective(ws: &Workspace, model: &Model, place: Place) -> String {
    let merged = model.merge();
    let statuses = status_index(&ws.run.policy_statuses);
    let e = explain(&model.facts, &merged, &statuses, place);
    let text = render_explanation(&e, ExplainFormat::Human, false);
    format!(
        "**Effective policy** (`gwctl explain`)\n\n```text\n{}\n```",
        text.trim_end()
    )
}

fn policy(ws: &Workspace, model: &Model, i: usize) -> String {
    let facts = &model.facts;
    let id = &facts[i].id;
    let mut out = format!("**{} {}**\n\n", id.kind, qualified(&id.namespace, &id.name));
    let targets: Vec<String> = model
        .attachments
        .iter()
        .filter(|a| a.policy == i)
        .map(|a| {
            let t = &facts[a.target].id;
            let section = a
                .section
                .as_deref()
                .map(|s| format!(" section `{s}`"))
                .unwrap_or_default();
            format!("- {} {}{section}", t.kind, qualified(&t.namespace, &t.name))
        })
        .collect();
    if targets.is_empty() {
        out.push_str("Attaches to nothing.\n");
    } else {
        out.push_str("Attaches to:\n");
        out.push_str(&targets.join("\n"));
        out.push('\n');
    }
    let statuses: Vec<String> = ws
        .run
        .policy_statuses
        .iter()
        .filter(|s| s.policy_index == i)
        .map(|s| {
            let mut line = format!(
                "- on {}: Accepted {} ({}), Attached {} ({})",
                s.ancestor,
                s.accepted.status,
                s.accepted.reason,
                s.attached.status,
                s.attached.reason
            );
            // A status condition's message (not a finding's), said when not accepted.
            let condition = &s.accepted;
            if !condition.status && !condition.message.is_empty() {
                line.push_str(&format!(": {}", condition.message));
            }
            line
        })
        .collect();
    if !statuses.is_empty() {
        out.push_str("\nPredicted status:\n");
        out.push_str(&statuses.join("\n"));
        out.push('\n');
    } else if let Some(s) = status_index(&ws.run.policy_statuses).get(&i) {
        out.push_str(&format!("\nPredicted status: {s}\n"));
    }
    out
}

fn qualified(namespace: &str, name: &str) -> String {
    if namespace.is_empty() {
        name.to_string()
    } else {
        format!("{namespace}/{name}")
    }
}

/// A reference: what it resolves to, where that is, and the findings that say why it does not.
fn reference(ws: &Workspace, model: &Model, r: &RefAt<'_>, file: usize) -> String {
    let index = Index::new(&model.facts, false);
    let named = format!(
        "{} {}",
        if r.kind.is_empty() { "object" } else { &r.kind },
        qualified(&r.namespace, &r.obj.name)
    );
    let mut out = match r.target(&index) {
        Some(t) => {
            let id = &model.facts[t].id;
            let place = ws
                .run
                .files
                .get(id.file)
                .map(|f| format!("{}:{}", f.name, f.line_col(id.name_span.start).line))
                .unwrap_or_default();
            let mut s = format!("**→ {named}**\n\nDefined at `{place}`");
            if let Some(section) = r.obj.section() {
                s.push_str(&format!(", section `{section}`"));
            }
            s.push('\n');
            s
        }
        None => format!("**→ {named}**: not among the workspace's objects\n"),
    };
    let findings: Vec<&crate::diag::Diagnostic> = ws
        .run
        .diagnostics
        .iter()
        .filter(|d| {
            d.location.as_ref().is_some_and(|l| {
                l.file == file && l.span.start >= r.obj.span.start && l.span.end <= r.obj.span.end
            })
        })
        .collect();
    if !findings.is_empty() {
        out.push_str("\nFindings on this reference:\n");
        out.push_str(&findings_markdown(&findings));
        out.push('\n');
    }
    out
}

/// The schema of the field at `path` in the object `root`.
pub(super) fn schema_at<'r>(registry: &'r Registry, root: &Node, path: &[Seg]) -> Option<&'r Json> {
    let api_version = root.get("apiVersion")?.as_str()?;
    let kind = root.get("kind")?.as_str()?;
    schema_of(registry, (api_version, kind), path)
}

/// The schema of the field at `path` in objects of `(apiVersion, kind)`.
pub(super) fn schema_of<'r>(
    registry: &'r Registry,
    (api_version, kind): (&str, &str),
    path: &[Seg],
) -> Option<&'r Json> {
    let (group, version) = api_version.rsplit_once('/').unwrap_or(("", api_version));
    let mut schema = registry.schema_json(group, version, kind)?;
    for seg in path {
        schema = match seg {
            Seg::Key(k) => schema
                .get("properties")
                .and_then(|p| p.get(k))
                .or_else(|| schema.get("additionalProperties").filter(|a| a.is_object()))?,
            Seg::Index(_) => schema.get("items")?,
        };
    }
    Some(schema)
}

fn field(registry: &Registry, root: &Node, path: &[Seg]) -> Option<String> {
    if path.is_empty() {
        return None;
    }
    let schema = schema_at(registry, root, path)?;
    let mut out = format!("**{}**", path_text(path));
    if let Some(t) = schema.get("type").and_then(Json::as_str) {
        out.push_str(&format!(": {t}"));
        if let Some(f) = schema.get("format").and_then(Json::as_str) {
            out.push_str(&format!(" ({f})"));
        }
    }
    out.push('\n');
    if let Some(d) = schema.get("description").and_then(Json::as_str) {
        out.push_str(&format!("\n{d}\n"));
    }
    let mut bounds = Vec::new();
    for (key, label) in [
        ("minimum", "minimum"),
        ("maximum", "maximum"),
        ("minLength", "min length"),
        ("maxLength", "max length"),
        ("minItems", "min items"),
        ("maxItems", "max items"),
        ("pattern", "pattern"),
        ("default", "default"),
    ] {
        if let Some(v) = schema.get(key) {
            bounds.push(format!("- {label}: `{v}`"));
        }
    }
    if let Some(values) = schema.get("enum").and_then(Json::as_array) {
        let names: Vec<String> = values.iter().map(|v| format!("`{v}`")).collect();
        bounds.push(format!("- one of: {}", names.join(", ")));
    }
    if let Some(req) = schema.get("required").and_then(Json::as_array) {
        let names: Vec<String> = req
            .iter()
            .filter_map(Json::as_str)
            .map(|s| format!("`{s}`"))
            .collect();
        bounds.push(format!("- required fields: {}", names.join(", ")));
    }
    if !bounds.is_empty() {
        out.push('\n');
        out.push_str(&bounds.join("\n"));
        out.push('\n');
    }
    Some(out)
}

/// `spec.rules[0].timeouts` as the API server prints a path.
pub(super) fn path_text(path: &[Seg]) -> String {
    let mut out = String::new();
    for seg in path {
        match seg {
            Seg::Key(k) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(k);
            }
            Seg::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    out
}
