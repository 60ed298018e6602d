//! The per-file pass: each file parsed, its resources validated and their facts made, in
//! parallel; the trees are dropped with the file.

use std::collections::BTreeMap;

use rayon::prelude::*;

use crate::diag::Diagnostic;
use crate::model::written::{Digests, Written};
use crate::model::{self, Resource};
use crate::parse::{self, Limits, ParsedDocument, ParsedFile};
use crate::rules;
use crate::schema::{Lookup, Registry};
use crate::secrets::{self, Masked};
use crate::source::SourceFile;
use crate::validate::chart_values::SecretSeen;
use crate::{security, suppress, validate};

use super::{LintOptions, Needs, Progress, ResourceEntry};

pub(super) fn registry_of(options: &LintOptions) -> &Registry {
    options
        .registry
        .as_deref()
        .unwrap_or_else(|| Registry::builtin())
}

/// The per-file pass over every file, in parallel.
pub(super) fn lint_each(
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

#[derive(Default, Clone)]
pub(super) struct FileResult {
    pub(super) documents: usize,
    pub(super) resources: usize,
    pub(super) not_checked: BTreeMap<String, usize>,
    pub(super) diagnostics: Vec<Diagnostic>,
    pub(super) entries: Vec<ResourceEntry>,
    /// Secrets of the file, when the values file's rules need them.
    pub(super) secrets: Vec<SecretSeen>,
    /// Values no report may show.
    pub(super) masked: Vec<Masked>,
    /// What the set-wide security rules learnt from the file.
    pub(super) security: security::SetFacts,
    /// What the resolve stage needs of each resource (the trees are dropped after the file).
    pub(super) facts: Vec<model::facts::Facts>,
    /// The resources, with `Needs::Render` and `Needs::Diff` (see there).
    pub(super) objects: Vec<model::Object>,
}

pub(super) fn lint_file(
    file: &SourceFile,
    registry: &Registry,
    options: &LintOptions,
    collect_secrets: bool,
) -> FileResult {
    let parsed = parse::parse_file(file, &options.limits);
    if let Some(skipped) = FileResult::of_template(file, &parsed) {
        return skipped;
    }
    let mut out = FileResult::of_parse(file, &parsed);
    for doc in &parsed.documents {
        lint_document(file, doc, registry, options, collect_secrets, &mut out);
    }
    out
}

/// A Go template action as Helm writes them: `{{ .Values.x }}`, `{{- if ... }}`, `{{ include
/// ... }}`, `{{ $var }}`, a comment. (A value of a policy may hold `{{ header("x") }}`, a
/// template of the data plane's own: that is a function call, and such a file parses anyway.)
static GO_TEMPLATE_ACTION: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(
    || {
        regex::Regex::new(
            r"\{\{-?\s*(?:\.|\$|/\*|(?:if|else|end|range|with|include|template|define|block|toYaml|tpl|printf|required|default|quote)\b)",
        )
        .ok()
    },
);

impl FileResult {
    /// A file the reader cannot read that holds Go template actions: a Helm template named
    /// outside its chart (a chart's own are skipped when listed), which is no YAML until
    /// rendered. One note says so, at its first action, instead of what its text would give.
    pub(super) fn of_template(file: &SourceFile, parsed: &ParsedFile) -> Option<FileResult> {
        if parsed.diagnostics.is_empty() {
            return None;
        }
        let action = GO_TEMPLATE_ACTION.as_ref()?.find(&file.text)?;
        let note = Diagnostic::new(
            rules::GW008,
            "skipped: the file holds Go template actions (a Helm template), not YAML",
        )
        .at(
            file.id,
            crate::source::Span::new(action.start(), action.end()),
        )
        .with_help("lint what the chart renders: `helm template CHART | gwctl lint -`");
        Some(FileResult {
            documents: parsed.documents.len(),
            diagnostics: vec![note],
            // The text is still shown in the note's snippet: its secrets are found in it.
            masked: secrets::of_text(file.id, &file.text),
            ..Default::default()
        })
    }
}

impl FileResult {
    /// What a file's parse says before its documents are linted: how many there are, the
    /// reader's findings, and the secrets of text the trees lost.
    pub(super) fn of_parse(file: &SourceFile, parsed: &ParsedFile) -> FileResult {
        let mut out = FileResult {
            documents: parsed.documents.len(),
            diagnostics: parsed.diagnostics.clone(),
            ..Default::default()
        };
        // What the tree lost (a document that failed to parse, the second value of a duplicate
        // key) is still shown in snippets: its secrets are found in the text.
        if parsed.lost_text() {
            out.masked.extend(secrets::of_text(file.id, &file.text));
        }
        out
    }

    /// Adds a document's results (made by [`lint_document`] into an empty result) after this
    /// one's: as if the document had been linted into it.
    pub(super) fn append(&mut self, doc: FileResult) {
        self.documents += doc.documents;
        self.resources += doc.resources;
        for (kind, n) in doc.not_checked {
            *self.not_checked.entry(kind).or_default() += n;
        }
        self.diagnostics.extend(doc.diagnostics);
        self.entries.extend(doc.entries);
        self.secrets.extend(doc.secrets);
        self.masked.extend(doc.masked);
        self.security.merge(doc.security);
        self.facts.extend(doc.facts);
        self.objects.extend(doc.objects);
    }
}

/// Lints one parsed document of `file` into `out`: its resources' findings, facts and objects.
/// Nothing in it depends on the file's other documents.
pub(super) fn lint_document(
    file: &SourceFile,
    doc: &ParsedDocument,
    registry: &Registry,
    options: &LintOptions,
    collect_secrets: bool,
    out: &mut FileResult,
) {
    let limits = &options.limits;
    let (resources, diags) = model::resources_of(file, doc);
    let digest = (options.needs == Needs::Diff).then(|| Digests::of_document(file, &doc.root));
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
        check_resource(&res, registry, limits, out);
        let found = security::check_resource(&res, &mut out.security);
        out.diagnostics.extend(found);
        let mut facts = model::facts::facts_of(&res, &sensitive);
        if options.needs.keeps_objects()
            && let Some(f) = &mut facts
        {
            f.settings = model::facts_settings::settings_of(&res, &sensitive);
            let typed = model::read_typed_only(f);
            out.objects.push(model::Object {
                id: f.id.clone(),
                value: if typed {
                    serde_json::Value::Null
                } else {
                    sensitive.json(res.root)
                },
                written: digest.map(|d| Box::new(Written::of(d, res.root))),
            });
        }
        out.facts.extend(facts);
        out.masked.extend(sensitive.masked);
    }
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
        Lookup::UnknownGroup => match validate::mistyped_group(res, registry) {
            Some(d) => out.diagnostics.push(d),
            None => {
                *out.not_checked
                    .entry(format!("{}/{}", res.api_version, res.kind))
                    .or_default() += 1;
            }
        },
    }
}
