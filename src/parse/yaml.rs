//! YAML/JSON text -> spanned documents, on saphyr-parser events.
//!
//! The driver: feeds events to the [`Builder`], converts saphyr's character positions to byte offsets,
//! and after a syntax error resumes at the next `---` line so later documents are still linted.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;

use saphyr_parser::Parser;

use super::Node;
use super::builder::{Builder, Flow};
use crate::diag::Diagnostic;
use crate::source::{SourceFile, Span};

/// Safety limits; each exceeded limit is a GW005 finding naming it.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Nodes that alias expansion may add to one file (billion-laughs guard); a run may add
    /// [`RUN_ALIAS_FACTOR`] times as many in all its files.
    pub max_alias_nodes: usize,
    /// Nodes alias expansion has added so far, shared by every file parsed with these limits
    /// (clones of one `Limits` share it: one run, or both sides of a diff).
    pub alias_nodes_used: Arc<AtomicUsize>,
    /// Nesting depth of mappings and sequences.
    pub max_depth: usize,
    /// Bytes in one document.
    pub max_document_bytes: usize,
    /// Documents in one file.
    pub max_documents: usize,
    /// Bytes of all inputs together; files beyond are skipped (GW005), so memory stays bounded.
    pub max_total_bytes: u64,
    /// Compiled size of a regex a value checker builds (bytes of the regex program).
    pub max_regex_size: usize,
    /// Bytes of one CEL expression (data-plane fields, rules of `--crds` CRDs).
    pub max_cel_length: usize,
    /// Nesting of one CEL expression, as its pre-scan counts it (the parser recurses).
    pub max_cel_depth: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_alias_nodes: 100_000,
            alias_nodes_used: Arc::new(AtomicUsize::new(0)),
            max_depth: 128,
            max_document_bytes: 16 * 1024 * 1024,
            max_documents: 100_000,
            max_total_bytes: 1 << 30,
            max_regex_size: 1 << 20,
            max_cel_length: 100 * 1024,
            // The rules of the embedded schemas nest at most 24 deep as `cel::nesting` counts;
            // the parser or evaluator of a release build first overflows a rayon worker's 2 MiB
            // stack at about 1,390 (measurements in `cel::nesting`).
            max_cel_depth: 64,
        }
    }
}

/// How many times `--max-alias-nodes` the files of one run may add together: each file is
/// bounded already, this bounds the time 200,000 files just under it would take.
pub const RUN_ALIAS_FACTOR: usize = 100;

/// The highest `--max-depth`: every stage after the parser walks the tree recursively (schema
/// validation, CEL values, dropping the tree), on threads with 2 MiB stacks.
pub const MAX_DEPTH_CAP: usize = 1000;

/// One document of a stream. Empty documents are not returned.
#[derive(Debug)]
pub struct ParsedDocument {
    /// 0-based position in the file's stream.
    pub index: usize,
    pub span: Span,
    pub root: Node,
}

#[derive(Debug, Default)]
pub struct ParsedFile {
    pub documents: Vec<ParsedDocument>,
    /// Syntax errors (GW002), duplicate keys (GW003), limits (GW005), all located in `file`.
    pub diagnostics: Vec<Diagnostic>,
}

impl ParsedFile {
    /// Whether the trees lack some of the file's text (a document that failed to parse, the
    /// second value of a duplicate key, a limit that stopped the reader): every finding of the
    /// reader says so. What is lost is still shown in snippets, so callers mask secrets in the
    /// text itself.
    pub fn lost_text(&self) -> bool {
        !self.diagnostics.is_empty()
    }
}

/// Parses a multi-document YAML (or JSON) file. After a syntax error the documents that follow the
/// next `---` are still parsed.
pub fn parse_file(file: &SourceFile, limits: &Limits) -> ParsedFile {
    let text: &str = &file.text;
    let mut builder = Builder::new(file, limits);
    // The BOM is skipped by starting the first chunk after it; spans still index the original text.
    let mut base = if text.starts_with('\u{feff}') { 3 } else { 0 };
    // Documents over `--max-document-bytes` are found before parsing and never given to the
    // parser, which would hold all of one in memory (a 50 MB flow sequence aborted in it).
    for oversized in oversized_documents(text, base, limits.max_document_bytes) {
        if oversized.start > base {
            parse_range(&mut builder, text, base, oversized.start);
        }
        if builder.oversized_document(oversized.start) == Flow::Stop {
            return builder.finish();
        }
        base = oversized.end;
    }
    parse_range(&mut builder, text, base, text.len());
    builder.finish()
}

