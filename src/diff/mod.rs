//! `gwctl diff`: what changes for traffic between two sets of manifests, computed on the
//! effective results of both (findings, effective policy, rendered configuration), never on
//! their text. A moved or reordered resource is no change.
//!
//! Each side is linted with [`crate::render::diff_options`] and reduced to a [`Side`] (owned
//! data keyed by names, so the runs can be dropped); [`diff`] compares two of them.

pub mod effective;
pub mod findings;
pub mod git;
mod human;
pub mod inputs;
mod markdown;
pub mod rendered;
mod resource;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_inputs;
mod unified;

use crate::diag::Severity;
use crate::lint::LintRun;
use crate::merge::Merged;
use crate::render::{self, RenderOptions};

pub use effective::{FieldChange, FieldState, PlaceChange};
pub use findings::{FindingView, FindingsDiff};
pub use human::human;
pub use markdown::{MARKDOWN_CAP, markdown};
pub use rendered::{GatewayChange, ResourceChange};

/// One side of a diff: what the manifests do, by name.
#[derive(Debug, Default)]
pub struct Side {
    pub findings: findings::Findings,
    pub effective: effective::EffectiveMap,
    pub rendered: rendered::RenderedMap,
    /// The topology, for the picture of what changed.
    pub graph: crate::graph::Graph,
}

impl Side {
    /// Reduces a run made with `render::diff_options` (the model and objects kept); the
    /// topology only with `graph` (the Markdown picture needs it).
    pub fn of_run(run: &LintRun, options: &RenderOptions, graph: bool) -> Side {
        Side::of_located(run, findings::of_run(run), options, graph)
    }

    /// [`Side::of_run`] with the run's findings located already ([`findings::of_run`]): the
    /// caller may then drop the run's files, which nothing after reads (the texts of a large
    /// repository are a tenth of a diff's peak).
    pub fn of_located(
        run: &LintRun,
        findings: findings::Findings,
        options: &RenderOptions,
        graph: bool,
    ) -> Side {
        // Each Gateway's rendering is reduced to text as it is made, and each resource rendered
        // for no single Gateway as it comes: the side's whole rendering is never in memory as a
        // tree.
        let mut collect = rendered::Collect::default();
        let merged = render::merge(run, options);
        // This side is held while the other is made: its effective map on one thread, the
        // smallest (see `effective::of_merged`).
        let mut side = reduce(run, merged, Some(findings), options, graph, 1, &mut collect);
        side.rendered = collect.into_map();
        side
    }
}

/// The head of a diff: its findings and effective policies, and its rendering already compared
/// with the base's.
#[derive(Debug, Default)]
pub struct Head {
    /// The head's findings and effective policies (its `rendered` is empty).
    pub side: Side,
    pub rendered: Vec<GatewayChange>,
}

impl Head {
    /// Reduces a run as [`Side::of_run`] does, comparing each Gateway's rendering with the
    /// base's as it is made: the head's rendering is never kept, only what changed.
    /// The base's rendering is taken from `base` and freed as it is compared. `merged` is the
    /// run's merge ([`crate::run::Model::merge`]), made by the caller beside other work;
    /// `findings`, the run's when located already (as in [`Side::of_located`]).
    pub fn of_run<'r>(
        base: &mut Side,
        run: &'r LintRun,
        merged: Option<Merged<'r>>,
        findings: Option<findings::Findings>,
        options: &RenderOptions,
        graph: bool,
    ) -> Head {
        let repeated = repeated_gateways(run);
        let mut against = rendered::Against::new(std::mem::take(&mut base.rendered), repeated);
        // Made last, when the memory is past its peak: its effective map in parallel.
        let parts = rayon::current_num_threads();
        let side = reduce(run, merged, findings, options, graph, parts, &mut against);
        // The set of Gateways seen is for the tests' checks of the batching.
        let (rendered, _seen) = against.finish();
        Head { side, rendered }
    }
}

/// The keys of the Gateways a run has more than once (it keeps the last of an object defined
/// twice, so none unless it is made otherwise): each is rendered as often.
fn repeated_gateways(run: &LintRun) -> std::collections::BTreeSet<String> {
    let mut seen = std::collections::BTreeSet::new();
    let mut repeated = std::collections::BTreeSet::new();
    let objects = run.model.as_ref().map_or(&[][..], |m| &m.objects[..]);
    for o in objects {
        if o.id.kind == "Gateway" && o.id.group == crate::model::facts::GATEWAY_API {
            let key = rendered::gateway_key(&o.id.namespace, &o.id.name);
            if !seen.insert(key.clone()) {
                repeated.insert(key);
            }
        }
    }
    repeated
}

