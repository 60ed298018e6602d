//! YAML/JSON text -> spanned documents, on saphyr-parser events.
//!
//! INTERFACE STUB: replaced by the real parser.

use super::Node;
use crate::diag::Diagnostic;
use crate::source::{SourceFile, Span};

/// Safety limits; each exceeded limit is a GW005 finding naming it.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Nodes that alias expansion may add to one document (billion-laughs guard).
    pub max_alias_nodes: usize,
    /// Nesting depth of mappings and sequences.
    pub max_depth: usize,
    /// Bytes in one document.
    pub max_document_bytes: usize,
    /// Documents in one file.
    pub max_documents: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_alias_nodes: 100_000,
            max_depth: 128,
            max_document_bytes: 16 * 1024 * 1024,
            max_documents: 100_000,
        }
    }
}

/// One document of a stream. Empty documents are not returned.
#[derive(Debug)]
pub struct ParsedDocument {
    /// 0-based position in the file's stream.
    pub index: usize,
    pub span: Span,
    pub root: Node,
}

#[derive(Debug, Default)]
pub struct ParsedFile {
    pub documents: Vec<ParsedDocument>,
    /// Syntax errors (GW002), duplicate keys (GW003), limits (GW005), all located in `file`.
    pub diagnostics: Vec<Diagnostic>,
}

/// Parses a multi-document YAML (or JSON) file. After a syntax error the documents that follow the
/// next `---` are still parsed.
pub fn parse_file(_file: &SourceFile, _limits: &Limits) -> ParsedFile {
    ParsedFile::default()
}
