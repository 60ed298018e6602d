//! Parse stage: source text -> spanned documents. Never panics on input; every problem is a diagnostic.

#[cfg(test)]
mod bench;
mod builder;
mod node;
mod scalar;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_recover;
mod text;
mod yaml;

pub use node::{Entry, Node, PathSeg, Str, Text, Value, parse_path};
pub use yaml::{
    Limits, MAX_DEPTH_CAP, ParsedDocument, ParsedFile, RUN_ALIAS_FACTOR, is_marker_line, parse_file,
};
