//! What is under the cursor: the document's object and field path (from the document's tree),
//! the model's object, and the reference the cursor is on with the object it names.

use lsp_types::{Position, Uri};

use crate::model::facts::{Facts, GATEWAY_API, ObjRef, Spec};
use crate::parse::{self, Node, ParsedFile, Value};
use crate::report::lsp::offset;
use crate::resolve::Index;
use crate::run::Model;
use crate::source::SourceFile;

use super::workspace::Workspace;

/// A document and a place in it.
pub struct Cursor<'w> {
    pub file: &'w SourceFile,
    pub offset: usize,
    pub parsed: ParsedFile,
}

impl<'w> Cursor<'w> {
    pub fn new(ws: &'w Workspace, uri: &Uri, at: Position) -> Option<Self> {
        let file = ws.file(&super::path_of(uri)?)?;
        let offset = offset(file, at);
        let parsed = parse::parse_file(file, ws.limits());
        Some(Cursor {
            file,
            offset,
            parsed,
        })
    }

    /// The object (document root) the cursor is in.
    pub fn object(&self) -> Option<&Node> {
        self.parsed
            .documents
            .iter()
            .map(|d| &d.root)
            .find(|r| r.span.start <= self.offset && self.offset <= r.span.end)
    }
}

/// One step of a path in a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seg {
    Key(String),
    Index(usize),
}

/// The path to the deepest node at `offset`, and whether the cursor is on the last key (not its
/// value).
pub fn path_at(root: &Node, offset: usize) -> (Vec<Seg>, bool) {
    let mut path = Vec::new();
    let mut node = root;
    loop {
        match &node.value {
            Value::Map(entries) => {
                let Some(e) = entries.iter().find(|e| {
                    (e.key_span.start <= offset && offset <= e.key_span.end)
                        || (e.value.span.start <= offset && offset <= e.value.span.end)
                }) else {
                    return (path, false);
                };
                path.push(Seg::Key(String::from(&e.key)));
                if e.key_span.start <= offset && offset <= e.key_span.end {
                    return (path, true);
                }
                node = &e.value;
            }
            Value::Seq(items) => {
                let Some((i, item)) = items
                    .iter()
                    .enumerate()
                    .find(|(_, n)| n.span.start <= offset && offset <= n.span.end)
                else {
                    return (path, false);
                };
                path.push(Seg::Index(i));
                node = item;
            }
            _ => return (path, false),
        }
    }
}

/// The model's object whose text holds `offset` in `file`.
pub fn fact_at(model: &Model, file: usize, offset: usize) -> Option<usize> {
    model
        .facts
        .iter()
        .enumerate()
        .filter(|(_, f)| f.id.file == file && f.id.span.start <= offset && offset <= f.id.span.end)
        .min_by_key(|(_, f)| f.id.span.len())
        .map(|(i, _)| i)
}

/// A reference of an object with what it names, defaults applied.
pub struct RefAt<'m> {
    pub obj: &'m ObjRef,
    pub group: String,
    pub kind: String,
    /// Empty for cluster-scoped kinds.
    pub namespace: String,
}

impl RefAt<'_> {
    /// The position of the object it names in the facts.
    pub fn target(&self, index: &Index<'_>) -> Option<usize> {
        index.position(&self.group, &self.kind, &self.namespace, &self.obj.name)
    }
}

const CLUSTER_SCOPED: &[&str] = &["GatewayClass", "Namespace"];

/// Every reference an object makes, with the defaults of its field.
pub fn refs_of<'a>(f: &'a Facts) -> Vec<RefAt<'a>> {
    let mut out = Vec::new();
    let add = |list: &mut Vec<RefAt<'a>>, obj: &'a ObjRef, group: &str, kind: &str| {
        let kind = obj.kind().unwrap_or(kind).to_string();
        let namespace = if CLUSTER_SCOPED.contains(&kind.as_str()) {
            String::new()
        } else {
            obj.namespace().unwrap_or(&f.id.namespace).to_string()
        };
        list.push(RefAt {
            obj,
            group: obj.group().unwrap_or(group).to_string(),
            kind,
            namespace,
        });
    };
    match &f.spec {
        Spec::Route(route) => {
            for r in &route.parent_refs {
                add(&mut out, r, GATEWAY_API, "Gateway");
            }
            for r in &route.backend_refs {
                add(&mut out, r, "", "Service");
            }
            for r in &route.extension_refs {
                add(&mut out, r, "", "");
            }
        }
        Spec::Gateway {
            class, listeners, ..
        } => {
            if let Some(c) = class {
                add(&mut out, c, GATEWAY_API, "GatewayClass");
            }
            for l in listeners {
                for c in &l.certificate_refs {
                    add(&mut out, c, "", "Secret");
                }
            }
        }
        Spec::ListenerSet { parent, .. } => add(&mut out, parent, GATEWAY_API, "Gateway"),
        Spec::Policy(p) => {
            for r in &p.target_refs {
                add(&mut out, r, "", "");
            }
        }
        _ => {}
    }
    for r in &f.refs {
        add(&mut out, &r.target, "", "");
    }
    out
}

/// The reference of `f` whose text holds `offset`, the innermost one.
pub fn ref_at(f: &Facts, offset: usize) -> Option<RefAt<'_>> {
    refs_of(f)
        .into_iter()
        .filter(|r| {
            r.obj.span.start <= offset && offset <= r.obj.span.end && !r.obj.name.is_empty()
        })
        .min_by_key(|r| r.obj.span.len())
}
