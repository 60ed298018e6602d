//! Builds spanned documents from saphyr-parser events: an explicit stack (no recursion), anchors,
//! aliases with an expansion budget and the input limits; a mapping's keys (duplicates, `<<`
//! merge keys) are taken in [`keys`].

use std::collections::HashMap;

use saphyr_parser::{Event, ScalarStyle};

use super::scalar::{block_header, quoted_end, resolve, skip_props, trim_end};
use super::text::Text;
use super::yaml::RUN_ALIAS_FACTOR;
use super::{Entry, Limits, Node, ParsedDocument, ParsedFile, Value};
use crate::diag::Diagnostic;
use crate::rules;
use crate::source::{SourceFile, Span};

mod keys;

use keys::Pending;

/// Maps with more entries than this get a hash index for the duplicate check.
const INDEX_THRESHOLD: usize = 16;

/// Whether the driver should keep feeding events.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Flow {
    Continue,
    Stop,
}

struct Frame {
    map: bool,
    /// Where its children start in [`Open::items`] or [`Open::entries`].
    first: usize,
    start: usize,
    flow: bool,
    anchor: usize,
    /// Nodes in this collection so far, itself excluded (for the alias budget).
    count: usize,
    last_end: usize,
    pending: Pending,
    /// Values of `<<` keys, merged when the mapping ends (explicit keys win wherever they are).
    merges: Vec<Node>,
    /// Positions in the mapping's entries by key, for a mapping over [`INDEX_THRESHOLD`].
    index: Option<HashMap<Text, usize>>,
}

impl Frame {
    /// The mapping's entries so far, from the shared stack of every open mapping's.
    fn own<'e>(&self, entries: &'e [Entry]) -> &'e [Entry] {
        entries.get(self.first..).unwrap_or_default()
    }

    fn first_key_span(&self, entries: &[Entry], key: &str) -> Option<Span> {
        if !self.map {
            return None;
        }
        let entries = self.own(entries);
        match &self.index {
            Some(ix) => ix
                .get(key)
                .and_then(|&i| entries.get(i))
                .map(|e| e.key_span),
            None => entries.iter().find(|e| e.key == key).map(|e| e.key_span),
        }
    }

    fn push_entry(&mut self, entries: &mut Vec<Entry>, entry: Entry) {
        if !self.map {
            return;
        }
        if let Some(ix) = &mut self.index {
            ix.insert(entry.key.clone(), entries.len() - self.first);
        }
        entries.push(entry);
        if self.index.is_none() && entries.len() - self.first > INDEX_THRESHOLD {
            self.index = Some(
                self.own(entries)
                    .iter()
                    .enumerate()
                    .map(|(i, e)| (e.key.clone(), i))
                    .collect(),
            );
        }
    }
}

/// The collections open, innermost last. Their children wait on two stacks shared by all of
/// them (an inner collection's after its parent's), and a closed collection's are moved once
/// into an exact-size slice: a `Vec` per collection grew by reallocation and was shrunk again
/// to become a box.
#[derive(Default)]
struct Open {
    frames: Vec<Frame>,
    items: Vec<Node>,
    entries: Vec<Entry>,
}

impl Open {
    fn clear(&mut self) {
        self.frames.clear();
        self.items.clear();
        self.entries.clear();
    }
}

struct Doc {
    index: usize,
    start: usize,
    skip: bool,
    root: Option<Node>,
}

pub(super) struct Builder<'a> {
    file: &'a SourceFile,
    text: &'a str,
    limits: &'a Limits,
    stack: Open,
    /// Anchored nodes with their node counts, for the current document.
    anchors: HashMap<usize, (Node, usize)>,
    doc: Option<Doc>,
    next_index: usize,
    /// Nodes alias expansion added to this file so far.
    aliased: usize,
    out: ParsedFile,
}

/// A span of one character at `pos` (zero-width at the end of the text or on a line break).
pub(super) fn char_span(text: &str, pos: usize) -> Span {
    let len = text
        .get(pos..)
        .and_then(|t| t.chars().next())
        .filter(|c| *c != '\n' && *c != '\r')
        .map_or(0, char::len_utf8);
    Span::new(pos, pos + len)
}

/// saphyr starts an indentless block sequence (`key:\n- item`) at the first item's content; move the
/// start back to its `-` indicator.
fn seq_indicator(bytes: &[u8], start: usize) -> usize {
    let is_indicator = |p: usize| {
        bytes.get(p) == Some(&b'-')
            && matches!(bytes.get(p + 1), None | Some(b' ' | b'\t' | b'\r' | b'\n'))
    };
    if is_indicator(start) {
        return start;
    }
    let mut p = start.min(bytes.len());
    while p > 0 && matches!(bytes[p - 1], b' ' | b'\t') {
        p -= 1;
    }
    if p > 0 && is_indicator(p - 1) {
        p - 1
    } else {
        start
    }
}

impl<'a> Builder<'a> {
    pub(super) fn new(file: &'a SourceFile, limits: &'a Limits) -> Self {
        Builder {
            file,
            text: &file.text,
            limits,
            stack: Open::default(),
            anchors: HashMap::new(),
            doc: None,
            next_index: 0,
            aliased: 0,
            out: ParsedFile::default(),
        }
    }

