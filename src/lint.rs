//! The lint pipeline: load -> parse -> model -> validate -> security. Returns data; printing is the report stage's.

use crate::rules;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::config::Config;
use crate::diag::{Diagnostic, ResourceRef, Severity};
use crate::input::{self, Filters};
use crate::model::{self, Resource};
use crate::parse::{self, Limits};
use crate::schema::{Lookup, Registry};
use crate::secrets::{self, Masked};
use crate::source::{FileId, SourceFile, Span};
use crate::validate::chart_values::SecretSeen;
use crate::{merge, resolve, security, suppress, validate};

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
    /// Leaves out the resolve stage (no GW2xx/GW3xx findings, no route statuses). Only for
    /// measuring what resolution costs (`bench/resolve.sh`); the CLI sets it from the
    /// undocumented environment variable `GWCTL_BENCH_SKIP_RESOLVE=1`.
    pub skip_resolve: bool,
    /// Leaves out the merge stage (no GW31x findings, no policy statuses): with `skip_resolve`,
    /// what `bench/resolve.sh` compares (`GWCTL_BENCH_SKIP_MERGE=1`).
    pub skip_merge: bool,
    /// Keep the facts and policy attachments in the run and leave the merge stage to the caller
    /// (`explain`): no merge findings, no policy statuses in the run.
    pub keep_model: bool,
    /// Keep every resource whole, as JSON, in [`LintRun::objects`] (`render` needs the full
    /// specs; lint does not, and keeping them costs memory).
    pub keep_objects: bool,
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
                "phase {name:<12} {:8.3} s",
                now.duration_since(self.last).as_secs_f64()
            );
            self.last = now;
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

#[derive(Default)]
pub struct LintRun {
    pub files: Vec<SourceFile>,
    /// Sorted by file, then position, then code.
    pub diagnostics: Vec<Diagnostic>,
    /// Findings hidden by a suppression (each with `suppressed` set), in the same order; they
    /// count for nothing and are printed only with `--show-suppressed`.
    pub suppressed: Vec<Diagnostic>,
    /// Every resource found, in input order (JUnit cases, suppression annotations).
    pub resources: Vec<ResourceEntry>,
    pub stats: Stats,
    /// A path could not be read: exit code 2 whatever the findings.
    pub input_error: bool,
    /// Secret values of the files: never shown by any report (see `crate::secrets`).
    pub masked: Vec<Masked>,
    /// Predicted route conditions per parentRef, from the resolve stage (for render/explain).
    pub route_statuses: Vec<resolve::RouteStatus>,
    /// Predicted policy statuses per policy and ancestor, from the merge stage (empty with
    /// `LintOptions::keep_model`: see [`Model::statuses`]).
    pub policy_statuses: Vec<merge::PolicyStatus>,
    /// The facts and attachments, with `LintOptions::keep_model`.
    pub model: Option<Model>,
    /// Every named resource whole, in input order, with `LintOptions::keep_objects`.
    pub objects: Vec<model::Object>,
}

/// What the merge stage works on, kept for `explain`.
pub struct Model {
    pub facts: Vec<model::facts::Facts>,
    pub attachments: Vec<resolve::Attachment>,
    pub merge_options: merge::MergeOptions,
    /// The chart values file (`--values`) as JSON, for the controller settings render reads.
    pub values: Option<serde_json::Value>,
}

impl Model {
    /// Runs the merge stage.
    pub fn merge(&self) -> merge::Merged<'_> {
        merge::merge(&self.facts, &self.attachments, &self.merge_options)
    }

    /// The predicted policy statuses of a merge, with the run's findings marking the policies
    /// that are not accepted.
    pub fn statuses(merged: &merge::Merged<'_>, run: &LintRun) -> Vec<merge::PolicyStatus> {
        let mut statuses = merged.statuses.clone();
        merge::mark_invalid(&mut statuses, &run.diagnostics);
        statuses
    }
}

