//! What follows the per-file pass: its results put together, duplicates, resolve, the values
//! file, merge and sorting.

use std::sync::Arc;
use std::time::Instant;

use crate::diag::{Diagnostic, Verdicts};
use crate::fasthash::FastSet;
use crate::model::{self, facts::Facts};
use crate::secrets::{self, Masked};
use crate::source::SourceFile;
use crate::validate::chart_values::SecretSeen;
use crate::{merge, parse, resolve, security, validate};

use super::per_file::FileResult;
use super::{
    LintOptions, LintRun, Model, Needs, Phases, ResourceEntry, Stats, renumbered, report_order,
};

/// The per-file results put together, in file order.
struct Gathered {
    stats: Stats,
    diagnostics: Vec<Diagnostic>,
    resources: Vec<ResourceEntry>,
    secrets: Vec<SecretSeen>,
    masked: Vec<Masked>,
    facts: Vec<Facts>,
    objects: Vec<model::Object>,
}

/// Puts the files' results together, with the set-wide security findings; of an object defined
/// twice, the later stages see the last definition only.
fn gather(files: usize, per_file: Vec<FileResult>, needs: Needs) -> Gathered {
    let mut g = Gathered {
        stats: Stats {
            files,
            ..Stats::default()
        },
        // Each sized once: growing them by doubling would copy and hold twice their size.
        diagnostics: Vec::with_capacity(total(&per_file, |r| r.diagnostics.len())),
        resources: Vec::with_capacity(total(&per_file, |r| r.entries.len())),
        secrets: Vec::with_capacity(total(&per_file, |r| r.secrets.len())),
        masked: Vec::with_capacity(total(&per_file, |r| r.masked.len())),
        facts: Vec::with_capacity(total(&per_file, |r| r.facts.len())),
        objects: Vec::with_capacity(total(&per_file, |r| r.objects.len())),
    };
    let mut security = security::SetFacts::default();
    for r in per_file {
        g.objects.extend(r.objects);
        security.merge(r.security);
        g.secrets.extend(r.secrets);
        g.masked.extend(r.masked);
        g.facts.extend(r.facts);
        g.stats.documents += r.documents;
        g.stats.resources += r.resources;
        g.resources.extend(r.entries);
        for (k, n) in r.not_checked {
            *g.stats.not_checked.entry(k).or_default() += n;
        }
        g.diagnostics.extend(r.diagnostics);
    }
    // Independent: the set-wide security findings are made while duplicates are looked for.
    let (security, (keep, found)) =
        rayon::join(|| security.finish(), || resolve::duplicates(&g.facts));
    g.diagnostics.extend(security);
    if !found.is_empty() {
        g.diagnostics.extend(found);
        let mut kept = keep.iter().copied();
        g.facts.retain(|_| kept.next().unwrap_or(true));
        if needs.keeps_objects() {
            let mut kept = keep.iter().copied();
            g.objects.retain(|_| kept.next().unwrap_or(true));
        }
    }
    g
}

fn total(per_file: &[FileResult], count: impl Fn(&FileResult) -> usize) -> usize {
    per_file.iter().map(count).sum()
}

fn resolve_all(files: &[SourceFile], facts: &[Facts], options: &LintOptions) -> resolve::Resolved {
    if options.bench.resolve {
        return resolve::Resolved::default();
    }
    resolve::resolve(
        facts,
        &resolve::ResolveOptions {
            strict_refs: options.strict_refs,
            global_policy_namespace: options.config.global_policy_namespace.clone(),
            ai_controller: Some(options.config.controllers.ai.clone()),
            proxy_controller: Some(options.config.controllers.proxy.clone()),
            sources: files.iter().map(|f| Arc::clone(&f.text)).collect(),
        },
    )
}

/// The chart's values file (`--values`), appended to the files: checked against the installation
/// values, its secrets masked; its JSON (for the controller settings) when it has a document.
fn values_file(
    v: SourceFile,
    files: &mut Vec<SourceFile>,
    g: &mut Gathered,
    options: &LintOptions,
) -> Option<serde_json::Value> {
    let v = renumbered(v, files.len());
    let parsed = parse::parse_file(&v, &options.limits);
    g.stats.files += 1;
    g.stats.documents += parsed.documents.len();
    g.diagnostics.extend(parsed.diagnostics);
    let json = parsed.documents.first().map(|doc| {
        g.diagnostics
            .extend(validate::chart_values::check(&v, &doc.root, &g.secrets));
        let sensitive = secrets::of_document(v.id, &doc.root);
        let json = sensitive.json(&doc.root);
        g.masked.extend(sensitive.masked);
        json
    });
    files.push(v);
    json
}

/// The merge stage's findings and policy statuses, for a run that keeps no model (`lint`).
fn merge_findings(
    facts: Vec<Facts>,
    plan: merge::Plan,
    merge_options: &merge::MergeOptions,
    verdicts: &Verdicts,
) -> (Vec<Diagnostic>, Vec<merge::PolicyStatus>) {
    let (diagnostics, mut statuses) = merge::findings_and_statuses(&facts, plan, merge_options);
    // Freeing 100,000 resources' facts takes a tenth of a second that the report need not
    // wait for: the pool's threads are idle by now.
    rayon::spawn(move || drop(facts));
    merge::mark_invalid(&mut statuses, verdicts);
    (diagnostics, statuses)
}

/// Whether the merge's plan is made beside the lint stages. Not for `diff`: each side's plan is
/// made after its stages, when their memory is free again (beside them, it adds to the peak of
/// the head's stages, the diff's highest while the base's rendering is held).
fn plans(options: &LintOptions) -> bool {
    let benched = options.bench.resolve || options.bench.merge;
    !benched && options.needs != Needs::Diff
}

