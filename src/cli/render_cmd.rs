//! `gwctl render [PATHS] [--gateway NS/NAME]`: the dry run of what the controller would program.

use super::args::{RenderArgs, RenderFormat, RenderType};
use super::lint_cmd::load_config;
use std::io::Write;

use super::usage_error;
use crate::lint::{LintOptions, lint_paths};
use crate::render::{self, RenderOptions, Rendered};
use crate::report::yaml::to_yaml;

pub(super) fn run(args: &RenderArgs) -> u8 {
    let config = match load_config(args.config.as_deref()) {
        Ok(config) => config,
        Err(code) => return code,
    };
    let gateway = match gateway_arg(args.gateway.as_deref()) {
        Ok(gateway) => gateway,
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
    let run = match lint_paths(&args.paths, &options) {
        Ok(run) => run,
        Err(message) => return usage_error(&message),
    };
    if let Some(unread) = super::unreadable(&run) {
        return usage_error(&unread);
    }
    let rendered = render::render(&run, &render_options);
    if let Some((ns, name)) = &gateway
        && rendered.gateways.is_empty()
    {
        return usage_error(&format!("no Gateway {ns}/{name} in the inputs"));
    }
    let failures = if args.check {
        render::proto::check_rendered(&rendered)
    } else {
        Vec::new()
    };
    let refused = rendered.gateways.iter().any(|g| !g.refused.is_empty());
    // The documents live until the process ends: freeing them is the system's work then.
    let docs = documents(rendered, args.kind);
    write_documents(&docs, args.output);
    for failure in &failures {
        eprintln!("error: {failure}");
    }
    super::exit_now(u8::from(!failures.is_empty() || refused))
}

/// `--gateway`: `NS/NAME`, or `NAME` in namespace `default`; `Err` is the usage error's exit code.
pub(super) fn gateway_arg(written: Option<&str>) -> Result<Option<(String, String)>, u8> {
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

/// One document per Gateway, then the shared ones (Envoy clusters, AI backends and policies),
/// with what `--type` selects.
fn documents(rendered: Rendered, kind: RenderType) -> Vec<serde_json::Value> {
    let kinds: &[&str] = match kind {
        RenderType::Listener => &["listener"],
        RenderType::Route => &["route"],
        RenderType::Cluster => &["cluster"],
        RenderType::Status => &[],
        RenderType::All => &["listener", "route", "cluster"],
    };
    let with_statuses = matches!(kind, RenderType::Status | RenderType::All);
    rendered.into_documents(kinds, with_statuses)
}

/// YAML documents separated by `---`, or one JSON array, written as made rather than gathered
/// into one string first: a large repository's rendering is hundreds of megabytes.
fn write_documents(docs: &[serde_json::Value], format: RenderFormat) {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    // A closed pipe (`| head`) ends the output; there is no one left to tell.
    let _ = match format {
        RenderFormat::Json => serde_json::to_writer_pretty(&mut out, docs)
            .map_err(std::io::Error::from)
            .and_then(|()| out.write_all(b"\n")),
        RenderFormat::Yaml => docs.iter().enumerate().try_for_each(|(i, doc)| {
            if i > 0 {
                out.write_all(b"---\n")?;
            }
            out.write_all(to_yaml(doc).as_bytes())
        }),
    }
    .and_then(|()| out.flush());
}
