//! `gwctl render [PATHS] [--gateway NS/NAME]`: the dry run of what the controller would program.

use super::args::{RenderArgs, RenderFormat, RenderType};
use super::lint_cmd::load_config;
use super::{print_stdout, usage_error};
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
    let mut render_options = RenderOptions::new(
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
    // The values file is the run's last file when given.
    if args.values.is_some()
        && let Some(values) = run.files.last()
    {
        let parsed = crate::parse::parse_file(values, &options.limits);
        render_options.weighted_route_precedence |= parsed
            .documents
            .first()
            .is_some_and(|d| crate::config::weighted_route_precedence_in_values(&d.root.to_json()));
    }
    let rendered = render::render(&run, &render_options);
    if let Some((ns, name)) = &gateway
        && rendered.gateways.is_empty()
    {
        return usage_error(&format!("no Gateway {ns}/{name} in the inputs"));
    }
    print_stdout(&format_rendered(&rendered, args.kind, args.output));
    let mut failed = false;
    if args.check {
        for failure in render::proto::check_rendered(&rendered) {
            eprintln!("error: {failure}");
            failed = true;
        }
    }
    u8::from(failed || rendered.gateways.iter().any(|g| !g.refused.is_empty()))
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

/// One document per Gateway, then the shared ones (Envoy clusters, AI backends and policies):
/// YAML documents separated by `---`, or one JSON array.
pub fn format_rendered(rendered: &Rendered, kind: RenderType, format: RenderFormat) -> String {
    let kinds: &[&str] = match kind {
        RenderType::Listener => &["listener"],
        RenderType::Route => &["route"],
        RenderType::Cluster => &["cluster"],
        RenderType::Status => &[],
        RenderType::All => &["listener", "route", "cluster"],
    };
    let with_statuses = matches!(kind, RenderType::Status | RenderType::All);
    let docs: Vec<serde_json::Value> = rendered
        .gateways
        .iter()
        .map(|g| g.document(kinds, with_statuses))
        .chain(rendered.shared_documents(kinds, with_statuses))
        .collect();
    match format {
        RenderFormat::Json => {
            let mut s = serde_json::to_string_pretty(&docs).unwrap_or_default();
            s.push('\n');
            s
        }
        RenderFormat::Yaml => docs.iter().map(to_yaml).collect::<Vec<_>>().join("---\n"),
    }
}
