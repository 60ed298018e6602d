//! Findings as the Language Server Protocol shows them (`gwctl lsp`): positions in UTF-16 code
//! units (the protocol's default encoding), the rule code with a link to its documentation, the
//! help and the related places.

use std::collections::HashMap;

use lsp_types::{
    CodeAction, CodeActionKind, CodeDescription, DiagnosticRelatedInformation, DiagnosticSeverity,
    Location, NumberOrString, Position, Range, TextEdit, Uri, WorkspaceEdit,
};

use crate::diag::{Applicability, Diagnostic, Severity};
use crate::source::{SourceFile, Span};

use super::RULES_DOC_URL;

/// The protocol's position of a byte offset: 0-based line, UTF-16 code units into the line.
pub fn position(file: &SourceFile, offset: usize) -> Position {
    let offset = Span::new(offset, offset).within(&file.text).start;
    let line = file.line_index(offset);
    let (range, _) = file.line_range(line);
    let start = range.start.min(offset);
    let units: usize = file.text[start..offset].chars().map(char::len_utf16).sum();
    Position::new(to_u32(line), to_u32(units))
}

/// The byte offset of a protocol position, clamped to the line's end and to the text.
pub fn offset(file: &SourceFile, at: Position) -> usize {
    let line = at.line as usize;
    if line >= file.line_count() {
        return file.text.len();
    }
    let (range, _) = file.line_range(line);
    let mut units = 0usize;
    for (i, c) in file.text[range.clone()].char_indices() {
        if units >= at.character as usize {
            return range.start + i;
        }
        units += c.len_utf16();
    }
    range.end
}

pub fn range(file: &SourceFile, span: Span) -> Range {
    Range::new(position(file, span.start), position(file, span.end))
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Where a rule is documented: its section of docs/rules.md.
pub fn rule_doc_url(code: &str) -> String {
    format!("{RULES_DOC_URL}#{}", code.to_ascii_lowercase())
}

/// A finding as a protocol diagnostic; `None` for one without a place in a file of `files`.
/// `uri_of` names a file of the run (related places in files it cannot name are left out).
pub fn lsp_diagnostic(
    finding: &Diagnostic,
    files: &[SourceFile],
    uri_of: &dyn Fn(&SourceFile) -> Option<Uri>,
) -> Option<lsp_types::Diagnostic> {
    let location = finding.location.as_ref()?;
    let file = files.get(location.file)?;
    let code = finding.code.as_str();
    let mut message = finding.message.clone();
    if let Some(help) = &finding.help {
        message.push_str("\nhelp: ");
        message.push_str(help);
    }
    let related: Vec<DiagnosticRelatedInformation> = finding
        .related
        .iter()
        .filter_map(|r| {
            let f = files.get(r.location.file)?;
            Some(DiagnosticRelatedInformation {
                location: Location::new(uri_of(f)?, range(f, r.location.span)),
                message: r.message.clone(),
            })
        })
        .collect();
    Some(lsp_types::Diagnostic {
        range: range(file, location.span),
        severity: Some(match finding.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
            Severity::Info => DiagnosticSeverity::INFORMATION,
        }),
        code: Some(NumberOrString::String(code.to_string())),
        code_description: rule_doc_url(code)
            .parse()
            .ok()
            .map(|href| CodeDescription { href }),
        source: Some("gwctl".to_string()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        tags: None,
        data: None,
    })
}

/// A finding's fix as a quick fix: its edits as one workspace edit, the finding it fixes, and
/// preferred when the fix is safe. `None` without a fix or a file to name.
pub fn quick_fix(
    finding: &Diagnostic,
    files: &[SourceFile],
    uri_of: &dyn Fn(&SourceFile) -> Option<Uri>,
) -> Option<CodeAction> {
    let fix = finding.fix.as_ref()?;
    // lsp_types' WorkspaceEdit keys its changes by Uri (whose cached parts clippy sees as mutable).
    #[allow(clippy::mutable_key_type)]
    let mut changes: HashMap<Uri, Vec<TextEdit>> = HashMap::new();
    for e in &fix.edits {
        let file = files.get(e.file)?;
        changes
            .entry(uri_of(file)?)
            .or_default()
            .push(TextEdit::new(range(file, e.span), e.replacement.clone()));
    }
    Some(CodeAction {
        title: fix.title.clone(),
        kind: Some(CodeActionKind::QUICKFIX),
        diagnostics: lsp_diagnostic(finding, files, uri_of).map(|d| vec![d]),
        edit: Some(WorkspaceEdit::new(changes)),
        is_preferred: Some(fix.applicability == Applicability::Safe),
        ..CodeAction::default()
    })
}

/// The findings without a place above info (a `crds` or `values` path of the config that cannot
/// be read) as one message for the editor to show: no file can carry them. `None` without any.
pub fn placeless_message(findings: &[Diagnostic]) -> Option<String> {
    let lines: Vec<String> = findings
        .iter()
        .filter(|d| d.location.is_none() && d.severity > Severity::Info)
        .map(|d| format!("gwctl: {}[{}] {}", d.severity.as_str(), d.code, d.message))
        .collect();
    (!lines.is_empty()).then(|| lines.join("\n"))
}

/// The findings at a place as a hover shows them: one line each.
pub fn findings_markdown(findings: &[&Diagnostic]) -> String {
    findings
        .iter()
        .map(|f| {
            format!(
                "- {} [{}] {}",
                f.severity.as_str(),
                f.code.as_str(),
                super::escape::escape_controls(&f.message)
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units_and_round_trip() {
        let file = SourceFile::new(0, "a.yaml", "a: 1\nb: \"é😀x\"\r\nc: 3");
        let x = file.text.find('x').unwrap_or_default();
        let p = position(&file, x);
        // `é` is one unit, the emoji two: `b: "` (4) + 1 + 2.
        assert_eq!(p, Position::new(1, 7));
        assert_eq!(offset(&file, p), x);
        // Past the line's end: the end of the line, before its break.
        assert_eq!(
            offset(&file, Position::new(1, 99)),
            file.text.find('\r').unwrap_or_default()
        );
        assert_eq!(offset(&file, Position::new(9, 0)), file.text.len());
        assert_eq!(position(&file, file.text.len()), Position::new(2, 4));
    }
}
