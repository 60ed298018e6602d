//! Findings introduced, fixed and unchanged. A finding is known across the two sides by what it
//! says and about what (code, resource, field path, message), never by where its file is: a
//! resource moved to another file keeps its findings.

use std::collections::BTreeMap;

use std::sync::LazyLock;

use regex::Regex;

use crate::diag::{Diagnostic, Severity};
use crate::lint::LintRun;

/// A finding as the diff shows it: where it is on its side, for the reader to find it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FindingView {
    pub code: &'static str,
    pub severity: Severity,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// `file:line:column` on its side.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    /// File, line and column, to list findings as the files do.
    #[serde(skip)]
    order: (String, usize, usize),
}

/// What identifies a finding on both sides.
type Key = (&'static str, Option<String>, Option<String>, String);

/// One side's findings by identity; several equal findings are counted (each keeps its view).
#[derive(Debug, Default)]
pub struct Findings(BTreeMap<Key, Vec<FindingView>>);

#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct FindingsDiff {
    /// In HEAD and not in BASE, in full.
    pub introduced: Vec<FindingView>,
    /// In BASE and not in HEAD.
    pub fixed: Vec<FindingView>,
    pub unchanged: usize,
}

/// The run's findings (suppressed ones do not count), with secret values scrubbed.
pub fn of_run(run: &LintRun) -> Findings {
    let scrubbed = crate::report::scrubbed(run);
    let run = scrubbed.as_ref().unwrap_or(run);
    let mut out: BTreeMap<Key, Vec<FindingView>> = BTreeMap::new();
    for d in &run.diagnostics {
        let key = (
            d.code.as_str(),
            d.resource.as_ref().map(ToString::to_string),
            d.path.clone(),
            without_positions(&d.message),
        );
        out.entry(key).or_default().push(view(run, d));
    }
    Findings(out)
}

/// A message without the positions it quotes (`already set at line 12 column 3`): they move
/// with the text, the finding does not.
fn without_positions(message: &str) -> String {
    static POSITION: LazyLock<Option<Regex>> =
        LazyLock::new(|| Regex::new(r"line \d+ column \d+").ok());
    match &*POSITION {
        Some(re) if message.contains("line ") => re.replace_all(message, "line _ column _").into(),
        _ => message.to_string(),
    }
}

fn view(run: &LintRun, d: &Diagnostic) -> FindingView {
    let mut order = (String::new(), 0, 0);
    let location = d.location.as_ref().and_then(|l| {
        let file = run.files.get(l.file)?;
        let lc = file.line_col(l.span.start);
        order = (file.name.clone(), lc.line, lc.column);
        Some(format!("{}:{}:{}", file.name, lc.line, lc.column))
    });
    FindingView {
        code: d.code.as_str(),
        severity: d.severity,
        message: d.message.clone(),
        resource: d.resource.as_ref().map(ToString::to_string),
        path: d.path.clone(),
        location,
        order,
    }
}

impl Findings {
    /// Prefixes every location (`REV:` for a side read from git).
    pub fn locate_in(&mut self, prefix: &str) {
        for view in self.0.values_mut().flatten() {
            if let Some(l) = &mut view.location {
                l.insert_str(0, prefix);
            }
        }
    }
}

pub fn compare(base: &Findings, head: &Findings) -> FindingsDiff {
    let mut out = FindingsDiff::default();
    for (key, now) in &head.0 {
        let before = base.0.get(key).map_or(0, Vec::len);
        out.unchanged += before.min(now.len());
        out.introduced.extend(now.iter().skip(before).cloned());
    }
    for (key, before) in &base.0 {
        let now = head.0.get(key).map_or(0, Vec::len);
        out.fixed.extend(before.iter().skip(now).cloned());
    }
    // Most severe first, then as the files list them.
    let order = |a: &FindingView, b: &FindingView| {
        b.severity
            .cmp(&a.severity)
            .then_with(|| a.order.cmp(&b.order))
            .then_with(|| a.code.cmp(b.code))
    };
    out.introduced.sort_by(order);
    out.fixed.sort_by(order);
    out
}

impl FindingView {
    /// `error[GW201] HTTPRoute shop/x spec.parentRefs[0]: message`.
    pub fn line(&self) -> String {
        let mut s = format!("{}[{}]", self.severity.as_str(), self.code);
        if let Some(r) = &self.resource {
            s.push(' ');
            s.push_str(r);
        }
        if let Some(p) = &self.path {
            s.push(' ');
            s.push_str(p);
        }
        s.push_str(": ");
        s.push_str(&self.message);
        s
    }
}
