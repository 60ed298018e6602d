//! `gwctl render [PATHS] [--gateway NS/NAME]`: the dry run of what the controller would program.

use super::args::{RenderArgs, RenderFormat, RenderType};
use super::lint_cmd::load_config;
use rayon::prelude::*;
use std::io::Write;

use super::pretty_json;
use super::usage_error;
use crate::lint::{LintOptions, lint_paths};
use crate::model::facts::GATEWAY_API;
use crate::render::json::single;
use crate::render::{self, RenderOptions};
use crate::report::yaml::{seq_item, to_yaml, write_document};

pub(super) fn run(args: &RenderArgs) -> u8 {
    let (config, gateway) =
        match config_and_gateway(args.config.as_deref(), args.gateway.as_deref()) {
            Ok(both) => both,
            Err(code) => return code,
        };
    let render_options = RenderOptions::new(
        &config,
        gateway.clone(),
        args.validation_level.unwrap_or_default(),
    );
    let options = render::render_options(LintOptions {
        config,
        values: args.values.clone(),
        ..LintOptions::default()
    });
    let mut run = match lint_paths(&args.paths, &options) {
        Ok(run) => run,
        Err(message) => return usage_error(&message),
    };
    if let Some(unread) = super::unreadable(&run) {
        return usage_error(&unread);
    }
    let skipped = super::report_skipped_inputs(&run);
    if let Some((ns, name)) = &gateway
        && !run.model.iter().flat_map(|m| &m.objects).any(|o| {
            o.id.group == GATEWAY_API
                && o.id.kind == "Gateway"
                && &o.id.namespace == ns
                && &o.id.name == name
        })
    {
        return usage_error(&format!("no Gateway {ns}/{name} in the inputs"));
    }
    // Nothing from here on prints a finding with its snippet: the files' texts (a tenth of a
    // large run) are let go before the rendering.
    run.files = Vec::new();
    let (kinds, with_statuses) = selection(args.kind);
    let mut output = Output {
        check: args.check,
        kinds,
        with_statuses,
        out: Documents::new(args.output),
        failures: Vec::new(),
        cluster_refs: Vec::new(),
    };
    // Each Gateway is written as soon as it is rendered, and dropped, and so is each of the AI
    // data plane's shared resources: a large repository's rendering is never in memory whole.
    // Never freed: the process exits once the output is written.
    let _merged = render::render_into(&run, &render_options, &mut output);
    if let Err(code) = super::written(output.out.finish()) {
        super::exit_now(code);
    }
    for failure in &output.failures {
        eprintln!("error: {failure}");
    }
    super::exit_now(u8::from(!output.failures.is_empty() || skipped))
}

/// Where the rendering goes: the output documents, and with `--check` what the checks find.
struct Output {
    check: bool,
    kinds: &'static [&'static str],
    with_statuses: bool,
    out: Documents,
    failures: Vec<render::proto::Failure>,
    /// The cluster names each Gateway refers to, checked once the shared clusters are made.
    cluster_refs: Vec<render::dangling::ClusterRef>,
}

impl render::Sink for Output {
    type Gateway = Encoded;
    type Settings = Encoding;

    fn settings(&self) -> Encoding {
        Encoding {
            check: self.check,
            format: self.out.format,
            kinds: self.kinds,
            with_statuses: self.with_statuses,
        }
    }

    fn make(how: &Encoding, g: render::RenderedGateway) -> Encoded {
        let (failures, cluster_refs) = if how.check {
            let refs = render::dangling::cluster_refs(&g);
            (render::proto::check_gateway(&g), refs)
        } else {
            (Vec::new(), Vec::new())
        };
        let text = encode(how.format, &g.into_document(how.kinds, how.with_statuses));
        Encoded {
            failures,
            cluster_refs,
            text,
        }
    }

    fn gateways(&mut self, chunk: Vec<Encoded>) {
        for g in chunk {
            self.failures.extend(g.failures);
            self.cluster_refs.extend(g.cluster_refs);
            self.out.write_encoded(&g.text);
        }
    }

    fn rest(&mut self, rest: render::Rendered) {
        if self.check {
            self.failures.extend(render::proto::check_rendered(&rest));
            self.failures.extend(render::dangling::dangling(
                &self.cluster_refs,
                &rest.clusters,
            ));
        }
        for doc in rest.into_documents(self.kinds, self.with_statuses) {
            self.out.write(&doc);
        }
    }

    fn shared(&mut self, resource: render::RenderedResource) {
        self.shared_batch(vec![resource]);
    }

