//! What `diff` reads of an object as written, made in the per-file pass while its tree is
//! there: a digest of its text and every name its spec mentions. `diff` decides which
//! Gateways' renderings can differ from these, so the run need not keep the object's JSON.

use std::hash::{DefaultHasher, Hash, Hasher};

use crate::parse::{Entry, Node};
use crate::source::{SourceFile, Span};

/// An object's written form, for `diff` (`Needs::Diff`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Written {
    /// A digest of the text of the document the object is in: equal texts, equal objects (a
    /// change of formatting alone changes it; the renderings compared then say there is none).
    pub digest: u64,
    /// Every reference-shaped map of the spec, and `gatewayClassName`.
    pub names: Vec<Named>,
}

/// A name a spec mentions: a map with a string `name` (and maybe `namespace` and `kind`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named {
    /// `None`: the object's own namespace. `Some("")` for a cluster-scoped name.
    pub namespace: Option<Box<str>>,
    pub name: Box<str>,
    /// The map's `kind` is a route kind (a delegating backendRef).
    pub route: bool,
}

impl Written {
    /// The digest of a document's text. The whole document is hashed, since an alias in an object
    /// may stand for an anchor elsewhere in it (a `List`'s item); made once per document, so the
    /// items of a `List` share it rather than each hashing the whole text again.
    pub fn document_digest(file: &SourceFile, document: Span) -> u64 {
        let mut h = DefaultHasher::new();
        file.text
            .get(document.start..document.end)
            .unwrap_or(&file.text)
            .hash(&mut h);
        h.finish()
    }

    /// An object of a document whose text has the digest `digest`.
    pub fn of(digest: u64, root: &Node) -> Written {
        let mut names = Vec::new();
        if let Some(spec) = root.get("spec") {
            names_in(spec, &mut names);
        }
        Written { digest, names }
    }
}

/// Adds the names of every reference-shaped map in `node` and of `gatewayClassName`, leaving out
/// parentRefs and targetRefs (they point up, at what reads the object).
fn names_in(node: &Node, out: &mut Vec<Named>) {
    if let Some(entries) = node.as_map() {
        fn text_of<'n>(entries: &'n [Entry], key: &'n str) -> impl Iterator<Item = &'n str> {
            entries
                .iter()
                .filter(move |e| e.key == key)
                .filter_map(|e| e.value.as_str())
        }
        // Every written value of a repeated key counts: what the other stages read of it is
        // one of them.
        for name in text_of(entries, "name") {
            let route = text_of(entries, "kind").any(|k| k.ends_with("Route"));
            let mut namespaces = text_of(entries, "namespace").peekable();
            if namespaces.peek().is_none() {
                out.push(named(None, name, route));
            }
            for ns in namespaces {
                out.push(named(Some(ns), name, route));
            }
        }
        for e in entries {
            match &*e.key {
                "parentRefs" | "parentRef" | "targetRefs" | "targetRef" => {}
                "gatewayClassName" => match e.value.as_str() {
                    Some(class) => out.push(named(Some(""), class, false)),
                    None => names_in(&e.value, out),
                },
                _ => names_in(&e.value, out),
            }
        }
    } else if let Some(items) = node.as_seq() {
        for item in items {
            names_in(item, out);
        }
    }
}

fn named(namespace: Option<&str>, name: &str, route: bool) -> Named {
    Named {
        namespace: namespace.map(Box::from),
        name: name.into(),
        route,
    }
}
