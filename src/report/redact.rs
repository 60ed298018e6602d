//! The run as every format sees it: secret values blanked in the source text its snippets show.
//! Done once here so that no format (nor a future one) can show them. (Messages are scrubbed of
//! secrets by the lint stage already: `secrets::scrub_findings`.)

use crate::lint::LintRun;
use std::collections::{BTreeMap, BTreeSet};

use crate::secrets::mask_text;
use crate::source::{FileId, Span};

/// What the formats read besides the files and findings: the resources for JUnit (one case each),
/// and no statuses, which no format shows (copying 100,000 resources for nothing cost a report
/// most of its time).
pub(super) struct Carry {
    pub shows_source: bool,
    pub resources: bool,
}

/// A copy of `run` with its secrets blanked in the files a finding points into; `None` when the
/// format shows no source or the run has no secret (the run is shown as is).
pub(super) fn redacted(run: &LintRun, carry: Carry) -> Option<LintRun> {
    if run.masked.is_empty() || !carry.shows_source {
        return None;
    }
    let mut spans: BTreeMap<FileId, Vec<Span>> = BTreeMap::new();
    for m in &run.masked {
        spans.entry(m.file).or_default().push(m.span);
    }
    // Only files that a finding points into are shown: the others keep their text (shared).
    let shown: BTreeSet<FileId> = run
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
            Some(spans) if shown.contains(&f.id) => f.with_same_lines(mask_text(&f.text, spans)),
            _ => f.clone(),
        })
        .collect();
    Some(LintRun {
        files,
        diagnostics: run.diagnostics.clone(),
        suppressed: run.suppressed.clone(),
        resources: if carry.resources {
            run.resources.clone()
        } else {
            Vec::new()
        },
        stats: run.stats.clone(),
        input_error: run.input_error,
        masked: Vec::new(),
        route_statuses: Vec::new(),
        policy_statuses: Vec::new(),
        model: None,
        verdicts: Default::default(),
    })
}
