//! `gwctl rules [CODE]`: the rule table, or one rule explained. Both come from `diag::RULES`.

use std::fmt::Write;

use super::args::RulesArgs;
use super::{print_stdout, usage_error};
use crate::diag::{RULES, Rule, rule};

pub(super) fn run(args: &RulesArgs) -> u8 {
    match &args.code {
        None => {
            print_stdout(&rules_table());
            0
        }
        Some(code) => match rule(&code.to_ascii_uppercase()) {
            Some(r) => {
                print_stdout(&rule_details(r));
                0
            }
            None => usage_error(&format!(
                "unknown rule code {code:?}; `gwctl rules` lists them"
            )),
        },
    }
}

/// One line per rule: code, severity, name, summary, in aligned columns.
pub fn rules_table() -> String {
    let name_width = RULES.iter().map(|r| r.name.len()).max().unwrap_or(0);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<6} {:<8} {:<name_width$} SUMMARY",
        "CODE", "SEVERITY", "NAME"
    );
    for r in RULES {
        let _ = writeln!(
            out,
            "{:<6} {:<8} {:<name_width$} {}",
            r.code,
            r.severity.as_str(),
            r.name,
            r.summary
        );
    }
    out
}

/// Everything known about one rule.
pub fn rule_details(r: &Rule) -> String {
    format!(
        "{code} {name} ({severity})\n\n{summary}.\n\n{explanation}\n",
        code = r.code,
        name = r.name,
        severity = r.severity.as_str(),
        summary = r.summary,
        explanation = r.explanation,
    )
}