    fn shared_batch(&mut self, batch: Vec<render::RenderedResource>) {
        let (format, kinds) = (self.out.format, self.kinds);
        // Encoded in parallel, as the Gateways are.
        let texts: Vec<Vec<u8>> = batch
            .into_par_iter()
            .filter(|r| kinds.contains(&r.kind))
            .map(|r| encode_item(format, &r.value))
            .collect();
        for text in &texts {
            self.out.shared_item(AI_SHARED, text);
        }
    }

    fn shared_statuses(&mut self, statuses: serde_json::Value) {
        let listed = statuses.as_array().is_some_and(|a| !a.is_empty());
        if self.with_statuses && listed {
            self.out.shared_statuses(AI_SHARED, statuses);
        }
        self.out.end_shared();
    }
}

/// How a Gateway's rendering is made into [`Encoded`] (what [`Output`] is asked for).
#[derive(Clone, Copy)]
struct Encoding {
    check: bool,
    format: RenderFormat,
    kinds: &'static [&'static str],
    with_statuses: bool,
}

/// A Gateway's document as text, with what `--check` finds in its rendering.
struct Encoded {
    failures: Vec<render::proto::Failure>,
    cluster_refs: Vec<render::dangling::ClusterRef>,
    text: Vec<u8>,
}

/// The name of the AI data plane's shared document (`Shared: ai`).
const AI_SHARED: &str = "ai";

/// `--gateway`: `NS/NAME`, or `NAME` in namespace `default`; `Err` is the usage error's exit code.
/// The config and the `--gateway` of a command that renders one or every Gateway (render, graph,
/// diff); `Err` is the exit code, the message already printed.
pub(super) fn config_and_gateway(
    config: Option<&std::path::Path>,
    gateway: Option<&str>,
) -> Result<(crate::config::Config, Option<(String, String)>), u8> {
    Ok((load_config(config)?, gateway_arg(gateway)?))
}

fn gateway_arg(written: Option<&str>) -> Result<Option<(String, String)>, u8> {
    written
        .map(gateway_name)
        .transpose()
        .map_err(|message| usage_error(&message))
}

fn gateway_name(written: &str) -> Result<(String, String), String> {
    match written.split_once('/') {
        Some((ns, name)) if !ns.is_empty() && !name.is_empty() && !name.contains('/') => {
            Ok((ns.to_string(), name.to_string()))
        }
        None if !written.is_empty() => Ok(("default".to_string(), written.to_string())),
        _ => Err(format!("--gateway {written:?} is not NAMESPACE/NAME")),
    }
}

/// What `--type` selects: the resource kinds, and whether statuses are printed.
fn selection(kind: RenderType) -> (&'static [&'static str], bool) {
    let kinds: &[&str] = match kind {
        RenderType::Listener => &["listener"],
        RenderType::Route => &["route"],
        RenderType::Cluster => &["cluster"],
        RenderType::Status => &[],
        RenderType::All => &["listener", "route", "cluster"],
    };
    (kinds, matches!(kind, RenderType::Status | RenderType::All))
}

/// The output, written one document at a time: YAML documents separated by `---`, or one
/// pretty-printed JSON array (the same text `serde_json` prints for the whole array).
struct Documents {
    /// Stdout itself, not its lock: the rendering hands Gateways on from another thread.
    out: std::io::BufWriter<std::io::Stdout>,
    format: RenderFormat,
    written: usize,
    /// A failed write ends the output; [`Documents::finish`] returns it.
    failed: Option<std::io::Error>,
    /// The items of the `Shared` document being written a part at a time, when one is open.
    open_items: Option<usize>,
}

impl Documents {
    fn new(format: RenderFormat) -> Self {
        Documents {
            out: std::io::BufWriter::with_capacity(1 << 16, std::io::stdout()),
            format,
            written: 0,
            failed: None,
            open_items: None,
        }
    }

    fn write(&mut self, doc: &serde_json::Value) {
        let text = encode(self.format, doc);
        self.write_encoded(&text);
    }

    /// Writes a document made by [`encode`].
    fn write_encoded(&mut self, text: &[u8]) {
        if self.failed.is_some() {
            return;
        }
        let result = self
            .begin_document()
            .and_then(|()| self.out.write_all(text));
        self.fail(result);
    }

    /// What comes before each document: the array's opening or a comma (JSON), a `---`
    /// separator after the first (YAML).
    fn begin_document(&mut self) -> std::io::Result<()> {
        let first = self.written == 0;
        self.written += 1;
        let open: &[u8] = match (self.format, first) {
            (RenderFormat::Json, true) => b"[\n  ",
            (RenderFormat::Json, false) => b",\n  ",
            (RenderFormat::Yaml, true) => b"",
            (RenderFormat::Yaml, false) => b"---\n",
        };
        self.out.write_all(open)
    }