/// Parses `text[base..end]`, resuming after a syntax error at the next `---` line before `end`.
fn parse_range(builder: &mut Builder<'_>, text: &str, mut base: usize, end: usize) {
    loop {
        let chunk = text.get(base..end).unwrap_or("");
        // saphyr-parser is not ours: a panic in it must not take the whole run down.
        let result = catch_unwind(AssertUnwindSafe(|| run_chunk(builder, chunk, base)));
        let error_pos = match result {
            Ok(None) => break,
            Ok(Some(pos)) => pos,
            Err(_) => {
                builder.syntax_error("internal parser error", base);
                base
            }
        };
        match next_document_marker(text, error_pos, base) {
            Some(next) if next < end => base = next,
            _ => break,
        }
    }
}

/// The byte ranges, between `---` lines, longer than `max` (none when the text is not).
fn oversized_documents(text: &str, from: usize, max: usize) -> Vec<std::ops::Range<usize>> {
    if text.len().saturating_sub(from) <= max {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut start = from;
    let mut at = from;
    loop {
        let next = next_document_marker(text, at, start).unwrap_or(text.len());
        if next - start > max {
            out.push(start..next);
        }
        if next >= text.len() {
            return out;
        }
        start = next;
        at = next;
    }
}

/// Parses `chunk` (which starts at byte `base` of the file). Returns the byte position of a syntax
/// error, already reported, or `None` when the chunk was parsed to its end (or parsing must stop).
fn run_chunk(builder: &mut Builder<'_>, chunk: &str, base: usize) -> Option<usize> {
    // saphyr keeps every token of a flow collection that might be a mapping key (one at the
    // start of a document or after `key:`) until the collection ends: a JSON document was held
    // whole as tokens, about 40 times its size. After an explicit `---` on the same line a
    // collection cannot be a key, so a document that is one flow collection (and not the key
    // of a block mapping, as in `[a]: b`) is parsed as `--- {...}`; the marker's four
    // characters are taken off every position.
    let lead = chunk.len() - chunk.trim_start().len();
    let (chunk, base) = (&chunk[lead..], base + lead);
    let marked;
    let (text, shift) = if chunk.starts_with(['{', '[']) && !is_flow_key(chunk) {
        marked = format!("{FLOW_MARKER}{chunk}");
        (marked.as_str(), FLOW_MARKER.len())
    } else {
        (chunk, 0)
    };
    let mut pos = CharPos::new(text, 0);
    let mut byte = |index: usize| base + pos.byte(index).saturating_sub(shift);
    for item in Parser::new_from_str(text) {
        match item {
            Ok((event, span)) => {
                let start = byte(span.start.index());
                let end = byte(span.end.index());
                if builder.on_event(event, start, end) == Flow::Stop {
                    return None;
                }
            }
            Err(err) => {
                let mut at = byte(err.marker().index());
                // saphyr reports a tab error just after the tab; the tab itself is what to fix.
                if err.info().contains("tab")
                    && at > base
                    && chunk.as_bytes().get(at - 1 - base) == Some(&b'\t')
                {
                    at -= 1;
                }
                builder.syntax_error(err.info(), at);
                return Some(at);
            }
        }
    }
    None
}

/// What a document that is one flow collection is parsed after (see [`run_chunk`]).
const FLOW_MARKER: &str = "--- ";

/// Whether the flow collection `text` starts with is followed by `:`, as a mapping key. An
/// implicit key is one line of at most 1,024 characters, so only that much of the first line is
/// scanned (brackets counted outside quoted scalars); a longer or unclosed one is not a key.
fn is_flow_key(text: &str) -> bool {
    let line = text.as_bytes().split(|b| matches!(b, b'\n' | b'\r')).next();
    let line = line.unwrap_or_default();
    let line = line.get(..IMPLICIT_KEY_MAX + 1).unwrap_or(line);
    let mut depth = 0usize;
    let mut quote: Option<u8> = None;
    let mut prev = b' ';
    let mut i = 0;
    while let Some(&b) = line.get(i) {
        match quote {
            Some(b'"') if b == b'\\' => i += 1,
            Some(q) if b == q => {
                // `''` inside a single-quoted scalar is an escaped quote.
                if q == b'\'' && line.get(i + 1) == Some(&b'\'') {
                    i += 1;
                } else {
                    quote = None;
                }
            }
            Some(_) => {}
            // A quote opens a scalar only where a scalar can start; elsewhere it is plain text.
            None if matches!(b, b'"' | b'\'')
                && matches!(prev, b' ' | b'\t' | b'[' | b'{' | b',' | b':') =>
            {
                quote = Some(b);
            }
            None if matches!(b, b'[' | b'{') => depth += 1,
            None if matches!(b, b']' | b'}') => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    let rest = line.get(i + 1..).unwrap_or_default();
                    return rest.trim_ascii_start().starts_with(b":");
                }
            }
            None => {}
        }
        prev = b;
        i += 1;
    }
    false
}

