//! `--statistics`: how many findings each code has, most frequent first.

use std::collections::HashMap;
use std::fmt::Write;

use crate::lint::LintRun;
use crate::rules::rule;

/// Active findings per code, most frequent first, then by code.
pub fn code_counts(run: &LintRun) -> Vec<(&'static str, usize)> {
    let mut counts: HashMap<&'static str, usize> = HashMap::new();
    for d in &run.diagnostics {
        *counts.entry(d.code.as_str()).or_default() += 1;
    }
    let mut out: Vec<_> = counts.into_iter().collect();
    out.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    out
}

/// `COUNT CODE NAME` lines under a header; "no findings" when there are none.
pub fn statistics_table(run: &LintRun) -> String {
    let counts = code_counts(run);
    if counts.is_empty() {
        return "no findings\n".to_string();
    }
    let width = counts
        .iter()
        .map(|(_, n)| n.to_string().len())
        .max()
        .unwrap_or(1)
        .max(5);
    let mut out = String::new();
    let _ = writeln!(out, "{:>width$}  {:<6} NAME", "COUNT", "CODE");
    for (code, n) in counts {
        let name = rule(code).map_or("", |r| r.name);
        let _ = writeln!(out, "{n:>width$}  {code:<6} {name}");
    }
    out
}
