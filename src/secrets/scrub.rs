//! Findings without the secret values they quote: done once, at the end of the lint stage, so
//! that every later reader of the findings (each report format, `diff`, the statuses `render`
//! and `explain` derive from them) gets messages that are safe to print.

use std::borrow::Cow;
use std::collections::BTreeMap;

use rayon::prelude::*;

use super::{Masked, scrub, scrubbable};
use crate::diag::Diagnostic;
use crate::source::{FileId, SourceFile, Span};

/// Scrubs the messages, help and related messages of `diagnostics` of the `masked` values.
pub fn scrub_findings(files: &[SourceFile], masked: &[Masked], diagnostics: &mut [Diagnostic]) {
    if masked.is_empty() {
        return;
    }
    let by_file = ByFile::new(files, masked);
    diagnostics
        .par_iter_mut()
        .for_each(|d| by_file.scrub_finding(d));
}

/// The masked values, by the file they are in. A message quotes values of the file it points
/// into, so each finding is scrubbed with its own files' secrets only (all secrets for a finding
/// without a file); scanning every message for every secret of a large run was the slowest part
/// of the whole lint. Every form is a slice of the run's own text: nothing is copied.
struct ByFile<'a> {
    /// Per file, the texts to scrub, longest first.
    texts: BTreeMap<FileId, Vec<&'a str>>,
    /// Per file, the masked spans with their text, by position: a finding on a masked value may
    /// quote it however short it is (GW110 quotes a plain `yes`).
    at: BTreeMap<FileId, Vec<(Span, &'a str)>>,
}

impl<'a> ByFile<'a> {
    fn new(files: &'a [SourceFile], masked: &'a [Masked]) -> Self {
        let mut texts: BTreeMap<FileId, Vec<&str>> = BTreeMap::new();
        let mut at: BTreeMap<FileId, Vec<(Span, &str)>> = BTreeMap::new();
        for m in masked {
            at.entry(m.file).or_default().push((m.span, &m.text));
            // A message may quote the value decoded (`"hunter2"`), or as written (`'hunter2'`, a
            // line of a block scalar): all of these forms are scrubbed.
            let forms = texts.entry(m.file).or_default();
            forms.push(&m.text);
            forms.extend(m.text.lines().map(str::trim));
            if let Some(raw) = files
                .get(m.file)
                .and_then(|f| f.text.get(m.span.start..m.span.end))
            {
                forms.push(raw);
                forms.push(raw.trim_matches(|c| c == '"' || c == '\''));
            }
        }
        for list in at.values_mut() {
            list.sort_by_key(|(span, _)| (span.start, span.end));
        }
        for forms in texts.values_mut() {
            forms.retain(|s| scrubbable(s));
            // Longest first: a secret that contains another is replaced whole.
            forms.sort_by_key(|s| std::cmp::Reverse(s.len()));
            forms.dedup();
        }
        ByFile { texts, at }
    }

    /// `d` without the secrets it quotes, and without a fix that would show one.
    fn scrub_finding(&self, d: &mut Diagnostic) {
        // A fix that edits a secret value would show it (its replacement, a diff's lines): the
        // finding offers none.
        let touches_secret = d.fix.as_ref().is_some_and(|fix| {
            fix.edits.iter().any(|e| {
                self.at
                    .get(&e.file)
                    .is_some_and(|list| overlapping(list, e.span).next().is_some())
            })
        });
        if touches_secret {
            d.fix = None;
        }
        if let Some(l) = &d.location
            && let Some(list) = self.at.get(&l.file)
        {
            d.message = scrub_quoted(&d.message, overlapping(list, l.span));
        }
        let secrets = self.secrets_of(d);
        if secrets.is_empty() {
            return;
        }
        d.message = scrub(&d.message, &secrets);
        d.help = d.help.as_deref().map(|h| scrub(h, &secrets));
        for r in &mut d.related {
            r.message = scrub(&r.message, &secrets);
        }
    }

    /// The texts to scrub from `d`: those of the files it and its related findings point into
    /// (every file's for a finding without a location), longest first.
    fn secrets_of(&self, d: &Diagnostic) -> Cow<'_, [&'a str]> {
        let mut files: Vec<FileId> = d.related.iter().map(|r| r.location.file).collect();
        match &d.location {
            Some(l) => files.push(l.file),
            None => files.extend(self.texts.keys().copied()),
        }
        files.sort_unstable();
        files.dedup();
        match files.as_slice() {
            // Most findings point into one file, whose list is in order already.
            [f] => Cow::Borrowed(self.texts.get(f).map_or(&[], Vec::as_slice)),
            _ => {
                let mut all: Vec<&str> = files
                    .iter()
                    .filter_map(|f| self.texts.get(f))
                    .flatten()
                    .copied()
                    .collect();
                all.sort_by_key(|s| std::cmp::Reverse(s.len()));
                Cow::Owned(all)
            }
        }
    }
}

/// The masked values among `list` (sorted, disjoint) that overlap `span`.
fn overlapping<'a>(list: &'a [(Span, &'a str)], span: Span) -> impl Iterator<Item = &'a str> {
    let end = list.partition_point(|(s, _)| s.start < span.end.max(span.start + 1));
    list[..end]
        .iter()
        .rev()
        .take_while(move |(s, _)| s.end > span.start || s.start == span.start)
        .map(|(_, text)| *text)
}

/// `message` with each of `secrets` that it quotes (`"yes"`, `'yes'`) replaced by `"****"`.
fn scrub_quoted<'a>(message: &str, secrets: impl Iterator<Item = &'a str>) -> String {
    let mut out = message.to_string();
    for secret in secrets.filter(|s| !s.is_empty()) {
        for quote in ['"', '\''] {
            let quoted = format!("{quote}{secret}{quote}");
            if out.contains(&quoted) {
                out = out.replace(&quoted, &format!("{quote}****{quote}"));
            }
        }
    }
    out
}
