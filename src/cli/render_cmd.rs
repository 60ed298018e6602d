//! `gwctl render [PATHS] [--gateway NS/NAME]`: the dry run of what the controller would program.

use super::args::{RenderArgs, RenderFormat, RenderType};
use super::lint_cmd::load_config;
use std::io::Write;

use super::usage_error;
use crate::lint::{LintOptions, lint_paths};
use crate::model::facts::GATEWAY_API;
use crate::render::{self, RenderOptions};
use crate::report::yaml::to_yaml;

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
    let mut out = Documents::new(args.output);
    let mut failures = Vec::new();
    // The cluster names each Gateway refers to, checked once the shared clusters are made.
    let mut cluster_refs = Vec::new();
    // Each Gateway is written as soon as it is rendered, and dropped: a large repository's
    // rendering is never in memory whole.
    let rest = render::render_each(&run, &render_options, |g| {
        if args.check {
            failures.extend(render::proto::check_gateway(&g));
            cluster_refs.extend(render::dangling::cluster_refs(&g));
        }
        out.write(&g.into_document(kinds, with_statuses));
    });
    if args.check {
        failures.extend(render::proto::check_rendered(&rest));
        failures.extend(render::dangling::dangling(&cluster_refs, &rest.clusters));
    }
    for doc in rest.into_documents(kinds, with_statuses) {
        out.write(&doc);
    }
    if let Err(code) = super::written(out.finish()) {
        super::exit_now(code);
    }
    for failure in &failures {
        eprintln!("error: {failure}");
    }
    super::exit_now(u8::from(!failures.is_empty() || skipped))
}

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
}

impl Documents {
    fn new(format: RenderFormat) -> Self {
        Documents {
            out: std::io::BufWriter::with_capacity(1 << 16, std::io::stdout()),
            format,
            written: 0,
            failed: None,
        }
    }

    fn write(&mut self, doc: &serde_json::Value) {
        if self.failed.is_some() {
            return;
        }
        let first = self.written == 0;
        self.written += 1;
        let result = match self.format {
            RenderFormat::Json => {
                // Serialised straight into the output, each line indented as an array item: a
                // large document (the AI data plane's shared resources) is never a string whole.
                let open: &[u8] = if first { b"[\n  " } else { b",\n  " };
                self.out.write_all(open).and_then(|()| {
                    let mut indented = Indented::new(&mut self.out);
                    serde_json::to_writer_pretty(&mut indented, doc)
                        .map_err(std::io::Error::from)
                        .and_then(|()| indented.finish())
                })
            }
            RenderFormat::Yaml => {
                let separator: &[u8] = if first { b"" } else { b"---\n" };
                self.out
                    .write_all(separator)
                    .and_then(|()| self.out.write_all(to_yaml(doc).as_bytes()))
            }
        };
        self.failed = result.err();
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

/// Writes through to `W`, with two spaces after every line break: a pretty-printed document as
/// an item of the output's array. The serialiser's many small writes are gathered first.
struct Indented<'w, W: Write> {
    out: &'w mut W,
    buf: Vec<u8>,
}

impl<'w, W: Write> Indented<'w, W> {
    const FLUSH_AT: usize = 1 << 16;

    fn new(out: &'w mut W) -> Self {
        Indented {
            out,
            buf: Vec::with_capacity(Self::FLUSH_AT + 1024),
        }
    }

    /// Writes what is gathered.
    fn finish(self) -> std::io::Result<()> {
        self.out.write_all(&self.buf)
    }
}

impl<W: Write> Write for Indented<'_, W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut rest = buf;
        while let Some(i) = rest.iter().position(|&b| b == b'\n') {
            self.buf.extend_from_slice(&rest[..=i]);
            self.buf.extend_from_slice(b"  ");
            rest = &rest[i + 1..];
        }
        self.buf.extend_from_slice(rest);
        if self.buf.len() >= Self::FLUSH_AT {
            self.out.write_all(&self.buf)?;
            self.buf.clear();
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.write_all(&self.buf)?;
        self.buf.clear();
        self.out.flush()
    }
}
