//! Per-document reuse between two runs (`diff`'s base and head) for a file whose text differs:
//! a document whose text is the same at the same place in both, with the same text around it
//! up to the document markers on either side, parses to the same tree, so its per-file results
//! (findings, facts, objects, all positioned in bytes) are the same. The first run keeps them;
//! the second parses the file with each such document's root blanked to a one-character
//! placeholder of the same length (so every other position, and each document's place in the
//! stream, stay as they are) and lints only the others.
//!
//! Conservative: a file with a reader's finding on either side, or with a directive (`%TAG`),
//! keeps nothing, and neither does a document that may hold an alias (its expansion counts
//! towards limits across documents). A document that moved is linted again.

use std::collections::BTreeMap;

use crate::model::{Object, facts::Facts};
use crate::parse::{self, ParsedDocument};
use crate::schema::Registry;
use crate::security::SetFacts;
use crate::source::{SourceFile, Span};

use super::LintOptions;
use super::per_file::{FileResult, lint_document, lint_file};

/// What the placeholder of a reused document's root reads as.
const PLACEHOLDER: &str = "x";

/// What the first run kept of a file whose text differs: its documents in order, the results
/// of those the second run has the same (one after the other, without facts and objects), and
/// the file's facts and objects as they come back from the model.
pub(super) struct KeptDocuments {
    collect_secrets: bool,
    documents: Vec<DocResult>,
    kept: FileResult,
    pub(super) facts: Vec<Facts>,
    pub(super) objects: Vec<Object>,
}

/// A document of the first run's file.
struct DocResult {
    /// Its place in the stream and where its root starts.
    index: usize,
    root: Span,
    /// How many facts and objects it made (they come back from the run's model).
    facts: usize,
    objects: usize,
    /// Its share of the kept results; `None` when the second run cannot take them.
    kept: Option<Share>,
}

/// How much of each list of the kept results is one document's (they are few and small: kept
/// one after the other rather than each in a result of its own).
struct Share {
    resources: usize,
    diagnostics: usize,
    entries: usize,
    secrets: usize,
    masked: usize,
    not_checked: BTreeMap<String, usize>,
    security: Option<Box<SetFacts>>,
}

/// The per-file pass of `file` (the first run's), keeping the results of each document the
/// same and at the same place in `other` (the second run's text of the file); `None` when none
/// is.
pub(super) fn lint_keeping(
    file: &SourceFile,
    other: &str,
    registry: &Registry,
    options: &LintOptions,
    collect_secrets: bool,
) -> (FileResult, Option<KeptDocuments>) {
    let parsed = parse::parse_file(file, &options.limits);
    if let Some(skipped) = FileResult::of_template(file, &parsed) {
        return (skipped, None);
    }
    let mut out = FileResult::of_parse(file, &parsed);
    let keeping =
        parsed.diagnostics.is_empty() && !has_directive(&file.text) && !has_directive(other);
    let mut documents = Vec::with_capacity(parsed.documents.len());
    let mut kept = FileResult::default();
    for doc in &parsed.documents {
        let mut result = FileResult::default();
        lint_document(file, doc, registry, options, collect_secrets, &mut result);
        let share =
            (keeping && same_in(&file.text, other, doc.root.span)).then(|| kept.keep(&result));
        documents.push(DocResult {
            index: doc.index,
            root: doc.root.span,
            facts: result.facts.len(),
            objects: result.objects.len(),
            kept: share,
        });
        out.append(result);
    }
    let any = documents.iter().any(|d| d.kept.is_some());
    let kept = any.then_some(KeptDocuments {
        collect_secrets,
        documents,
        kept,
        facts: Vec::new(),
        objects: Vec::new(),
    });
    (out, kept)
}

impl FileResult {
    /// Adds a copy of a document's results (but its facts and objects) after this one's lists;
    /// what of each is the document's.
    fn keep(&mut self, doc: &FileResult) -> Share {
        self.diagnostics.extend_from_slice(&doc.diagnostics);
        self.entries.extend_from_slice(&doc.entries);
        self.secrets.extend_from_slice(&doc.secrets);
        self.masked.extend_from_slice(&doc.masked);
        Share {
            resources: doc.resources,
            diagnostics: doc.diagnostics.len(),
            entries: doc.entries.len(),
            secrets: doc.secrets.len(),
            masked: doc.masked.len(),
            not_checked: doc.not_checked.clone(),
            security: (!doc.security.is_empty()).then(|| Box::new(doc.security.clone())),
        }
    }
}

