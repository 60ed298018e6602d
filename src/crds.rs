//! `--crds`: CustomResourceDefinitions supplied by the user, added to (or replacing kinds of) the
//! built-in schemas. Their files join the lint run so a malformed CRD is reported with its position.

use std::path::PathBuf;

use crate::cel::{self, CelLimits};
use crate::diag::Diagnostic;
use crate::input::{self, Filters};
use crate::parse::{self, Limits, Node, Value};
use crate::rules;
use crate::source::SourceFile;
use crate::validate::values::position::ScalarMap;

use crate::schema::import::is_crd;
use crate::schema::{ApiGroups, Registry};

/// What reading the user's CRDs found.
pub struct UserCrds {
    /// The CRD files, numbered from 0 (renumbered when merged into a run).
    pub files: Vec<SourceFile>,
    /// Unreadable paths, syntax errors, and CRDs that cannot be imported (GW010).
    pub diagnostics: Vec<Diagnostic>,
    /// Why each path that could not be read was not.
    pub unreadable: Vec<String>,
    /// CustomResourceDefinitions imported.
    pub imported: usize,
}

/// Reads CRD files and directories into a registry that starts from the built-in schemas; a CRD
/// of a built-in kind replaces it. `Err` is a usage error from the loader.
pub fn load_crds(
    paths: &[PathBuf],
    limits: &Limits,
    groups: &ApiGroups,
) -> Result<(Registry, UserCrds), String> {
    let loaded = input::load(paths, &Filters::default())?;
    let mut registry = Registry::with_groups(groups);
    let mut diagnostics = loaded.diagnostics;
    let mut imported = 0;
    for file in &loaded.files {
        let parsed = parse::parse_file(file, limits);
        diagnostics.extend(parsed.diagnostics);
        for doc in &parsed.documents {
            let json = doc.root.to_json();
            // Other documents (a kustomization, a policy next to the CRDs) are not CRDs to import.
            if !is_crd(&json) {
                continue;
            }
            rules_beyond_limits(file, &doc.root, &CelLimits::from(limits), &mut diagnostics);
            match registry.add_crd_with(&json, &CelLimits::from(limits)) {
                Ok(()) => imported += 1,
                Err(e) => diagnostics.push(
                    Diagnostic::new(
                        rules::GW010,
                        format!("invalid CustomResourceDefinition: {e}"),
                    )
                    .at(file.id, doc.root.span),
                ),
            }
        }
    }
    Ok((
        registry,
        UserCrds {
            files: loaded.files,
            diagnostics,
            unreadable: loaded.unreadable,
            imported,
        },
    ))
}

/// A GW113 finding at each CEL rule (or messageExpression) of the CRD that exceeds a CEL limit:
/// compiling skips it, so objects of the kind are checked without it.
fn rules_beyond_limits(
    file: &SourceFile,
    node: &Node,
    limits: &CelLimits,
    out: &mut Vec<Diagnostic>,
) {
    match &node.value {
        Value::Seq(items) => {
            for item in items {
                rules_beyond_limits(file, item, limits, out);
            }
        }
        Value::Map(entries) => {
            for e in entries {
                if e.key == "x-kubernetes-validations"
                    && let Value::Seq(rules) = &e.value.value
                {
                    for rule in rules {
                        check_rule(file, rule, limits, out);
                    }
                }
                rules_beyond_limits(file, &e.value, limits, out);
            }
        }
        _ => {}
    }
}

fn check_rule(file: &SourceFile, rule: &Node, limits: &CelLimits, out: &mut Vec<Diagnostic>) {
    let Value::Map(fields) = &rule.value else {
        return;
    };
    for field in fields {
        let Value::Str(text) = &field.value.value else {
            continue;
        };
        if !matches!(field.key.as_str(), "rule" | "messageExpression") {
            continue;
        }
        let Err(e) = cel::check_limits(&text.text, limits) else {
            continue;
        };
        let Some(hit) = e.limit else {
            continue;
        };
        let width = text
            .text
            .get(e.offset..)
            .and_then(|rest| rest.chars().next())
            .map_or(0, char::len_utf8);
        let span = ScalarMap::new(&file.text, field.value.span, &text.text)
            .span(e.offset, e.offset + width);
        out.push(
            Diagnostic::new(rules::GW113, format!("{} not compiled: {}", field.key, e.message))
                .at(file.id, span)
                .with_help(format!(
                    "raise the limit with {} if the expression is meant; objects of this kind are checked without it",
                    hit.flag()
                )),
        );
    }
}
