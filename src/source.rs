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
    /// Shared: a masked copy of the text (same line breaks) reuses it.
    line_starts: Arc<[usize]>,
}

/// 1-based line and column; the column counts characters (as editors do), not bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct LineCol {
    pub line: usize,
    pub column: usize,
}

impl SourceFile {
    pub fn new(id: FileId, name: impl Into<String>, text: impl Into<Arc<str>>) -> Self {
        let text: Arc<str> = text.into();
        let mut line_starts = vec![0];
        line_starts.extend(memchr_newlines(text.as_bytes()));
        SourceFile {
            id,
            name: name.into(),
            text,
            line_starts: line_starts.into(),
        }
    }

    /// The same file with `text` in place of its text; `text` must have the same line breaks at
    /// the same offsets (a masked copy), so the line index is shared, not rebuilt.
    pub fn with_same_lines(&self, text: impl Into<Arc<str>>) -> SourceFile {
        SourceFile {
            id: self.id,
            name: self.name.clone(),
            text: text.into(),
            line_starts: Arc::clone(&self.line_starts),
        }
    }

    /// Line and column of a byte offset (clamped to the text).
    pub fn line_col(&self, offset: usize) -> LineCol {
        let offset = offset.min(self.text.len());
        let line = self.line_index(offset);
        // A byte order mark is not a character an editor shows: columns of line 1 start after it.
        let start = match self.line_starts[line] {
            0 if self.text.starts_with('\u{feff}') => 3.min(offset),
            s => s,
        };
        let mut end = offset;
        while !self.text.is_char_boundary(end) {
            end -= 1;
        }
        let column = self.text[start..end].chars().count() + 1;
        LineCol {
            line: line + 1,
            column,
        }
    }

    /// Line and column of a byte offset where the column counts bytes (UTF-8), as reviewdog's
    /// rdjson wants; otherwise like [`SourceFile::line_col`].
    pub fn line_byte_col(&self, offset: usize) -> LineCol {
        let offset = offset.min(self.text.len());
        let line = self.line_index(offset);
        let start = match self.line_starts[line] {
            0 if self.text.starts_with('\u{feff}') => 3.min(offset),
            s => s,
        };
        LineCol {
            line: line + 1,
            column: offset - start + 1,
        }
    }

    /// The 0-based line of a byte offset (within the text).
    fn line_index(&self, offset: usize) -> usize {
        match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        }
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
        let from = self.line_starts[first];
        let to = self
            .line_starts
            .get(last.saturating_add(1))
            .copied()
            .unwrap_or(self.text.len());
        (first, from..to)
    }

    /// The 1-based line's text without its line break.
    pub fn line_text(&self, line: usize) -> &str {
        let Some(&start) = self.line_starts.get(line.wrapping_sub(1)) else {
            return "";
        };
        let end = self
            .line_starts
            .get(line)
            .copied()
            .unwrap_or(self.text.len());
        self.text[start..end].trim_end_matches(['\n', '\r'])
    }
}

fn memchr_newlines(bytes: &[u8]) -> impl Iterator<Item = usize> + '_ {
    memchr::memchr_iter(b'\n', bytes).map(|i| i + 1)
}
