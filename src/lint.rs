//! The lint pipeline: load -> parse -> model -> validate. Returns data; printing is the report stage's.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::diag::{Diagnostic, Severity};
use crate::input::{self, Filters};
use crate::model::{self, Resource};
use crate::parse::{self, Limits};
use crate::schema::{Lookup, Registry};
use crate::source::SourceFile;
use crate::validate;
use crate::validate::chart_values::SecretSeen;

#[derive(Clone, Default)]
pub struct LintOptions {
    pub filters: Filters,
    pub limits: Limits,
    /// The schemas to validate against; `None` is the built-in set (`Registry::builtin()`).
    pub registry: Option<Arc<Registry>>,
    /// The control-plane chart's values file (`--values`), checked against the installation values.
    pub values: Option<PathBuf>,
}

#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct Stats {
    pub files: usize,
    pub documents: usize,
    pub resources: usize,
    /// Resources of kinds gwctl does not check, by `apiVersion/kind`.
    pub not_checked: BTreeMap<String, usize>,
    #[serde(skip)]
    pub elapsed: Duration,
}

pub struct LintRun {
    pub files: Vec<SourceFile>,
    /// Sorted by file, then position, then code.
    pub diagnostics: Vec<Diagnostic>,
    pub stats: Stats,
    /// A path could not be read: exit code 2 whatever the findings.
    pub input_error: bool,
}

impl LintRun {
    pub fn count(&self, severity: Severity) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == severity)
            .count()
    }
}

/// Lints files and directories (`-` is stdin). `Err` is a usage error (a bad glob).
pub fn lint_paths(paths: &[PathBuf], options: &LintOptions) -> Result<LintRun, String> {
    let start = Instant::now();
    let mut loaded = input::load(paths, &options.filters)?;
    let mut values = None;
    if let Some(path) = &options.values {
        let read = input::load(std::slice::from_ref(path), &Filters::default())?;
        loaded.diagnostics.extend(read.diagnostics);
        loaded.input_error |= read.input_error;
        values = read.files.into_iter().next();
        // Named as the values file and found in a directory too: linted once, as values.
        if let Ok(canonical) = std::fs::canonicalize(path) {
            loaded.files = std::mem::take(&mut loaded.files)
                .into_iter()
                .filter(|f| std::fs::canonicalize(&f.name).ok().as_ref() != Some(&canonical))
                .enumerate()
                .map(|(i, f)| renumbered(f, i))
                .collect();
        }
    }
    let mut run = lint_sources_with_values(loaded.files, values, options);
    run.diagnostics.splice(0..0, loaded.diagnostics);
    run.input_error = loaded.input_error;
    run.stats.elapsed = start.elapsed();
    Ok(run)
}

fn renumbered(f: SourceFile, id: usize) -> SourceFile {
    if f.id == id {
        f
    } else {
        SourceFile::new(id, f.name, f.text)
    }
}

/// Lints source files already in memory (tests, fuzzing, stdin).
pub fn lint_sources(files: Vec<SourceFile>, options: &LintOptions) -> LintRun {
    lint_sources_with_values(files, None, options)
}

/// Like [`lint_sources`], with the chart's values file (`--values`), which is not a manifest:
/// it is checked against the installation values and appended to the run's files.
pub fn lint_sources_with_values(
    files: Vec<SourceFile>,
    values: Option<SourceFile>,
    options: &LintOptions,
) -> LintRun {
    let start = Instant::now();
    let collect_secrets = values.is_some();
    let registry = options
        .registry
        .as_deref()
        .unwrap_or_else(|| Registry::builtin());
    let per_file: Vec<FileResult> = files
        .par_iter()
        .map(|f| lint_file(f, registry, &options.limits, collect_secrets))
        .collect();
    let mut stats = Stats {
        files: files.len(),
        ..Stats::default()
    };
    let mut diagnostics = Vec::new();
    let mut secrets = Vec::new();
    for r in per_file {
        secrets.extend(r.secrets);
        stats.documents += r.documents;
        stats.resources += r.resources;
        for (k, n) in r.not_checked {
            *stats.not_checked.entry(k).or_default() += n;
        }
        diagnostics.extend(r.diagnostics);
    }
    let mut files = files;
    if let Some(v) = values {
        let v = renumbered(v, files.len());
        let parsed = parse::parse_file(&v, &options.limits);
        stats.files += 1;
        stats.documents += parsed.documents.len();
        diagnostics.extend(parsed.diagnostics);
        if let Some(doc) = parsed.documents.first() {
            diagnostics.extend(validate::chart_values::check(&v, &doc.root, &secrets));
        }
        files.push(v);
    }
    diagnostics.sort_by(|a, b| {
        let key = |d: &Diagnostic| {
            d.location
                .as_ref()
                .map(|l| (l.file, l.span.start, l.span.end))
        };
        key(a)
            .cmp(&key(b))
            .then_with(|| a.code.cmp(b.code))
            .then_with(|| a.message.cmp(&b.message))
    });
    stats.elapsed = start.elapsed();
    LintRun {
        files,
        diagnostics,
        stats,
        input_error: false,
    }
}

#[derive(Default)]
struct FileResult {
    documents: usize,
    resources: usize,
    not_checked: BTreeMap<String, usize>,
    diagnostics: Vec<Diagnostic>,
    /// Secrets of the file, when the values file's rules need them.
    secrets: Vec<SecretSeen>,
}

fn lint_file(
    file: &SourceFile,
    registry: &Registry,
    limits: &Limits,
    collect_secrets: bool,
) -> FileResult {
    let parsed = parse::parse_file(file, limits);
    let mut out = FileResult {
        documents: parsed.documents.len(),
        diagnostics: parsed.diagnostics,
        ..Default::default()
    };
    for doc in &parsed.documents {
        let (resources, diags) = model::resources_of(file, doc);
        out.diagnostics.extend(diags);
        for res in resources {
            out.resources += 1;
            if collect_secrets && res.group.is_empty() && res.kind == "Secret" {
                out.secrets.push(SecretSeen::of(
                    file.id,
                    res.root,
                    res.name.unwrap_or(""),
                    res.namespace,
                ));
            }
            check_resource(&res, registry, &mut out);
        }
    }
    out
}

fn check_resource(res: &Resource<'_>, registry: &Registry, out: &mut FileResult) {
    let api_version_span = res
        .root
        .get("apiVersion")
        .map(|n| n.span)
        .unwrap_or(res.root.span);
    match registry.lookup(res.group, res.version, res.kind) {
        Lookup::Found(schema) => out
            .diagnostics
            .extend(validate::validate_resource(res, schema)),
        Lookup::UnknownVersion { known } => out.diagnostics.push(
            Diagnostic::new(
                "GW007",
                format!(
                    "no schema for version {} of kind {}; known: {}",
                    res.version,
                    res.kind,
                    known.join(", ")
                ),
            )
            .at(res.file, api_version_span)
            .with_resource(Some(res.reference()))
            .with_path("apiVersion"),
        ),
        Lookup::UnknownKind => {
            let kind_span = res
                .root
                .get("kind")
                .map(|n| n.span)
                .unwrap_or(res.root.span);
            out.diagnostics.push(
                Diagnostic::new(
                    "GW006",
                    format!("no kind {:?} in API group {:?}", res.kind, res.group),
                )
                .at(res.file, kind_span)
                .with_resource(Some(res.reference()))
                .with_path("kind"),
            )
        }
        Lookup::UnknownGroup => {
            *out.not_checked
                .entry(format!("{}/{}", res.api_version, res.kind))
                .or_default() += 1;
        }
    }
}