/// Characters an implicit mapping key may have (YAML 1.2, 7.4.2).
const IMPLICIT_KEY_MAX: usize = 1024;

/// Start of the first line at or after `from` (and after `base`) that is a `---` document marker.
/// A marker at column 0 cannot be part of a scalar, so resuming there is safe.
fn next_document_marker(text: &str, from: usize, base: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut line = from.min(bytes.len());
    if line > 0 && !matches!(bytes.get(line - 1), Some(b'\n' | b'\r')) {
        line = next_line(text, line)?;
    }
    loop {
        let rest = bytes.get(line..)?;
        if rest.is_empty() {
            return None;
        }
        if line > base && is_marker_line(rest, b"---") {
            return Some(line);
        }
        line = next_line(text, line)?;
    }
}

/// Whether `line` (the text from a line's start) begins with the document marker `marker`
/// (`---` or `...`) standing alone: followed by a blank or the line's or text's end.
pub fn is_marker_line(line: &[u8], marker: &[u8; 3]) -> bool {
    line.starts_with(marker) && matches!(line.get(3), None | Some(b' ' | b'\t' | b'\r' | b'\n'))
}

/// Start of the line after the one at `from` (LF, CR LF or a lone CR ends a line).
fn next_line(text: &str, from: usize) -> Option<usize> {
    let rest = text.as_bytes().get(from..)?;
    let i = memchr::memchr2(b'\n', b'\r', rest)?;
    let crlf = rest[i] == b'\r' && rest.get(i + 1) == Some(&b'\n');
    Some(from + i + 1 + usize::from(crlf))
}

/// Converts saphyr's character indices to byte offsets. ASCII text maps 1:1; otherwise a cursor
/// walks from the previous position (events arrive almost in order, so this stays linear).
struct CharPos<'t> {
    text: &'t str,
    base: usize,
    ascii: bool,
    chars: usize,
    bytes: usize,
}

impl<'t> CharPos<'t> {
    fn new(text: &'t str, base: usize) -> Self {
        CharPos {
            text,
            base,
            ascii: text.is_ascii(),
            chars: 0,
            bytes: 0,
        }
    }

    fn byte(&mut self, index: usize) -> usize {
        if self.ascii {
            return self.base + index.min(self.text.len());
        }
        let b = self.text.as_bytes();
        while self.chars < index && self.bytes < b.len() {
            self.bytes += utf8_len(b[self.bytes]);
            self.chars += 1;
        }
        while self.chars > index && self.bytes > 0 {
            self.bytes -= 1;
            while self.bytes > 0 && !self.text.is_char_boundary(self.bytes) {
                self.bytes -= 1;
            }
            self.chars -= 1;
        }
        self.bytes = self.bytes.min(b.len());
        self.base + self.bytes
    }
}

fn utf8_len(lead: u8) -> usize {
    match lead {
        0xF0.. => 4,
        0xE0.. => 3,
        0xC0.. => 2,
        _ => 1,
    }
}
