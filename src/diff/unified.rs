//! The unified diff of two texts by lines, as `similar` writes it
//! (`TextDiff::from_lines(old, new).unified_diff().context_radius(3)`), with the lines both
//! begin and end with set aside before the diff is searched: a changed resource is mostly
//! hundreds of KB of YAML with a small change, and `similar` reads every line into a hash table
//! first. Its algorithm (Myers) sets the same lines aside first, so the operations are the
//! same; they are compacted and grouped over the whole texts as `similar` does.

use std::fmt::Write as _;
use std::ops::Range;

use similar::algorithms::{Capture, Compact, DiffHook, NoFinishHook, Replace};
use similar::{ChangeTag, DiffOp, TextDiff, group_diff_ops};

use crate::fasthash::WordMap;

/// Lines of context around each change.
const CONTEXT: usize = 3;

/// Two texts' lines, with the lines they begin and end with alike counted.
pub struct Lines<'o, 'n> {
    old_text: &'o str,
    new_text: &'n str,
    old: Vec<&'o str>,
    new: Vec<&'n str>,
    /// How many lines both begin with.
    prefix: usize,
    /// How many lines both end with, after the prefix.
    suffix: usize,
}

impl<'o, 'n> Lines<'o, 'n> {
    pub fn new(old_text: &'o str, new_text: &'n str) -> Self {
        let (old, new) = (lines(old_text), lines(new_text));
        let prefix = old.iter().zip(&new).take_while(|(a, b)| a == b).count();
        let suffix = old[prefix..]
            .iter()
            .rev()
            .zip(new[prefix..].iter().rev())
            .take_while(|(a, b)| a == b)
            .count();
        Lines {
            old_text,
            new_text,
            old,
            new,
            prefix,
            suffix,
        }
    }

    /// The lines between those both begin and end with, on each side.
    pub fn differing(&self) -> (&[&'o str], &[&'n str]) {
        (
            &self.old[self.prefix..self.old.len() - self.suffix],
            &self.new[self.prefix..self.new.len() - self.suffix],
        )
    }

    /// The unified diff (`--- a_name`, `+++ b_name`, hunks), empty when the texts are the same.
    pub fn unified(&self, a_name: &str, b_name: &str) -> String {
        // `similar` ends a line at `\r\n` and `\r` too; the YAML written has no `\r` (a string
        // with one is quoted), but a text with one is left to `similar` itself.
        if self.old_text.contains('\r') || self.new_text.contains('\r') {
            return TextDiff::from_lines(self.old_text, self.new_text)
                .unified_diff()
                .context_radius(CONTEXT)
                .header(a_name, b_name)
                .to_string();
        }
        let (old, new) = (&self.old[..], &self.new[..]);
        let mut out = String::new();
        for group in group_diff_ops(self.ops(), CONTEXT) {
            let (Some(first), Some(last)) = (group.first(), group.last()) else {
                continue;
            };
            if out.is_empty() {
                let _ = write!(out, "--- {a_name}\n+++ {b_name}\n");
            }
            let old_range = first.old_range().start..last.old_range().end;
            let new_range = first.new_range().start..last.new_range().end;
            let _ = writeln!(out, "@@ -{} +{} @@", Span(old_range), Span(new_range));
            for op in &group {
                for change in op.iter_changes(old, new) {
                    out.push(match change.tag() {
                        ChangeTag::Equal => ' ',
                        ChangeTag::Delete => '-',
                        ChangeTag::Insert => '+',
                    });
                    let line = change.value();
                    out.push_str(line);
                    if !line.ends_with('\n') {
                        out.push_str("\n\\ No newline at end of file\n");
                    }
                }
            }
        }
        out
    }

