//! Suppression and severity overrides, applied once to a whole run after every stage, so that the
//! stages report everything they find and stay unaware of user preferences.
//!
//! In order: the `gwctl.dev/ignore` annotation of the resource a finding lies in; unused codes of
//! those annotations become GW011 notes; then the config file's `ignore` entries and `severity`
//! overrides (`off` suppresses) apply to every finding, GW011 included.

use std::collections::HashMap;

use crate::config::Config;
use crate::diag::{Diagnostic, Edit, Fix, Suppressed};
use crate::parse::Node;
use crate::rules;
use crate::rules::rule;
use crate::run::{LintRun, report_order};
use crate::source::{FileId, Span};

/// The annotation that lists codes to suppress on its resource: `"GW301,GW402"`.
pub const IGNORE_ANNOTATION: &str = "gwctl.dev/ignore";

/// The ignore annotation's text and span on an object, if it has one.
pub fn annotation(root: &Node) -> Option<(String, Span)> {
    let node = root
        .get("metadata")?
        .get("annotations")?
        .get(IGNORE_ANNOTATION)?;
    Some((node.as_str()?.to_string(), node.span))
}

/// The codes an annotation value lists (commas or spaces between them; case-insensitive).
pub fn annotation_codes(value: &str) -> Vec<String> {
    value
        .split([',', ' ', '\t', '\n'])
        .filter(|c| !c.is_empty())
        .map(str::to_ascii_uppercase)
        .collect()
}

pub fn apply(run: &mut LintRun, config: &Config) {
    let mut notes = by_annotation(run);
    run.diagnostics.append(&mut notes);
    for d in &mut run.diagnostics {
        if d.suppressed.is_some() {
            continue;
        }
        if ignored_by_config(run_file_name(&run.files, d), d, config) {
            d.suppressed = Some(Suppressed::ConfigIgnore);
        } else if let Some(level) = config.severity.get(d.code.as_str()) {
            match level {
                Some(severity) => d.severity = *severity,
                None => d.suppressed = Some(Suppressed::SeverityOff),
            }
        }
    }
    let (mut hidden, active): (Vec<_>, Vec<_>) = std::mem::take(&mut run.diagnostics)
        .into_iter()
        .partition(|d| d.suppressed.is_some());
    run.diagnostics = active;
    run.diagnostics.sort_by(report_order);
    run.suppressed.append(&mut hidden);
    run.suppressed.sort_by(report_order);
}

/// Marks findings hidden by their resource's annotation; returns the GW011 notes for codes that
/// hid nothing.
fn by_annotation(run: &mut LintRun) -> Vec<Diagnostic> {
    struct Annotated {
        resource: usize,
        codes: Vec<String>,
        used: Vec<bool>,
    }
    let mut by_file: HashMap<usize, Vec<Annotated>> = HashMap::new();
    for (i, r) in run.resources.iter().enumerate() {
        if let Some((value, _)) = &r.ignore {
            let codes = annotation_codes(value);
            by_file.entry(r.file).or_default().push(Annotated {
                resource: i,
                used: vec![false; codes.len()],
                codes,
            });
        }
    }
    if by_file.is_empty() {
        return Vec::new();
    }
    for d in &mut run.diagnostics {
        let Some(loc) = &d.location else { continue };
        let Some(candidates) = by_file.get_mut(&loc.file) else {
            continue;
        };
        // A finding belongs to the resource whose mapping contains it.
        let Some(a) = candidates.iter_mut().find(|a| {
            let span = run.resources[a.resource].span;
            span.start <= loc.span.start && loc.span.start < span.end.max(span.start + 1)
        }) else {
            continue;
        };
        if let Some(i) = a.codes.iter().position(|c| c == d.code.as_str()) {
            a.used[i] = true;
            d.suppressed = Some(Suppressed::Annotation);
        }
    }
    let mut notes = Vec::new();
    let mut annotated: Vec<Annotated> = by_file.into_values().flatten().collect();
    annotated.sort_by_key(|a| a.resource);
    for a in annotated {
        let r = &run.resources[a.resource];
        let Some((_, span)) = r.ignore else { continue };
        for (code, used) in a.codes.iter().zip(&a.used) {
            if *used {
                continue;
            }
            let message = if rule(code).is_some() {
                format!("{IGNORE_ANNOTATION}: {code} suppresses nothing on this resource")
            } else {
                format!("{IGNORE_ANNOTATION}: {code} is not a rule code")
            };
            let mut note = Diagnostic::new(rules::GW011, message)
                .at(r.file, span)
                .with_resource(Some(r.reference.clone()))
                .with_path(format!("metadata.annotations.{IGNORE_ANNOTATION}"))
                .with_help(format!("remove {code} from the annotation"));
            if let Some(f) = run.files.get(r.file).filter(|f| f.id == r.file) {
                note.fix = stale_code_fix(r.file, &f.text, span, code);
            }
            notes.push(note);
        }
    }
    notes
}

