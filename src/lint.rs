//! The driver: runs the stages in order (load -> parse -> model -> validate -> security ->
//! resolve -> merge -> suppress) and returns the run's data ([`crate::run`]); printing is the
//! report stage's. A command says what it needs beyond findings ([`Needs`]); suppression is the
//! last step, over every finding.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use rayon::prelude::*;

use crate::config::Config;
use crate::diag::Diagnostic;
use crate::input::{self, Filters};
use crate::model::{self, Resource};
use crate::parse::{self, Limits};
use crate::rules;
use crate::schema::{ApiGroups, Lookup, Registry};
use crate::secrets::{self, Masked};
use crate::source::SourceFile;
use crate::validate::chart_values::SecretSeen;
use crate::{crds, merge, resolve, security, suppress, validate};

pub use crate::run::{LintRun, Model, ResourceEntry, Stats, report_order};
pub use incremental::Incremental;

mod incremental;

/// What a command needs of the run beyond its findings and statuses.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Needs {
    /// Findings and statuses (`lint`): the merge stage runs, and its inputs are dropped.
    #[default]
    Findings,
    /// The model, for the caller to merge once (`explain`): no merge findings in the run.
    Model,
    /// The model and every resource whole (`render`, `diff`).
    Rendering,
    /// Findings (the merge's included) and the model too: the language server reports the
    /// findings and explains places from the model.
    Editor,
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

/// Wall time of each stage on stderr when the undocumented environment variable
/// `GWCTL_BENCH_PHASES=1` is set: after the parallel per-file pass, the rest of a run is mostly
/// serial, and this shows where that time goes (`bench/run.sh`).
pub(crate) struct Phases {
    on: bool,
    last: Instant,
}

impl Phases {
    pub(crate) fn start() -> Self {
        Phases {
            on: std::env::var_os("GWCTL_BENCH_PHASES").is_some_and(|v| v == "1"),
            last: Instant::now(),
        }
    }

    /// Prints the time since the previous mark (or the start) under `name`.
    pub(crate) fn mark(&mut self, name: &str) {
        if self.on {
            let now = Instant::now();
            eprintln!(
                "phase {name:<12} {:8.3} s{}",
                now.duration_since(self.last).as_secs_f64(),
                memory_mb()
            );
            self.last = now;
        }
    }
}

/// The process's resident and peak memory so far (Linux), to see which stage sets the peak.
fn memory_mb() -> String {
    let Ok(status) = std::fs::read_to_string("/proc/self/status") else {
        return String::new();
    };
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            .map_or(0, |kb| kb / 1024)
    };
    format!(
        "  rss {:5} MB  peak {:5} MB",
        field("VmRSS:"),
        field("VmHWM:")
    )
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
    Ok(run)
}

/// What a run reads before linting: the files, the values file, the user's CRDs.
struct Inputs {
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
    let per_file = lint_each(
        &files,
        options,
        values.is_some(),
        options.progress.as_deref(),
    );
    phases.mark("per-file");
    cross_file_stages(files, per_file, values, options, phases)
}

fn registry_of(options: &LintOptions) -> &Registry {
    options
        .registry
        .as_deref()
        .unwrap_or_else(|| Registry::builtin())
}

/// The per-file pass over every file, in parallel.
fn lint_each(
    files: &[SourceFile],
    options: &LintOptions,
    collect_secrets: bool,
    progress: Option<&dyn Progress>,
) -> Vec<FileResult> {
    let registry = registry_of(options);
    if let Some(p) = progress {
        p.start(files.len(), files.iter().map(|f| f.text.len() as u64).sum());
    }
    let per_file: Vec<FileResult> = files
        .par_iter()
        .map(|f| {
            let r = lint_file(f, registry, options, collect_secrets);
            if let Some(p) = progress {
                p.file_done(f.text.len() as u64);
            }
            r
        })
        .collect();
    if let Some(p) = progress {
        p.finish();
    }
    per_file
}