    /// The operations `similar` finds for the two lists of lines (Myers, compacted, a delete
    /// beside an insert made a replace).
    fn ops(&self) -> Vec<DiffOp> {
        let (old, new) = (&self.old[..], &self.new[..]);
        let old_middle = self.prefix..old.len() - self.suffix;
        let new_middle = self.prefix..new.len() - self.suffix;
        let mut hook = Compact::new(Replace::new(Capture::new()), old, new);
        if self.prefix > 0 {
            let _ = hook.equal(0, 0, self.prefix);
        }
        middle_ops(&mut hook, old, old_middle.clone(), new, new_middle.clone());
        if self.suffix > 0 {
            let _ = hook.equal(old_middle.end, new_middle.end, self.suffix);
        }
        // Compacting (over the whole texts) and replacing happen at the finish.
        let _ = hook.finish();
        hook.into_inner().into_inner().into_ops()
    }
}

/// The text's lines, each with its `\n` (the last without one when the text does not end so).
fn lines(text: &str) -> Vec<&str> {
    // Found with memchr: a changed resource is thousands of lines, split on each side.
    let mut out = Vec::with_capacity(memchr::memchr_iter(b'\n', text.as_bytes()).count() + 1);
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', text.as_bytes()) {
        out.push(&text[start..=end]);
        start = end + 1;
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

/// Myers' operations between the lines that differ, reported to `hook` without finishing it;
/// the lines read as numbers (equal lines, equal numbers) when there are many.
fn middle_ops<'t, D: DiffHook>(
    hook: &mut D,
    old: &[&'t str],
    old_range: Range<usize>,
    new: &[&'t str],
    new_range: Range<usize>,
) {
    let mut hook = NoFinishHook::new(hook);
    if old_range.len() > 100 || new_range.len() > 100 {
        // Each distinct line a number (equal lines, equal numbers), hashed a word at a time.
        let mut ids: WordMap<&str, u32> = WordMap::default();
        let mut id = |line: &'t str| {
            let next = ids.len() as u32;
            *ids.entry(line).or_insert(next)
        };
        let old_ids: Vec<u32> = old[old_range.clone()].iter().map(|l| id(l)).collect();
        let new_ids: Vec<u32> = new[new_range.clone()].iter().map(|l| id(l)).collect();
        let _ = similar::algorithms::myers::diff(
            &mut Offset {
                hook: &mut hook,
                old: old_range.start,
                new: new_range.start,
            },
            &old_ids,
            0..old_ids.len(),
            &new_ids,
            0..new_ids.len(),
        );
    } else {
        let _ = similar::algorithms::myers::diff(&mut hook, old, old_range, new, new_range);
    }
}

/// A hook told of operations on a part of the lines (from `old` and `new` on), passing them on
/// at their places in the whole lists.
struct Offset<'h, D> {
    hook: &'h mut D,
    old: usize,
    new: usize,
}

impl<D: DiffHook> DiffHook for Offset<'_, D> {
    type Error = D::Error;

    fn equal(&mut self, old: usize, new: usize, len: usize) -> Result<(), D::Error> {
        self.hook.equal(self.old + old, self.new + new, len)
    }

    fn delete(&mut self, old: usize, len: usize, new: usize) -> Result<(), D::Error> {
        self.hook.delete(self.old + old, len, self.new + new)
    }

    fn insert(&mut self, old: usize, new: usize, len: usize) -> Result<(), D::Error> {
        self.hook.insert(self.old + old, self.new + new, len)
    }

    fn replace(
        &mut self,
        old: usize,
        old_len: usize,
        new: usize,
        new_len: usize,
    ) -> Result<(), D::Error> {
        self.hook
            .replace(self.old + old, old_len, self.new + new, new_len)
    }

    fn finish(&mut self) -> Result<(), D::Error> {
        self.hook.finish()
    }
}

/// A hunk's lines on one side, as `similar` writes them: `start,len` (1-based), only `start`
/// for one line, the line before for none.
struct Span(Range<usize>);

