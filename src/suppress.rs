//! Suppression and severity overrides, applied once to a whole run after every stage, so that the
//! stages report everything they find and stay unaware of user preferences.
//!
//! In order: the `gwctl.dev/ignore` annotation of the resource a finding lies in; unused codes of
//! those annotations become GW011 notes; then the config file's `ignore` entries and `severity`
//! overrides (`off` suppresses) apply to every finding, GW011 included.

use crate::rules;
use std::collections::HashMap;

use crate::config::Config;
use crate::diag::{Diagnostic, Suppressed};
use crate::lint::{LintRun, report_order};
use crate::parse::Node;
use crate::rules::rule;
use crate::source::Span;

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
            notes.push(
                Diagnostic::new(rules::GW011, message)
                    .at(r.file, span)
                    .with_resource(Some(r.reference.clone()))
                    .with_path(format!("metadata.annotations.{IGNORE_ANNOTATION}"))
                    .with_help(format!("remove {code} from the annotation")),
            );
        }
    }
    notes
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
