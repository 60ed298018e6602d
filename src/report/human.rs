//! `--format human`: miette's graphical report per finding, then a summary line.
//!
//! Findings are adapted to `miette::Diagnostic` here rather than in `diag`, so that the stages
//! stay free of presentation concerns.

use std::fmt::{self, Write};

use miette::{
    GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteSpanContents, SourceCode, SourceSpan,
};

use super::{
    RenderOptions, context_line, file_of, listed, resolve, statistics_table, summary_line, tag,
};
use crate::diag::{Diagnostic, Severity};
use crate::lint::LintRun;
use crate::source::{SourceFile, Span};

pub(super) fn render(run: &LintRun, options: &RenderOptions) -> String {
    let theme = if options.color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    // Without `with_links(false)` miette writes OSC-8 escapes even in the colourless theme.
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_links(false)
        .with_width(options.width)
        .with_show_related_as_nested(true);
    let mut out = String::new();
    let findings = listed(run, options);
    for (i, d) in findings.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        render_one(&mut out, &handler, run, d, options.color);
    }
    if options.statistics {
        if !findings.is_empty() {
            out.push('\n');
        }
        out.push_str(&statistics_table(run));
    }
    if !options.quiet {
        if !findings.is_empty() || options.statistics {
            out.push('\n');
        }
        out.push_str(&summary_line(run));
        out.push('\n');
    }
    out
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
        .map(|r| format!("{}:{}:{}: ", r.file.name, r.start.line, r.start.column))
        .unwrap_or_default();
    let _ = write!(
        out,
        "{position}{}: {}",
        paint(&tag(d), d.severity, color),
        d.message
    );
    if let Some(context) = context_line(d) {
        let _ = write!(out, " ({context})");
    }
    out.push('\n');
    if let Some(help) = &d.help {
        let _ = writeln!(out, "  help: {help}");
    }
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

/// A span miette can read: inside the text and on character boundaries (it slices the text).
fn source_span(text: &str, span: Span) -> SourceSpan {
    let span = span.within(text);
    SourceSpan::from(span.start..span.end)
}

/// A file as miette reads it. miette counts the header's column in bytes; this reports characters,
/// like every other format (`café: x` must not put `x` at column 8).
#[derive(Debug)]
struct Source {
    file: SourceFile,
}

impl Source {
    fn new(file: &SourceFile) -> Self {
        Source { file: file.clone() }
    }
}

impl SourceCode for Source {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'a> + 'a>, miette::MietteError> {
        let text: &str = &self.file.text;
        // miette counts lines from the top of the text it is given: given the whole file, each
        // snippet would cost a read of the file. It is given the lines around the span (one more
        // each side than it shows), and its answer is moved back to the file's lines and offsets.
        let (first_line, window) = self.file.lines_around(
            span.offset(),
            span.offset() + span.len(),
            context_lines_before + 1,
            context_lines_after + 1,
        );
        let local = SourceSpan::new(
            span.offset().saturating_sub(window.start).into(),
            span.len(),
        );
        let inner =
            text[window.clone()].read_span(&local, context_lines_before, context_lines_after)?;
        let mut column = inner.column();
        if column > 0 {
            let offset = span.offset().min(text.len());
            // As `SourceFile::line_col`: a byte order mark is no column.
            let line_start = match text[..offset].rfind('\n') {
                Some(i) => i + 1,
                None if text.starts_with('\u{feff}') => 3.min(offset),
                None => 0,
            };
            column = text[line_start..offset].chars().count();
        }
        let data_span = SourceSpan::new(
            (inner.span().offset() + window.start).into(),
            inner.span().len(),
        );
        Ok(Box::new(MietteSpanContents::new_named(
            self.file.name.clone(),
            inner.data(),
            data_span,
            inner.line() + first_line,
            column,
            inner.line_count(),
        )))
    }
}

/// One finding as miette sees it.
#[derive(Debug)]
struct Finding<'a> {
    d: &'a Diagnostic,
    code: String,
    source: Source,
    labels: Vec<LabeledSpan>,
    related: Vec<RelatedFinding>,
}

impl<'a> Finding<'a> {
    fn new(run: &LintRun, d: &'a Diagnostic, file: &SourceFile) -> Self {
        let mut labels = Vec::with_capacity(1 + d.related.len());
        if let Some(loc) = &d.location {
            labels.push(LabeledSpan::new_primary_with_span(
                context_line(d),
                source_span(&file.text, loc.span),
            ));
        }
        let mut related = Vec::new();
        for r in &d.related {
            let Some(other) = file_of(run, r.location.file) else {
                continue;
            };
            let span = source_span(&other.text, r.location.span);
            if other.id == file.id {
                labels.push(LabeledSpan::new_with_span(Some(r.message.clone()), span));
            } else {
                related.push(RelatedFinding {
                    message: r.message.clone(),
                    source: Source::new(other),
                    label: LabeledSpan::new_primary_with_span(None, span),
                });
            }
        }
        Finding {
            d,
            code: tag(d),
            source: Source::new(file),
            labels,
            related,
        }
    }
}

impl fmt::Display for Finding<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.d.message)
    }
}

impl std::error::Error for Finding<'_> {}

impl miette::Diagnostic for Finding<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(&self.code))
    }
    fn severity(&self) -> Option<miette::Severity> {
        Some(miette_severity(self.d.severity))
    }
    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.d
            .help
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
    source: Source,
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
