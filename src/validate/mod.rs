//! Validate stage: walks a resource's spanned tree against its kind's schema and returns findings
//! in the API server's wording, each at the exact key or value.
//!
//! The order mirrors the API server: `null`s of non-nullable fields are pruned, defaults are applied
//! (to absent fields, for `required`, list-map keys, combinators and CEL values), the structural
//! schema is checked (types, unknown fields, enums, patterns, bounds, formats, combinators),
//! list-type set/map items must be unique, and CEL rules (x-kubernetes-validations) run.
//!
//! Decisions where gwctl and the API server cannot be identical:
//! * The API server skips all CEL rules of an object that has a "blocking" error (wrong type or
//!   format, unsupported value, required, too long, too many). gwctl skips only the rules at or
//!   above the node with that error, so independent rule failures show in the same run.
//! * A rule that reads an absent field fails on the API server with
//!   `no such key: x evaluating rule: <message>`; gwctl reports it the same way (GW112). Other
//!   evaluation errors, and rules that do not compile, are gwctl limitations (GW113 warnings).
//! * Transition rules (`oldSelf`) need the stored object and are skipped.
//! * `status` is not validated when the kind has a status subresource (the API server drops it
//!   on create).
//! * Values in `Duplicate value: ...` are printed as JSON, as recent Kubernetes versions do.
//! * `metadata.namespace` on a cluster-scoped kind is a GW115 warning: the API server ignores it,
//!   which usually means the author expected a namespaced object.
//! * Combinator failures (GW114) carry kube-openapi's composite message (`"<path>" must validate
//!   one and only one schema (oneOf). Found none valid`) without its `<nil>: Invalid value: "":`
//!   prefix; the errors of the closest alternative are reported with it.

mod cel_rules;
pub mod chart_values;
mod combinators;
mod formats;
mod htpasswd_secret;
mod listener_protocols;
mod lists;
mod messages;
mod metadata;
mod tls_files;
mod unknown_kind;
pub(crate) mod values;

pub use unknown_kind::{mistyped_group, unknown_kind};
mod walk;
mod walk_scalars;

#[cfg(test)]
mod bench;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_cel;
#[cfg(test)]
mod tests_corpus;

use crate::diag::{Diagnostic, ResourceRef};
use crate::model::Resource;
use crate::parse::{Limits, Node};
use crate::rules;
use crate::schema::KindSchema;
use crate::source::{FileId, SourceFile, Span};

/// All schema findings for one resource (types, unknown fields, bounds, enums, patterns, list keys,
/// combinators, CEL rules, metadata).
pub fn validate_resource(resource: &Resource<'_>, schema: &KindSchema) -> Vec<Diagnostic> {
    validate_resource_with(resource, schema, &Limits::default())
}

/// [`validate_resource`] with the run's limits (the regex size of value checks).
pub fn validate_resource_with(
    resource: &Resource<'_>,
    schema: &KindSchema,
    limits: &Limits,
) -> Vec<Diagnostic> {
    let mut w = Walker::new(resource.source, resource.reference(), schema, false, limits);
    w.walk_root(resource.root, &schema.schema.root);
    let mut out = w.out;
    out.extend(tls_files::check(resource));
    out.extend(listener_protocols::check(resource));
    out.extend(htpasswd_secret::check(resource));
    out
}

/// Findings for a document that is not a Kubernetes object (a chart's values file): the same
/// walk, without the object envelope (`metadata`, `status`). `label` names the document in findings.
pub fn validate_document(
    file: &SourceFile,
    root: &Node,
    schema: &KindSchema,
    label: ResourceRef,
) -> Vec<Diagnostic> {
    walk_document(file, root, schema, label, true)
}

/// [`validate_document`] for a document read as YAML 1.2 (gwctl's own config): a plain `off`
/// is the string it says, so it draws no GW110; a boolean field still takes `yes` as true, as
/// the document's own reader does.
pub fn validate_yaml12_document(
    file: &SourceFile,
    root: &Node,
    schema: &KindSchema,
    label: ResourceRef,
) -> Vec<Diagnostic> {
    walk_document(file, root, schema, label, false)
}

