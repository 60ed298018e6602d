//! The source lines a human-format finding shows, as a small text of their own: the lines around
//! its labels, each cut to [`MAX_LINE_CHARS`] around what it points at, with control characters
//! escaped. miette never sees a whole file (a snippet costs its lines, not the file), a minified
//! JSON line (it panics past display column 65,535 and would print the line whole per finding), or
//! a terminal escape from a value.

use std::ops::Range;

use miette::{MietteSpanContents, SourceCode, SourceSpan, SpanContents};

use super::escape::{escape_controls, escaped_len, push_escaped};
use crate::source::{SourceFile, Span};

/// Lines shown before and after a label (miette's default, set explicitly on the handler).
pub(super) const CONTEXT_LINES: usize = 1;
/// Characters of one source line shown at most; a longer line is cut around its labels.
const MAX_LINE_CHARS: usize = 160;
/// Characters kept before the first label on a cut line.
const LEAD_CHARS: usize = 40;
/// Shown where a line is cut.
const CUT: &str = "…";

/// The display text of one file's lines for one finding, and how it maps to the file.
#[derive(Debug)]
pub(super) struct Snippet {
    file: SourceFile,
    name: String,
    text: String,
    groups: Vec<Group>,
    /// Every shown line, in file order.
    lines: Vec<Line>,
}

/// Consecutive lines of the file, shown as consecutive lines of the text.
#[derive(Debug)]
struct Group {
    /// 0-based line of the file the group starts at.
    first_line: usize,
    /// Bytes of the display text.
    range: Range<usize>,
}

#[derive(Debug)]
struct Line {
    /// Where the file's line starts.
    from: usize,
    /// The part of the file's line that is shown (byte offsets in the file).
    real: Range<usize>,
    /// Where it starts in the display text (after the cut marker, if any).
    start: usize,
}

impl Snippet {
    /// The lines around `spans` (the primary label first), which must be within the file's text.
    pub(super) fn new(file: &SourceFile, spans: &[Span]) -> Snippet {
        let mut snippet = Snippet {
            file: file.clone(),
            name: escape_controls(&file.name).into_owned(),
            text: String::new(),
            groups: Vec::new(),
            lines: Vec::new(),
        };
        let around = CONTEXT_LINES + 1;
        let mut ranges: Vec<(usize, usize)> = spans
            .iter()
            .map(|s| {
                let first = file.line_index(s.start).saturating_sub(around);
                let last = file.line_index(s.end.max(s.start)).saturating_add(around);
                (first, last.min(file.line_count() - 1))
            })
            .collect();
        ranges.sort_unstable();
        let mut merged: Vec<(usize, usize)> = Vec::with_capacity(ranges.len());
        for (first, last) in ranges {
            match merged.last_mut() {
                Some(prev) if first <= prev.1 + 1 => prev.1 = prev.1.max(last),
                _ => merged.push((first, last)),
            }
        }
        for (first, last) in merged {
            let start = snippet.text.len();
            for index in first..=last {
                snippet.push_line(index, spans);
            }
            snippet.groups.push(Group {
                first_line: first,
                range: start..snippet.text.len(),
            });
        }
        snippet
    }

    fn push_line(&mut self, index: usize, spans: &[Span]) {
        let (range, has_break) = self.file.line_range(index);
        let text: &str = &self.file.text;
        let line = &text[range.clone()];
        // The first label with an end on this line says where a long line is cut.
        let anchor = spans
            .iter()
            .flat_map(|s| [s.start, s.end])
            .find(|p| range.contains(p) || *p == range.end)
            .map_or(0, |p| p - range.start);
        let shown = cut(line, anchor);
        if shown.start > 0 {
            self.text.push_str(CUT);
        }
        self.lines.push(Line {
            from: range.start,
            real: range.start + shown.start..range.start + shown.end,
            start: self.text.len(),
        });
        for c in line[shown.clone()].chars() {
            push_escaped(&mut self.text, c);
        }
        if shown.end < line.len() {
            self.text.push_str(CUT);
        }
        if has_break {
            self.text.push('\n');
        }
    }

    /// The display offset of a file offset: inside a shown part exactly, else at its nearest end.
    fn to_display(&self, offset: usize) -> usize {
        let i = self
            .lines
            .partition_point(|l| l.from <= offset)
            .saturating_sub(1);
        let Some(line) = self.lines.get(i) else {
            return 0;
        };
        let text: &str = &self.file.text;
        let to = offset.clamp(line.real.start, line.real.end);
        line.start
            + text[line.real.start..to]
                .chars()
                .map(escaped_len)
                .sum::<usize>()
    }

