//! `gwctl explain` output: the human layout (hierarchy, attached policies, the effective policy
//! as YAML with each field's source; losing settings dimmed beneath the winner) and the same
//! facts as YAML or JSON data.

use crate::merge::explain::Explanation;

use super::escape::escape_controls;
use super::yaml::{field_lines, to_yaml};

/// How `explain` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ExplainFormat {
    /// The hierarchy, the attached policies and the annotated effective policy
    Human,
    /// The same facts as YAML data
    Yaml,
    /// The same facts as JSON data
    Json,
}

pub fn render_explanation(e: &Explanation, format: ExplainFormat, color: bool) -> String {
    match format {
        ExplainFormat::Json => {
            let mut s = serde_json::to_string_pretty(e).unwrap_or_default();
            s.push('\n');
            s
        }
        ExplainFormat::Yaml => to_yaml(&serde_json::to_value(e).unwrap_or_default()),
        ExplainFormat::Human => human(e, color),
    }
}

/// Several explanations written one at a time: a JSON array or YAML sequence as data, one after
/// the other for people.
pub struct ExplanationList<'w, W: std::io::Write> {
    out: &'w mut W,
    format: ExplainFormat,
    color: bool,
    count: usize,
}

impl<'w, W: std::io::Write> ExplanationList<'w, W> {
    pub fn new(out: &'w mut W, format: ExplainFormat, color: bool) -> Self {
        ExplanationList {
            out,
            format,
            color,
            count: 0,
        }
    }

    pub fn push(&mut self, e: &Explanation) -> std::io::Result<()> {
        let first = self.count == 0;
        self.count += 1;
        match self.format {
            ExplainFormat::Json => {
                self.out.write_all(if first { b"[" } else { b"," })?;
                serde_json::to_writer(&mut *self.out, e).map_err(std::io::Error::other)
            }
            ExplainFormat::Yaml => {
                let item = to_yaml(&serde_json::to_value(e).unwrap_or_default());
                for (i, line) in item.lines().enumerate() {
                    let lead = if i == 0 { "- " } else { "  " };
                    writeln!(self.out, "{lead}{line}")?;
                }
                Ok(())
            }
            ExplainFormat::Human => {
                if !first {
                    self.out.write_all(b"\n")?;
                }
                self.out.write_all(human(e, self.color).as_bytes())
            }
        }
    }

    pub fn finish(self) -> std::io::Result<()> {
        match (self.format, self.count) {
            (ExplainFormat::Json, 0) => self.out.write_all(b"[]\n")?,
            (ExplainFormat::Json, _) => self.out.write_all(b"]\n")?,
            (ExplainFormat::Yaml, 0) => self.out.write_all(b"[]\n")?,
            _ => {}
        }
        self.out.flush()
    }
}

/// Names and values in the text format are escaped (a control character in a name would act on
/// the terminal); the styles are added after.
fn bold(text: &str, color: bool) -> String {
    let text = escape_controls(text);
    if color {
        format!("\x1b[1m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

fn dim(text: &str, color: bool) -> String {
    let text = escape_controls(text);
    if color {
        format!("\x1b[2m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

fn human(e: &Explanation, color: bool) -> String {
    let mut out = String::new();
    out.push_str(&bold(&e.target, color));
    out.push_str("\n\n");
    out.push_str(&bold("Hierarchy", color));
    out.push('\n');
    for line in &e.hierarchy {
        out.push_str(&format!("  {}\n", escape_controls(line)));
    }
    out.push('\n');
    out.push_str(&bold("Attached policies", color));
    out.push('\n');
    if e.attached.is_empty() {
        out.push_str("  none\n");
    }
    let width = e
        .attached
        .iter()
        .map(|a| a.policy.label().len())
        .max()
        .unwrap_or(0);
    for a in &e.attached {
        let label = a.policy.label();
        let status = a.status.as_deref().unwrap_or("");
        let line = format!("  {label:<width$}  {status}");
        out.push_str(escape_controls(line.trim_end()).as_ref());
        out.push('\n');
    }
    if e.effective.is_empty() {
        out.push('\n');
        out.push_str(&bold("Effective policy", color));
        out.push_str("\n  none\n");
    }
    for eff in &e.effective {
        out.push('\n');
        let title = match &eff.via {
            Some(via) => format!("Effective {} (via {via})", family_label(eff.family)),
            None => format!("Effective {}", family_label(eff.family)),
        };
        out.push_str(&bold(&title, color));
        out.push('\n');
        for f in &eff.fields {
            let mut lines = field_lines(&f.field, &f.value, 2);
            let mut source = format!("# from {}", f.source.label());
            for m in &f.merged {
                source.push_str(&format!(" + {}", m.label()));
            }
            if f.disabled {
                source.push_str(" (disabled)");
            }
            if let Some(first) = lines.first_mut() {
                first.push_str("  ");
                first.push_str(&source);
            }
            for l in lines {
                out.push_str(&escape_controls(&l));
                out.push('\n');
            }
            for l in &f.losers {
                let text = format!(
                    "    # lost: {} ({}): {}",
                    l.source.label(),
                    l.reason.label(),
                    l.value
                );
                out.push_str(&dim(&text, color));
                out.push('\n');
            }
        }
    }
    out
}

fn family_label(f: crate::merge::Family) -> &'static str {
    f.label()
}