fn walk_document(
    file: &SourceFile,
    root: &Node,
    schema: &KindSchema,
    label: ResourceRef,
    yaml11_warnings: bool,
) -> Vec<Diagnostic> {
    let mut w = Walker::new(file, label, schema, true, &Limits::default());
    w.yaml11_warnings = yaml11_warnings;
    w.walk(root, &schema.schema.root, root.span, false);
    w.out
}

/// One step of the current field path; formatted into a string only when a finding is emitted.
#[derive(Clone, Copy)]
enum Seg<'v> {
    Key(&'v str),
    Index(usize),
}

pub(crate) struct Walker<'v> {
    file: FileId,
    /// The file's text, for positions inside a scalar (an error inside an expression).
    source: &'v str,
    resource: ResourceRef,
    kind: &'v KindSchema,
    path: Vec<Seg<'v>>,
    out: Vec<Diagnostic>,
    /// Errors that make the API server skip CEL rules (see module docs), counted so a node can tell
    /// whether its subtree had one.
    blocking: usize,
    /// Checks passed, to pick the closest alternative of a failed oneOf/anyOf (as kube-openapi does).
    matched: usize,
    /// Inside a oneOf/anyOf/allOf/not alternative: value validations only.
    value_only: bool,
    /// Not a Kubernetes object: no envelope handling at the root.
    plain_document: bool,
    /// The run's limits, for the regex and CEL value checkers.
    limits: Limits,
    /// GW110 on plain YAML 1.1 booleans (off for a document read as YAML 1.2).
    yaml11_warnings: bool,
}

impl<'v> Walker<'v> {
    fn new(
        file: &'v SourceFile,
        resource: ResourceRef,
        kind: &'v KindSchema,
        plain_document: bool,
        limits: &Limits,
    ) -> Self {
        Walker {
            file: file.id,
            source: &file.text,
            resource,
            kind,
            path: Vec::new(),
            out: Vec::new(),
            blocking: 0,
            matched: 0,
            value_only: false,
            plain_document,
            limits: limits.clone(),
            yaml11_warnings: true,
        }
    }

    /// The current path as the API server prints it (`spec.rules[0].matches[1].path`).
    fn path_string(&self) -> String {
        let mut s = String::new();
        for seg in &self.path {
            match seg {
                Seg::Key(k) => {
                    if !s.is_empty() {
                        s.push('.');
                    }
                    s.push_str(k);
                }
                Seg::Index(i) => {
                    s.push('[');
                    s.push_str(&i.to_string());
                    s.push(']');
                }
            }
        }
        s
    }

    fn emit(&mut self, code: rules::Code, span: Span, path: String, message: String) {
        self.emit_diag(
            Diagnostic::new(code, message)
                .at(self.file, span)
                .with_resource(Some(self.resource.clone()))
                .with_path(path),
        );
    }

    fn emit_diag(&mut self, d: Diagnostic) {
        self.out.push(d);
    }

    /// Like [`Walker::error`], for an error after which the API server skips CEL rules: wrong type
    /// (and format), unsupported value, required, too long, too many.
    fn blocking_error(&mut self, code: rules::Code, span: Span, rest: impl std::fmt::Display) {
        self.blocking += 1;
        self.error(code, span, rest);
    }

    /// Emits at the current path with the message `<path>: <rest>`.
    fn error(&mut self, code: rules::Code, span: Span, rest: impl std::fmt::Display) {
        let path = self.path_string();
        let message = format!("{}: {rest}", display_path(&path));
        self.emit(code, span, path, message);
    }
}

/// The API server prints the root path (a nil field path) as `<nil>`.
fn display_path(path: &str) -> &str {
    if path.is_empty() { "<nil>" } else { path }
}