impl KeptDocuments {
    /// The kept documents' results with their facts and objects; none unless all of the file's
    /// came back from the model.
    pub(super) fn reused(self, collect_secrets: bool) -> Vec<Reused> {
        let facts: usize = self.documents.iter().map(|d| d.facts).sum();
        let objects: usize = self.documents.iter().map(|d| d.objects).sum();
        if self.collect_secrets != collect_secrets
            || self.facts.len() != facts
            || self.objects.len() != objects
        {
            return Vec::new();
        }
        let (mut facts, mut objects) = (self.facts.into_iter(), self.objects.into_iter());
        let kept = self.kept;
        let mut diagnostics = kept.diagnostics.into_iter();
        let mut entries = kept.entries.into_iter();
        let mut secrets = kept.secrets.into_iter();
        let mut masked = kept.masked.into_iter();
        let mut out = Vec::new();
        for d in self.documents {
            let doc_facts = facts.by_ref().take(d.facts).collect();
            let doc_objects = objects.by_ref().take(d.objects).collect();
            let Some(share) = d.kept else {
                continue;
            };
            let result = FileResult {
                documents: 0,
                resources: share.resources,
                not_checked: share.not_checked,
                diagnostics: diagnostics.by_ref().take(share.diagnostics).collect(),
                entries: entries.by_ref().take(share.entries).collect(),
                secrets: secrets.by_ref().take(share.secrets).collect(),
                masked: masked.by_ref().take(share.masked).collect(),
                security: share.security.map(|s| *s).unwrap_or_default(),
                facts: doc_facts,
                objects: doc_objects,
            };
            out.push(Reused {
                index: d.index,
                root: d.root,
                result,
            });
        }
        out
    }
}

/// A document's results kept by the first run, facts and objects back.
pub(super) struct Reused {
    pub(super) index: usize,
    pub(super) root: Span,
    pub(super) result: FileResult,
}

/// The per-file pass of `file` (the second run's) taking `reused` (in stream order, each the same
/// text at the same place in the first run's file) instead of linting them; the whole file is
/// linted when its parse does not find each of them where it was. Returns how many were taken.
pub(super) fn lint_reusing(
    file: &SourceFile,
    reused: Vec<Reused>,
    registry: &Registry,
    options: &LintOptions,
    collect_secrets: bool,
) -> (FileResult, usize) {
    let blanked = file.with_same_lines(blank(&file.text, &reused));
    let parsed = parse::parse_file(&blanked, &options.limits);
    if !parsed.diagnostics.is_empty() || !placeholders_found(&parsed.documents, &reused) {
        return (lint_file(file, registry, options, collect_secrets), 0);
    }
    let taken = reused.len();
    let mut out = FileResult::of_parse(file, &parsed);
    let mut reused = reused.into_iter().peekable();
    for doc in &parsed.documents {
        match reused.next_if(|r| r.index == doc.index) {
            Some(r) => out.append(r.result),
            // The document's text is the file's own (only reused roots were blanked).
            None => lint_document(file, doc, registry, options, collect_secrets, &mut out),
        }
    }
    (out, taken)
}

impl FileResult {
    /// A copy without the facts and objects (they stay in the run's model).
    pub(super) fn without_model(&self) -> FileResult {
        FileResult {
            documents: self.documents,
            resources: self.resources,
            not_checked: self.not_checked.clone(),
            diagnostics: self.diagnostics.clone(),
            entries: self.entries.clone(),
            secrets: self.secrets.clone(),
            masked: self.masked.clone(),
            security: self.security.clone(),
            facts: Vec::new(),
            objects: Vec::new(),
        }
    }
}

/// Whether the document whose root is `root` in `text` is the same, with the same text from the
/// document marker before it to the one after it (or the ends of the text), in `other`; and
/// holds no alias.
fn same_in(text: &str, other: &str, root: Span) -> bool {
    let (start, end) = (
        marker_before(text, root.start),
        marker_after(text, root.end),
    );
    match (text.get(start..end), other.get(start..end)) {
        (Some(a), Some(b)) => a == b && !a.contains('*'),
        _ => false,
    }
}

/// Whether a line of `text` starting at `at` is a document marker (`---` or `...`).
fn is_marker(text: &str, at: usize) -> bool {
    let line = &text.as_bytes()[at.min(text.len())..];
    parse::is_marker_line(line, b"---") || parse::is_marker_line(line, b"...")
}

/// The start of the last marker line starting at or before `at`; 0 when there is none.
fn marker_before(text: &str, at: usize) -> usize {
    let bytes = text.as_bytes();
    let mut line_end = at.min(bytes.len());
    loop {
        let start = memchr::memrchr2(b'\n', b'\r', &bytes[..line_end]).map_or(0, |i| i + 1);
        if start == 0 || is_marker(text, start) {
            return start;
        }
        line_end = start - 1;
    }
}

