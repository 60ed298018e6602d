//! A mapping's keys as the builder takes them: a complex key is refused, a duplicate one found
//! (GW003, with a fix when its value is the first one's), and `<<` merge keys merged when the
//! mapping ends.

use std::collections::HashSet;

use super::super::scalar::key_text;
use super::super::text::Text;
use super::super::{Entry, Node, Value};
use super::Builder;
use crate::diag::{Diagnostic, Edit, Fix};
use crate::rules;
use crate::source::Span;

/// What a mapping frame does with the next completed node.
pub(super) enum Pending {
    /// The next node is a key.
    Key,
    /// The next node is the value of this key.
    Value { key: Text, span: Span, merge: bool },
    /// The next node is the value of a rejected key (duplicate or complex) and is dropped.
    Drop,
    /// The next node is the value of a duplicate key, dropped; when it equals the first value,
    /// the finding gets a fix that removes the duplicate.
    Duplicate(Duplicate),
}

/// A duplicate key whose value is awaited.
pub(super) struct Duplicate {
    /// Its GW003 finding, in the file's findings.
    finding: usize,
    key: Text,
    key_span: Span,
    /// Where the mapping's content before the key ended.
    before: usize,
}

impl Duplicate {
    /// Whether its value (`node`) is the one the key was first set to, among the mapping's
    /// entries so far.
    pub(super) fn same_as_first(&self, entries: &[Entry], node: &Node) -> bool {
        entries
            .iter()
            .find(|e| e.key == self.key)
            .is_some_and(|first| first.value.to_json() == node.to_json())
    }
}

impl Builder<'_> {
    /// GW003's fix for a duplicate whose value equals the first: the duplicate removed, as whole
    /// lines in block style (its trailing comment with it), else from the end of what precedes it
    /// (`{a: 1, a: 1}` loses `, a: 1`).
    pub(super) fn remove_duplicate(&mut self, dup: &Duplicate, value_end: usize) {
        let text = self.text;
        let line_start = text[..dup.key_span.start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = text[value_end..]
            .find('\n')
            .map_or(text.len(), |i| value_end + i + 1);
        let rest = text[value_end..line_end].trim_start_matches([' ', '\t']);
        let own_line = text[line_start..dup.key_span.start]
            .chars()
            .all(|c| c == ' ' || c == '\t')
            && (rest.trim_end().is_empty() || rest.starts_with('#'));
        let span = if own_line {
            Span::new(line_start, line_end)
        } else {
            Span::new(dup.before.min(dup.key_span.start), value_end)
        };
        let edit = Edit::delete(self.file.id, span);
        if let Some(d) = self.out.diagnostics.get_mut(dup.finding) {
            d.fix = Some(Fix::safe(
                format!("remove the second {:?} (the same value)", dup.key),
                vec![edit],
            ));
        }
    }

    /// Takes a completed key node for the innermost mapping.
    pub(super) fn key(&mut self, node: Node, before: usize) -> Pending {
        let span = node.span;
        let merge = matches!(&node.value, Value::Str(s) if s.plain() && s.text == "<<");
        let Some(key) = key_text(node.value) else {
            self.diag(
                rules::GW002,
                "complex mapping keys are not supported".to_owned(),
                span,
            );
            return Pending::Drop;
        };
        if !merge {
            let open = &self.stack;
            let first = open
                .frames
                .last()
                .and_then(|f| f.first_key_span(&open.entries, &key));
            if let Some(first) = first {
                let at = self.file.line_col(first.start);
                let msg = format!(
                    "duplicate key {key:?}: already set at line {} column {}",
                    at.line, at.column
                );
                self.out.diagnostics.push(
                    Diagnostic::new(rules::GW003, msg)
                        .at(self.file.id, span)
                        .with_related(self.file.id, first, "first set here"),
                );
                return Pending::Duplicate(Duplicate {
                    finding: self.out.diagnostics.len() - 1,
                    key,
                    key_span: span,
                    before,
                });
            }
        }
        Pending::Value { key, span, merge }
    }

    /// Merges `<<` values (a mapping or a list of mappings) into `entries`; keys already present win,
    /// and earlier merged mappings win over later ones.
    pub(super) fn apply_merges(&mut self, entries: &mut Vec<Entry>, merges: Vec<Node>) {
        let mut seen: HashSet<Text> = entries.iter().map(|e| e.key.clone()).collect();
        let mut merge_in = |src: Box<[Entry]>, entries: &mut Vec<Entry>| {
            for e in src {
                if seen.insert(e.key.clone()) {
                    entries.push(e);
                }
            }
        };
        for m in merges {
            match m.value {
                Value::Map(src) => merge_in(src, entries),
                Value::Seq(items) => {
                    for item in items {
                        match item.value {
                            Value::Map(src) => merge_in(src, entries),
                            _ => self.diag(rules::GW002, MERGE_MSG.to_owned(), item.span),
                        }
                    }
                }
                _ => self.diag(rules::GW002, MERGE_MSG.to_owned(), m.span),
            }
        }
    }
}

const MERGE_MSG: &str = "the merge key `<<` needs a mapping or a list of mappings";
