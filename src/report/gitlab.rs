//! `--format gitlab`: a GitLab Code Quality report, a JSON array of issues (`description`,
//! `check_name`, `fingerprint`, `severity`, `location.path`, `location.lines`). GitLab compares the
//! fingerprints of a merge request's report with its target branch's to tell new issues from
//! resolved ones, so a fingerprint names what is wrong, not where: a line inserted above a finding
//! keeps its fingerprint.

use std::collections::HashMap;

use serde::Serialize;
use sha2::{Digest, Sha256};

use super::{RenderOptions, context_line, listed, resolve};
use crate::diag::{Diagnostic, Severity};
use crate::lint::LintRun;

#[derive(Serialize)]
struct Issue {
    description: String,
    check_name: String,
    fingerprint: String,
    severity: &'static str,
    location: IssueLocation,
}

#[derive(Serialize)]
struct IssueLocation {
    path: String,
    lines: Lines,
}

#[derive(Serialize)]
struct Lines {
    begin: usize,
    end: usize,
}

pub(super) fn render(run: &LintRun, options: &RenderOptions) -> String {
    let mut seen: HashMap<[u8; 32], u32> = HashMap::new();
    let issues: Vec<Issue> = listed(run, options)
        .into_iter()
        .map(|d| issue(run, d, &mut seen))
        .collect();
    let mut out = serde_json::to_string_pretty(&issues)
        .unwrap_or_else(|e| format!("{{\"error\":{:?}}}", e.to_string()));
    out.push('\n');
    out
}

fn issue(run: &LintRun, d: &Diagnostic, seen: &mut HashMap<[u8; 32], u32>) -> Issue {
    let resolved = d.location.as_ref().and_then(|l| resolve(run, l));
    // A finding without a file (an unreadable path) names it in its message; GitLab needs a
    // path all the same.
    let path = resolved
        .as_ref()
        .map(|r| r.file.name.strip_prefix("./").unwrap_or(&r.file.name))
        .unwrap_or(".")
        .to_string();
    let (begin, end) = resolved
        .as_ref()
        .map(|r| (r.start.line, r.end.line.max(r.start.line)))
        .unwrap_or((1, 1));
    let key = identity(d, &path);
    // Two findings alike in every named part (the same message twice in one file) are told
    // apart by their rank among their likes, which only an added or removed twin changes.
    let rank = seen.entry(key).or_insert(0);
    let fingerprint = hex(&Sha256::new()
        .chain_update(key)
        .chain_update(rank.to_le_bytes())
        .finalize()[..16]);
    *rank += 1;
    Issue {
        description: description(d),
        check_name: d.code.as_str().to_string(),
        fingerprint,
        severity: severity(d),
        location: IssueLocation {
            path,
            lines: Lines { begin, end },
        },
    }
}

/// What the finding is about, without its position: code, file, resource, field path, message.
fn identity(d: &Diagnostic, path: &str) -> [u8; 32] {
    let resource = d.resource.as_ref().map(ToString::to_string);
    let mut h = Sha256::new();
    // Each part is length-prefixed so that no two different tuples hash the same bytes.
    for part in [
        Some(d.code.as_str().to_string()),
        Some(path.to_string()),
        resource,
        d.path.clone(),
        Some(d.message.clone()),
    ] {
        match part {
            Some(s) => {
                h.update([1]);
                h.update((s.len() as u64).to_le_bytes());
                h.update(s.as_bytes());
            }
            None => h.update([0]),
        }
    }
    h.finalize().into()
}

/// GitLab's levels are info, minor, major, critical and blocker. An error (what the API server
/// or controller rejects) is major, a warning minor; suppressed findings shown with
/// `--show-suppressed` are info so that they never look like a failure.
fn severity(d: &Diagnostic) -> &'static str {
    match (d.suppressed, d.severity) {
        (Some(_), _) | (None, Severity::Info) => "info",
        (None, Severity::Warning) => "minor",
        (None, Severity::Error) => "major",
    }
}

/// `GW101: message (in HTTPRoute default/web at spec.rules[0].foo; help: ...)` on one line:
/// the widget shows the description as a single line.
fn description(d: &Diagnostic) -> String {
    let mut text = format!("{}: {}", d.code, d.message.replace('\n', " "));
    if let Some(by) = d.suppressed {
        text.push_str(&format!(" (suppressed: {})", by.as_str()));
    }
    let mut details = Vec::new();
    if let Some(context) = context_line(d) {
        details.push(context);
    }
    if let Some(help) = &d.help {
        details.push(format!("help: {}", help.replace('\n', " ")));
    }
    if !details.is_empty() {
        text.push_str(&format!(" ({})", details.join("; ")));
    }
    text
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