    /// The file offset a display offset shows.
    fn to_file(&self, display: usize) -> usize {
        let i = self
            .lines
            .partition_point(|l| l.start <= display)
            .saturating_sub(1);
        let Some(line) = self.lines.get(i) else {
            return 0;
        };
        let text: &str = &self.file.text;
        let mut at = line.start;
        for (i, c) in text[line.real.clone()].char_indices() {
            if at >= display {
                return line.real.start + i;
            }
            at += escaped_len(c);
        }
        line.real.end
    }

    /// A label's span in display offsets.
    pub(super) fn span(&self, span: Span) -> SourceSpan {
        let start = self.to_display(span.start);
        let end = self.to_display(span.end.max(span.start)).max(start);
        SourceSpan::from(start..end)
    }
}

/// The byte range of `line` shown: all of it when short enough, else [`MAX_LINE_CHARS`] characters
/// from a little before byte `anchor`, on character boundaries.
fn cut(line: &str, anchor: usize) -> Range<usize> {
    if line.len() <= MAX_LINE_CHARS {
        return 0..line.len();
    }
    let mut anchor = anchor.min(line.len());
    while !line.is_char_boundary(anchor) {
        anchor -= 1;
    }
    let start = line[..anchor]
        .char_indices()
        .rev()
        .take(LEAD_CHARS)
        .last()
        .map_or(anchor, |(i, _)| i);
    let end = line[start..]
        .char_indices()
        .nth(MAX_LINE_CHARS)
        .map_or(line.len(), |(i, _)| start + i);
    start..end
}

impl SourceCode for Snippet {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, miette::MietteError> {
        let g = self
            .groups
            .partition_point(|g| g.range.start <= span.offset())
            .saturating_sub(1);
        let group = self.groups.get(g).ok_or(miette::MietteError::OutOfBounds)?;
        let text = &self.text[group.range.clone()];
        let local_start = span
            .offset()
            .saturating_sub(group.range.start)
            .min(text.len());
        let local = SourceSpan::new(local_start.into(), span.len().min(text.len() - local_start));
        let inner = text.read_span(&local, context_lines_before, context_lines_after)?;
        // The header's column is the file's, in characters (miette would count display bytes).
        let column = self.file.line_col(self.to_file(span.offset())).column - 1;
        let data_span = SourceSpan::new(
            (inner.span().offset() + group.range.start).into(),
            inner.span().len(),
        );
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            data_span,
            inner.line() + group.first_line,
            column,
            inner.line_count(),
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_line_is_cut_around_its_label_and_maps_back() {
        let line = format!("{}KEY{}\n", "a".repeat(100_000), "b".repeat(100_000));
        let file = SourceFile::new(0, "f.json", line);
        let key = Span::new(100_000, 100_003);
        let snippet = Snippet::new(&file, &[key]);
        assert!(
            snippet.text.chars().count() <= MAX_LINE_CHARS + 3,
            "{}",
            snippet.text
        );
        let shown = snippet.span(key);
        assert_eq!(
            &snippet.text[shown.offset()..shown.offset() + shown.len()],
            "KEY"
        );
        assert_eq!(snippet.to_file(shown.offset()), 100_000);
    }

    #[test]
    fn control_characters_are_escaped_and_labels_follow_them() {
        let file = SourceFile::new(0, "f.yaml", "name: \"a\x1bb\" # x\n");
        let value = Span::new(6, 11);
        let snippet = Snippet::new(&file, &[value]);
        assert_eq!(snippet.text, "name: \"a\\x1bb\" # x\n");
        let shown = snippet.span(value);
        assert_eq!(
            &snippet.text[shown.offset()..shown.offset() + shown.len()],
            "\"a\\x1bb\""
        );
    }

    #[test]
    fn distant_labels_get_groups_of_their_own_lines() {
        let text: String = (1..=20).map(|i| format!("l{i}\n")).collect();
        let file = SourceFile::new(0, "f.yaml", text.as_str());
        let second = file.line_range(1).0;
        let nineteenth = file.line_range(18).0;
        let snippet = Snippet::new(
            &file,
            &[
                Span::new(second.start, second.end),
                Span::new(nineteenth.start, nineteenth.end),
            ],
        );
        assert_eq!(snippet.text, "l1\nl2\nl3\nl4\nl17\nl18\nl19\nl20\n");
        assert_eq!(snippet.groups[1].first_line, 16);
    }
}