    pub(super) fn finish(self) -> ParsedFile {
        self.out
    }

    fn diag(&mut self, code: rules::Code, msg: String, span: Span) {
        self.out
            .diagnostics
            .push(Diagnostic::new(code, msg).at(self.file.id, span));
    }

    /// Drops the current document (after an error that ends it).
    fn skip_doc(&mut self) {
        if let Some(doc) = &mut self.doc {
            doc.skip = true;
        }
        self.stack.clear();
    }

    /// A syntax error ends the parse of this chunk: the document in progress is lost (and counted).
    pub(super) fn syntax_error(&mut self, info: &str, pos: usize) {
        let span = char_span(self.text, pos);
        self.diag(rules::GW002, info.to_owned(), span);
        if self.doc.take().is_none() {
            self.next_index += 1;
        }
        self.stack.clear();
        self.anchors.clear();
    }

    /// Handles one event; `start`/`end` are byte offsets into the file.
    pub(super) fn on_event(&mut self, ev: Event<'_>, start: usize, end: usize) -> Flow {
        match ev {
            Event::StreamStart | Event::StreamEnd | Event::Nothing => Flow::Continue,
            Event::DocumentStart(_) => self.start_doc(start),
            Event::DocumentEnd => {
                self.end_doc();
                Flow::Continue
            }
            ev => {
                let Some(doc) = &self.doc else {
                    return Flow::Continue;
                };
                if doc.skip {
                    return Flow::Continue;
                }
                if end.saturating_sub(doc.start) > self.limits.max_document_bytes {
                    let span = char_span(self.text, doc.start);
                    self.diag(rules::GW005, self.too_large(), span);
                    self.skip_doc();
                    return Flow::Continue;
                }
                self.node_event(ev, start, end);
                Flow::Continue
            }
        }
    }

    fn too_large(&self) -> String {
        format!(
            "document larger than the limit of {} bytes; raise it with --max-document-bytes",
            self.limits.max_document_bytes
        )
    }

    /// A document found too large before parsing (starting at `start`): reported and counted,
    /// never parsed.
    pub(super) fn oversized_document(&mut self, start: usize) -> Flow {
        if self.documents_exceeded(start) {
            return Flow::Stop;
        }
        self.next_index += 1;
        self.diag(rules::GW005, self.too_large(), char_span(self.text, start));
        Flow::Continue
    }

    /// Whether the file already has `--max-documents` documents (reported once, at `start`).
    fn documents_exceeded(&mut self, start: usize) -> bool {
        if self.next_index < self.limits.max_documents {
            return false;
        }
        let msg = format!(
            "more than {} documents in the file; the rest are skipped; raise the limit with --max-documents",
            self.limits.max_documents
        );
        self.diag(rules::GW005, msg, char_span(self.text, start));
        true
    }

    fn start_doc(&mut self, start: usize) -> Flow {
        if self.documents_exceeded(start) {
            return Flow::Stop;
        }
        self.doc = Some(Doc {
            index: self.next_index,
            start,
            skip: false,
            root: None,
        });
        self.next_index += 1;
        self.stack.clear();
        self.anchors.clear();
        Flow::Continue
    }

    fn end_doc(&mut self) {
        self.stack.clear();
        self.anchors.clear();
        let Some(doc) = self.doc.take() else {
            return;
        };
        if doc.skip {
            return;
        }
        if let Some(root) = doc.root
            && root.value != Value::Null
        {
            self.out.documents.push(ParsedDocument {
                index: doc.index,
                span: root.span,
                root,
            });
        }
    }

    fn node_event(&mut self, ev: Event<'_>, start: usize, end: usize) {
        match ev {
            Event::Scalar(text, style, anchor, tag) => {
                let span = self.scalar_span(style, anchor != 0 || tag.is_some(), start, end);
                let value = resolve(text.into_owned(), style, tag.as_deref());
                self.add(Node { span, value }, 1, anchor);
            }
            Event::Alias(id) => self.alias(id, Span::new(start, end)),
            Event::SequenceStart(anchor, _) => self.open(false, anchor, start, end),
            Event::MappingStart(anchor, _) => self.open(true, anchor, start, end),
            Event::SequenceEnd | Event::MappingEnd => self.close(end),
            _ => {}
        }
    }

    fn scalar_span(&self, style: ScalarStyle, props: bool, start: usize, end: usize) -> Span {
        let text = self.text;
        match style {
            ScalarStyle::Plain => {
                let s = if props {
                    skip_props(text, start, end)
                } else {
                    start
                };
                Span::new(s, end.max(s))
            }
            ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted => {
                let s = if props {
                    skip_props(text, start, end)
                } else {
                    start
                };
                // saphyr's end runs on over trailing blanks and comments.
                Span::new(s, quoted_end(text, s).unwrap_or(end).max(s))
            }
            _ => match block_header(text, start) {
                Some(h) => Span::new(h, trim_end(text, h + 1, end.max(h + 1))),
                None => Span::new(start, trim_end(text, start, end.max(start))),
            },
        }
    }

