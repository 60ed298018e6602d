//! The rounds of `--fix`: lint, apply the fixes that do not overlap, lint the fixed text again.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use super::edits::{Selection, apply, choose};
use crate::lint::{LintOptions, LintRun, lint_paths};
use crate::source::FileId;

/// Rounds of lint and fix at most: a fix that makes another finding with a fix is applied in the
/// next round, and a bound stops fixes that would undo each other.
pub const MAX_ROUNDS: usize = 10;

/// A file whose text the fixes changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Changed {
    /// As reported (the path as given, or `<stdin>`).
    pub name: String,
    /// The text as read: the file is written only while it still holds this.
    pub original: Arc<str>,
    pub fixed: Arc<str>,
}

/// What the rounds did.
pub struct FixOutcome {
    /// The last round's run: the findings that remain, on the fixed text.
    pub run: LintRun,
    /// Files whose text changed, in input order.
    pub changed: Vec<Changed>,
    /// Fixes applied over all rounds.
    pub applied: usize,
    /// Fixes still offered when the rounds ran out (they kept making new ones).
    pub left: usize,
    /// Fixes that overlapped one applied before them in a round, with their file: they waited
    /// for the next round, on the fixed text (where the finding may be gone).
    pub deferred: Vec<(String, String)>,
    /// Fixes that cannot be applied: `(file, title)` of those whose edits overlap one another or
    /// fall outside their file.
    pub malformed: Vec<(String, String)>,
}

/// Lints `paths`, applies the fixes `selection` admits and lints again, until no fix is left
/// (at most [`MAX_ROUNDS`] rounds). Nothing is written. `Err` is a usage error, as for
/// [`lint_paths`].
pub fn fix_paths(
    paths: &[PathBuf],
    options: &LintOptions,
    selection: Selection,
) -> Result<FixOutcome, String> {
    let mut run = lint_paths(paths, options)?;
    // Only the files the input loader reads can be edited (not the CRD files of `--crds`).
    let editable = run.stats.files;
    let originals: BTreeMap<String, Arc<str>> = run.files[..editable.min(run.files.len())]
        .iter()
        .map(|f| (f.name.clone(), Arc::clone(&f.text)))
        .collect();
    let order: Vec<String> = run
        .files
        .iter()
        .take(editable)
        .map(|f| f.name.clone())
        .collect();
    let mut texts = originals.clone();
    let mut applied = 0;
    let mut deferred = Vec::new();
    for _ in 0..MAX_ROUNDS {
        let chosen = choose(fixes(&run, selection), |id| text_len(&run, id, editable));
        if chosen.fixes == 0 {
            break;
        }
        deferred.extend(chosen.overlapping.iter().map(|(id, title)| {
            let file = run
                .files
                .get(*id)
                .map_or_else(String::new, |f| f.name.clone());
            (file, title.to_string())
        }));
        for (file, edits) in &chosen.edits {
            let Some(f) = run.files.get(*file) else {
                continue;
            };
            texts.insert(f.name.clone(), apply(&f.text, edits).into());
        }
        applied += chosen.fixes;
        let round = LintOptions {
            texts: Some(Arc::new(texts.clone())),
            ..options.clone()
        };
        run = lint_paths(paths, &round)?;
    }
    let last = choose(fixes(&run, selection), |id| text_len(&run, id, editable));
    let name = |id: FileId| {
        run.files
            .get(id)
            .map_or_else(String::new, |f| f.name.clone())
    };
    let malformed = last
        .malformed
        .iter()
        .map(|(id, title)| (name(*id), title.to_string()))
        .collect();
    let left = last.fixes + last.overlapping.len();
    let changed = order
        .into_iter()
        .filter_map(|name| {
            let original = originals.get(&name)?;
            let fixed = texts.get(&name)?;
            (original != fixed).then(|| Changed {
                original: Arc::clone(original),
                fixed: Arc::clone(fixed),
                name,
            })
        })
        .collect();
    Ok(FixOutcome {
        run,
        changed,
        applied,
        left,
        deferred,
        malformed,
    })
}

/// The fixes of the run's findings (suppressed ones are not among them) that `selection` admits,
/// in report order.
fn fixes(run: &LintRun, selection: Selection) -> impl Iterator<Item = &crate::diag::Fix> {
    run.diagnostics
        .iter()
        .filter_map(|d| d.fix.as_ref())
        .filter(move |f| selection.admits(f.applicability))
}

fn text_len(run: &LintRun, id: FileId, editable: usize) -> Option<usize> {
    (id < editable).then(|| run.files.get(id).map(|f| f.text.len()))?
}
