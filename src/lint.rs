//! The driver: runs the stages in order (load -> parse -> model -> validate -> security ->
//! resolve -> merge -> suppress) and returns the run's data ([`crate::run`]); printing is the
//! report stage's. A command says what it needs beyond findings ([`Needs`]); suppression is the
//! last step, over every finding.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use crate::config::Config;
use crate::diag::Diagnostic;
use crate::input::{self, Filters};
use crate::parse::Limits;
use crate::schema::{ApiGroups, Registry};
use crate::source::SourceFile;
use crate::{crds, suppress};

pub use crate::run::{LintRun, Model, ResourceEntry, Stats, report_order};
pub use incremental::Incremental;
pub use phases::Phases;
pub use reuse::{Reuse, drop_aside};

use cross_file::cross_file_stages;
use per_file::{FileResult, lint_each, lint_file, registry_of};

mod cross_file;
mod documents;
mod incremental;
mod kustomize;
mod per_file;
mod phases;
mod reuse;

/// What a command needs of the run beyond its findings and statuses.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Needs {
    /// Findings and statuses (`lint`): the merge stage runs, and its inputs are dropped.
    #[default]
    Findings,
    /// The model, for the caller to merge once (`explain`): no merge findings in the run.
    Model,
    /// What `Render` keeps, and of every resource the digest of its text and the names its spec
    /// mentions (`diff`: the digest of a Gateway's inputs, [`crate::model::written`]).
    Diff,
    /// Findings (the merge's included) and the model too: the language server reports the
    /// findings and explains places from the model.
    Editor,
    /// The model and every resource (`render`), whole only where a later stage reads its JSON:
    /// the kinds it reads from the typed model alone ([`crate::model::read_typed_only`]) keep
    /// their identity without the JSON.
    Render,
}

impl Needs {
    /// Whether the run keeps the resources (`Model::objects`).
    pub fn keeps_objects(self) -> bool {
        matches!(self, Needs::Diff | Needs::Render)
    }
}

/// Stages left out to measure what they cost (`bench/resolve.sh`), from the undocumented
/// environment variables `GWCTL_BENCH_SKIP_RESOLVE=1` and `GWCTL_BENCH_SKIP_MERGE=1`.
#[derive(Debug, Clone, Copy, Default)]
pub struct BenchSkips {
    /// No resolve stage (no GW2xx/GW3xx findings, no route statuses), nor merge.
    pub resolve: bool,
    /// No merge stage (no GW31x findings, no policy statuses).
    pub merge: bool,
}

impl BenchSkips {
    pub fn from_env() -> Self {
        let on = |name| std::env::var_os(name).is_some_and(|v| v == "1");
        BenchSkips {
            resolve: on("GWCTL_BENCH_SKIP_RESOLVE"),
            merge: on("GWCTL_BENCH_SKIP_MERGE"),
        }
    }
}

#[derive(Clone, Default)]
pub struct LintOptions {
    pub filters: Filters,
    pub limits: Limits,
    /// The schemas to validate against; `None` is the built-in set (`Registry::builtin()`).
    pub registry: Option<Arc<Registry>>,
    /// The config file's settings (severities, ignores, groups...); `Default` without one.
    pub config: Config,
    /// Told how far the run is; the CLI draws a progress bar with it.
    pub progress: Option<Arc<dyn Progress>>,
    /// The control-plane chart's values file (`--values`), checked against the installation values.
    pub values: Option<PathBuf>,
    /// References to kinds absent from the inputs are errors (`--strict-refs`), not one note.
    pub strict_refs: bool,
    /// CustomResourceDefinition files and directories (`--crds`): objects of their kinds are
    /// checked against them; their files and findings join the run (before suppression).
    pub crds: Vec<PathBuf>,
    /// What the command needs beyond findings.
    pub needs: Needs,
    pub bench: BenchSkips,
    /// Texts that replace the files of these names as read (`lint --fix` lints the fixed text
    /// again before anything is written; stdin is `<stdin>`).
    pub texts: Option<Arc<BTreeMap<String, Arc<str>>>>,
    /// Per-file results shared with another run over mostly the same files (`diff`'s sides).
    pub reuse: Option<Arc<Reuse>>,
}

impl LintOptions {
    /// The values file: `--values`, else the config file's `values`.
    pub fn values_file(&self) -> Option<&Path> {
        self.values.as_deref().or(self.config.values.as_deref())
    }

    /// The CRD files and directories: `--crds`, else the config file's `crds`.
    pub fn crd_paths(&self) -> &[PathBuf] {
        if self.crds.is_empty() {
            &self.config.crds
        } else {
            &self.crds
        }
    }
}

/// Receives progress of a run (called from several threads).
pub trait Progress: Send + Sync {
    /// Before linting: how many files and bytes there are.
    fn start(&self, files: usize, bytes: u64);
    /// One file is done.
    fn file_done(&self, bytes: u64);
    fn finish(&self);
}

/// Lints files and directories (`-` is stdin). `Err` is a usage error (a bad glob).
pub fn lint_paths(paths: &[PathBuf], options: &LintOptions) -> Result<LintRun, String> {
    let start = Instant::now();
    let mut phases = Phases::start();
    let inputs = load_inputs(paths, options)?;
    phases.mark("load");
    Ok(lint_inputs(inputs, options, start, phases))
}

/// What [`lint_paths`] reads of `paths` (`diff` reads the head's files before linting the base,
/// to know which files and documents the two sides have the same).
pub fn load(paths: &[PathBuf], options: &LintOptions) -> Result<Inputs, String> {
    load_inputs(paths, options)
}

