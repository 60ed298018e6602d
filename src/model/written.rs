//! What `diff` reads of an object as written, made in the per-file pass while its tree is
//! there: a digest of its text and every name its spec mentions. `diff` decides which
//! Gateways' renderings can differ from these, so the run need not keep the object's JSON.

use std::hash::{DefaultHasher, Hash, Hasher};

use crate::parse::{Entry, Node};
use crate::source::SourceFile;

/// An object's written form, for `diff` (`Needs::Diff`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Written {
    /// A digest of the text of the document the object is in: equal texts, equal objects (a
    /// change of formatting alone changes it; the renderings compared then say there is none).
    pub digest: u64,
    /// A digest of the same text without the object's `metadata.labels` (its key, its value
    /// and the line they took): what the object is to a reader of its typed facts, which keep
    /// the labels any stage reads. Equal to `digest` where the labels cannot be told apart
    /// from the rest (an item of a `List`, a document with an alias).
    pub unlabelled: u64,
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

/// The digests of a document's text (see [`Written`]), made once per document: the items of a
/// `List` share them rather than each hashing the whole text again.
#[derive(Debug, Clone, Copy)]
pub struct Digests {
    /// Where the document's root starts: an object rooted there is the whole document.
    root: usize,
    whole: u64,
    unlabelled: u64,
}

impl Digests {
    /// The digests of the document rooted at `root`. The whole document is hashed, since an
    /// alias in an object may stand for an anchor elsewhere in it (a `List`'s item).
    pub fn of_document(file: &SourceFile, root: &Node) -> Digests {
        let span = root.span;
        let text = file.text.get(span.start..span.end).unwrap_or(&file.text);
        let labels = root
            .get("metadata")
            .and_then(|m| m.entry("labels"))
            .and_then(|e| {
                let start = e.key_span.start.checked_sub(span.start)?;
                let end = e.value.span.end.checked_sub(span.start)?;
                Some((text.get(..start)?, text.get(start..end)?, text.get(end..)?))
            })
            // Left out only when they hold no anchor that the rest of the document may read.
            .filter(|(_, labels, _)| !labels.contains('&'));
        let mut h = DefaultHasher::new();
        let labelled = match labels {
            Some((before, labels, after)) => {
                // The text as it would be without the entry: its indent and the end of its
                // last line go with it.
                write_lines(&mut h, before.trim_end_matches(' '));
                write_lines(&mut h, after.strip_prefix('\n').unwrap_or(after));
                labels
            }
            None => {
                write_lines(&mut h, text);
                ""
            }
        };
        let unlabelled = h.finish();
        let mut h = DefaultHasher::new();
        (unlabelled, labelled).hash(&mut h);
        Digests {
            root: span.start,
            whole: h.finish(),
            unlabelled,
        }
    }
}

/// Hashes a text a line at a time: a text cut between two lines hashes as it does whole
/// (a hasher fed in two parts need not hash as when fed their concatenation).
fn write_lines(h: &mut DefaultHasher, text: &str) {
    for line in text.split_inclusive('\n') {
        h.write(line.as_bytes());
    }
}

impl Written {
    /// An object rooted at `root` of a document whose text has the digests `digests`.
    pub fn of(digests: Digests, root: &Node) -> Written {
        let mut names = Vec::new();
        if let Some(spec) = root.get("spec") {
            names_in(spec, &mut names);
        }
        let whole_document = root.span.start == digests.root;
        Written {
            digest: digests.whole,
            unlabelled: if whole_document {
                digests.unlabelled
            } else {
                digests.whole
            },
            names,
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The digests of the first object of `text`: (whole, unlabelled).
    fn digests(text: &str) -> (u64, u64) {
        let file = SourceFile::new(0, "t.yaml", text);
        let parsed = crate::parse::parse_file(&file, &crate::parse::Limits::default());
        let root = &parsed.documents[0].root;
        let digests = Digests::of_document(&file, root);
        let object = match root.get("items").and_then(Node::as_seq) {
            Some([first, ..]) => first,
            _ => root,
        };
        let w = Written::of(digests, object);
        (w.digest, w.unlabelled)
    }

    const SECRET: &str =
        "kind: Secret\nmetadata:\n  name: tls\n  namespace: shop\ndata:\n  k: dg==\n";

    #[test]
    fn labels_are_left_out_of_the_unlabelled_digest_only() {
        let plain = digests(SECRET);
        let labelled = [
            "  labels:\n    team: web\n  name: tls\n",
            "  name: tls\n  labels:\n    team: web\n    tier: gold\n",
            "  name: tls\n  labels: {team: web}\n",
        ];
        for block in labelled {
            let text = SECRET.replace("  name: tls\n", block);
            let (whole, unlabelled) = digests(&text);
            assert_eq!(unlabelled, plain.1, "{text}");
            assert_ne!(whole, plain.0, "{text}");
        }
        // Any other change changes both.
        let other = digests(&SECRET.replace("dg==", "dw=="));
        assert_ne!(other.0, plain.0);
        assert_ne!(other.1, plain.1);
        let renamed = digests(&SECRET.replace("name: tls", "name: tlz"));
        assert_ne!(renamed.1, plain.1);
    }

    #[test]
    fn labels_an_alias_may_read_or_of_a_list_item_count() {
        // An anchor in the labels may be read elsewhere: the labels are not left out.
        let aliased = "kind: Secret\nmetadata:\n  name: tls\n  labels:\n    team: &t web\n  annotations:\n    owner: *t\n";
        let (whole, unlabelled) = digests(aliased);
        assert_eq!(whole, digests(aliased).0);
        assert_ne!(unlabelled, digests(&aliased.replace("&t web", "&t api")).1);
        // An alias elsewhere (a wildcard hostname is written quoted) leaves them out still.
        let host = "kind: Secret\nmetadata:\n  name: tls\n  labels:\n    team: web\nspec:\n  host: \"*.example.com\"\n";
        assert_eq!(
            digests(host).1,
            digests(&host.replace("team: web", "team: api")).1
        );
        let list = "kind: List\nitems:\n- kind: Secret\n  metadata:\n    name: tls\n    labels:\n      team: web\n";
        let (whole, unlabelled) = digests(list);
        assert_eq!(whole, unlabelled);
    }

    #[test]
    fn labels_in_a_flow_map_with_other_keys_count() {
        // Not a line of their own: the text without them is not told apart (a change, safely).
        let flow = "kind: Secret\nmetadata: {name: tls, labels: {team: web}}\n";
        assert_ne!(
            digests(flow).1,
            digests("kind: Secret\nmetadata: {name: tls}\n").1
        );
    }
}