impl std::fmt::Display for Span {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let len = self.0.len();
        match len {
            1 => write!(f, "{}", self.0.start + 1),
            0 => write!(f, "{},0", self.0.start),
            _ => write!(f, "{},{}", self.0.start + 1, len),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn similar_unified(old: &str, new: &str) -> String {
        TextDiff::from_lines(old, new)
            .unified_diff()
            .context_radius(CONTEXT)
            .header("a/x", "b/x")
            .to_string()
    }

    /// A small deterministic generator (xorshift), for texts of many shapes.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }
    }

    /// A text of `len` lines from a few distinct ones (repeated lines are what compacting
    /// shifts edits across).
    fn text(rng: &mut Rng, len: usize, alphabet: u64) -> Vec<String> {
        (0..len)
            .map(|_| format!("  key{}: v\n", rng.next(alphabet)))
            .collect()
    }

    fn edited(rng: &mut Rng, lines: &[String], edits: usize, alphabet: u64) -> Vec<String> {
        let mut out = lines.to_vec();
        for _ in 0..edits {
            let at = rng.next(out.len() as u64 + 1) as usize;
            match rng.next(3) {
                0 if at < out.len() => {
                    out.remove(at);
                }
                1 if at < out.len() => out[at] = format!("  key{}: w\n", rng.next(alphabet)),
                _ => out.insert(at, format!("  key{}: v\n", rng.next(alphabet))),
            }
        }
        out
    }

    #[test]
    fn says_what_similar_says_of_the_whole_texts() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for case in 0..3000 {
            let len = [0, 1, 2, 5, 8, 40, 150, 400][case % 8];
            let alphabet = [1, 2, 3, 50][case / 8 % 4];
            let old = text(&mut rng, len, alphabet);
            let edits = 1 + rng.next(6) as usize;
            let new = edited(&mut rng, &old, edits, alphabet);
            let (old, mut new) = (old.concat(), new.concat());
            if case % 7 == 0 {
                // A last line without its newline.
                new.pop();
            }
            assert_eq!(
                Lines::new(&old, &new).unified("a/x", "b/x"),
                similar_unified(&old, &new),
                "case {case}:\n{old}\n---\n{new}"
            );
        }
    }

    #[test]
    fn changes_far_apart_have_the_hunks_similar_gives() {
        // Hundreds of lines between the first change and the last: the lines are read as
        // numbers.
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        for case in 0..60 {
            let alphabet = [2, 5, 50][case % 3];
            let old = text(&mut rng, 600, alphabet);
            let mut new = edited(&mut rng, &old, 4, alphabet);
            let first = rng.next(5) as usize;
            new[first] = "  first: changed\n".to_string();
            let last = new.len() - 1 - rng.next(5) as usize;
            new.insert(last, "  last: added\n".to_string());
            let (old, new) = (old.concat(), new.concat());
            let lines = Lines::new(&old, &new);
            assert!(lines.differing().0.len() > 100, "case {case}");
            assert_eq!(
                lines.unified("a/x", "b/x"),
                similar_unified(&old, &new),
                "case {case}"
            );
        }
    }

    #[test]
    fn a_change_near_either_end_of_a_long_text_has_the_hunks_similar_gives() {
        let old: String = (0..2000).map(|i| format!("line {i}\n")).collect();
        for at in [0, 1, 2, 3, 4, 1000, 1995, 1996, 1997, 1998, 1999] {
            let new = old.replacen(&format!("line {at}\n"), "changed\n", 1);
            assert_eq!(
                Lines::new(&old, &new).unified("a/x", "b/x"),
                similar_unified(&old, &new)
            );
            let longer = format!("{old}added\n");
            assert_eq!(
                Lines::new(&old, &longer).unified("a/x", "b/x"),
                similar_unified(&old, &longer)
            );
        }
        for (old, new) in [
            ("", "a\n"),
            ("a\n", ""),
            ("", ""),
            ("a\n", "a\n"),
            ("a\r\nb", "a\r\nc"),
        ] {
            assert_eq!(
                Lines::new(old, new).unified("a/x", "b/x"),
                similar_unified(old, new)
            );
        }
    }
}
