//! The diff as a pull-request comment: a summary line, then each section in a collapsible
//! `<details>` block. Capped in length (a GitHub comment holds 65,536 characters): what does not
//! fit is counted in a closing line instead of cut mid-table, and no section can crowd out the
//! others (each gets a fair share of the room).

use std::borrow::Cow;
use std::fmt::Write;

use super::effective::{FieldState, grouped, targets_text};
use super::{Diff, count};
use crate::report::escape::escape_controls;

/// The default cap, below GitHub's comment limit with room for a caller's own text.
pub const MARKDOWN_CAP: usize = 60_000;

/// Targets named for one group of equal changes; the others are counted.
const SHOWN_TARGETS: usize = 10;

/// Room kept for the "not shown" line.
const RESERVE: usize = 120;

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

/// One piece of a section that is shown whole or not at all.
struct Block {
    /// Printed before the first block of its group that is shown (a table's header).
    head: Option<usize>,
    text: String,
    /// How many changes it shows (counted when it is left out).
    changes: usize,
}

/// A `<details>` section: always opened and closed, its blocks shown while they fit.
struct Section {
    open: String,
    heads: Vec<String>,
    blocks: Vec<Block>,
    close: &'static str,
}

impl Section {
    fn new(summary: String) -> Self {
        Section {
            open: format!("<details><summary>{summary}</summary>\n\n"),
            heads: Vec::new(),
            blocks: Vec::new(),
            // The blank line ends a table or list the last block left open.
            close: "\n</details>\n\n",
        }
    }

    /// The section with control characters escaped in all its text: done before anything is
    /// measured, so that the escapes (up to 10 bytes for one character) count against the cap.
    fn escaped(self) -> Section {
        let esc = |t: String| match escape_controls(&t) {
            Cow::Borrowed(_) => t,
            Cow::Owned(e) => e,
        };
        Section {
            open: esc(self.open),
            heads: self.heads.into_iter().map(esc).collect(),
            blocks: self
                .blocks
                .into_iter()
                .map(|b| Block {
                    text: esc(b.text),
                    ..b
                })
                .collect(),
            close: self.close,
        }
    }

    /// Everything, as if nothing were left out.
    fn size(&self) -> usize {
        self.heads.iter().map(String::len).sum::<usize>()
            + self.blocks.iter().map(|b| b.text.len()).sum::<usize>()
    }

    /// The section within `budget` bytes of blocks (and their heads), and how many changes of
    /// the blocks that did not fit were left out. Once a block is left out, the later ones are
    /// too: the reader sees a prefix of the section.
    fn write(&self, budget: usize, out: &mut String) -> usize {
        out.push_str(&self.open);
        let mut used = 0;
        let mut shown_heads = vec![false; self.heads.len()];
        let mut left_out = 0;
        for b in &self.blocks {
            let head = b.head.filter(|&h| !shown_heads[h]);
            let need = b.text.len() + head.map_or(0, |h| self.heads[h].len());
            if left_out > 0 || used + need > budget {
                left_out += b.changes;
                continue;
            }
            if let Some(h) = head {
                out.push_str(&self.heads[h]);
                shown_heads[h] = true;
            }
            out.push_str(&b.text);
            used += need;
        }
        out.push_str(self.close);
        left_out
    }
}

/// Shares `room` among needs: each gets what it needs if that is at most an equal share of what
/// is left, the others split the rest equally.
pub(super) fn fair_shares(needs: &[usize], room: usize) -> Vec<usize> {
    let mut shares = vec![0; needs.len()];
    let mut open: Vec<usize> = (0..needs.len()).collect();
    let mut left = room;
    loop {
        if open.is_empty() {
            return shares;
        }
        let equal = left / open.len();
        let (small, large): (Vec<usize>, Vec<usize>) =
            open.iter().partition(|&&i| needs[i] <= equal);
        if small.is_empty() {
            for i in large {
                shares[i] = equal;
            }
            return shares;
        }
        for i in small {
            shares[i] = needs[i];
            left -= needs[i];
        }
        open = large;
    }
}

/// The Mermaid picture of what changed in the topology, when it takes at most half the room
/// (the sections keep the other half); else a line saying it was left out. Returns the room
/// used.
fn picture(change: &crate::graph::GraphChange, room: usize, cap: usize, out: &mut String) -> usize {
    let text = format!(
        "**Topology:** added in green, removed in red.\n\n```mermaid\n{}```\n\n",
        crate::report::graph::mermaid_change(change)
    );
    let before = out.len();
    if text.len() <= room / 2 {
        out.push_str(&text);
    } else {
        let _ = write!(
            out,
            "_The picture of the topology change ({} characters) is left out: it does not fit in {cap} characters._\n\n",
            text.len()
        );
    }
    (out.len() - before).min(room)
}

