//! Source files as read from disk or stdin, and byte offset -> line/column mapping.

use std::sync::Arc;

/// Index of a file in the run's file table.
pub type FileId = usize;

/// A byte range in one source file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }
    pub fn len(&self) -> usize {
        self.end.saturating_sub(self.start)
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// This span clamped to `text` and widened to whole characters, so that slicing `text` with
    /// it cannot panic (a span from a fuzzed or masked input may end inside a character).
    pub fn within(self, text: &str) -> Span {
        let mut start = self.start.min(text.len());
        while !text.is_char_boundary(start) {
            start -= 1;
        }
        let mut end = self.end.clamp(start, text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        Span { start, end }
    }
}

/// One input file: its display name and text. Positions are computed on demand.
#[derive(Debug, Clone)]
pub struct SourceFile {
    pub id: FileId,
    /// Path as given by the user (or `<stdin>`), used in every output format.
    pub name: String,
    pub text: Arc<str>,
    /// The namespace a kustomization including the file (kustomize's `namespace`) or a Flux
    /// Kustomization applying it (`targetNamespace`) sets on its namespaced objects, in place of
    /// what they write.
    pub namespace: Option<Arc<str>>,
    /// Shared: a masked copy of the text (same line breaks) reuses it.
    line_starts: LineStarts,
    /// Characters before each multiple of [`CHAR_MARK_STRIDE`] bytes, so that a column is counted
    /// from the nearest mark, not from the start of a line that may be megabytes long; empty when
    /// the text is ASCII (a column is then a byte difference).
    char_marks: Arc<[usize]>,
}

/// Bytes between two entries of [`SourceFile::char_marks`].
const CHAR_MARK_STRIDE: usize = 1024;

/// 1-based line and column; the column counts characters (as editors do), not bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct LineCol {
    pub line: usize,
    pub column: usize,
}

impl SourceFile {
    pub fn new(id: FileId, name: impl Into<String>, text: impl Into<Arc<str>>) -> Self {
        let text: Arc<str> = text.into();
        SourceFile {
            id,
            name: name.into(),
            char_marks: char_marks(&text),
            line_starts: LineStarts::of(text.as_bytes()),
            text,
            namespace: None,
        }
    }

    /// The same file with `text` in place of its text; `text` must have the same line breaks at
    /// the same offsets (a masked copy), so the line index is shared, not rebuilt.
    pub fn with_same_lines(&self, text: impl Into<Arc<str>>) -> SourceFile {
        let text: Arc<str> = text.into();
        SourceFile {
            id: self.id,
            name: self.name.clone(),
            // A masked value may have other characters than the original: counted afresh.
            char_marks: char_marks(&text),
            text,
            namespace: self.namespace.clone(),
            line_starts: self.line_starts.clone(),
        }
    }

    /// Line and column of a byte offset (clamped to the text).
    pub fn line_col(&self, offset: usize) -> LineCol {
        let offset = offset.min(self.text.len());
        let line = self.line_index(offset);
        // A byte order mark is not a character an editor shows: columns of line 1 start after it.
        let start = match self.line_starts.at(line) {
            0 if self.text.starts_with('\u{feff}') => 3.min(offset),
            s => s,
        };
        let mut end = offset;
        while !self.text.is_char_boundary(end) {
            end -= 1;
        }
        LineCol {
            line: line + 1,
            column: self.chars_before(end) - self.chars_before(start.min(end)) + 1,
        }
    }

    /// Characters in the text before byte `offset` (a character boundary): at most one stride of
    /// bytes is counted, so many findings on one long line stay linear.
    fn chars_before(&self, offset: usize) -> usize {
        if self.char_marks.is_empty() {
            return offset;
        }
        let mark = offset / CHAR_MARK_STRIDE;
        let from = mark * CHAR_MARK_STRIDE;
        self.char_marks[mark] + count_chars(&self.text.as_bytes()[from..offset])
    }

    /// Number of lines (a text without a line break has one).
    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// The byte range of the 0-based line `index` without its line break, and whether a line
    /// break ends it.
    pub fn line_range(&self, index: usize) -> (std::ops::Range<usize>, bool) {
        let start = self.line_starts.get(index).unwrap_or(self.text.len());
        let Some(next) = self.line_starts.get(index + 1) else {
            return (start..self.text.len(), false);
        };
        let bytes = self.text.as_bytes();
        let mut end = next;
        if end > start && bytes[end - 1] == b'\n' {
            end -= 1;
        }
        if end > start && bytes[end - 1] == b'\r' {
            end -= 1;
        }
        (start..end, true)
    }

