//! Choosing fixes that can be applied together and applying their edits to texts.

use std::collections::BTreeMap;

use crate::diag::{Applicability, Edit, Fix};
use crate::source::{FileId, Span};

/// Which fixes to apply: the safe ones (`--fix`) or all (`--unsafe-fixes`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Selection {
    Safe,
    All,
}

impl Selection {
    pub fn admits(self, applicability: Applicability) -> bool {
        match self {
            Selection::Safe => applicability == Applicability::Safe,
            Selection::All => true,
        }
    }
}

/// The fixes of one round that can be applied together, by file, and those left for a later
/// round because they overlap one chosen before them.
#[derive(Debug, Default)]
pub struct Chosen<'a> {
    pub edits: BTreeMap<FileId, Vec<&'a Edit>>,
    pub fixes: usize,
    /// Titles of the fixes that overlap a chosen one, with the file of their first edit.
    pub overlapping: Vec<(FileId, &'a str)>,
    /// Fixes whose own edits overlap one another or fall outside their file: never applied.
    pub malformed: Vec<(FileId, &'a str)>,
}

/// Takes fixes in the order given (the report's order); a fix whose edits touch a range an
/// earlier chosen fix edits waits, so that every fix is applied whole or not at all. Two
/// insertions at the same place overlap too: their order would be a guess. `len` gives the
/// length of a file's text, `None` for a file whose text cannot be edited.
pub fn choose<'a>(
    fixes: impl IntoIterator<Item = &'a Fix>,
    len: impl Fn(FileId) -> Option<usize>,
) -> Chosen<'a> {
    let mut chosen = Chosen::default();
    for fix in fixes {
        let Some(first) = fix.edits.first() else {
            continue;
        };
        if !well_formed(fix, &len) {
            chosen.malformed.push((first.file, &fix.title));
            continue;
        }
        let clash = fix.edits.iter().any(|e| {
            chosen
                .edits
                .get(&e.file)
                .is_some_and(|taken| taken.iter().any(|t| overlap(t.span, e.span)))
        });
        if clash {
            chosen.overlapping.push((first.file, &fix.title));
            continue;
        }
        for e in &fix.edits {
            chosen.edits.entry(e.file).or_default().push(e);
        }
        chosen.fixes += 1;
    }
    for edits in chosen.edits.values_mut() {
        edits.sort_by_key(|e| (e.span.start, e.span.end));
    }
    chosen
}

/// Edits inside their files, on no common range.
fn well_formed(fix: &Fix, len: &impl Fn(FileId) -> Option<usize>) -> bool {
    let inside = fix
        .edits
        .iter()
        .all(|e| len(e.file).is_some_and(|n| e.span.start <= e.span.end && e.span.end <= n));
    let apart = fix.edits.iter().enumerate().all(|(i, a)| {
        fix.edits[i + 1..]
            .iter()
            .all(|b| a.file != b.file || !overlap(a.span, b.span))
    });
    inside && apart
}

/// Ranges that share a byte, or insertions at the same place or inside the other's range.
fn overlap(a: Span, b: Span) -> bool {
    if a.is_empty() || b.is_empty() {
        let (point, other) = if a.is_empty() { (a, b) } else { (b, a) };
        return if other.is_empty() {
            point.start == other.start
        } else {
            other.start < point.start && point.start < other.end
        };
    }
    a.start < b.end && b.start < a.end
}

/// `text` with `edits` applied; they are sorted, do not overlap and lie on character boundaries
/// (see [`choose`]). Bytes outside the edited ranges are copied as they are.
pub fn apply(text: &str, edits: &[&Edit]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for e in edits {
        let span = e.span.within(text);
        if span.start < at {
            continue;
        }
        out.push_str(&text[at..span.start]);
        out.push_str(&e.replacement);
        at = span.end;
    }
    out.push_str(&text[at..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fix(title: &str, edits: &[(usize, usize, &str)]) -> Fix {
        Fix::safe(
            title,
            edits
                .iter()
                .map(|&(s, e, r)| Edit::replace(0, Span::new(s, e), r))
                .collect(),
        )
    }

    #[test]
    fn overlapping_fixes_wait_for_the_next_round() {
        let fixes = [
            fix("a", &[(0, 3, "x")]),
            fix("b", &[(2, 5, "y")]),
            fix("c", &[(5, 5, "!"), (6, 7, "z")]),
            fix("d", &[(5, 5, "?")]),
        ];
        let chosen = choose(&fixes, |_| Some(10));
        assert_eq!(chosen.fixes, 2);
        assert_eq!(chosen.overlapping, vec![(0, "b"), (0, "d")]);
        let edits = &chosen.edits[&0];
        assert_eq!(apply("abcdefghij", edits), "xde!fzhij");
    }

    #[test]
    fn a_fix_with_overlapping_or_outside_edits_is_never_applied() {
        let fixes = [
            fix("self", &[(0, 2, "x"), (1, 3, "y")]),
            fix("out", &[(8, 12, "")]),
        ];
        let chosen = choose(&fixes, |_| Some(10));
        assert_eq!(chosen.fixes, 0);
        assert_eq!(chosen.malformed, vec![(0, "self"), (0, "out")]);
    }

    #[test]
    fn bytes_outside_the_edits_are_kept() {
        let text = "a: 1 # one\nb: 2\n";
        let e1 = Edit::replace(0, Span::new(0, 1), "aa");
        let e2 = Edit::replace(0, Span::new(11, 12), "bb");
        assert_eq!(apply(text, &[&e1, &e2]), "aa: 1 # one\nbb: 2\n");
    }
}
