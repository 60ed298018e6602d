//! Report stage: the only place that formats findings. Every format shows the same facts, in the
//! order of [`LintRun::diagnostics`].

pub mod escape;
mod explain;
mod github;
mod gitlab;
pub mod graph;
mod human;
mod json;
mod junit;
pub mod lsp;
mod rdjson;
mod redact;
mod sarif;
mod short;
mod snippet;
mod statistics;
mod summary;
pub mod yaml;
pub mod yaml_text;

use crate::diag::{Diagnostic, Location, Severity};
use crate::lint::{LintRun, report_order};
use crate::source::{LineCol, SourceFile};

pub use explain::{ExplainFormat, ExplanationList, render_explanation};
pub use json::{JSON_VERSION, JsonReport};
pub use sarif::{RULES_DOC_URL, sarif_log};
pub use statistics::{code_counts, statistics_table};
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
    /// SARIF 2.1.0 log (code scanning tools)
    Sarif,
    /// GitHub Actions workflow commands (`::error file=...::message`), annotations on a PR
    Github,
    /// JUnit XML: one test case per resource (CI test reports)
    Junit,
    /// GitLab Code Quality JSON (merge request widget), with stable fingerprints
    Gitlab,
    /// reviewdog's diagnostic format, rdjson (`reviewdog -f=rdjson`)
    Rdjson,
}

#[derive(Debug, Clone)]
pub struct RenderOptions {
    /// Emit ANSI colours (human format only).
    pub color: bool,
    /// Terminal width the human format wraps to.
    pub width: usize,
    /// Omit the human summary line.
    pub quiet: bool,
    /// Also list suppressed findings, marked as such.
    pub show_suppressed: bool,
    /// Count findings per code (human: a table; json: `summary.statistics`).
    pub statistics: bool,
    /// Lowest severity that fails the run; JUnit reports only those as failures.
    pub fail_on: Severity,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            color: false,
            width: 100,
            quiet: false,
            show_suppressed: false,
            statistics: false,
            fail_on: Severity::Error,
        }
    }
}

/// A finding on one line for stderr, as `render` and `explain` write the inputs they could not
/// use whole: `gwctl: error[GW009] ...`.
pub fn stderr_line(d: &crate::diag::Diagnostic) -> String {
    format!(
        "gwctl: {}[{}] {}",
        d.severity.as_str(),
        d.code,
        escape::escape_controls(&d.message)
    )
}

/// The whole report for a run, as it is printed on stdout.
pub fn render(run: &LintRun, format: Format, options: &RenderOptions) -> String {
    let hidden = redacted_for(run, format);
    let run = hidden.as_ref().unwrap_or(run);
    match format {
        Format::Human => human::render(run, options),
        Format::Json => json::render(run, options),
        Format::Short => short::render(run, options),
        Format::Sarif => sarif::render(run, options),
        Format::Github => github::render(run, options),
        Format::Junit => junit::render(run, options),
        Format::Gitlab => gitlab::render(run, options),
        Format::Rdjson => rdjson::render(run, options),
    }
}

/// Writes the report to `out`; the human format is written finding by finding, never whole.
pub fn write(
    run: &LintRun,
    format: Format,
    options: &RenderOptions,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    if format != Format::Human {
        return out.write_all(render(run, format, options).as_bytes());
    }
    let hidden = redacted_for(run, format);
    human::write(hidden.as_ref().unwrap_or(run), options, out)
}

fn redacted_for(run: &LintRun, format: Format) -> Option<LintRun> {
    redact::redacted(
        run,
        redact::Carry {
            shows_source: format == Format::Human,
            resources: format == Format::Junit,
        },
    )
}

/// The findings a report lists: the active ones, plus the suppressed ones (in order among them)
/// when asked for.
pub(crate) fn listed<'a>(run: &'a LintRun, options: &RenderOptions) -> Vec<&'a Diagnostic> {
    let mut out: Vec<&Diagnostic> = run.diagnostics.iter().collect();
    if options.show_suppressed && !run.suppressed.is_empty() {
        out.extend(run.suppressed.iter());
        out.sort_by(|a, b| report_order(a, b));
    }
    out
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
    match d.suppressed {
        Some(by) => format!(
            "{}[{}] (suppressed: {})",
            d.severity.as_str(),
            d.code,
            by.as_str()
        ),
        None => format!("{}[{}]", d.severity.as_str(), d.code),
    }
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