/// The end (after its line break) of the first marker line starting at or after `at`; the end
/// of the text when there is none.
fn marker_after(text: &str, at: usize) -> usize {
    let bytes = text.as_bytes();
    // From the start of the line after the one `at` is on.
    let mut line = match memchr::memchr(b'\n', &bytes[at.min(bytes.len())..]) {
        Some(i) => at + i + 1,
        None => return bytes.len(),
    };
    loop {
        let next = memchr::memchr(b'\n', &bytes[line..]).map_or(bytes.len(), |i| line + i + 1);
        if is_marker(text, line) || next >= bytes.len() {
            return next;
        }
        line = next;
    }
}

/// Whether `text` may hold a directive (`%YAML`, `%TAG`): it applies across a document's start.
fn has_directive(text: &str) -> bool {
    text.starts_with('%') || text.contains("\n%") || text.contains("\r%")
}

/// `text` with each reused document's root replaced by the placeholder and spaces, its line
/// breaks kept.
fn blank(text: &str, reused: &[Reused]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for r in reused {
        let Some(root) = bytes.get_mut(r.root.start..r.root.end) else {
            continue;
        };
        for (i, b) in root.iter_mut().enumerate() {
            if i == 0 {
                *b = PLACEHOLDER.as_bytes()[0];
            } else if !matches!(*b, b'\n' | b'\r') {
                *b = b' ';
            }
        }
    }
    // Only ASCII bytes were written over whole characters (a root spans whole characters).
    String::from_utf8(bytes).unwrap_or_else(|_| text.to_string())
}

/// Whether each reused document's placeholder is a document of the parse, at its place in the
/// stream and where its root was.
fn placeholders_found(documents: &[ParsedDocument], reused: &[Reused]) -> bool {
    let mut docs = documents.iter();
    reused.iter().all(|r| {
        docs.find(|d| d.index >= r.index).is_some_and(|d| {
            d.index == r.index
                && d.root.span.start == r.root.start
                && d.root.as_str() == Some(PLACEHOLDER)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_document_is_the_same_only_with_the_same_text_between_its_markers() {
        let base = "a: 1\n---\nkind: A\nb: 2\n---\nc: 3\n";
        let root = Span::new(9, 21);
        assert_eq!(&base[root.start..root.end], "kind: A\nb: 2");
        assert_eq!((marker_before(base, 9), marker_after(base, 21)), (5, 26));
        // Another first document of the same length: still the same.
        assert!(same_in(base, &base.replace("a: 1", "a: 9"), root));
        // A change before its marker's line, or after the next marker: the same.
        assert!(same_in(base, &base.replace("c: 3", "c: 4444"), root));
        // Its own text, the marker before it, or the marker after it changed: not.
        assert!(!same_in(base, &base.replace("b: 2", "b: 3"), root));
        assert!(!same_in(
            base,
            &base.replace("---\nkind", "--- !x\nkind"),
            root
        ));
        assert!(!same_in(base, &base.replacen("2\n---", "2\n#--", 1), root));
        // Moved: not.
        assert!(!same_in(base, &base.replace("a: 1", "a: 10"), root));
        // An alias: not.
        let aliased = "a: &x 1\nb: *x\n";
        assert!(!same_in(aliased, aliased, Span::new(0, 13)));
    }

    #[test]
    fn the_first_and_last_documents_reach_the_ends_of_the_text() {
        let text = "# c\na: 1\n---\nb: 2";
        assert_eq!(marker_before(text, 4), 0);
        assert_eq!(marker_after(text, 8), 13);
        assert_eq!(marker_before(text, 13), 9);
        assert_eq!(marker_after(text, 17), text.len());
    }

    #[test]
    fn blanking_keeps_every_position_and_line() {
        let text = "a: 1\n---\nkind: Ä\nb: [1,\n  2]\n---\nc: 3\n";
        let root = Span::new(9, text.find("]\n").map_or(0, |i| i + 1));
        let reused = [Reused {
            index: 1,
            root,
            result: FileResult::default(),
        }];
        let blanked = blank(text, &reused);
        assert_eq!(blanked.len(), text.len());
        assert_eq!(blanked.matches('\n').count(), text.matches('\n').count());
        assert!(blanked.starts_with("a: 1\n---\nx "));
        assert!(blanked.ends_with("\n---\nc: 3\n"));
        let file = SourceFile::new(0, "f.yaml", blanked);
        let parsed = parse::parse_file(&file, &parse::Limits::default());
        assert!(parsed.diagnostics.is_empty());
        assert!(placeholders_found(&parsed.documents, &reused));
    }
}