fn lint_inputs(
    inputs: Inputs,
    options: &LintOptions,
    start: Instant,
    mut phases: Phases,
) -> LintRun {
    let options = inputs.options.as_ref().unwrap_or(options);
    let mut run = run_stages(inputs.files, inputs.values, options, &mut phases);
    run.diagnostics.splice(0..0, inputs.diagnostics);
    run.unreadable = inputs.unreadable;
    if let Some(found) = inputs.crds {
        append_crds(&mut run, found);
    }
    suppress::apply(&mut run, &options.config);
    phases.mark("suppress");
    run.stats.elapsed = start.elapsed();
    run
}

/// What a run reads before linting: the files, the values file, the user's CRDs.
pub struct Inputs {
    files: Vec<SourceFile>,
    values: Option<SourceFile>,
    /// Findings of reading (unreadable paths, limits).
    diagnostics: Vec<Diagnostic>,
    /// What could not be read (a usage error for the commands that need every input).
    unreadable: Vec<String>,
    /// The options with the CRDs' registry, when there are CRDs.
    options: Option<LintOptions>,
    crds: Option<crds::UserCrds>,
}

impl Inputs {
    /// The manifests read.
    pub fn files(&self) -> &[SourceFile] {
        &self.files
    }
}

fn load_inputs(paths: &[PathBuf], options: &LintOptions) -> Result<Inputs, String> {
    let mut filters = options.filters.clone();
    filters
        .include
        .extend(options.config.include.iter().cloned());
    filters
        .exclude
        .extend(options.config.exclude.iter().cloned());
    let mut loaded = input::load_bounded(paths, &filters, options.limits.max_total_bytes)?;
    replace_texts(&mut loaded.files, options.texts.as_deref());
    without_kustomization_inputs(&mut loaded, &options.limits);
    let mut values = None;
    if let Some(path) = options.values_file() {
        let mut read = input::load(&[path.to_path_buf()], &Filters::default())?;
        replace_texts(&mut read.files, options.texts.as_deref());
        loaded.diagnostics.extend(read.diagnostics);
        loaded.unreadable.extend(read.unreadable);
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
    let mut with_crds = None;
    let mut crd_files = None;
    if !options.crd_paths().is_empty() {
        let (registry, found) =
            crds::load_crds(options.crd_paths(), &options.limits, &ApiGroups::default())?;
        with_crds = Some(LintOptions {
            registry: Some(Arc::new(registry)),
            ..options.clone()
        });
        crd_files = Some(found);
    }
    Ok(Inputs {
        files: loaded.files,
        values,
        diagnostics: loaded.diagnostics,
        unreadable: loaded.unreadable,
        options: with_crds,
        crds: crd_files,
    })
}

/// The loaded files that a kustomization among them reads as patches or other inputs, not as
/// manifests: skipped with a note (files on disk and a git revision's alike). The others take
/// the namespace a kustomization including them sets, or a Flux Kustomization applying them.
pub fn without_kustomization_inputs(loaded: &mut input::Loaded, limits: &crate::parse::Limits) {
    let kustomize::Kustomizations {
        reads: read,
        namespaced,
    } = kustomize::read(&loaded.kustomizations, limits);
    let targeted = kustomize::flux_targets(&loaded.files, limits);
    if !namespaced.is_empty() || !targeted.is_empty() {
        for f in &mut loaded.files {
            let path = kustomize::normalised(Path::new(&f.name));
            // Flux sets its target namespace over what kustomize built.
            let namespace = kustomize::target_of(&targeted, &path)
                .or_else(|| kustomize::namespace_of(&namespaced, &path));
            f.namespace = namespace.cloned();
        }
    }
    if read.is_empty() {
        return;
    }
    let by_path: std::collections::HashMap<&Path, &kustomize::Read> =
        read.iter().map(|r| (r.path.as_path(), r)).collect();
    let mut kept = Vec::with_capacity(loaded.files.len());
    for f in std::mem::take(&mut loaded.files) {
        match by_path.get(kustomize::normalised(Path::new(&f.name)).as_path()) {
            Some(r) => loaded.diagnostics.push(r.skipped(&f.name)),
            None => kept.push(renumbered(f, kept.len())),
        }
    }
    loaded.files = kept;
}

/// The files named in `texts` get that text instead of what was read.
fn replace_texts(files: &mut [SourceFile], texts: Option<&BTreeMap<String, Arc<str>>>) {
    let Some(texts) = texts else { return };
    for f in files {
        if let Some(text) = texts.get(&f.name) {
            *f = SourceFile::new(f.id, std::mem::take(&mut f.name), Arc::clone(text));
        }
    }
}

/// Appends the CRD files and their findings to a run, after the linted files.
fn append_crds(run: &mut LintRun, crds: crds::UserCrds) {
    let offset = run.files.len();
    for f in crds.files {
        run.files
            .push(SourceFile::new(f.id + offset, f.name, f.text));
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
    run.unreadable.extend(crds.unreadable);
}

fn renumbered(mut f: SourceFile, id: usize) -> SourceFile {
    f.id = id;
    f
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
    let mut run = run_stages(files, values, options, &mut Phases::start());
    suppress::apply(&mut run, &options.config);
    run.stats.elapsed = start.elapsed();
    run
}

/// Every stage, without suppression (which runs once over the whole run's findings).
fn run_stages(
    files: Vec<SourceFile>,
    values: Option<SourceFile>,
    options: &LintOptions,
    phases: &mut Phases,
) -> LintRun {
    // Secrets are collected only for the values file's xDS TLS rule.
    let per_file = match &options.reuse {
        Some(reuse) => reuse.lint_each(&files, options, values.is_some()),
        None => lint_each(
            &files,
            options,
            values.is_some(),
            options.progress.as_deref(),
        ),
    };
    phases.mark("per-file");
    cross_file_stages(files, per_file, values, options, phases)
}