/// What follows the per-file pass: gathering, duplicates, resolve, merge, sorting.
fn cross_file_stages(
    files: Vec<SourceFile>,
    per_file: Vec<FileResult>,
    values: Option<SourceFile>,
    options: &LintOptions,
    phases: &mut Phases,
) -> LintRun {
    let start = Instant::now();
    let mut stats = Stats {
        files: files.len(),
        ..Stats::default()
    };
    let mut diagnostics = Vec::new();
    let mut resources = Vec::new();
    let mut secrets = Vec::new();
    let mut masked = Vec::new();
    let mut security = security::SetFacts::default();
    let mut facts = Vec::with_capacity(per_file.iter().map(|r| r.facts.len()).sum());
    let mut objects = Vec::new();
    for r in per_file {
        objects.extend(r.objects);
        security.merge(r.security);
        secrets.extend(r.secrets);
        masked.extend(r.masked);
        facts.extend(r.facts);
        stats.documents += r.documents;
        stats.resources += r.resources;
        resources.extend(r.entries);
        for (k, n) in r.not_checked {
            *stats.not_checked.entry(k).or_default() += n;
        }
        diagnostics.extend(r.diagnostics);
    }
    diagnostics.extend(security.finish());
    // One object defined twice: the later stages see the last definition only.
    let (keep, found) = resolve::duplicates(&facts);
    if !found.is_empty() {
        diagnostics.extend(found);
        let mut kept = keep.iter().copied();
        facts.retain(|_| kept.next().unwrap_or(true));
        if options.needs == Needs::Rendering {
            let mut kept = keep.iter().copied();
            objects.retain(|_| kept.next().unwrap_or(true));
        }
    }
    phases.mark("gather");
    let resolved = if options.bench.resolve {
        resolve::Resolved::default()
    } else {
        resolve::resolve(
            &facts,
            &resolve::ResolveOptions {
                strict_refs: options.strict_refs,
                global_policy_namespace: options.config.global_policy_namespace.clone(),
                ai_controller: Some(options.config.controllers.ai.clone()),
                sources: files.iter().map(|f| Arc::clone(&f.text)).collect(),
            },
        )
    };
    diagnostics.extend(resolved.diagnostics);
    phases.mark("resolve");
    let mut merge_options = merge::MergeOptions::from_config(&options.config.policy_merge);
    let mut values_json = None;
    let mut files = files;
    if let Some(v) = values {
        let v = renumbered(v, files.len());
        let parsed = parse::parse_file(&v, &options.limits);
        stats.files += 1;
        stats.documents += parsed.documents.len();
        diagnostics.extend(parsed.diagnostics);
        if let Some(doc) = parsed.documents.first() {
            diagnostics.extend(validate::chart_values::check(&v, &doc.root, &secrets));
            let sensitive = secrets::of_document(v.id, &doc.root);
            let json = sensitive.json(&doc.root);
            masked.extend(sensitive.masked);
            merge_options = merge_options.with_values(&json);
            values_json = Some(json);
        }
        files.push(v);
    }
    // Every reader of the findings from here on (reports, diff, the statuses render and explain
    // derive from them) gets messages without the secrets they might quote.
    secrets::scrub_findings(&files, &masked, &mut diagnostics);
    // Why the controller does not accept each resource, decided once (before suppression: the
    // controller does not read gwctl's suppressions).
    let verdicts = crate::diag::Verdicts::of(&diagnostics);
    merge_options.rejected = merge::rejected(&facts, &verdicts);
    phases.mark("rejected");
    // With the model kept, the caller merges (once) and takes what it needs; without it, the
    // merge findings and statuses are the run's.
    let mut policy_statuses = Vec::new();
    if options.needs == Needs::Editor && !(options.bench.resolve || options.bench.merge) {
        let merge::Merged {
            diagnostics: found,
            statuses,
            ..
        } = merge::merge(
            &facts,
            &resolved.attachments,
            &resolved.route_attachments,
            &merge_options,
        );
        diagnostics.extend(found);
        policy_statuses = statuses;
        merge::mark_invalid(&mut policy_statuses, &verdicts);
    }
    let model = if options.bench.resolve || options.bench.merge {
        None
    } else if options.needs != Needs::Findings {
        Some(Model {
            facts,
            attachments: resolved.attachments,
            route_attachments: resolved.route_attachments,
            unresolved_backends: resolved.unresolved_backends,
            grants: resolved.grants,
            merge_options,
            values: values_json,
            objects,
        })
    } else {
        let merge::Merged {
            diagnostics: found,
            statuses,
            effective,
            hierarchy,
            ..
        } = merge::merge(
            &facts,
            &resolved.attachments,
            &resolved.route_attachments,
            &merge_options,
        );
        // Hundreds of thousands of small vectors: freed on every thread.
        rayon::join(
            || effective.into_par_iter().for_each(drop),
            || drop(hierarchy),
        );
        // Freeing 100,000 resources' facts takes a tenth of a second that the report need not
        // wait for: the pool's threads are idle by now.
        rayon::spawn(move || drop(facts));
        diagnostics.extend(found);
        policy_statuses = statuses;
        merge::mark_invalid(&mut policy_statuses, &verdicts);
        None
    };
    phases.mark("merge");
    diagnostics.sort_by(report_order);
    phases.mark("sort");
    stats.elapsed = start.elapsed();
    LintRun {
        files,
        diagnostics,
        resources,
        stats,
        masked,
        route_statuses: resolved.route_statuses,
        policy_statuses,
        model,
        verdicts,
        ..LintRun::default()
    }
}

