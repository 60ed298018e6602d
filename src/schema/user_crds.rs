//! `--crds`: CustomResourceDefinitions supplied by the user, added to (or replacing kinds of) the
//! built-in schemas. Their files join the lint run so a malformed CRD is reported with its position.

use std::path::PathBuf;

use crate::diag::Diagnostic;
use crate::input::{self, Filters};
use crate::lint::LintRun;
use crate::parse::{self, Limits};
use crate::source::SourceFile;

use super::import::is_crd;
use super::{ApiGroups, Registry};

/// What reading the user's CRDs found.
pub struct UserCrds {
    /// The CRD files, numbered from 0 (renumbered when merged into a run).
    pub files: Vec<SourceFile>,
    /// Unreadable paths, syntax errors, and CRDs that cannot be imported (GW010).
    pub diagnostics: Vec<Diagnostic>,
    pub input_error: bool,
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
            match registry.add_crd(&json) {
                Ok(()) => imported += 1,
                Err(e) => diagnostics.push(
                    Diagnostic::new("GW010", format!("invalid CustomResourceDefinition: {e}"))
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
            input_error: loaded.input_error,
            imported,
        },
    ))
}

/// Appends the CRD files and their findings to a run (after the linted files).
pub fn merge_into(run: &mut LintRun, crds: UserCrds) {
    let offset = run.files.len();
    for f in crds.files {
        run.files.push(SourceFile::new(
            f.id + offset,
            f.name.clone(),
            f.text.clone(),
        ));
    }
    for mut d in crds.diagnostics {
        if let Some(loc) = d.location.as_mut() {
            loc.file += offset;
        }
        for r in &mut d.related {
            r.location.file += offset;
        }
        run.diagnostics.push(d);
    }
    run.input_error |= crds.input_error;
}
