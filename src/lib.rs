//! gwctl: lints, resolves and dry-runs declarative gateway manifests offline.
//!
//! The pipeline runs one way: [`input`] (load) -> [`parse`] (spanned tree) -> [`model`] ->
//! [`validate`] (with [`schema`] and [`cel`]) -> [`security`] -> [`resolve`] -> [`merge`] -> [`report`] ([`graph`] is the topology of a merged run, as data). Stages return [`diag::Diagnostic`]
//! values; only `report` formats them.

pub mod base64;
pub mod cel;
pub mod cli;
pub mod config;
pub mod crds;
pub mod diag;
pub mod diff;
pub mod fasthash;
pub mod fix;
pub mod graph;
pub mod input;
pub mod lint;
pub mod lsp;
pub mod memo;
pub mod merge;
pub mod model;
pub mod parse;
pub mod render;
pub mod report;
pub mod resolve;
pub mod rules;
pub mod run;
pub mod schema;
pub mod secrets;
pub mod security;
pub mod source;
pub mod suppress;
pub mod validate;
