//! `--format human`: miette's graphical report per finding, then a summary line.
//!
//! Findings are adapted to `miette::Diagnostic` here rather than in `diag`, so that the stages
//! stay free of presentation concerns.

use std::fmt::{self, Write};

use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, SourceCode};
use rayon::prelude::*;

use super::escape::escape_controls;
use super::snippet::{CONTEXT_LINES, Snippet};
use super::{
    RenderOptions, context_line, file_of, listed, resolve, statistics_table, summary_line, tag,
};
use crate::diag::{Applicability, Diagnostic, Severity};
use crate::lint::LintRun;
use crate::source::SourceFile;

/// How many findings are laid out at a time (in parallel) before they are written.
const LAY_OUT_CHUNK: usize = 512;

/// The report as one string (tests, `--config` errors).
pub(super) fn render(run: &LintRun, options: &RenderOptions) -> String {
    let mut out = Vec::new();
    // Writing to a Vec cannot fail.
    let _ = write(run, options, &mut out);
    String::from_utf8_lossy(&out).into_owned()
}

/// Writes the report finding by finding, so that a run with many findings never holds the
/// whole text.
pub(super) fn write(
    run: &LintRun,
    options: &RenderOptions,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let theme = if options.color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    // Without `with_links(false)` miette writes OSC-8 escapes even in the colourless theme.
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_links(false)
        .with_width(options.width)
        .with_context_lines(CONTEXT_LINES)
        .with_show_related_as_nested(true);
    let findings = listed(run, options);
    // A chunk of findings is laid out in parallel while the one before it is written: laying
    // out costs more than writing, and a run can have tens of thousands.
    let lay_out = |chunk: &[&Diagnostic]| -> Vec<String> {
        chunk
            .par_iter()
            .map(|d| {
                let mut one = String::new();
                render_one(&mut one, &handler, run, d, options.color);
                one
            })
            .collect()
    };
    let mut written = 0usize;
    let mut write_all = |laid: Vec<String>| -> std::io::Result<()> {
        for one in laid {
            if written > 0 {
                out.write_all(b"\n")?;
            }
            written += 1;
            out.write_all(one.as_bytes())?;
        }
        Ok(())
    };
    let mut pending: Vec<String> = Vec::new();
    for chunk in findings.chunks(LAY_OUT_CHUNK) {
        // The writer need not be `Send`: it stays on this thread.
        let (laid, wrote) = std::thread::scope(|scope| {
            let laying = scope.spawn(|| lay_out(chunk));
            let wrote = write_all(std::mem::take(&mut pending));
            let laid = laying
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            (laid, wrote)
        });
        wrote?;
        pending = laid;
    }
    write_all(pending)?;
    let mut buf = String::new();
    if options.statistics {
        if !findings.is_empty() {
            buf.push('\n');
        }
        buf.push_str(&statistics_table(run));
    }
    if !options.quiet {
        if !findings.is_empty() || options.statistics {
            buf.push('\n');
        }
        buf.push_str(&summary_line(run));
        buf.push('\n');
    }
    out.write_all(buf.as_bytes())
}

fn render_one(
    out: &mut String,
    handler: &GraphicalReportHandler,
    run: &LintRun,
    d: &Diagnostic,
    color: bool,
) {
    if let Some(file) = d.location.as_ref().and_then(|l| file_of(run, l.file)) {
        let finding = Finding::new(run, d, file);
        let mut buf = String::new();
        if handler.render_report(&mut buf, &finding).is_ok() {
            out.push_str(&buf);
            return;
        }
    }
    // No location (or one miette cannot show): a single line, still with the position if known.
    let position = d
        .location
        .as_ref()
        .and_then(|l| resolve(run, l))
        .map(|r| {
            format!(
                "{}:{}:{}: ",
                escape_controls(&r.file.name),
                r.start.line,
                r.start.column
            )
        })
        .unwrap_or_default();
    let _ = write!(
        out,
        "{position}{}: {}",
        paint(&tag(d), d.severity, color),
        shown(&d.message)
    );
    if let Some(context) = context_line(d) {
        let _ = write!(out, " ({})", shown(&context));
    }
    out.push('\n');
    if let Some(help) = &d.help {
        let _ = writeln!(out, "  help: {}", shown(help));
    }
    if let Some(fix) = fix_hint(d) {
        let _ = writeln!(out, "  {}", shown(&fix));
    }
}

/// `fix: rename to "filters" (gwctl lint --fix)`: that a finding has a fix, and the flag that
/// applies it.
fn fix_hint(d: &Diagnostic) -> Option<String> {
    let fix = d.fix.as_ref()?;
    let flag = match fix.applicability {
        Applicability::Safe => "--fix",
        Applicability::Unsafe => "--unsafe-fixes",
    };
    Some(format!("fix: {} (gwctl lint {flag})", fix.title))
}

/// Characters of a message or label shown at most: a value quoted whole (a megabyte-long key)
/// would otherwise be printed whole in every finding about it.
const MAX_TEXT_CHARS: usize = 1000;

/// A text as the human report shows it: escaped, and cut after [`MAX_TEXT_CHARS`].
fn shown(text: &str) -> String {
    let text = match text.char_indices().nth(MAX_TEXT_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    };
    escape_controls(&text).into_owned()
}

fn paint(text: &str, severity: Severity, color: bool) -> String {
    if !color {
        return text.to_string();
    }
    let code = match severity {
        Severity::Error => "31",
        Severity::Warning => "33",
        Severity::Info => "36",
    };
    format!("\x1b[1;{code}m{text}\x1b[0m")
}

