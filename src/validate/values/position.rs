//! Maps a byte offset in a decoded string scalar back to the file: plain, single-quoted,
//! double-quoted and block (`|`, `>`) scalars. The node keeps only the decoded text and the span,
//! so the source is re-read in the scalar's style; the re-decoded text is compared with the
//! node's text, and a mismatch (a construct this reader does not follow) falls back to the span.

use crate::source::Span;

/// Decoded characters of one scalar with the file offsets they come from.
pub(crate) struct ScalarMap {
    /// (offset in the decoded text, offset in the file), one per decoded character, in order.
    chars: Vec<(usize, usize)>,
    /// Source bytes of each character (an escape is wider than what it decodes to).
    widths: Vec<usize>,
    /// File offset just after the last mapped character.
    end: usize,
    /// The whole span, used when the scalar could not be followed.
    span: Span,
    exact: bool,
}

impl ScalarMap {
    /// Reads the scalar at `span` of `file_text` whose decoded value is `decoded`.
    pub(crate) fn new(file_text: &str, span: Span, decoded: &str) -> ScalarMap {
        let mut out = Decoded::default();
        let line_start = file_text
            .get(..span.start)
            .and_then(|before| before.rfind('\n'))
            .map_or(0, |i| i + 1);
        let header_indent = file_text
            .get(line_start..span.start)
            .map_or(0, |l| l.len() - l.trim_start_matches(' ').len());
        let ok = file_text
            .get(span.start..span.end)
            .is_some_and(|src| read_scalar(src, span.start, header_indent, &mut out));
        // Chomping and trailing blanks of block scalars are not followed: compare without them.
        let exact = ok && out.text.trim_end() == decoded.trim_end();
        ScalarMap {
            chars: out.chars,
            widths: out.widths,
            end: out.end.max(span.start),
            span,
            exact,
        }
    }

    /// File offset of the decoded byte `offset` (the end of the text maps after its last character).
    pub(crate) fn offset(&self, offset: usize) -> usize {
        if !self.exact {
            return self.span.start;
        }
        match self.chars.binary_search_by_key(&offset, |(d, _)| *d) {
            Ok(i) => self.chars[i].1,
            // Inside a multi-byte character: its start.
            Err(i) if i > 0 && i < self.chars.len() => self.chars[i - 1].1,
            _ => self.end,
        }
    }

    /// The file span of the decoded range `start..end` (at least one character wide when possible).
    pub(crate) fn span(&self, start: usize, end: usize) -> Span {
        if !self.exact {
            return self.span;
        }
        let s = self.offset(start);
        let e = if end > start {
            // After the last character of the range.
            match self.chars.iter().position(|(d, _)| *d >= end) {
                Some(i) if i > 0 => self.chars[i - 1].1 + self.widths[i - 1],
                Some(_) => s,
                None => self.end,
            }
        } else {
            s
        };
        Span::new(s, e.max(s))
    }
}

#[derive(Default)]
struct Decoded {
    text: String,
    chars: Vec<(usize, usize)>,
    widths: Vec<usize>,
    /// Per character: an escaped or content character that line folding must not strip.
    kept: Vec<bool>,
    end: usize,
}

impl Decoded {
    fn push(&mut self, c: char, at: usize, width: usize, kept: bool) {
        self.chars.push((self.text.len(), at));
        self.widths.push(width);
        self.kept.push(kept);
        self.text.push(c);
    }

    /// Drops trailing unescaped blanks before a folded line break.
    fn strip_blanks(&mut self) {
        while let (Some(&false), Some(c)) = (self.kept.last(), self.text.chars().last()) {
            if c != ' ' && c != '\t' {
                break;
            }
            self.text.pop();
            self.chars.pop();
            self.widths.pop();
            self.kept.pop();
        }
    }
}

