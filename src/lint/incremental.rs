//! The driver's seam for the language server: a run kept between edits.

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::diag::Diagnostic;
use crate::source::{FileId, SourceFile};
use crate::suppress;

use super::{
    FileResult, LintOptions, LintRun, Phases, cross_file_stages, lint_each, lint_file, load_inputs,
    registry_of,
};

/// A run kept between edits (the language server): every file's per-file results stay, a
/// changed file is linted again alone, and the cross-resource stages re-run over all of them.
pub struct Incremental {
    files: Vec<SourceFile>,
    per_file: Vec<FileResult>,
    values: Option<SourceFile>,
    /// Findings of reading the paths, put first in every run.
    read: Vec<Diagnostic>,
    options: LintOptions,
}

impl Incremental {
    /// Reads the paths as [`lint_paths`] does (the config's filters, the values file, the CRDs'
    /// schemas) and lints each file. `Err` is a usage error (a bad glob, unreadable CRDs).
    pub fn load(paths: &[PathBuf], options: &LintOptions) -> Result<Self, String> {
        let inputs = load_inputs(paths, options)?;
        let mut options = inputs.options.unwrap_or_else(|| options.clone());
        options.progress = None;
        let mut read = inputs.diagnostics;
        if let Some(found) = inputs.crds {
            // The CRD files are not the workspace's manifests: their findings without a place.
            read.extend(found.diagnostics.into_iter().map(|mut d| {
                d.location = None;
                d.related.clear();
                d
            }));
        }
        let mut out = Incremental {
            files: Vec::new(),
            per_file: Vec::new(),
            values: inputs.values,
            read,
            options,
        };
        out.per_file = lint_each(&inputs.files, &out.options, out.values.is_some(), None);
        out.files = inputs.files;
        Ok(out)
    }

    /// No file yet (files come with [`Incremental::add`]).
    pub fn empty(options: &LintOptions) -> Self {
        Incremental {
            files: Vec::new(),
            per_file: Vec::new(),
            values: None,
            read: Vec::new(),
            options: options.clone(),
        }
    }

    pub fn files(&self) -> &[SourceFile] {
        &self.files
    }

    /// Replaces the text of file `id` (an editor's buffer) and lints that file again; `false`
    /// when there is no such file.
    pub fn set_text(&mut self, id: FileId, text: &str) -> bool {
        let Some(old) = self.files.get(id) else {
            return false;
        };
        let file = SourceFile::new(id, old.name.clone(), text);
        let registry = registry_of(&self.options);
        self.per_file[id] = lint_file(&file, registry, &self.options, self.values.is_some());
        self.files[id] = file;
        true
    }

    /// Replaces the values file's text when `path` is the values file (an editor's buffer of it);
    /// whether it was. Only the cross-resource stages read it.
    pub fn set_values_text(&mut self, path: &Path, text: &str) -> bool {
        let Some(values) = &self.values else {
            return false;
        };
        let named = Path::new(&values.name);
        let same = named == path
            || std::fs::canonicalize(named)
                .is_ok_and(|a| std::fs::canonicalize(path).is_ok_and(|b| a == b));
        if same {
            self.values = Some(SourceFile::new(values.id, values.name.clone(), text));
        }
        same
    }

    /// Adds a file (a buffer outside the read files) and lints it; its id.
    pub fn add(&mut self, name: String, text: &str) -> FileId {
        let id = self.files.len();
        let file = SourceFile::new(id, name, text);
        let registry = registry_of(&self.options);
        self.per_file.push(lint_file(
            &file,
            registry,
            &self.options,
            self.values.is_some(),
        ));
        self.files.push(file);
        id
    }

    /// The cross-resource stages over every file's kept results, and suppression.
    pub fn run(&self) -> LintRun {
        let start = Instant::now();
        let mut phases = Phases::start();
        let mut run = cross_file_stages(
            self.files.clone(),
            self.per_file.clone(),
            self.values.clone(),
            &self.options,
            &mut phases,
        );
        run.diagnostics.splice(0..0, self.read.iter().cloned());
        suppress::apply(&mut run, &self.options.config);
        run.stats.elapsed = start.elapsed();
        run
    }
}
