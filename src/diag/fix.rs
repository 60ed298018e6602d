//! Fixes: the text edits a finding offers (`gwctl lint --fix`, SARIF `fixes`, rdjson
//! `suggestions`, LSP code actions). A fix is data built where its finding is built; applying it
//! is the `fix` module's job.

use crate::source::{FileId, Span};

/// Whether a fix may be applied without asking (`--fix`) or only on request (`--unsafe-fixes`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Applicability {
    /// The meaning is certainly what the user wrote it for (a typo with one possible correction).
    Safe,
    /// A guess that may change what the manifest does (a reference renamed to the closest object).
    Unsafe,
}

impl Applicability {
    pub fn as_str(self) -> &'static str {
        match self {
            Applicability::Safe => "safe",
            Applicability::Unsafe => "unsafe",
        }
    }
}

/// One replacement of a byte range of a file (the range is empty for an insertion). Appending a
/// document is an insertion at the end of the file ([`Edit::append`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Edit {
    pub file: FileId,
    pub span: Span,
    pub replacement: String,
}

/// What a finding offers to make itself go away: a title for people ("rename to `filters`"), an
/// applicability, and edits that are applied together or not at all.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Fix {
    pub title: String,
    pub applicability: Applicability,
    /// Sorted by file and position; they do not overlap.
    pub edits: Vec<Edit>,
}

impl Fix {
    pub fn new(
        applicability: Applicability,
        title: impl Into<String>,
        mut edits: Vec<Edit>,
    ) -> Self {
        edits.sort_by_key(|e| (e.file, e.span.start, e.span.end));
        Fix {
            title: title.into(),
            applicability,
            edits,
        }
    }

    pub fn safe(title: impl Into<String>, edits: Vec<Edit>) -> Self {
        Fix::new(Applicability::Safe, title, edits)
    }

    pub fn unsafe_(title: impl Into<String>, edits: Vec<Edit>) -> Self {
        Fix::new(Applicability::Unsafe, title, edits)
    }
}

impl Edit {
    pub fn replace(file: FileId, span: Span, replacement: impl Into<String>) -> Self {
        Edit {
            file,
            span,
            replacement: replacement.into(),
        }
    }

    pub fn delete(file: FileId, span: Span) -> Self {
        Edit::replace(file, span, "")
    }

    /// A new YAML document at the end of `text` (the file's whole text): a `---` line first, and
    /// a line break before it when the file does not end with one.
    pub fn append(file: FileId, text: &str, document: &str) -> Self {
        let end = text.len();
        let mut replacement = String::new();
        if !text.is_empty() && !text.ends_with('\n') {
            replacement.push('\n');
        }
        replacement.push_str("---\n");
        replacement.push_str(document);
        if !document.ends_with('\n') {
            replacement.push('\n');
        }
        Edit::replace(file, Span::new(end, end), replacement)
    }

    /// Replaces the scalar at `span` of `text` (the file's text) with `new`, keeping its quotes:
    /// a quoted scalar gets `new` between the same quotes, a plain one is replaced whole. `new`
    /// must need no escaping (a name, a field, an enumeration value).
    pub fn rename_scalar(file: FileId, text: &str, span: Span, new: &str) -> Self {
        let written = text.get(span.start..span.end).unwrap_or("");
        let quoted = written.len() >= 2
            && ((written.starts_with('"') && written.ends_with('"'))
                || (written.starts_with('\'') && written.ends_with('\'')));
        if quoted {
            Edit::replace(file, Span::new(span.start + 1, span.end - 1), new)
        } else {
            Edit::replace(file, span, new)
        }
    }
}

impl Edit {
    /// Replaces the scalar at `span` whose value is `old` with `new`, keeping its quotes, when the
    /// span's length shows how it was written: `old` as is (plain) or between two quotes. `None`
    /// otherwise (escapes, a block scalar), and for a plain scalar when `new` would not stay the
    /// same string there ([`plain_as_string`]) unless `old` was not one either (a number).
    pub fn rename_value(file: FileId, span: Span, old: &str, new: &str) -> Option<Edit> {
        if span.len() == old.len() {
            let number = old.parse::<i64>().is_ok() && new.parse::<i64>().is_ok();
            (number || plain_as_string(new)).then(|| Edit::replace(file, span, new))
        } else if span.len() == old.len() + 2 {
            let inner = Span::new(span.start + 1, span.end - 1);
            let escapes = new.contains(['"', '\'', '\\']) || new.chars().any(char::is_control);
            (!escapes).then(|| Edit::replace(file, inner, new))
        } else {
            None
        }
    }
}

/// A word that a plain scalar keeps as the same string in YAML 1.1 and 1.2 and in flow style:
/// a letter or digit first, then letters, digits and `.` `_` `/` `-`, and not a number, boolean
/// or null.
pub fn plain_as_string(word: &str) -> bool {
    let mut chars = word.chars();
    let shaped = chars.next().is_some_and(|c| c.is_ascii_alphanumeric())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '/' | '-'));
    let lower = word.to_ascii_lowercase();
    let keyword = matches!(
        lower.as_str(),
        "true" | "false" | "null" | "y" | "n" | "yes" | "no" | "on" | "off"
    );
    let number = word.parse::<f64>().is_ok()
        || word.starts_with(|c: char| c.is_ascii_digit())
            && word
                .chars()
                .all(|c| c.is_ascii_hexdigit() || matches!(c, 'x' | 'o' | '_' | '.'));
    shaped && !keyword && !number
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rename_keeps_quotes() {
        let text = r#"{"backendRef": 'x', plain: y}"#;
        let e = Edit::rename_scalar(0, text, Span::new(1, 13), "backendRefs");
        assert_eq!(e.span, Span::new(2, 12));
        let e = Edit::rename_scalar(0, text, Span::new(15, 18), "z");
        assert_eq!(e.span, Span::new(16, 17));
        let e = Edit::rename_scalar(0, text, Span::new(20, 25), "plainer");
        assert_eq!(
            (e.span, e.replacement.as_str()),
            (Span::new(20, 25), "plainer")
        );
    }

    #[test]
    fn rename_value_by_how_it_was_written() {
        let plain = Edit::rename_value(0, Span::new(10, 13), "web", "webs");
        assert_eq!(plain.map(|e| e.span), Some(Span::new(10, 13)));
        let quoted = Edit::rename_value(0, Span::new(10, 15), "web", "webs");
        assert_eq!(quoted.map(|e| e.span), Some(Span::new(11, 14)));
        assert_eq!(
            Edit::rename_value(0, Span::new(10, 16), "web", "webs"),
            None
        );
        assert_eq!(Edit::rename_value(0, Span::new(10, 13), "web", "123"), None);
        assert_eq!(Edit::rename_value(0, Span::new(10, 13), "web", "yes"), None);
        assert!(Edit::rename_value(0, Span::new(10, 12), "81", "80").is_some());
        assert!(
            plain_as_string("checkout-v2") && !plain_as_string("0x1f") && !plain_as_string("1e3")
        );
    }

    #[test]
    fn append_starts_a_document() {
        assert_eq!(Edit::append(3, "a: 1", "b: 2").replacement, "\n---\nb: 2\n");
        assert_eq!(Edit::append(3, "a: 1\n", "b: 2\n").span, Span::new(5, 5));
    }
}