fn read_scalar(src: &str, base: usize, header_indent: usize, out: &mut Decoded) -> bool {
    match src.as_bytes().first() {
        Some(b'"') => read_flow(
            &src[1..src.len().saturating_sub(1).max(1)],
            base + 1,
            Style::Double,
            out,
        ),
        Some(b'\'') => read_flow(
            &src[1..src.len().saturating_sub(1).max(1)],
            base + 1,
            Style::Single,
            out,
        ),
        Some(b'|') | Some(b'>') => read_block(src, base, header_indent, out),
        _ => read_flow(src, base, Style::Plain, out),
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Style {
    Plain,
    Single,
    Double,
}

fn is_break(b: u8) -> bool {
    b == b'\n' || b == b'\r'
}

/// Length of the line break at `i` (`\r\n` is one break).
fn break_len(b: &[u8], i: usize) -> usize {
    if b[i] == b'\r' && b.get(i + 1) == Some(&b'\n') {
        2
    } else {
        1
    }
}

/// Plain and quoted scalars: escapes, `''`, and line folding (a single break is a space, each
/// further empty line a newline, blanks around breaks dropped).
fn read_flow(s: &str, base: usize, style: Style, out: &mut Decoded) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if is_break(c) {
            out.strip_blanks();
            let first_break = i;
            i += break_len(b, i);
            let mut empty = Vec::new();
            loop {
                let mut j = i;
                while j < b.len() && (b[j] == b' ' || b[j] == b'\t') {
                    j += 1;
                }
                if j < b.len() && is_break(b[j]) {
                    empty.push(j);
                    i = j + break_len(b, j);
                } else {
                    i = j;
                    break;
                }
            }
            if empty.is_empty() {
                out.push(' ', base + first_break, 1, false);
            } else {
                for at in empty {
                    out.push('\n', base + at, 1, true);
                }
            }
            continue;
        }
        if style == Style::Double && c == b'\\' {
            let Some(&e) = b.get(i + 1) else { return false };
            if is_break(e) {
                // Escaped line break: joins the lines without a space.
                i += 1 + break_len(b, i + 1);
                while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
                    i += 1;
                }
                continue;
            }
            let (ch, len) = match e {
                b'x' => (hex_char(s, i + 2, 2), 4),
                b'u' => (hex_char(s, i + 2, 4), 6),
                b'U' => (hex_char(s, i + 2, 8), 10),
                _ => (simple_escape(e), 2),
            };
            let Some(ch) = ch else { return false };
            out.push(ch, base + i, len, true);
            i += len;
            continue;
        }
        if style == Style::Single && c == b'\'' && b.get(i + 1) == Some(&b'\'') {
            out.push('\'', base + i, 2, true);
            i += 2;
            continue;
        }
        let Some(ch) = s[i..].chars().next() else {
            return false;
        };
        out.push(ch, base + i, ch.len_utf8(), !(ch == ' ' || ch == '\t'));
        i += ch.len_utf8();
    }
    out.end = base + b.len();
    true
}

fn hex_char(s: &str, at: usize, n: usize) -> Option<char> {
    let digits = s.get(at..at + n)?;
    char::from_u32(u32::from_str_radix(digits, 16).ok()?)
}

fn simple_escape(e: u8) -> Option<char> {
    Some(match e {
        b'0' => '\0',
        b'a' => '\x07',
        b'b' => '\x08',
        b't' | b'\t' => '\t',
        b'n' => '\n',
        b'v' => '\x0b',
        b'f' => '\x0c',
        b'r' => '\r',
        b'e' => '\x1b',
        b' ' => ' ',
        b'"' => '"',
        b'/' => '/',
        b'\\' => '\\',
        b'N' => '\u{85}',
        b'_' => '\u{a0}',
        b'L' => '\u{2028}',
        b'P' => '\u{2029}',
        _ => return None,
    })
}

/// One content line of a block scalar.
struct Line {
    /// File offset of the first content character (after the indentation).
    start: usize,
    text: String,
    /// File offset of the line break that ends it.
    brk: usize,
    empty: bool,
    /// Folded style: a line starting with a blank keeps its line breaks.
    spaced: bool,
}

/// `|` and `>` scalars: header, indentation (explicit or from the first non-empty line),
/// literal lines or folded lines.
fn read_block(src: &str, base: usize, header_indent: usize, out: &mut Decoded) -> bool {
    let b = src.as_bytes();
    let folded = b[0] == b'>';
    let header_end = b.iter().position(|c| is_break(*c)).unwrap_or(b.len());
    let explicit = src[1..header_end]
        .bytes()
        .find(u8::is_ascii_digit)
        .map(|d| usize::from(d - b'0'));
    let raw = raw_lines(src, header_end);
    let indent = block_indent(explicit, header_indent, &raw);
    let lines = content_lines(&raw, indent, base, folded);
    push_lines(&lines, folded, out);
    true
}

/// A line of a block scalar as read: offsets in the scalar of its start and of its end (its line
/// break, or the end of the scalar), and its text with the indentation.
type RawLine<'a> = (usize, &'a str, usize);

/// The lines after the header, which ends at `header_end`.
fn raw_lines(src: &str, header_end: usize) -> Vec<RawLine<'_>> {
    let b = src.as_bytes();
    let mut pos = header_end
        + if header_end < b.len() {
            break_len(b, header_end)
        } else {
            0
        };
    let mut raw = Vec::new();
    while pos < b.len() {
        let end = b[pos..]
            .iter()
            .position(|c| is_break(*c))
            .map_or(b.len(), |e| pos + e);
        raw.push((pos, &src[pos..end], end));
        pos = if end < b.len() {
            end + break_len(b, end)
        } else {
            end
        };
    }
    raw
}