    fn open(&mut self, map: bool, anchor: usize, start: usize, end: usize) {
        let bytes = self.text.as_bytes();
        let flow = end > start && matches!(bytes.get(end - 1), Some(b'{' | b'['));
        let s = if flow {
            end - 1
        } else if end > start {
            // Block collection with properties: start at the first entry.
            skip_props(self.text, start, self.text.len())
        } else {
            start
        };
        let s = if !map && !flow {
            seq_indicator(bytes, s)
        } else {
            s
        };
        // A library caller's limits are capped as the flag is.
        if self.stack.frames.len() >= self.limits.max_depth.min(super::MAX_DEPTH_CAP) {
            let msg = format!(
                "nesting deeper than the limit of {} levels; raise it with --max-depth",
                self.limits.max_depth
            );
            self.diag(rules::GW005, msg, char_span(self.text, s));
            self.skip_doc();
            return;
        }
        let first = if map {
            self.stack.entries.len()
        } else {
            self.stack.items.len()
        };
        self.stack.frames.push(Frame {
            map,
            first,
            start: s,
            flow,
            anchor,
            count: 0,
            last_end: s,
            pending: Pending::Key,
            merges: Vec::new(),
            index: None,
        });
    }

    fn close(&mut self, end: usize) {
        let Some(frame) = self.stack.frames.pop() else {
            return;
        };
        // A flow end event may run on over trailing blanks; a block end sits at the next token.
        let span_end = if frame.flow {
            trim_end(self.text, frame.start, end)
        } else {
            frame.last_end
        };
        let span = Span::new(frame.start, span_end.max(frame.start));
        let value = if frame.map {
            let first = frame.first.min(self.stack.entries.len());
            let mut entries: Vec<Entry> = self.stack.entries.drain(first..).collect();
            if !frame.merges.is_empty() {
                self.apply_merges(&mut entries, frame.merges);
            }
            Value::Map(entries.into_boxed_slice())
        } else {
            let first = frame.first.min(self.stack.items.len());
            Value::Seq(self.stack.items.drain(first..).collect())
        };
        self.add(Node { span, value }, frame.count + 1, frame.anchor);
    }

    fn alias(&mut self, id: usize, span: Span) {
        let Some((node, count)) = self.anchors.get(&id) else {
            self.diag(
                rules::GW002,
                "alias refers to an anchor not defined earlier in this document".to_owned(),
                span,
            );
            self.skip_doc();
            return;
        };
        let count = *count;
        if self.doc.is_none() {
            return;
        }
        // Check the budgets before cloning anything, so hostile documents cost no memory: this
        // file's, then the run's (shared with the files parsed in parallel).
        let max = self.limits.max_alias_nodes;
        let msg = if self.aliased.saturating_add(count) > max {
            Some(format!(
                "YAML alias expansion exceeds the limit of {max} nodes in this file (a \"billion laughs\" document?); raise it with --max-alias-nodes"
            ))
        } else {
            let run_max = max.saturating_mul(RUN_ALIAS_FACTOR);
            let before = self
                .limits
                .alias_nodes_used
                .fetch_add(count, std::sync::atomic::Ordering::Relaxed);
            (before.saturating_add(count) > run_max).then(|| format!(
                "YAML alias expansion exceeds the limit of {run_max} nodes in all files together ({RUN_ALIAS_FACTOR} times --max-alias-nodes); raise it with --max-alias-nodes"
            ))
        };
        if let Some(msg) = msg {
            self.diag(rules::GW005, msg, span);
            self.skip_doc();
            return;
        }
        self.aliased += count;
        let mut copy = node.clone();
        copy.span = span;
        self.add(copy, count, 0);
    }

    /// Attaches a completed node (with its node count) to its parent, or makes it the document root.
    fn add(&mut self, node: Node, count: usize, anchor: usize) {
        if anchor != 0 {
            self.anchors.insert(anchor, (node.clone(), count));
        }
        let Open {
            frames,
            items,
            entries,
        } = &mut self.stack;
        let Some(frame) = frames.last_mut() else {
            if let Some(doc) = &mut self.doc {
                doc.root = Some(node);
            }
            return;
        };
        frame.count += count;
        let before = frame.last_end;
        frame.last_end = frame.last_end.max(node.span.end);
        if !frame.map {
            items.push(node);
            return;
        }
        match std::mem::replace(&mut frame.pending, Pending::Key) {
            Pending::Key => {
                let pending = self.key(node, before);
                if let Some(frame) = self.stack.frames.last_mut() {
                    frame.pending = pending;
                }
            }
            Pending::Value { key, span, merge } => {
                if merge {
                    frame.merges.push(node);
                } else {
                    frame.push_entry(
                        entries,
                        Entry {
                            key,
                            key_span: span,
                            value: node,
                        },
                    );
                }
            }
            Pending::Drop => {}
            Pending::Duplicate(dup) => {
                if dup.same_as_first(frame.own(entries), &node) {
                    self.remove_duplicate(&dup, node.span.end);
                }
            }
        }
    }
}