/// The plan of a run that made no layout beside its stages ([`plans`]).
fn whole_plan(facts: &[Facts], resolved: &resolve::Resolved) -> merge::Plan {
    merge::Plan::whole(facts, &resolved.attachments, &resolved.route_attachments)
}

fn plan_of(facts: &[Facts], layout: merge::Layout, resolved: &resolve::Resolved) -> merge::Plan {
    merge::Plan::new(
        facts,
        layout,
        &resolved.attachments,
        &resolved.route_attachments,
    )
}

/// The resolve stage, and beside it what the merge takes from the facts alone (when [`plans`]):
/// the resolve's work does not keep both cores busy throughout.
fn resolve_beside_layout(
    files: &[SourceFile],
    facts: &[Facts],
    options: &LintOptions,
) -> (resolve::Resolved, Option<merge::Layout>) {
    rayon::join(
        || resolve_all(files, facts, options),
        || plans(options).then(|| merge::Layout::new(facts)),
    )
}

/// Scrubs the findings of secrets, then decides the verdicts and the policies they reject.
fn scrubbed_verdicts(
    files: &[SourceFile],
    facts: &[Facts],
    masked: &[Masked],
    diagnostics: &mut [Diagnostic],
) -> (Verdicts, FastSet<usize>) {
    // Every reader of the findings from here on (reports, diff, the statuses render and
    // explain derive from them) gets messages without the secrets they might quote.
    secrets::scrub_findings(files, masked, diagnostics);
    // Why the controller does not accept each resource, decided once (before
    // suppression: the controller does not read gwctl's suppressions).
    let verdicts = Verdicts::of(diagnostics);
    let rejected = merge::rejected(facts, &verdicts);
    (verdicts, rejected)
}

/// The merge stage of a run not benched. With the model kept, the caller merges (once) and takes
/// what it needs; without it, the merge findings and statuses are the run's. What the model
/// keeps is taken from `g` and `resolved`; what they keep otherwise is freed with them.
fn merge_stage(
    g: &mut Gathered,
    resolved: &mut resolve::Resolved,
    plan: Option<merge::Plan>,
    merge_options: merge::MergeOptions,
    values: Option<serde_json::Value>,
    verdicts: &Verdicts,
    needs: Needs,
) -> (Option<Model>, Vec<merge::PolicyStatus>) {
    if needs == Needs::Findings {
        let plan = plan.unwrap_or_else(|| whole_plan(&g.facts, resolved));
        let facts = std::mem::take(&mut g.facts);
        let (found, statuses) = merge_findings(facts, plan, &merge_options, verdicts);
        g.diagnostics.extend(found);
        return (None, statuses);
    }
    let mut plan = plan;
    let mut policy_statuses = Vec::new();
    // The editor's run merges here for its findings; its later merges plan their own.
    if needs == Needs::Editor {
        let plan = plan
            .take()
            .unwrap_or_else(|| whole_plan(&g.facts, resolved));
        let merged = merge::merge(&g.facts, plan, &merge_options);
        g.diagnostics.extend(merged.diagnostics);
        policy_statuses = merged.statuses;
        merge::mark_invalid(&mut policy_statuses, verdicts);
    }
    let model = Model {
        facts: std::mem::take(&mut g.facts),
        attachments: std::mem::take(&mut resolved.attachments),
        route_attachments: std::mem::take(&mut resolved.route_attachments),
        unresolved_backends: std::mem::take(&mut resolved.unresolved_backends),
        grants: std::mem::take(&mut resolved.grants),
        merge_options,
        plan: std::sync::Mutex::new(plan),
        values,
        objects: std::mem::take(&mut g.objects),
    };
    (Some(model), policy_statuses)
}

/// The stages after the per-file pass: gather, resolve, the values file, verdicts, merge, sort.
pub(super) fn cross_file_stages(
    files: Vec<SourceFile>,
    per_file: Vec<FileResult>,
    values: Option<SourceFile>,
    options: &LintOptions,
    phases: &mut Phases,
) -> LintRun {
    let start = Instant::now();
    let mut g = gather(files.len(), per_file, options.needs);
    phases.mark("gather");
    let benched = options.bench.resolve || options.bench.merge;
    let (mut resolved, layout) = resolve_beside_layout(&files, &g.facts, options);
    g.diagnostics.append(&mut resolved.diagnostics);
    phases.mark("resolve");
    let mut merge_options = merge::MergeOptions::from_config(&options.config.policy_merge);
    let mut files = files;
    let values_json = values.and_then(|v| values_file(v, &mut files, &mut g, options));
    if let Some(json) = &values_json {
        merge_options = merge_options.with_values(json);
    }
    // The merge's plan does not depend on the findings: it is made beside their scrubbing and
    // the verdicts, which run on one thread.
    let (plan, (verdicts, rejected)) = rayon::join(
        || layout.map(|layout| plan_of(&g.facts, layout, &resolved)),
        || scrubbed_verdicts(&files, &g.facts, &g.masked, &mut g.diagnostics),
    );
    merge_options.rejected = rejected;
    phases.mark("rejected");
    let (model, policy_statuses) = if benched {
        (None, Vec::new())
    } else {
        let needs = options.needs;
        merge_stage(
            &mut g,
            &mut resolved,
            plan,
            merge_options,
            values_json,
            &verdicts,
            needs,
        )
    };
    phases.mark("merge");
    g.diagnostics.sort_by(report_order);
    phases.mark("sort");
    g.stats.elapsed = start.elapsed();
    LintRun {
        files,
        diagnostics: g.diagnostics,
        resources: g.resources,
        stats: g.stats,
        masked: g.masked,
        route_statuses: resolved.route_statuses,
        policy_statuses,
        model,
        verdicts,
        ..LintRun::default()
    }
}
