//! The run's data: what the pipeline hands the commands and the report stage (findings, files,
//! resources, statuses and, when a command needs it, the model). The lint driver makes it; this
//! module depends on no stage that reads it.

use std::collections::BTreeMap;
use std::time::Duration;

use crate::diag::{Diagnostic, ResourceRef, Severity};
use crate::secrets::Masked;
use crate::source::{FileId, SourceFile, Span};
use crate::{merge, model, resolve};

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
    /// Why each path that could not be read was not: then the exit code is 2 whatever the
    /// findings, and the commands that need every input stop with these reasons.
    pub unreadable: Vec<String>,
    /// Secret values of the files: never shown by any report (see `crate::secrets`).
    pub masked: Vec<Masked>,
    /// Predicted route conditions per parentRef, from the resolve stage (for render/explain).
    pub route_statuses: Vec<resolve::RouteStatus>,
    /// Predicted policy statuses per policy and ancestor, from the merge stage (empty when the
    /// caller merges the model itself: see [`Model::statuses`]).
    pub policy_statuses: Vec<merge::PolicyStatus>,
    /// The model, when the command asked for it (the driver's `Needs`): then the caller merges it.
    pub model: Option<Model>,
    /// Why the controller does not accept each resource it rejects (from the findings' typed
    /// outcomes, before suppression).
    pub verdicts: crate::diag::Verdicts,
}

impl LintRun {
    /// A path could not be read at all.
    pub fn input_error(&self) -> bool {
        !self.unreadable.is_empty()
    }
}

/// What the merge stage works on, kept for `explain`.
pub struct Model {
    pub facts: Vec<model::facts::Facts>,
    pub attachments: Vec<resolve::Attachment>,
    pub route_attachments: Vec<resolve::RouteAttachment>,
    /// Routes whose backendRefs do not all resolve, by position in the facts (see
    /// [`resolve::Resolved::unresolved_backends`]).
    pub unresolved_backends: Vec<(usize, resolve::Condition)>,
    /// The resolve stage's ReferenceGrants: render and the statuses ask them, not a copy.
    pub grants: resolve::Grants,
    pub merge_options: merge::MergeOptions,
    /// What the merge needs of the facts and attachments alone, made beside the lint stages: the
    /// first merge takes it (most commands merge once), a later one makes its own.
    pub plan: std::sync::Mutex<Option<merge::Plan>>,
    /// The chart values file (`--values`) as JSON, for the controller settings render reads.
    pub values: Option<serde_json::Value>,
    /// Every named resource, in input order, when the command renders (`Needs::Diff`,
    /// `Needs::Render`): whole, or its identity alone for a kind read from the typed model.
    pub objects: Vec<model::Object>,
}

impl Model {
    /// Runs the merge stage.
    pub fn merge(&self) -> merge::Merged<'_> {
        let planned = self
            .plan
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take();
        let plan = planned.unwrap_or_else(|| {
            merge::Plan::whole(&self.facts, &self.attachments, &self.route_attachments)
        });
        merge::merge(&self.facts, plan, &self.merge_options)
    }

    /// Runs the merge stage over the policies of the namespaces `sees` admits (those the
    /// controller watches): a policy of another namespace is not there for it, so it supplies
    /// nothing and has no status.
    pub fn merge_seen(&self, sees: impl Fn(&str) -> bool) -> merge::Merged<'_> {
        let seen = |a: &&resolve::Attachment| {
            self.facts
                .get(a.policy)
                .is_none_or(|p| sees(&p.id.namespace))
        };
        if self.attachments.iter().all(|a| seen(&a)) {
            return self.merge();
        }
        let attachments: Vec<resolve::Attachment> =
            self.attachments.iter().filter(seen).cloned().collect();
        let plan = merge::Plan::whole(&self.facts, &attachments, &self.route_attachments);
        merge::merge(&self.facts, plan, &self.merge_options)
    }

    /// The predicted policy statuses of a merge, with the run's verdicts marking the policies
    /// that are not accepted.
    pub fn statuses(merged: &merge::Merged<'_>, run: &LintRun) -> Vec<merge::PolicyStatus> {
        let mut statuses = merged.statuses.clone();
        merge::mark_invalid(&mut statuses, &run.verdicts);
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
