//! The run as every format sees it: secret values blanked in the source text and scrubbed from
//! messages. Done once here so that no format (nor a future one) can show them.

use crate::diag::Diagnostic;
use crate::lint::LintRun;
use crate::secrets::{mask_text, scrub};
use crate::source::{SourceFile, Span};

/// A copy of `run` with its secrets hidden; `None` when it has none (the run is shown as is).
pub(super) fn redacted(run: &LintRun) -> Option<LintRun> {
    if run.masked.is_empty() {
        return None;
    }
    let files = run
        .files
        .iter()
        .map(|f| {
            let spans: Vec<Span> = run
                .masked
                .iter()
                .filter(|m| m.file == f.id)
                .map(|m| m.span)
                .collect();
            let text = if spans.is_empty() {
                f.text.to_string()
            } else {
                mask_text(&f.text, &spans)
            };
            SourceFile::new(f.id, f.name.clone(), text)
        })
        .collect();
    // A message may quote the value decoded (`"hunter2"`), or as written (`'hunter2'`, a line of
    // a block scalar): all of these forms are scrubbed.
    let mut secrets: Vec<String> = Vec::new();
    for m in &run.masked {
        secrets.push(m.text.clone());
        secrets.extend(m.text.lines().map(|l| l.trim().to_string()));
        if let Some(raw) = run
            .files
            .get(m.file)
            .and_then(|f| f.text.get(m.span.start..m.span.end))
        {
            secrets.push(raw.to_string());
            secrets.push(raw.trim_matches(|c| c == '"' || c == '\'').to_string());
        }
    }
    // Longest first: a secret that contains another is replaced whole.
    secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
    secrets.dedup();
    let secrets: Vec<&str> = secrets.iter().map(String::as_str).collect();
    let clean = |d: &Diagnostic| {
        let mut d = d.clone();
        d.message = scrub(&d.message, &secrets);
        d.help = d.help.as_deref().map(|h| scrub(h, &secrets));
        for r in &mut d.related {
            r.message = scrub(&r.message, &secrets);
        }
        d
    };
    Some(LintRun {
        files,
        diagnostics: run.diagnostics.iter().map(clean).collect(),
        suppressed: run.suppressed.iter().map(clean).collect(),
        resources: run.resources.clone(),
        stats: run.stats.clone(),
        input_error: run.input_error,
        masked: Vec::new(),
    })
}