    /// Line and column of a byte offset where the column counts bytes (UTF-8), as reviewdog's
    /// rdjson wants; otherwise like [`SourceFile::line_col`].
    pub fn line_byte_col(&self, offset: usize) -> LineCol {
        let offset = offset.min(self.text.len());
        let line = self.line_index(offset);
        let start = match self.line_starts.at(line) {
            0 if self.text.starts_with('\u{feff}') => 3.min(offset),
            s => s,
        };
        LineCol {
            line: line + 1,
            column: offset - start + 1,
        }
    }

    /// The 0-based line of a byte offset (within the text).
    pub fn line_index(&self, offset: usize) -> usize {
        self.line_starts.line_of(offset)
    }

    /// The byte range of whole lines around `start..end`, with `before` lines before and `after`
    /// after it, and the 0-based index of its first line: a report shows a finding's snippet from
    /// this window instead of counting lines from the top of a large file.
    pub fn lines_around(
        &self,
        start: usize,
        end: usize,
        before: usize,
        after: usize,
    ) -> (usize, std::ops::Range<usize>) {
        let first = self
            .line_index(start.min(self.text.len()))
            .saturating_sub(before);
        let last = self
            .line_index(end.min(self.text.len()))
            .saturating_add(after);
        let from = self.line_starts.at(first);
        let to = self
            .line_starts
            .get(last.saturating_add(1))
            .unwrap_or(self.text.len());
        (first, from..to)
    }

    /// The 1-based line's text without its line break.
    pub fn line_text(&self, line: usize) -> &str {
        let Some(start) = self.line_starts.get(line.wrapping_sub(1)) else {
            return "";
        };
        let end = self.line_starts.get(line).unwrap_or(self.text.len());
        self.text[start..end].trim_end_matches(['\n', '\r'])
    }
}

/// The byte offset of each line's start (the first is 0): 32-bit when the text is under 4 GiB,
/// which halves what a large input's millions of lines cost.
#[derive(Debug, Clone)]
enum LineStarts {
    Small(Arc<[u32]>),
    Large(Arc<[usize]>),
}

impl LineStarts {
    fn of(bytes: &[u8]) -> LineStarts {
        let starts = std::iter::once(0).chain(line_breaks(bytes));
        if u32::try_from(bytes.len()).is_ok() {
            // Sized once by the line feeds (a lone CR, rare, grows it): every input file's index
            // is built while loading, and growing it by doubling copied and faulted it anew.
            let mut small = Vec::with_capacity(memchr::memchr_iter(b'\n', bytes).count() + 1);
            small.extend(starts.filter_map(|i| u32::try_from(i).ok()));
            LineStarts::Small(small.into())
        } else {
            LineStarts::Large(starts.collect())
        }
    }

    fn len(&self) -> usize {
        match self {
            LineStarts::Small(s) => s.len(),
            LineStarts::Large(s) => s.len(),
        }
    }

    fn get(&self, line: usize) -> Option<usize> {
        match self {
            LineStarts::Small(s) => s.get(line).map(|&i| i as usize),
            LineStarts::Large(s) => s.get(line).copied(),
        }
    }

    /// The start of a line known to exist (a line index of an offset).
    fn at(&self, line: usize) -> usize {
        self.get(line).unwrap_or_default()
    }

    /// The 0-based line of a byte offset within the text.
    fn line_of(&self, offset: usize) -> usize {
        let found = match self {
            LineStarts::Small(s) => s.binary_search(&u32::try_from(offset).unwrap_or(u32::MAX)),
            LineStarts::Large(s) => s.binary_search(&offset),
        };
        // The first line starts at 0: an offset is never before it.
        found.unwrap_or_else(|i| i.saturating_sub(1))
    }
}

/// Starts of the lines after the first: after each LF, CR LF or lone CR (YAML's three line breaks,
/// so that a file with old Mac line endings is not one long line).
fn line_breaks(bytes: &[u8]) -> impl Iterator<Item = usize> + '_ {
    memchr::memchr2_iter(b'\n', b'\r', bytes)
        .filter(|&i| bytes[i] == b'\n' || bytes.get(i + 1) != Some(&b'\n'))
        .map(|i| i + 1)
}

/// See [`SourceFile::char_marks`].
fn char_marks(text: &str) -> Arc<[usize]> {
    if text.is_ascii() {
        return Arc::from([]);
    }
    let mut marks = Vec::with_capacity(text.len() / CHAR_MARK_STRIDE + 1);
    let mut chars = 0;
    marks.push(0);
    for chunk in text.as_bytes().chunks(CHAR_MARK_STRIDE) {
        chars += count_chars(chunk);
        marks.push(chars);
    }
    marks.into()
}

/// Characters starting in `bytes`: every byte that is not a UTF-8 continuation byte.
fn count_chars(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| (b as i8) >= -0x40).count()
}
