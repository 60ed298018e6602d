//! Report stage: the only place that formats findings. Every format shows the same facts, in the
//! order of [`LintRun::diagnostics`].

mod human;
mod json;
mod short;
mod summary;

use crate::diag::{Diagnostic, Location};
use crate::lint::LintRun;
use crate::source::{LineCol, SourceFile};

pub use json::{JSON_VERSION, JsonReport};
pub use summary::summary_line;

/// How findings are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Source snippets with labels, help and a summary line
    Human,
    /// One JSON object with every finding and a summary (see README)
    Json,
    /// One line per finding: `file:line:col: severity[CODE] message`
    Short,
}

#[derive(Debug, Clone)]
pub struct RenderOptions {
    /// Emit ANSI colours (human format only).
    pub color: bool,
    /// Terminal width the human format wraps to.
    pub width: usize,
    /// Omit the human summary line.
    pub quiet: bool,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            color: false,
            width: 100,
            quiet: false,
        }
    }
}

/// The whole report for a run, as it is printed on stdout.
pub fn render(run: &LintRun, format: Format, options: &RenderOptions) -> String {
    match format {
        Format::Human => human::render(run, options),
        Format::Json => json::render(run),
        Format::Short => short::render(run),
    }
}

/// A location resolved against the run's file table: file name and start/end positions.
pub(crate) struct Resolved<'a> {
    pub file: &'a SourceFile,
    pub start: LineCol,
    pub end: LineCol,
}

pub(crate) fn file_of(run: &LintRun, id: usize) -> Option<&SourceFile> {
    // Ids are indices into `files`; look further only if a stage numbered them otherwise.
    match run.files.get(id) {
        Some(f) if f.id == id => Some(f),
        _ => run.files.iter().find(|f| f.id == id),
    }
}

pub(crate) fn resolve<'a>(run: &'a LintRun, loc: &Location) -> Option<Resolved<'a>> {
    let file = file_of(run, loc.file)?;
    Some(Resolved {
        file,
        start: file.line_col(loc.span.start),
        end: file.line_col(loc.span.end.max(loc.span.start)),
    })
}

/// `severity[CODE]`, the tag every format starts a finding with.
pub(crate) fn tag(d: &Diagnostic) -> String {
    format!("{}[{}]", d.severity.as_str(), d.code)
}

/// `in HTTPRoute default/foo at spec.rules[0]`, or `None` when the finding has neither.
pub(crate) fn context_line(d: &Diagnostic) -> Option<String> {
    match (&d.resource, &d.path) {
        (Some(r), Some(p)) => Some(format!("in {r} at {p}")),
        (Some(r), None) => Some(format!("in {r}")),
        (None, Some(p)) => Some(format!("at {p}")),
        (None, None) => None,
    }
}
