//! `gwctl explain TARGET [PATHS...]`: the effective policy of one place, field by field.

use std::io::IsTerminal;

use super::args::ExplainArgs;
use super::lint_cmd::load_config;
use super::{print_stdout, usage_error, use_color};
use crate::lint::{LintRun, Model};
use crate::merge::explain::{explain, status_index};
use crate::merge::view::{place_parts, places_of};
use crate::model::facts::Facts;
use crate::report::{ExplanationList, render_explanation};

/// Short and lower-case names of the kinds `explain` accepts, to the kind.
const KINDS: &[(&str, &[&str])] = &[
    ("Gateway", &["gateway", "gw", "gateways"]),
    ("HTTPRoute", &["httproute", "route", "httproutes", "routes"]),
    ("GRPCRoute", &["grpcroute", "grpcroutes"]),
    ("Service", &["service", "svc", "services"]),
    ("Backend", &["backend", "be", "backends"]),
    (
        "AiGatewayBackend",
        &["aigatewaybackend", "aibackend", "aigatewaybackends"],
    ),
];

/// The kind a user wrote, or the usage error listing the accepted ones.
fn kind_of(written: &str) -> Result<&'static str, String> {
    let lower = written.to_ascii_lowercase();
    KINDS
        .iter()
        .find(|(kind, names)| kind.eq_ignore_ascii_case(&lower) || names.contains(&lower.as_str()))
        .map(|(kind, _)| *kind)
        .ok_or_else(|| {
            let known: Vec<&str> = KINDS.iter().map(|(k, _)| *k).collect();
            format!(
                "unknown kind {written:?} in the target; explain takes {}",
                known.join(", ")
            )
        })
}

pub(super) fn run(args: &ExplainArgs) -> u8 {
    let config = match load_config(args.config.as_deref()) {
        Ok(config) => config,
        Err(code) => return code,
    };
    let target = match parse_target(&args.target) {
        Ok(target) => target,
        Err(message) => return usage_error(&message),
    };
    let (run, skipped) = match super::model_run(config, args.values.clone(), &args.paths) {
        Ok(ran) => ran,
        Err(code) => return code,
    };
    let Some(model) = &run.model else {
        return usage_error("no manifests were read");
    };
    let color = use_color(
        args.color,
        std::io::stdout().is_terminal(),
        std::env::var_os("NO_COLOR").as_deref(),
    );
    let done = if target.name == "*" {
        explain_every(args, &run, model, target.kind, color)
    } else {
        explain_one(args, &run, model, &target, color)
    };
    done.map_or_else(|code| code, |()| skipped)
}

/// A target as written: `KIND/NAME[:SECTION]`, its kind resolved.
struct Target<'a> {
    kind: &'static str,
    name: &'a str,
    section: Option<&'a str>,
}

/// The target a user wrote, or the usage error saying what is wrong with it.
fn parse_target(written: &str) -> Result<Target<'_>, String> {
    let (object, section) = match written.split_once(':') {
        Some((o, s)) => (o, Some(s)),
        None => (written, None),
    };
    let Some((kind, name)) = object.split_once('/') else {
        return Err(format!(
            "target {written:?} is not KIND/NAME[:SECTION] (for example httproute/checkout)"
        ));
    };
    Ok(Target {
        kind: kind_of(kind)?,
        name,
        section,
    })
}

/// Every object of the kind, each with its sections: the effective policy of everything at
/// once, as `render` will need it.
fn explain_every(
    args: &ExplainArgs,
    run: &LintRun,
    model: &Model,
    kind: &str,
    color: bool,
) -> Result<(), u8> {
    let facts = &model.facts;
    // As render merges: the chart values' discovery selectors leave policies out.
    let merged = crate::render::merge(run, &Default::default()).unwrap_or_else(|| model.merge());
    let statuses = status_index(&Model::statuses(&merged, run));
    let places = facts
        .iter()
        .enumerate()
        .filter(|(_, f)| {
            f.id.kind == kind && (args.all_namespaces || f.id.namespace == args.namespace)
        })
        .flat_map(|(i, _)| places_of(facts, i, None));
    // Streamed: one explanation at a time, never the whole set in memory.
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut list = ExplanationList::new(&mut out, args.output, color);
    for place in places {
        if let Err(e) = list.push(&explain(facts, &merged, &statuses, place)) {
            return super::written(Err(e));
        }
    }
    let finished = list.finish().and_then(|()| std::io::Write::flush(&mut out));
    super::written(finished)
}

/// One object, or one section of it, in the namespace the options name.
fn explain_one(
    args: &ExplainArgs,
    run: &LintRun,
    model: &Model,
    target: &Target<'_>,
    color: bool,
) -> Result<(), u8> {
    let facts = &model.facts;
    let Target {
        kind,
        name,
        section,
    } = *target;
    let Some(i) = facts
        .iter()
        .position(|f| f.id.kind == kind && f.id.name == name && f.id.namespace == args.namespace)
    else {
        return Err(usage_error(&not_found(facts, kind, name, &args.namespace)));
    };
    let Some(&place) = places_of(facts, i, section).first() else {
        return Err(usage_error(&no_section(facts, i, target, &args.namespace)));
    };
    // As render merges: the chart values' discovery selectors leave policies out.
    let merged = crate::render::merge(run, &Default::default()).unwrap_or_else(|| model.merge());
    let statuses = status_index(&Model::statuses(&merged, run));
    let explanation = explain(facts, &merged, &statuses, place);
    print_stdout(&render_explanation(&explanation, args.output, color))
}

/// The error for a section the target (object `i` of the facts) does not have, with those it has.
fn no_section(facts: &[Facts], i: usize, target: &Target<'_>, namespace: &str) -> String {
    let sections: Vec<String> = places_of(facts, i, None)
        .into_iter()
        .skip(1)
        .filter_map(|p| place_parts(facts, p).1)
        .collect();
    format!(
        "{} {namespace}/{} has no section {:?}; it has: {}",
        target.kind,
        target.name,
        target.section.unwrap_or(""),
        if sections.is_empty() {
            "none".to_string()
        } else {
            sections.join(", ")
        }
    )
}

/// The error for a target that is not in the inputs, with the closest names of its kind.
fn not_found(facts: &[Facts], kind: &str, name: &str, namespace: &str) -> String {
    let mut close: Vec<(f64, String)> = facts
        .iter()
        .filter(|f| f.id.kind == kind)
        .map(|f| {
            let same_ns = f.id.namespace == namespace;
            let score = strsim::jaro_winkler(name, &f.id.name) + if same_ns { 0.1 } else { 0.0 };
            (score, format!("{}/{}", f.id.namespace, f.id.name))
        })
        .collect();
    close.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    let names: Vec<String> = close.into_iter().take(3).map(|(_, n)| n).collect();
    let hint = if names.is_empty() {
        format!("there is no {kind} in the inputs")
    } else {
        format!("closest: {}", names.join(", "))
    };
    format!("{kind} {namespace}/{name} not found; {hint}")
}
