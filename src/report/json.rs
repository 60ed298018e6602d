//! `--format json`: one object per run. The shape is documented in README.md; bump
//! [`JSON_VERSION`] when a field changes meaning or disappears (adding one does not).

use std::collections::BTreeMap;

use serde::Serialize;

use super::{RenderOptions, Resolved, code_counts, resolve};
use crate::diag::{Applicability, Diagnostic, Fix, Location, ResourceRef, Severity};
use crate::lint::LintRun;

pub const JSON_VERSION: u32 = 1;

#[derive(Debug, Serialize)]
pub struct JsonReport<'a> {
    pub version: u32,
    pub findings: Vec<Finding<'a>>,
    /// Only with `--show-suppressed`: the findings a suppression hid.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suppressed: Option<Vec<Finding<'a>>>,
    pub summary: Summary<'a>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Finding<'a> {
    pub code: &'a str,
    pub severity: Severity,
    pub message: &'a str,
    #[serde(flatten)]
    pub position: Position<'a>,
    pub resource: Option<&'a ResourceRef>,
    pub path: Option<&'a str>,
    pub help: Option<&'a str>,
    pub related: Vec<RelatedJson<'a>>,
    /// What hid the finding (`annotation`, `configIgnore`, `severityOff`); only in `suppressed`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suppressed_by: Option<crate::diag::Suppressed>,
    /// The edits that fix the finding, when its rule offers them (`gwctl lint --fix`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<FixJson<'a>>,
}

#[derive(Debug, Serialize)]
pub struct FixJson<'a> {
    pub title: &'a str,
    pub applicability: Applicability,
    pub edits: Vec<EditJson<'a>>,
}

/// An edit's range as positions (like a finding's) and as byte offsets (`startByte` inclusive,
/// `endByte` exclusive), and the text that replaces it.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EditJson<'a> {
    #[serde(flatten)]
    pub position: Position<'a>,
    pub start_byte: usize,
    pub end_byte: usize,
    pub replacement: &'a str,
}

/// Start and end of a span, 1-based; columns count characters and the end is exclusive.
/// All fields are null for a finding that has no location.
#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Position<'a> {
    pub file: Option<&'a str>,
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub end_line: Option<usize>,
    pub end_column: Option<usize>,
}

#[derive(Debug, Serialize)]
pub struct RelatedJson<'a> {
    #[serde(flatten)]
    pub position: Position<'a>,
    pub message: &'a str,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary<'a> {
    pub files: usize,
    pub documents: usize,
    pub resources: usize,
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
    pub elapsed_ms: u64,
    /// Resources of kinds gwctl does not check, by `apiVersion/kind`.
    pub not_checked: &'a BTreeMap<String, usize>,
    /// Only with `--statistics`: findings per code, most frequent first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub statistics: Option<serde_json::Map<String, serde_json::Value>>,
}

impl<'a> JsonReport<'a> {
    pub fn new(run: &'a LintRun, options: &RenderOptions) -> Self {
        let s = &run.stats;
        JsonReport {
            version: JSON_VERSION,
            findings: run.diagnostics.iter().map(|d| finding(run, d)).collect(),
            suppressed: options
                .show_suppressed
                .then(|| run.suppressed.iter().map(|d| finding(run, d)).collect()),
            summary: Summary {
                files: s.files,
                documents: s.documents,
                resources: s.resources,
                errors: run.count(Severity::Error),
                warnings: run.count(Severity::Warning),
                infos: run.count(Severity::Info),
                elapsed_ms: u64::try_from(s.elapsed.as_millis()).unwrap_or(u64::MAX),
                not_checked: &s.not_checked,
                statistics: options.statistics.then(|| {
                    code_counts(run)
                        .into_iter()
                        .map(|(code, n)| (code.to_string(), n.into()))
                        .collect()
                }),
            },
        }
    }
}

pub(super) fn render(run: &LintRun, options: &RenderOptions) -> String {
    // Serializing plain structs of strings and numbers cannot fail; an empty object would
    // still be valid JSON if it somehow did.
    let mut out = serde_json::to_string_pretty(&JsonReport::new(run, options))
        .unwrap_or_else(|e| format!("{{\"error\":{:?}}}", e.to_string()));
    out.push('\n');
    out
}

fn finding<'a>(run: &'a LintRun, d: &'a Diagnostic) -> Finding<'a> {
    Finding {
        code: d.code.as_str(),
        severity: d.severity,
        message: &d.message,
        position: d
            .location
            .as_ref()
            .and_then(|l| resolve(run, l))
            .map(position)
            .unwrap_or_default(),
        resource: d.resource.as_ref(),
        path: d.path.as_deref(),
        help: d.help.as_deref(),
        related: d
            .related
            .iter()
            .map(|r| RelatedJson {
                position: resolve(run, &r.location).map(position).unwrap_or_default(),
                message: &r.message,
            })
            .collect(),
        suppressed_by: d.suppressed,
        fix: d.fix.as_ref().map(|f| fix_json(run, f)),
    }
}

fn fix_json<'a>(run: &'a LintRun, fix: &'a Fix) -> FixJson<'a> {
    FixJson {
        title: &fix.title,
        applicability: fix.applicability,
        edits: fix
            .edits
            .iter()
            .map(|e| {
                let at = Location {
                    file: e.file,
                    span: e.span,
                };
                EditJson {
                    position: resolve(run, &at).map(position).unwrap_or_default(),
                    start_byte: e.span.start,
                    end_byte: e.span.end,
                    replacement: &e.replacement,
                }
            })
            .collect(),
    }
}

fn position<'a>(r: Resolved<'a>) -> Position<'a> {
    Position {
        file: Some(&r.file.name),
        line: Some(r.start.line),
        column: Some(r.start.column),
        end_line: Some(r.end.line),
        end_column: Some(r.end.column),
    }
}