#[derive(Default, Clone)]
struct FileResult {
    documents: usize,
    resources: usize,
    not_checked: BTreeMap<String, usize>,
    diagnostics: Vec<Diagnostic>,
    entries: Vec<ResourceEntry>,
    /// Secrets of the file, when the values file's rules need them.
    secrets: Vec<SecretSeen>,
    /// Values no report may show.
    masked: Vec<Masked>,
    /// What the set-wide security rules learnt from the file.
    security: security::SetFacts,
    /// What the resolve stage needs of each resource (the trees are dropped after the file).
    facts: Vec<model::facts::Facts>,
    /// Whole resources, with `Needs::Rendering`.
    objects: Vec<model::Object>,
}

fn lint_file(
    file: &SourceFile,
    registry: &Registry,
    options: &LintOptions,
    collect_secrets: bool,
) -> FileResult {
    let limits = &options.limits;
    let parsed = parse::parse_file(file, limits);
    let lost_text = parsed.lost_text();
    let mut out = FileResult {
        documents: parsed.documents.len(),
        diagnostics: parsed.diagnostics,
        ..Default::default()
    };
    // What the tree lost (a document that failed to parse, the second value of a duplicate key)
    // is still shown in snippets: its secrets are found in the text.
    if lost_text {
        out.masked.extend(secrets::of_text(file.id, &file.text));
    }
    for doc in &parsed.documents {
        let (resources, diags) = model::resources_of(file, doc);
        out.diagnostics.extend(diags);
        for res in resources {
            out.resources += 1;
            out.entries.push(ResourceEntry {
                file: res.file,
                span: res.root.span,
                reference: res.reference(),
                ignore: suppress::annotation(res.root),
            });
            // Everything the model keeps of the object is built through its secrets: no later
            // stage (explain, diff, render) holds a secret's text.
            let sensitive = secrets::of_resource(res.file, res.group, res.kind, res.root);
            if collect_secrets && res.group.is_empty() && res.kind == "Secret" {
                out.secrets.push(SecretSeen::of(
                    file.id,
                    res.root,
                    res.name.unwrap_or(""),
                    res.namespace,
                ));
            }
            check_resource(&res, registry, limits, &mut out);
            let found = security::check_resource(&res, &mut out.security);
            out.diagnostics.extend(found);
            let facts = model::facts::facts_of(&res, &sensitive);
            if options.needs == Needs::Rendering
                && let Some(f) = &facts
            {
                out.objects.push(model::Object {
                    id: f.id.clone(),
                    value: sensitive.json(res.root),
                });
            }
            out.facts.extend(facts);
            out.masked.extend(sensitive.masked);
        }
    }
    out
}

fn check_resource(res: &Resource<'_>, registry: &Registry, limits: &Limits, out: &mut FileResult) {
    let api_version_span = res
        .root
        .get("apiVersion")
        .map(|n| n.span)
        .unwrap_or(res.root.span);
    match registry.lookup(res.group, res.version, res.kind) {
        Lookup::Found(schema) => out
            .diagnostics
            .extend(validate::validate_resource_with(res, schema, limits)),
        Lookup::UnknownVersion { known } => out.diagnostics.push(
            Diagnostic::new(
                rules::GW007,
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
            let (d, not_checked) = validate::unknown_kind(res, registry);
            out.diagnostics.push(d);
            if not_checked {
                *out.not_checked
                    .entry(format!("{}/{}", res.api_version, res.kind))
                    .or_default() += 1;
            }
        }
        Lookup::UnknownGroup => {
            *out.not_checked
                .entry(format!("{}/{}", res.api_version, res.kind))
                .or_default() += 1;
        }
    }
}
