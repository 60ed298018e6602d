//! `file:line:col: severity[CODE] message`, one finding per line (editors and grep read it).

use std::fmt::Write;

use super::escape::escape_controls;
use super::{RenderOptions, listed, resolve, tag};
use crate::lint::LintRun;

pub(super) fn render(run: &LintRun, options: &RenderOptions) -> String {
    let mut out = String::new();
    for d in listed(run, options) {
        // Messages may span lines (a parser error with context); keep one finding per line.
        let message = d.message.replace('\n', " ");
        let message = escape_controls(&message);
        let _ = match d.location.as_ref().and_then(|l| resolve(run, l)) {
            Some(r) => writeln!(
                out,
                "{}:{}:{}: {} {}",
                escape_controls(&r.file.name),
                r.start.line,
                r.start.column,
                tag(d),
                message
            ),
            None => writeln!(out, "gwctl: {} {}", tag(d), message),
        };
    }
    out
}
