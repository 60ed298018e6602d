//! The diff for a terminal: the three sections one after the other, removed lines red and added
//! lines green when coloured.

use std::fmt::Write;

use super::effective::{FieldState, grouped, targets_text};
use super::{Diff, count};
use crate::report::escape::escape_controls;

/// Targets named for one group of equal changes; the others are counted.
const SHOWN_TARGETS: usize = 20;

const BOLD: &str = "1";
const RED: &str = "31";
const GREEN: &str = "32";
const CYAN: &str = "36";

/// Names and values are escaped (a control character in a name would act on the terminal),
/// then styled.
fn paint(text: &str, code: &str, color: bool) -> String {
    let text = escape_controls(text);
    if color {
        format!("\x1b[{code}m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

/// `{"request":"5s"}  from TrafficPolicy shop/a @route`, or `unset`.
fn state(s: Option<&FieldState>) -> String {
    match s {
        None => "unset".to_string(),
        Some(s) => format!("{}  from {}", s.value_text(), s.sources_text()),
    }
}

pub fn human(d: &Diff, color: bool) -> String {
    let mut out = String::new();
    findings(&mut out, d, color);
    out.push('\n');
    effective(&mut out, d, color);
    out.push('\n');
    rendered(&mut out, d, color);
    out
}

/// The findings section: the counts, then each introduced finding (with where) and each fixed.
fn findings(out: &mut String, d: &Diff, color: bool) {
    let f = &d.findings;
    let _ = writeln!(
        out,
        "{}",
        paint(
            &format!(
                "Findings: {} introduced, {} fixed, {} unchanged",
                f.introduced.len(),
                f.fixed.len(),
                f.unchanged
            ),
            BOLD,
            color
        )
    );
    for x in &f.introduced {
        let _ = writeln!(out, "  {}", paint(&format!("+ {}", x.line()), GREEN, color));
        if let Some(at) = &x.location {
            let _ = writeln!(out, "{}", escape_controls(&format!("      at {at}")));
        }
    }
    for x in &f.fixed {
        let _ = writeln!(out, "  {}", paint(&format!("- {}", x.line()), RED, color));
    }
}

/// The effective policy section: each group of targets with the same changes, then each
/// changed field's value before and after.
fn effective(out: &mut String, d: &Diff, color: bool) {
    let title = if d.effective.is_empty() {
        "Effective policy: no change".to_string()
    } else {
        format!(
            "Effective policy: {} changed on {}",
            count(d.field_changes(), "field", "fields"),
            count(d.effective.len(), "target", "targets")
        )
    };
    let _ = writeln!(out, "{}", paint(&title, BOLD, color));
    for (targets, changes) in grouped(&d.effective) {
        let _ = writeln!(
            out,
            "  {}",
            escape_controls(&targets_text(&targets, SHOWN_TARGETS, str::to_string))
        );
        for c in changes {
            let via = c.via.as_deref().map(|v| format!(" (via {v})"));
            let line = format!("    {} {}{}", c.family, c.field, via.unwrap_or_default());
            let _ = writeln!(out, "{}", escape_controls(&line));
            let before = format!("- {}", state(c.before.as_ref()));
            let after = format!("+ {}", state(c.after.as_ref()));
            let _ = writeln!(out, "      {}", paint(&before, RED, color));
            let _ = writeln!(out, "      {}", paint(&after, GREEN, color));
        }
    }
}

/// The rendered configuration section: each Gateway with the unified diffs of its resources.
fn rendered(out: &mut String, d: &Diff, color: bool) {
    let title = if d.rendered.is_empty() {
        "Rendered configuration: no change".to_string()
    } else {
        format!(
            "Rendered configuration: {} changed on {}",
            count(d.resource_changes(), "resource", "resources"),
            count(d.rendered.len(), "Gateway", "Gateways")
        )
    };
    let _ = writeln!(out, "{}", paint(&title, BOLD, color));
    for g in &d.rendered {
        let _ = writeln!(out, "  {}", escape_controls(&g.gateway));
        for r in &g.changes {
            for line in r.diff.lines() {
                let _ = writeln!(out, "    {}", diff_line(line, color));
            }
        }
    }
}

/// A line of a unified diff, styled by what it is: a file header, an added or removed line, a
/// hunk header, or context.
fn diff_line(line: &str, color: bool) -> String {
    if line.starts_with("+++") || line.starts_with("---") {
        paint(line, BOLD, color)
    } else if line.starts_with('+') {
        paint(line, GREEN, color)
    } else if line.starts_with('-') {
        paint(line, RED, color)
    } else if line.starts_with("@@") {
        paint(line, CYAN, color)
    } else {
        escape_controls(line).into_owned()
    }
}