/// A side's findings and effective policies (without its rendering), the rendering handed on
/// to `sink` piece by piece; the effective policies in `effective_parts` parallel parts.
fn reduce<'r>(
    run: &'r LintRun,
    merged: Option<Merged<'r>>,
    findings: Option<findings::Findings>,
    options: &RenderOptions,
    graph: bool,
    effective_parts: usize,
    sink: &mut (impl render::Sink + Send),
) -> Side {
    let mut phases = crate::lint::Phases::start();
    // One merge (the caller's) serves the rendering, the topology and the effective policies.
    render::render_merged_into(run, merged.as_ref(), options, sink);
    phases.mark("side render");
    let findings = findings.unwrap_or_else(|| findings::of_run(run));
    phases.mark("side findings");
    // The topology is made on one thread: beside the effective policies.
    let (graph, effective) = rayon::join(
        || {
            merged
                .as_ref()
                .filter(|_| graph)
                .map(|merged| crate::graph::build(run, merged))
                .unwrap_or_default()
        },
        || {
            run.model
                .as_ref()
                .zip(merged.as_ref())
                .map(|(m, merged)| effective::of_merged(&m.facts, merged, effective_parts))
                .unwrap_or_default()
        },
    );
    phases.mark("side topology and effective");
    drop(merged);
    phases.mark("side dropped");
    Side {
        graph,
        findings,
        effective,
        rendered: rendered::RenderedMap::new(),
    }
}

/// The three sections of a diff.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct Diff {
    pub findings: FindingsDiff,
    /// Per target, the fields whose effective value or source changed.
    pub effective: Vec<PlaceChange>,
    /// Per Gateway, the rendered resources that changed.
    pub rendered: Vec<GatewayChange>,
    /// The part of the topology around what changed (attachments, refusals, backendRefs,
    /// delegation, policies and their outcome), for the Markdown picture; not in the JSON.
    #[serde(skip)]
    pub graph: Option<crate::graph::GraphChange>,
}

impl Diff {
    /// A change in what the manifests do: an effective policy field or a rendered resource
    /// (findings alone are not: a reworded message changes no traffic).
    pub fn changes_effect(&self) -> bool {
        !self.effective.is_empty() || !self.rendered.is_empty()
    }

    /// Findings introduced at or above a severity.
    pub fn introduced_at_least(&self, threshold: Severity) -> usize {
        self.findings
            .introduced
            .iter()
            .filter(|f| f.severity >= threshold)
            .count()
    }

    /// Effective-policy fields changed, over every target.
    pub fn field_changes(&self) -> usize {
        self.effective.iter().map(|p| p.changes.len()).sum()
    }

    /// Rendered resources changed, over every Gateway.
    pub fn resource_changes(&self) -> usize {
        self.rendered.iter().map(|g| g.changes.len()).sum()
    }
}

/// Compares a base with a head compared as it was rendered ([`Head::of_run`]): what [`diff`]
/// says of the two sides.
pub fn diff_head(base: &Side, head: Head) -> Diff {
    Diff {
        findings: findings::compare(&base.findings, &head.side.findings),
        effective: effective::compare(&base.effective, &head.side.effective),
        rendered: head.rendered,
        graph: crate::graph::change(&base.graph, &head.side.graph),
    }
}

/// Compares two sides.
pub fn diff(base: &Side, head: &Side) -> Diff {
    Diff {
        findings: findings::compare(&base.findings, &head.findings),
        effective: effective::compare(&base.effective, &head.effective),
        rendered: rendered::compare(&base.rendered, &head.rendered),
        graph: crate::graph::change(&base.graph, &head.graph),
    }
}

/// The diff as JSON data, with a version for consumers.
pub fn json(d: &Diff) -> String {
    let body = serde_json::json!({
        "version": 1,
        "changesEffect": d.changes_effect(),
        "findings": d.findings,
        "effective": d.effective,
        "rendered": d.rendered,
    });
    let mut s = serde_json::to_string_pretty(&body).unwrap_or_default();
    s.push('\n');
    s
}

/// `N thing` / `N things`.
pub(crate) fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
