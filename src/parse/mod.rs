//! Parse stage: source text -> spanned documents. Never panics on input; every problem is a diagnostic.

mod builder;
mod node;
mod scalar;
#[cfg(test)]
mod tests;
mod yaml;

pub use node::{Entry, Node, PathSeg, Str, Value, parse_path};
pub use yaml::{Limits, ParsedDocument, ParsedFile, parse_file};
