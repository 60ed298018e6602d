//! `--format junit`: JUnit XML for CI test reports. One test suite per file, one test case per
//! resource (passed when it has no finding at or above `--fail-on`), and a `(file)` case for
//! findings that belong to no resource (syntax errors) or for a file without resources. Findings
//! without a file (an unreadable path) are the `(inputs)` suite.

use std::fmt::Write;

use super::{RenderOptions, context_line, listed, resolve, tag};
use crate::diag::Diagnostic;
use crate::lint::LintRun;

struct Case<'a> {
    name: String,
    findings: Vec<&'a Diagnostic>,
}

struct Suite<'a> {
    name: String,
    cases: Vec<Case<'a>>,
}

pub(super) fn render(run: &LintRun, options: &RenderOptions) -> String {
    let suites = suites(run, options);
    let failed = |c: &Case| {
        c.findings
            .iter()
            .any(|d| d.suppressed.is_none() && d.severity >= options.fail_on)
    };
    let tests: usize = suites.iter().map(|s| s.cases.len()).sum();
    let failures: usize = suites
        .iter()
        .map(|s| s.cases.iter().filter(|c| failed(c)).count())
        .sum();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites name=\"gwctl\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\">"
    );
    for suite in &suites {
        let suite_failures = suite.cases.iter().filter(|c| failed(c)).count();
        let _ = writeln!(
            out,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{suite_failures}\" errors=\"0\" skipped=\"0\">",
            xml(&suite.name),
            suite.cases.len()
        );
        for case in &suite.cases {
            let open = format!(
                "    <testcase classname=\"{}\" name=\"{}\"",
                xml(&suite.name),
                xml(&case.name)
            );
            if case.findings.is_empty() {
                let _ = writeln!(out, "{open}/>");
                continue;
            }
            let _ = writeln!(out, "{open}>");
            let body: String = case.findings.iter().map(|d| finding_line(run, d)).collect();
            if failed(case) {
                let first = case
                    .findings
                    .iter()
                    .find(|d| d.suppressed.is_none() && d.severity >= options.fail_on)
                    .unwrap_or(&case.findings[0]);
                let _ = writeln!(
                    out,
                    "      <failure type=\"{}\" message=\"{}\">{}</failure>",
                    first.code,
                    xml(&first.message),
                    xml(&body)
                );
            } else {
                let _ = writeln!(out, "      <system-out>{}</system-out>", xml(&body));
            }
            let _ = writeln!(out, "    </testcase>");
        }
        let _ = writeln!(out, "  </testsuite>");
    }
    out.push_str("</testsuites>\n");
    out
}

fn suites<'a>(run: &'a LintRun, options: &RenderOptions) -> Vec<Suite<'a>> {
    let findings = listed(run, options);
    let mut suites = Vec::new();
    let no_file: Vec<&Diagnostic> = findings
        .iter()
        .copied()
        .filter(|d| d.location.is_none())
        .collect();
    if !no_file.is_empty() {
        suites.push(Suite {
            name: "(inputs)".to_string(),
            cases: vec![Case {
                name: "(inputs)".to_string(),
                findings: no_file,
            }],
        });
    }
    for file in &run.files {
        let resources: Vec<_> = run.resources.iter().filter(|r| r.file == file.id).collect();
        let mut cases: Vec<Case> = resources
            .iter()
            .map(|r| Case {
                name: r.reference.to_string(),
                findings: Vec::new(),
            })
            .collect();
        let mut loose = Vec::new();
        for d in findings.iter().copied() {
            let Some(loc) = d.location.as_ref().filter(|l| l.file == file.id) else {
                continue;
            };
            let owner = d.resource.as_ref().and_then(|reference| {
                resources
                    .iter()
                    .position(|r| r.span.start <= loc.span.start && loc.span.start < r.span.end)
                    .or_else(|| resources.iter().position(|r| &r.reference == reference))
            });
            match owner {
                Some(i) => cases[i].findings.push(d),
                None => loose.push(d),
            }
        }
        if !loose.is_empty() || cases.is_empty() {
            cases.insert(
                0,
                Case {
                    name: "(file)".to_string(),
                    findings: loose,
                },
            );
        }
        suites.push(Suite {
            name: file.name.clone(),
            cases,
        });
    }
    suites
}

/// `3:5: error[GW101] message (in HTTPRoute default/web at spec.foo)` and a help line.
fn finding_line(run: &LintRun, d: &Diagnostic) -> String {
    let mut s = match d.location.as_ref().and_then(|l| resolve(run, l)) {
        Some(r) => format!(
            "{}:{}: {} {}",
            r.start.line,
            r.start.column,
            tag(d),
            d.message
        ),
        None => format!("{} {}", tag(d), d.message),
    };
    if let Some(context) = context_line(d) {
        let _ = write!(s, " ({context})");
    }
    s.push('\n');
    if let Some(help) = &d.help {
        let _ = writeln!(s, "  help: {help}");
    }
    s
}

/// Text for an XML attribute or element; characters XML 1.0 cannot hold become U+FFFD.
pub(crate) fn xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}
