//! gwctl: lints, resolves and dry-runs declarative gateway manifests offline.
//!
//! The pipeline runs one way, each stage a module:
//!
//! 1. [`input`]: load the files;
//! 2. [`parse`]: the spanned tree;
//! 3. [`model`]: objects and their typed facts;
//! 4. [`validate`] (with [`schema`] and [`cel`]) and [`security`]: each object on its own;
//! 5. [`resolve`]: references, route attachment, ReferenceGrants;
//! 6. [`merge`]: the effective policies;
//! 7. [`status`]: the conditions the controller would write;
//! 8. [`render`]: what the controller would program, and [`report`]: the findings, formatted.
//!
//! [`lint`] drives stages 1 to 6; [`graph`] is the topology of a merged run, as data. Stages
//! return [`diag::Diagnostic`] values; only `report` formats them.

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
pub mod sorted;
pub mod source;
pub mod status;
pub mod suppress;
pub mod text;
pub mod validate;
