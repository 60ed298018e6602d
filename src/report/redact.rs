//! The run as every format sees it: secret values blanked in the source text and scrubbed from
//! messages. Done once here so that no format (nor a future one) can show them.

use crate::diag::Diagnostic;
use crate::lint::LintRun;
use std::collections::BTreeMap;

use rayon::prelude::*;

use crate::secrets::{mask_text, scrub, scrubbable};
use crate::source::{FileId, Span};

/// What a redacted copy carries besides the files and findings.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Carry {
    /// Everything of the run (a report built outside this stage may read any of it).
    Everything,
    /// What the formats read: the resources too for JUnit (one case each), and no statuses,
    /// which no format shows (copying 100,000 resources for nothing cost a report most of its
    /// time).
    Report { shows_source: bool, resources: bool },
}

/// A copy of `run` with its secrets hidden; `None` when it has none (the run is shown as is).
pub(super) fn redacted(run: &LintRun, carry: Carry) -> Option<LintRun> {
    let (shows_source, resources, statuses) = match carry {
        Carry::Everything => (false, true, true),
        Carry::Report {
            shows_source,
            resources,
        } => (shows_source, resources, false),
    };
    if run.masked.is_empty() {
        return None;
    }
    // Per file: the spans to blank and the texts to scrub. A message quotes values of the file it
    // points into, so each finding is scrubbed with its own files' secrets only (all secrets for a
    // finding without a file); scanning every message for every secret of a large run was the
    // slowest part of the whole lint.
    let mut spans: BTreeMap<FileId, Vec<Span>> = BTreeMap::new();
    // Every form is a slice of the run's own text: nothing is copied.
    let mut texts: BTreeMap<FileId, Vec<&str>> = BTreeMap::new();
    for m in &run.masked {
        spans.entry(m.file).or_default().push(m.span);
        // A message may quote the value decoded (`"hunter2"`), or as written (`'hunter2'`, a
        // line of a block scalar): all of these forms are scrubbed.
        let forms = texts.entry(m.file).or_default();
        forms.push(&m.text);
        forms.extend(m.text.lines().map(str::trim));
        if let Some(raw) = run
            .files
            .get(m.file)
            .and_then(|f| f.text.get(m.span.start..m.span.end))
        {
            forms.push(raw);
            forms.push(raw.trim_matches(|c| c == '"' || c == '\''));
        }
    }
    // Per file, the masked spans with their text, by position: a finding on a masked value may
    // quote it however short it is (GW110 quotes a plain `yes`).
    let mut at: BTreeMap<FileId, Vec<(Span, &str)>> = BTreeMap::new();
    for m in &run.masked {
        at.entry(m.file).or_default().push((m.span, &m.text));
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
    // Only formats with snippets show source text, and only of files that a finding points into:
    // the others keep their text (shared).
    let shown: std::collections::BTreeSet<FileId> = run
        .diagnostics
        .iter()
        .chain(&run.suppressed)
        .flat_map(|d| {
            d.location
                .iter()
                .map(|l| l.file)
                .chain(d.related.iter().map(|r| r.location.file))
        })
        .collect();
    let files = run
        .files
        .iter()
        .map(|f| match spans.get(&f.id) {
            Some(spans) if shows_source && shown.contains(&f.id) => {
                f.with_same_lines(mask_text(&f.text, spans))
            }
            _ => f.clone(),
        })
        .collect();
    let clean = |d: &Diagnostic| {
        let mut files: Vec<FileId> = d.related.iter().map(|r| r.location.file).collect();
        match &d.location {
            Some(l) => files.push(l.file),
            None => files.extend(texts.keys().copied()),
        }
        files.sort_unstable();
        files.dedup();
        let gathered: Vec<&str>;
        let secrets: &[&str] = match files.as_slice() {
            // Most findings point into one file, whose list is in order already.
            [f] => texts.get(f).map_or(&[], Vec::as_slice),
            _ => {
                let mut all: Vec<&str> = files
                    .iter()
                    .filter_map(|f| texts.get(f))
                    .flatten()
                    .copied()
                    .collect();
                all.sort_by_key(|s| std::cmp::Reverse(s.len()));
                gathered = all;
                &gathered
            }
        };
        let mut d = d.clone();
        if let Some(l) = &d.location
            && let Some(list) = at.get(&l.file)
        {
            d.message = scrub_quoted(&d.message, overlapping(list, l.span));
        }
        if secrets.is_empty() {
            return d;
        }
        d.message = scrub(&d.message, secrets);
        d.help = d.help.as_deref().map(|h| scrub(h, secrets));
        for r in &mut d.related {
            r.message = scrub(&r.message, secrets);
        }
        d
    };
    Some(LintRun {
        files,
        diagnostics: run.diagnostics.par_iter().map(clean).collect(),
        suppressed: run.suppressed.par_iter().map(clean).collect(),
        resources: if resources {
            run.resources.clone()
        } else {
            Vec::new()
        },
        stats: run.stats.clone(),
        input_error: run.input_error,
        masked: Vec::new(),
        route_statuses: if statuses {
            run.route_statuses.clone()
        } else {
            Vec::new()
        },
        policy_statuses: if statuses {
            run.policy_statuses.clone()
        } else {
            Vec::new()
        },
        model: None,
        objects: Vec::new(),
    })
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