    /// Adds a resource (made by [`encode_item`]) to the `output` list of the `Shared: NAME`
    /// document, opening it first: the same text as that document written whole, without
    /// holding it.
    fn shared_item(&mut self, name: &str, text: &[u8]) {
        if self.failed.is_some() {
            return;
        }
        let items = self.open_shared(name);
        let open: &[u8] = match (self.format, items) {
            (RenderFormat::Json, 0) => b",\n    \"output\": [\n      ",
            (RenderFormat::Json, _) => b",\n      ",
            (RenderFormat::Yaml, 0) => b"output:\n",
            (RenderFormat::Yaml, _) => b"",
        };
        let result = self
            .out
            .write_all(open)
            .and_then(|()| self.out.write_all(text));
        self.open_items = Some(items + 1);
        self.fail(result);
    }

    /// Adds the statuses to the `Shared: NAME` document (opening it first).
    fn shared_statuses(&mut self, name: &str, statuses: serde_json::Value) {
        if self.failed.is_some() {
            return;
        }
        let items = self.open_shared(name);
        let result = self.close_items(items).and_then(|()| match self.format {
            RenderFormat::Json => {
                self.out.write_all(b",\n    \"Statuses\": ")?;
                match statuses {
                    serde_json::Value::Array(items) => {
                        pretty_json::write_array(&mut self.out, items, b"    ")
                    }
                    other => {
                        let mut text = Vec::new();
                        pretty_json::write(&mut text, &other, b"    ");
                        self.out.write_all(&text)
                    }
                }
            }
            RenderFormat::Yaml => {
                // Moved in, not through `json!` (which would copy the statuses by serialising
                // them: thousands, at the end of a large rendering).
                write_document(&mut self.out, &single("Statuses", statuses))
            }
        });
        // The item list is closed.
        self.open_items = Some(0);
        self.fail(result);
    }

    /// Ends the `Shared` document, if one is open.
    fn end_shared(&mut self) {
        let Some(items) = self.open_items.take() else {
            return;
        };
        let result = self.close_items(items).and_then(|()| match self.format {
            RenderFormat::Json => self.out.write_all(b"\n  }"),
            RenderFormat::Yaml => Ok(()),
        });
        self.fail(result);
    }

    /// Opens the `Shared: NAME` document unless it is open; the items it holds so far.
    fn open_shared(&mut self, name: &str) -> usize {
        if let Some(items) = self.open_items {
            return items;
        }
        let name = serde_json::Value::String(name.to_string());
        let head = match self.format {
            RenderFormat::Json => format!("{{\n    \"Shared\": {name}"),
            RenderFormat::Yaml => to_yaml(&serde_json::json!({ "Shared": name })),
        };
        let result = self
            .begin_document()
            .and_then(|()| self.out.write_all(head.as_bytes()));
        self.fail(result);
        self.open_items = Some(0);
        0
    }

    /// Closes the `output` list of the open document when it has items (JSON's `]`).
    fn close_items(&mut self, items: usize) -> std::io::Result<()> {
        match self.format {
            RenderFormat::Json if items > 0 => self.out.write_all(b"\n    ]"),
            _ => Ok(()),
        }
    }

    /// Keeps the first failed write.
    fn fail(&mut self, result: std::io::Result<()>) {
        if self.failed.is_none() {
            self.failed = result.err();
        }
    }

    fn finish(mut self) -> std::io::Result<()> {
        if let Some(e) = self.failed {
            return Err(e);
        }
        let end: &[u8] = match (self.format, self.written) {
            (RenderFormat::Json, 0) => b"[]\n",
            (RenderFormat::Json, _) => b"\n]\n",
            (RenderFormat::Yaml, _) => b"",
        };
        self.out.write_all(end).and_then(|()| self.out.flush())
    }
}

/// A document's text: pretty JSON indented as an item of the output's array, or YAML.
fn encode(format: RenderFormat, doc: &serde_json::Value) -> Vec<u8> {
    // About a large repository's Gateway document: growing to it copies the text a few times.
    let mut text = Vec::with_capacity(1 << 18);
    match format {
        RenderFormat::Json => pretty_json::write(&mut text, doc, b"  "),
        // Writing into a Vec cannot fail.
        RenderFormat::Yaml => {
            let _ = write_document(&mut text, doc);
        }
    }
    text
}

/// An item of a `Shared` document's `output` list: pretty JSON indented as such, or YAML.
fn encode_item(format: RenderFormat, item: &serde_json::Value) -> Vec<u8> {
    match format {
        RenderFormat::Json => {
            let mut text = Vec::new();
            pretty_json::write(&mut text, item, b"      ");
            text
        }
        RenderFormat::Yaml => seq_item(item, 2).into_bytes(),
    }
}