/// GW011's fix: `code` removed from the annotation's value at `span` with one separator beside
/// it; the annotation's line removed when it was the only code (in block style; else the value
/// becomes `""`).
fn stale_code_fix(file: FileId, text: &str, span: Span, code: &str) -> Option<Fix> {
    let value = text.get(span.start..span.end)?;
    let sep = |c: char| matches!(c, ',' | ' ' | '\t' | '\n' | '\r' | '"' | '\'');
    let mut at = 0;
    let token = loop {
        let rest = &value[at..];
        let start = at + rest.find(|c: char| !sep(c))?;
        let end = value[start..].find(sep).map_or(value.len(), |i| start + i);
        if value[start..end].eq_ignore_ascii_case(code) {
            break (start, end);
        }
        at = end;
    };
    let is_gap = |c: char| matches!(c, ',' | ' ' | '\t');
    let after = value[token.1..]
        .find(|c: char| !is_gap(c))
        .map_or(value.len(), |i| token.1 + i);
    let before = value[..token.0]
        .rfind(|c: char| !is_gap(c))
        .map_or(0, |i| i + 1);
    let title = format!("remove {code} from {IGNORE_ANNOTATION}");
    let local = if after < value.len() && !sep(value[after..].chars().next()?) {
        Span::new(token.0, after)
    } else if before > 0 && !sep(value[..before].chars().next_back()?) {
        Span::new(before, token.1)
    } else {
        return Some(Fix::safe(title, vec![remove_annotation(file, text, span)]));
    };
    let edit = Edit::delete(
        file,
        Span::new(span.start + local.start, span.start + local.end),
    );
    Some(Fix::safe(title, vec![edit]))
}

/// The annotation's whole line when its value ends it (block style), else its value emptied.
fn remove_annotation(file: FileId, text: &str, value: Span) -> Edit {
    let line_start = text[..value.start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[value.end..]
        .find('\n')
        .map_or(text.len(), |i| value.end + i + 1);
    let head = text[line_start..value.start].trim_start();
    let tail = text[value.end..line_end].trim();
    let key = head
        .trim_end()
        .trim_end_matches(':')
        .trim_matches(['"', '\'']);
    if key == IGNORE_ANNOTATION && (tail.is_empty() || tail.starts_with('#')) {
        Edit::delete(
            file,
            Span::new(only_annotation(text, line_start, line_end), line_end),
        )
    } else {
        Edit::replace(file, value, "\"\"")
    }
}

/// Where the deletion of the annotation's line (`start..end`) begins: at its `annotations:` line
/// when it is the only annotation (which would leave `annotations:` empty), else at the line.
fn only_annotation(text: &str, start: usize, end: usize) -> usize {
    let indent = |line: &str| line.len() - line.trim_start_matches(' ').len();
    let prev_start = text[..start.saturating_sub(1)]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let prev = text[prev_start..start].trim_end_matches(['\n', '\r']);
    let next = text[end..].lines().next().unwrap_or("");
    let own = indent(&text[start..end]);
    let alone = prev.trim() == "annotations:"
        && indent(prev) < own
        && (next.trim().is_empty() || next.starts_with("---") || indent(next) <= indent(prev));
    if start > 0 && alone {
        prev_start
    } else {
        start
    }
}

fn run_file_name<'a>(files: &'a [crate::source::SourceFile], d: &Diagnostic) -> Option<&'a str> {
    let id = d.location.as_ref()?.file;
    let f = files
        .get(id)
        .filter(|f| f.id == id)
        .or_else(|| files.iter().find(|f| f.id == id))?;
    Some(f.name.strip_prefix("./").unwrap_or(&f.name))
}

fn ignored_by_config(file: Option<&str>, d: &Diagnostic, config: &Config) -> bool {
    config.ignore.iter().any(|entry| {
        if entry.code != d.code.as_str() {
            return false;
        }
        if let Some(glob) = &entry.resource {
            let Some(r) = &d.resource else { return false };
            let name = match &r.namespace {
                Some(ns) => format!("{}/{}/{}", r.kind, ns, r.name),
                None => format!("{}/{}", r.kind, r.name),
            };
            if !glob.is_match(name) {
                return false;
            }
        }
        if let Some(glob) = &entry.path {
            let Some(file) = file else { return false };
            if !glob.is_match(file) {
                return false;
            }
        }
        true
    })
}
