//! `--format github`: GitHub Actions workflow commands, one per finding, which the runner turns
//! into annotations on the changed files (`::error file=a.yaml,line=3,col=5,...::message`).

use std::fmt::Write;

use super::{RenderOptions, context_line, listed, resolve};
use crate::diag::{Diagnostic, Severity};
use crate::lint::LintRun;

pub(super) fn render(run: &LintRun, options: &RenderOptions) -> String {
    let mut out = String::new();
    for d in listed(run, options) {
        let command = match (d.suppressed, d.severity) {
            // A suppressed finding is shown (with --show-suppressed) but must not look like a failure.
            (Some(_), _) | (None, Severity::Info) => "notice",
            (None, Severity::Warning) => "warning",
            (None, Severity::Error) => "error",
        };
        let mut props = Vec::new();
        if let Some(r) = d.location.as_ref().and_then(|l| resolve(run, l)) {
            props.push(("file", r.file.name.clone()));
            props.push(("line", r.start.line.to_string()));
            props.push(("col", r.start.column.to_string()));
            props.push(("endLine", r.end.line.to_string()));
            props.push(("endColumn", r.end.column.to_string()));
        }
        let title = match d.suppressed {
            Some(by) => format!("{} (suppressed: {})", d.code, by.as_str()),
            None => d.code.to_string(),
        };
        props.push(("title", title));
        let props: Vec<String> = props
            .into_iter()
            .map(|(k, v)| format!("{k}={}", escape_property(&v)))
            .collect();
        let _ = writeln!(
            out,
            "::{command} {}::{}",
            props.join(","),
            escape_data(&message(d))
        );
    }
    out
}

/// The annotation body: the message, then where in the resource and the hint on their own lines.
fn message(d: &Diagnostic) -> String {
    let mut text = d.message.clone();
    if let Some(context) = context_line(d) {
        text.push('\n');
        text.push_str(&context);
    }
    if let Some(help) = &d.help {
        text.push_str("\nhelp: ");
        text.push_str(help);
    }
    text
}

/// The runner decodes `%XX` in the message; `%`, CR and LF must be encoded. Other control
/// characters would reach the log viewer: they are escaped as in every text format.
pub fn escape_data(s: &str) -> String {
    let encoded = s
        .replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A");
    super::escape::escape_controls(&encoded).into_owned()
}

/// Properties are also split at `,` and end at `::`, so those are encoded too.
pub fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}