fn findings_section(d: &Diff, summary: &str) -> Option<Section> {
    let f = &d.findings;
    if f.introduced.is_empty() && f.fixed.is_empty() {
        return None;
    }
    let mut s = Section::new(format!("Findings: {summary}"));
    s.heads.push(
        "| Severity | Code | Resource | Field | Message | Location |\n|---|---|---|---|---|---|\n"
            .to_string(),
    );
    // A blank line ends the table before the list.
    let gap = if f.introduced.is_empty() { "" } else { "\n" };
    s.heads.push(format!("{gap}Fixed:\n\n"));
    for x in &f.introduced {
        s.blocks.push(Block {
            head: Some(0),
            text: format!(
                "| {} | {} | {} | {} | {} | {} |\n",
                x.severity.as_str(),
                x.code,
                x.resource.as_deref().map(cell).unwrap_or_default(),
                x.path.as_deref().map(code).unwrap_or_default(),
                cell(&x.message),
                x.location.as_deref().map(code).unwrap_or_default(),
            ),
            changes: 1,
        });
    }
    for x in &f.fixed {
        s.blocks.push(Block {
            head: Some(1),
            text: format!("- {}\n", cell(&x.line())),
            changes: 1,
        });
    }
    Some(s)
}

fn effective_section(d: &Diff) -> Option<Section> {
    if d.effective.is_empty() {
        return None;
    }
    let mut s = Section::new(format!(
        "Effective policy: {} changed on {}",
        count(d.field_changes(), "field", "fields"),
        count(d.effective.len(), "target", "targets")
    ));
    for (targets, changes) in grouped(&d.effective) {
        let mut text = format!(
            "{}\n\n| Field | Before | After |\n|---|---|---|\n",
            targets_text(&targets, SHOWN_TARGETS, |t| format!("**{}**", code(t)))
        );
        for ch in changes {
            let via = ch
                .via
                .as_deref()
                .map(|v| format!(" (via {})", code(v)))
                .unwrap_or_default();
            let _ = writeln!(
                text,
                "| {} {}{via} | {} | {} |",
                cell(ch.family),
                code(&ch.field),
                state(ch.before.as_ref()),
                state(ch.after.as_ref())
            );
        }
        text.push('\n');
        s.blocks.push(Block {
            head: None,
            text,
            changes: changes.len() * targets.len(),
        });
    }
    Some(s)
}

fn rendered_section(d: &Diff) -> Option<Section> {
    if d.rendered.is_empty() {
        return None;
    }
    let mut s = Section::new(format!(
        "Rendered configuration: {} changed on {}",
        count(d.resource_changes(), "resource", "resources"),
        count(d.rendered.len(), "Gateway", "Gateways")
    ));
    for g in &d.rendered {
        let head = s.heads.len();
        s.heads.push(format!("**{}**\n\n", code(&g.gateway)));
        for r in &g.changes {
            let fence = if r.diff.contains("```") {
                "~~~~"
            } else {
                "```"
            };
            s.blocks.push(Block {
                head: Some(head),
                text: format!("{fence}diff\n{}{fence}\n\n", r.diff),
                changes: 1,
            });
        }
    }
    Some(s)
}

/// The Markdown text, at most `cap` bytes, with control characters in names and values escaped
/// (a pull-request comment is also read in terminals).
pub fn markdown(d: &Diff, cap: usize) -> String {
    let f = &d.findings;
    let findings = format!(
        "{} introduced, {} fixed, {} unchanged",
        f.introduced.len(),
        f.fixed.len(),
        f.unchanged
    );
    let mut out = String::from("## gwctl diff\n\n");
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
            out,
            "**Changes in effect:** {}. Findings: {findings}.\n\n",
            parts.join("; ")
        );
    } else {
        let _ = write!(out, "**No change in effect.** Findings: {findings}.\n\n");
    }
    let sections: Vec<Section> = [
        findings_section(d, &findings),
        effective_section(d),
        rendered_section(d),
    ]
    .into_iter()
    .flatten()
    .map(Section::escaped)
    .collect();
    let frame: usize = sections.iter().map(|s| s.open.len() + s.close.len()).sum();
    let mut room = cap.saturating_sub(out.len() + frame + RESERVE);
    if let Some(change) = &d.graph {
        room -= picture(change, room, cap, &mut out);
    }
    let needs: Vec<usize> = sections.iter().map(Section::size).collect();
    let shares = fair_shares(&needs, room);
    let mut left_out = 0;
    for (s, share) in sections.iter().zip(shares) {
        left_out += s.write(share, &mut out);
    }
    if left_out > 0 {
        let _ = writeln!(
            out,
            "_{} not shown (over {cap} characters); `gwctl diff -o json` has them all._",
            count(left_out, "more change", "more changes"),
        );
    }
    out
}