/// A resource of the input: where it is and what it is called.
#[derive(Debug, Clone)]
pub struct ResourceEntry {
    pub file: FileId,
    /// The object's whole mapping.
    pub span: Span,
    pub reference: ResourceRef,
    /// The `gwctl.dev/ignore` annotation's value and its span, if set.
    pub ignore: Option<(String, Span)>,
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
    let mut phases = Phases::start();
    let mut filters = options.filters.clone();
    filters
        .include
        .extend(options.config.include.iter().cloned());
    filters
        .exclude
        .extend(options.config.exclude.iter().cloned());
    let mut loaded = input::load_bounded(paths, &filters, options.limits.max_total_bytes)?;
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
    phases.mark("load");
    let mut run = run_stages(loaded.files, values, options, &mut phases);
    run.diagnostics.splice(0..0, loaded.diagnostics);
    run.input_error = loaded.input_error;
    suppress::apply(&mut run, &options.config);
    phases.mark("suppress");
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
    let start = Instant::now();
    // Secrets are collected only for the values file's xDS TLS rule.
    let collect_secrets = values.is_some();
    let registry = options
        .registry
        .as_deref()
        .unwrap_or_else(|| Registry::builtin());
    let progress = options.progress.as_deref();
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
    phases.mark("per-file");
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
        if options.keep_objects {
            let mut kept = keep.iter().copied();
            objects.retain(|_| kept.next().unwrap_or(true));
        }
    }
    phases.mark("gather");
    let resolved = if options.skip_resolve {
        resolve::Resolved::default()
    } else {
        resolve::resolve(
            &facts,
            &resolve::ResolveOptions {
                strict_refs: options.strict_refs,
                global_policy_namespace: options.config.global_policy_namespace.clone(),
                ai_controller: Some(options.config.controllers.ai.clone()),
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
            masked.extend(secrets::of_document(v.id, &doc.root));
            let json = doc.root.to_json();
            merge_options = merge_options.with_values(&json);
            values_json = Some(json);
        }
        files.push(v);
    }
    merge_options.rejected = merge::rejected(&facts, &diagnostics);
    phases.mark("rejected");
    // With the model kept, the caller merges (once) and takes what it needs; without it, the
    // merge findings and statuses are the run's.
    let mut policy_statuses = Vec::new();
    let model = if options.skip_resolve || options.skip_merge {
        None
    } else if options.keep_model {
        Some(Model {
            facts,
            attachments: resolved.attachments,
            merge_options,
            values: values_json,
        })
    } else {
        let merge::Merged {
            diagnostics: found,
            statuses,
            effective,
            hierarchy,
            ..
        } = merge::merge(&facts, &resolved.attachments, &merge_options);
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
        merge::mark_invalid(&mut policy_statuses, &diagnostics);
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
        objects,
        ..LintRun::default()
    }
}

/// The order of findings in every report: without location first, then file, position, code.
pub fn report_order(a: &Diagnostic, b: &Diagnostic) -> std::cmp::Ordering {
    let key = |d: &Diagnostic| {
        d.location
            .as_ref()
            .map(|l| (l.file, l.span.start, l.span.end))
    };
    key(a)
        .cmp(&key(b))
        .then_with(|| a.code.cmp(&b.code))
        .then_with(|| a.message.cmp(&b.message))
}

#[derive(Default)]
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
    /// Whole resources, with `LintOptions::keep_objects`.
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
    let mut out = FileResult {
        documents: parsed.documents.len(),
        diagnostics: parsed.diagnostics,
        ..Default::default()
    };
    // What the tree lost (a document that failed to parse, the second value of a duplicate key)
    // is still shown in snippets: its secrets are found in the text.
    if out
        .diagnostics
        .iter()
        .any(|d| matches!(d.code, rules::GW002 | rules::GW003 | rules::GW005))
    {
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
            out.masked.extend(secrets::of_resource(&res));
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
            let facts = model::facts::facts_of(&res);
            if options.keep_objects
                && let Some(f) = &facts
            {
                out.objects.push(model::Object {
                    id: f.id.clone(),
                    value: res.root.to_json(),
                });
            }
            out.facts.extend(facts);
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