fn miette_severity(s: Severity) -> miette::Severity {
    match s {
        Severity::Error => miette::Severity::Error,
        Severity::Warning => miette::Severity::Warning,
        Severity::Info => miette::Severity::Advice,
    }
}

/// One finding as miette sees it: texts escaped, spans in its snippet's offsets.
#[derive(Debug)]
struct Finding {
    message: String,
    help: Option<String>,
    code: String,
    severity: Severity,
    source: Snippet,
    labels: Vec<LabeledSpan>,
    related: Vec<RelatedFinding>,
}

impl Finding {
    fn new(run: &LintRun, d: &Diagnostic, file: &SourceFile) -> Self {
        let text: &str = &file.text;
        // The spans of this file first (primary first), to cut the snippet's lines around them.
        let mut spans = Vec::with_capacity(1 + d.related.len());
        if let Some(loc) = &d.location {
            spans.push(loc.span.within(text));
        }
        let mut elsewhere = Vec::new();
        for r in &d.related {
            let Some(other) = file_of(run, r.location.file) else {
                continue;
            };
            if other.id == file.id {
                spans.push(r.location.span.within(text));
            } else {
                elsewhere.push((other, r));
            }
        }
        let source = Snippet::new(file, &spans);
        let mut labels = Vec::with_capacity(spans.len());
        let mut own = spans.iter();
        if d.location.is_some()
            && let Some(span) = own.next()
        {
            labels.push(LabeledSpan::new_primary_with_span(
                context_line(d).map(|c| shown(&c)),
                source.span(*span),
            ));
        }
        let same_file = d
            .related
            .iter()
            .filter(|r| file_of(run, r.location.file).is_some_and(|other| other.id == file.id));
        for (r, span) in same_file.zip(own) {
            labels.push(LabeledSpan::new_with_span(
                Some(shown(&r.message)),
                source.span(*span),
            ));
        }
        let related = elsewhere
            .into_iter()
            .map(|(other, r)| {
                let span = r.location.span.within(&other.text);
                let source = Snippet::new(other, &[span]);
                RelatedFinding {
                    message: shown(&r.message),
                    label: LabeledSpan::new_primary_with_span(None, source.span(span)),
                    source,
                }
            })
            .collect();
        Finding {
            message: shown(&d.message),
            // Escaped apart: the line break between help and fix is the report's own.
            help: match (d.help.as_deref(), fix_hint(d)) {
                (Some(help), Some(fix)) => Some(format!("{}\n{}", shown(help), shown(&fix))),
                (help, fix) => help.or(fix.as_deref()).map(shown),
            },
            code: tag(d),
            severity: d.severity,
            source,
            labels,
            related,
        }
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Finding {}

impl miette::Diagnostic for Finding {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(&self.code))
    }
    fn severity(&self) -> Option<miette::Severity> {
        Some(miette_severity(self.severity))
    }
    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.source)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        Some(Box::new(self.labels.iter().cloned()))
    }
    fn related<'b>(&'b self) -> Option<Box<dyn Iterator<Item = &'b dyn miette::Diagnostic> + 'b>> {
        if self.related.is_empty() {
            return None;
        }
        Some(Box::new(
            self.related.iter().map(|r| r as &dyn miette::Diagnostic),
        ))
    }
}

/// A related location in another file, shown as its own snippet under the finding.
#[derive(Debug)]
struct RelatedFinding {
    message: String,
    source: Snippet,
    label: LabeledSpan,
}

impl fmt::Display for RelatedFinding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RelatedFinding {}

impl miette::Diagnostic for RelatedFinding {
    fn severity(&self) -> Option<miette::Severity> {
        Some(miette::Severity::Advice)
    }
    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.source)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        Some(Box::new(std::iter::once(self.label.clone())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules;
    use crate::source::Span;

    /// Findings laid out a chunk at a time in parallel come out as they would one by one, in
    /// order and each once, across the chunks' boundaries.
    #[test]
    fn a_report_of_many_findings_is_the_findings_in_order() {
        let text: String = (0..3 * LAY_OUT_CHUNK)
            .map(|i| format!("key{i}: value\n"))
            .collect();
        let lines: Vec<usize> = text.match_indices('\n').map(|(at, _)| at + 1).collect();
        let mut starts = vec![0];
        starts.extend(lines);
        let diagnostics = (0..2 * LAY_OUT_CHUNK + 7)
            .map(|i| {
                Diagnostic::new(rules::GW004, format!("finding {i}"))
                    .at(0, Span::new(starts[i], starts[i] + 3))
            })
            .collect();
        let run = LintRun {
            files: vec![SourceFile::new(0, "many.yaml", text)],
            diagnostics,
            ..LintRun::default()
        };
        let options = RenderOptions {
            quiet: true,
            ..RenderOptions::default()
        };
        let report = render(&run, &options);
        let handler = GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor())
            .with_links(false)
            .with_width(options.width)
            .with_context_lines(CONTEXT_LINES)
            .with_show_related_as_nested(true);
        let one_by_one: Vec<String> = run
            .diagnostics
            .iter()
            .map(|d| {
                let mut one = String::new();
                render_one(&mut one, &handler, &run, d, false);
                one
            })
            .collect();
        assert!(one_by_one[LAY_OUT_CHUNK].contains(&format!("finding {LAY_OUT_CHUNK}")));
        assert_eq!(report, one_by_one.join("\n"));
    }
}
