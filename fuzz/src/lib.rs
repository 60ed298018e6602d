//! Invariants the fuzz targets assert, shared by all of them: every span the parser or a later
//! stage hands out must index the text it came from, on character boundaries, because the
//! report stage slices the text with it.

use gwctl::diag::Diagnostic;
use gwctl::parse::{Node, ParsedFile, Value};
use gwctl::source::{SourceFile, Span};

/// Panics unless `span` is a well-formed range of `text` that starts and ends on characters.
#[track_caller]
pub fn assert_span(text: &str, span: Span, what: &str) {
    assert!(
        span.start <= span.end && span.end <= text.len(),
        "{what}: span {}..{} out of bounds (text is {} bytes)",
        span.start,
        span.end,
        text.len()
    );
    assert!(
        text.is_char_boundary(span.start) && text.is_char_boundary(span.end),
        "{what}: span {}..{} not on character boundaries",
        span.start,
        span.end
    );
}

/// Every node, key and document span of a parsed file, and its findings' locations.
pub fn assert_parsed(file: &SourceFile, parsed: &ParsedFile) {
    for doc in &parsed.documents {
        assert_span(&file.text, doc.span, "document");
        assert_node(&file.text, &doc.root);
    }
    assert_diagnostics(std::slice::from_ref(file), &parsed.diagnostics);
}

pub fn assert_node(text: &str, node: &Node) {
    assert_span(text, node.span, "node");
    match &node.value {
        Value::Seq(items) => items.iter().for_each(|n| assert_node(text, n)),
        Value::Map(entries) => {
            for e in entries {
                assert_span(text, e.key_span, "key");
                assert_node(text, &e.value);
            }
        }
        _ => {}
    }
}

/// Findings point into the run's files: a known file id and an in-bounds span, also for
/// related locations. Line/column conversion must not panic either.
pub fn assert_diagnostics(files: &[SourceFile], diagnostics: &[Diagnostic]) {
    for d in diagnostics {
        let locations = d
            .location
            .iter()
            .chain(d.related.iter().map(|r| &r.location));
        for loc in locations {
            let file = files
                .get(loc.file)
                .unwrap_or_else(|| panic!("{}: unknown file id {}", d.code, loc.file));
            assert_span(&file.text, loc.span, d.code.as_str());
            let start = file.line_col(loc.span.start);
            let end = file.line_col(loc.span.end);
            assert!(
                (start.line, start.column) <= (end.line, end.column),
                "{}: end before start",
                d.code
            );
        }
    }
}
