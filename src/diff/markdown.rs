//! The diff as a pull-request comment: a summary line, then each section in a collapsible
//! `<details>` block. Capped in length (a GitHub comment holds 65,536 characters): what does not
//! fit is counted in a closing line instead of cut mid-table.

use std::fmt::Write;

use super::effective::FieldState;
use super::{Diff, count};

/// The default cap, below GitHub's comment limit with room for a caller's own text.
pub const MARKDOWN_CAP: usize = 60_000;

/// Room kept for closing tags and the "not shown" line.
const RESERVE: usize = 400;

/// Text in a table cell: pipes escaped, lines joined with `<br>`, HTML not interpreted.
fn cell(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('|', "\\|")
        .replace('\n', "<br>")
}

/// An inline code span that survives backticks in the text (and pipes, in a table).
fn code(s: &str) -> String {
    let s = s.replace('|', "\\|").replace('\n', " ");
    if s.contains('`') {
        format!("`` {s} ``")
    } else {
        format!("`{s}`")
    }
}

fn state(s: Option<&FieldState>) -> String {
    match s {
        None => "_unset_".to_string(),
        Some(s) => format!("{}<br>{}", code(&s.value_text()), cell(&s.sources_text())),
    }
}

/// Blocks added while they fit in the cap; the changes of those that do not are counted.
struct Capped {
    out: String,
    cap: usize,
    left_out: usize,
}

impl Capped {
    fn push(&mut self, block: &str, changes: usize) {
        if self.left_out == 0 && self.out.len() + block.len() + RESERVE <= self.cap {
            self.out.push_str(block);
        } else {
            // Once one block is left out, the later ones are too: the reader sees a prefix.
            self.left_out += changes;
        }
    }

    /// Text that is always shown (headings, closing tags).
    fn always(&mut self, text: &str) {
        self.out.push_str(text);
    }
}

pub fn markdown(d: &Diff, cap: usize) -> String {
    let mut c = Capped {
        out: String::new(),
        cap,
        left_out: 0,
    };
    let f = &d.findings;
    let findings = format!(
        "{} introduced, {} fixed, {} unchanged",
        f.introduced.len(),
        f.fixed.len(),
        f.unchanged
    );
    c.always("## gwctl diff\n\n");
    if d.changes_effect() {
        let mut parts = Vec::new();
        if !d.effective.is_empty() {
            parts.push(format!(
                "{} on {}",
                count(
                    d.field_changes(),
                    "effective-policy field",
                    "effective-policy fields"
                ),
                count(d.effective.len(), "target", "targets")
            ));
        }
        if !d.rendered.is_empty() {
            parts.push(format!(
                "{} on {}",
                count(
                    d.resource_changes(),
                    "rendered resource",
                    "rendered resources"
                ),
                count(d.rendered.len(), "Gateway", "Gateways")
            ));
        }
        let _ = write!(
            c.out,
            "**Changes in effect:** {}. Findings: {findings}.\n\n",
            parts.join("; ")
        );
    } else {
        let _ = write!(c.out, "**No change in effect.** Findings: {findings}.\n\n");
    }

    if !f.introduced.is_empty() || !f.fixed.is_empty() {
        c.always(&format!(
            "<details><summary>Findings: {findings}</summary>\n\n"
        ));
        if !f.introduced.is_empty() {
            c.always("| Severity | Code | Resource | Field | Message | Location |\n");
            c.always("|---|---|---|---|---|---|\n");
            for x in &f.introduced {
                let row = format!(
                    "| {} | {} | {} | {} | {} | {} |\n",
                    x.severity.as_str(),
                    x.code,
                    x.resource.as_deref().map(cell).unwrap_or_default(),
                    x.path.as_deref().map(code).unwrap_or_default(),
                    cell(&x.message),
                    x.location.as_deref().map(code).unwrap_or_default(),
                );
                c.push(&row, 1);
            }
            c.always("\n");
        }
        if !f.fixed.is_empty() {
            c.always("Fixed:\n\n");
            for x in &f.fixed {
                c.push(&format!("- {}\n", cell(&x.line())), 1);
            }
            c.always("\n");
        }
        c.always("</details>\n\n");
    }

    if !d.effective.is_empty() {
        c.always(&format!(
            "<details><summary>Effective policy: {} changed on {}</summary>\n\n",
            count(d.field_changes(), "field", "fields"),
            count(d.effective.len(), "target", "targets")
        ));
        for p in &d.effective {
            let mut block = format!(
                "**{}**\n\n| Field | Before | After |\n|---|---|---|\n",
                code(&p.target)
            );
            for ch in &p.changes {
                let via = ch
                    .via
                    .as_deref()
                    .map(|v| format!(" (via {})", code(v)))
                    .unwrap_or_default();
                let _ = writeln!(
                    block,
                    "| {} {}{via} | {} | {} |",
                    cell(ch.family),
                    code(&ch.field),
                    state(ch.before.as_ref()),
                    state(ch.after.as_ref())
                );
            }
            block.push('\n');
            c.push(&block, p.changes.len());
        }
        c.always("</details>\n\n");
    }

    if !d.rendered.is_empty() {
        c.always(&format!(
            "<details><summary>Rendered configuration: {} changed on {}</summary>\n\n",
            count(d.resource_changes(), "resource", "resources"),
            count(d.rendered.len(), "Gateway", "Gateways")
        ));
        for g in &d.rendered {
            let heading = format!("**{}**\n\n", code(&g.gateway));
            let mut first = true;
            for r in &g.changes {
                let fence = if r.diff.contains("```") {
                    "~~~~"
                } else {
                    "```"
                };
                let mut block = String::new();
                if first {
                    block.push_str(&heading);
                }
                let _ = write!(block, "{fence}diff\n{}{fence}\n\n", r.diff);
                let before = c.out.len();
                c.push(&block, 1);
                first &= c.out.len() == before;
            }
        }
        c.always("</details>\n\n");
    }

    if c.left_out > 0 {
        let _ = writeln!(
            c.out,
            "_{} not shown (over {} characters); `gwctl diff -o json` has them all._",
            count(c.left_out, "more change", "more changes"),
            cap
        );
    }
    c.out
}