/// The block's indentation: the explicit indicator's, or that of the first non-empty line.
fn block_indent(explicit: Option<usize>, header_indent: usize, raw: &[RawLine<'_>]) -> usize {
    // An explicit indicator is relative to the parent node's indentation, which is not known
    // here; the header line's indentation is that in the common `key: |2` layout (and a wrong
    // guess only makes the comparison with the node's text fail).
    match explicit {
        Some(d) => header_indent + d,
        None => raw
            .iter()
            .find(|(_, t, _)| !t.trim().is_empty())
            .map_or(0, |(_, t, _)| t.len() - t.trim_start_matches(' ').len()),
    }
}

/// The lines without their indentation, at file offsets (`base` is the scalar's).
fn content_lines(raw: &[RawLine<'_>], indent: usize, base: usize, folded: bool) -> Vec<Line> {
    raw.iter()
        .map(|(start, t, brk)| {
            let empty = t.trim().is_empty() && t.len() <= indent;
            let text = t.get(indent.min(t.len())..).unwrap_or("").to_string();
            Line {
                start: base + start + indent.min(t.len()),
                spaced: folded && text.starts_with([' ', '\t']),
                text,
                brk: base + brk,
                empty,
            }
        })
        .collect()
}

/// Decodes the lines into `out`, each after the breaks before it: those of the empty lines
/// between, and the previous line's own, which folding turns into a space.
fn push_lines(lines: &[Line], folded: bool, out: &mut Decoded) {
    let mut prev: Option<&Line> = None;
    let mut pending: Vec<usize> = Vec::new();
    for line in lines {
        if line.empty {
            pending.push(line.brk);
            continue;
        }
        match prev {
            None => {
                for at in pending.drain(..) {
                    out.push('\n', at, 1, true);
                }
            }
            Some(p) => {
                let fold = folded && !p.spaced && !line.spaced;
                if fold && pending.is_empty() {
                    out.push(' ', p.brk, 1, true);
                } else {
                    if !fold {
                        out.push('\n', p.brk, 1, true);
                    }
                    for at in pending.drain(..) {
                        out.push('\n', at, 1, true);
                    }
                }
            }
        }
        for (k, ch) in line.text.char_indices() {
            out.push(ch, line.start + k, ch.len_utf8(), true);
        }
        out.end = line.start + line.text.len();
        prev = Some(line);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The file text at the mapped offset of the first occurrence of `needle` in the decoded text.
    fn at(file: &str, decoded: &str, needle: &str) -> String {
        // Every case is a scalar right after `x: `.
        let span = Span::new(3, file.trim_end().len());
        let map = ScalarMap::new(file, span, decoded);
        assert!(map.exact, "not followed: {file:?}");
        let off = decoded.find(needle).expect("needle in decoded");
        let s = map.span(off, off + needle.len());
        file[s.start..s.end].to_string()
    }

    #[test]
    fn maps_every_style() {
        assert_eq!(
            at(
                "x: plain  text\n  folded here\n",
                "plain  text folded here",
                "here"
            ),
            "here"
        );
        assert_eq!(at("x: 'it''s\n\n  b'", "it's\nb", "b"), "b");
        assert_eq!(at(r#"x: "a\"b\n\u00e9 ZZ""#, "a\"b\né ZZ", "ZZ"), "ZZ");
        assert_eq!(at(r#"x: "a\"b\n\u00e9 ZZ""#, "a\"b\né ZZ", "é"), r"\u00e9");
        assert_eq!(
            at(
                "x: |\n  one\n   two\n\n  three\n",
                "one\n two\n\nthree\n",
                "three"
            ),
            "three"
        );
        assert_eq!(at("x: |-\n    a\n    bc\n", "a\nbc", "c"), "c");
        assert_eq!(at("x: |2\n    a\n  bc\n", "  a\nbc\n", "a"), "a");
        assert_eq!(
            at("x: >\n  a\n  b\n\n  c\n   d\n  e\n", "a b\nc\n d\ne\n", "e"),
            "e"
        );
        assert_eq!(
            at("x: >\n  a\n  b\n\n  c\n   d\n  e\n", "a b\nc\n d\ne\n", "d"),
            "d"
        );
    }

    #[test]
    fn a_mismatch_falls_back_to_the_span() {
        let file = "x: 'abc'";
        let map = ScalarMap::new(file, Span::new(3, 8), "something else");
        assert_eq!(map.offset(2), 3);
        assert_eq!(map.span(0, 2), Span::new(3, 8));
    }
}
