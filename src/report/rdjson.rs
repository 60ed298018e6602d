//! `--format rdjson`: reviewdog's Diagnostic Format (one `DiagnosticResult` object), for
//! `reviewdog -f=rdjson`. Unlike every other format, its columns count bytes of UTF-8 (reviewdog
//! defines them so); lines are 1-based and the end is exclusive, as elsewhere.

use serde::Serialize;

use super::{RULES_DOC_URL, RenderOptions, context_line, file_of, listed, resolve};
use crate::diag::{Diagnostic, Severity};
use crate::lint::LintRun;
use crate::source::LineCol;

#[derive(Serialize)]
struct DiagnosticResult {
    source: Source,
    diagnostics: Vec<RdDiagnostic>,
}

#[derive(Serialize)]
struct Source {
    name: &'static str,
    url: &'static str,
}

#[derive(Serialize)]
struct RdDiagnostic {
    message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    location: Option<RdLocation>,
    severity: &'static str,
    code: Code,
    /// The fix's edits, when they are all in the finding's file (reviewdog applies a suggestion
    /// to the file of the diagnostic); with no fix, or one that edits other files, none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    suggestions: Vec<Suggestion>,
}

#[derive(Serialize)]
struct Suggestion {
    range: Range,
    text: String,
}

#[derive(Serialize)]
struct Code {
    value: String,
    url: String,
}

#[derive(Serialize)]
struct RdLocation {
    path: String,
    range: Range,
}

#[derive(Serialize)]
struct Range {
    start: Position,
    end: Position,
}

#[derive(Serialize)]
struct Position {
    line: usize,
    column: usize,
}

pub(super) fn render(run: &LintRun, options: &RenderOptions) -> String {
    let result = DiagnosticResult {
        source: Source {
            name: "gwctl",
            url: RULES_DOC_URL,
        },
        diagnostics: listed(run, options)
            .into_iter()
            .map(|d| diagnostic(run, d))
            .collect(),
    };
    let mut out = serde_json::to_string_pretty(&result)
        .unwrap_or_else(|e| format!("{{\"error\":{:?}}}", e.to_string()));
    out.push('\n');
    out
}

fn diagnostic(run: &LintRun, d: &Diagnostic) -> RdDiagnostic {
    let code = d.code.as_str().to_string();
    RdDiagnostic {
        message: message(run, d),
        location: d.location.as_ref().and_then(|l| location(run, l)),
        severity: match (d.suppressed, d.severity) {
            (Some(_), _) | (None, Severity::Info) => "INFO",
            (None, Severity::Warning) => "WARNING",
            (None, Severity::Error) => "ERROR",
        },
        code: Code {
            url: format!("{RULES_DOC_URL}#{}", code.to_ascii_lowercase()),
            value: code,
        },
        suggestions: suggestions(run, d),
    }
}

fn suggestions(run: &LintRun, d: &Diagnostic) -> Vec<Suggestion> {
    let (Some(fix), Some(at)) = (&d.fix, &d.location) else {
        return Vec::new();
    };
    if fix.edits.iter().any(|e| e.file != at.file) {
        return Vec::new();
    }
    fix.edits
        .iter()
        .filter_map(|e| {
            let loc = crate::diag::Location {
                file: e.file,
                span: e.span,
            };
            Some(Suggestion {
                range: location(run, &loc)?.range,
                text: e.replacement.clone(),
            })
        })
        .collect()
}

/// The message, then where in the resource, the hint, the related places and (with
/// `--show-suppressed`) what hid it, each on its own line: reviewdog posts the message as a
/// review comment. Related places are text because reviewdog's parser rejects fields its
/// `Diagnostic` message does not declare, and older versions declare none for them.
fn message(run: &LintRun, d: &Diagnostic) -> String {
    let mut text = d.message.clone();
    if let Some(context) = context_line(d) {
        text.push('\n');
        text.push_str(&context);
    }
    if let Some(help) = &d.help {
        text.push_str("\nhelp: ");
        text.push_str(help);
    }
    for r in &d.related {
        if let Some(at) = resolve(run, &r.location) {
            text.push_str(&format!(
                "\n{}:{}:{}: {}",
                at.file.name, at.start.line, at.start.column, r.message
            ));
        }
    }
    if let Some(by) = d.suppressed {
        text.push_str(&format!("\n(suppressed: {})", by.as_str()));
    }
    text
}

fn location(run: &LintRun, loc: &crate::diag::Location) -> Option<RdLocation> {
    let file = file_of(run, loc.file)?;
    let position = |p: LineCol| Position {
        line: p.line,
        column: p.column,
    };
    Some(RdLocation {
        path: file
            .name
            .strip_prefix("./")
            .unwrap_or(&file.name)
            .to_string(),
        range: Range {
            start: position(file.line_byte_col(loc.span.start)),
            end: position(file.line_byte_col(loc.span.end.max(loc.span.start))),
        },
    })
}
