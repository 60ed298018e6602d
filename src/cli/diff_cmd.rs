//! `gwctl diff BASE HEAD` / `gwctl diff --git REV [PATHS]`: what changes in effect between two
//! sets of manifests.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;

use super::args::{DiffArgs, DiffFormat};
use super::lint_cmd::threshold;
use super::render_cmd::config_and_gateway;
use super::{print_stdout, usage_error, use_color};
use crate::diff::inputs::Inputs;
use crate::diff::{self, Side};
use crate::input;
use crate::lint::{self, LintOptions, LintRun, Reuse, lint_paths, lint_sources_with_values};
use crate::render::{self, RenderOptions};

/// Where one side's manifests come from.
enum Input {
    Paths(Vec<PathBuf>),
    Git(String, Vec<PathBuf>),
}

pub(super) fn run(args: &DiffArgs) -> u8 {
    let (config, gateway) =
        match config_and_gateway(args.config.as_deref(), args.gateway.as_deref()) {
            Ok(both) => both,
            Err(code) => return code,
        };
    let render_options =
        RenderOptions::new(&config, gateway, args.validation_level.unwrap_or_default());
    let options = render::diff_options(LintOptions {
        config,
        limits: (&args.limits).into(),
        values: args.values.clone(),
        ..LintOptions::default()
    });
    let sides = sides(args).and_then(|(base, head)| Sides::new(base, head, options));
    let sides = match sides {
        Ok(sides) => sides,
        Err(message) => return usage_error(&message),
    };
    let graph = matches!(args.output, DiffFormat::Markdown);
    // `GWCTL_BENCH_PHASES=1`: the steps of diff's own beside the lint and render phases.
    let mut phases = crate::lint::Phases::start();
    match sides.diff(render_options, graph, &mut phases) {
        Ok(d) => report(args, &d, phases),
        Err(message) => usage_error(&message),
    }
}

/// The two sides of a diff and the options both are linted with.
struct Sides {
    base: Input,
    head: Input,
    options: LintOptions,
}

impl Sides {
    /// The sides, with the head's files digested for the base to keep its results of those it
    /// has the same.
    fn new(base: Input, head: Input, mut options: LintOptions) -> Result<Sides, String> {
        // The files and documents the sides have the same (most, in a change) are linted once:
        // the head is read first, and the base keeps their per-file results for it. The head's
        // texts are let go once the base has compared its own with them, and read again for the
        // head's run: held meanwhile, they would add a tenth to the peak of the base's rendering.
        if let Input::Paths(head_paths) = &head {
            let loaded = lint::load(head_paths, &options)?;
            options.reuse = Some(Arc::new(Reuse::for_files(loaded.files())));
        }
        Ok(Sides {
            base,
            head,
            options,
        })
    }

    /// One side after the other (each lint is parallel already; running both at once measured
    /// slower), and only one side's run in memory at a time: the base is rendered whole (with
    /// each Gateway's inputs) and its run dropped before the head is read. The head renders only
    /// the Gateways whose inputs differ, compared with the base's Gateway by Gateway, never
    /// kept; the others render the same.
    fn diff(
        &self,
        render_options: RenderOptions,
        graph: bool,
        phases: &mut crate::lint::Phases,
    ) -> Result<diff::Diff, String> {
        let (base_inputs, base) = self.base_side(&render_options, graph)?;
        phases.mark("base side");
        let mut head_run = side_run(&self.head, &self.options)?;
        let head_findings = located_findings(&mut head_run);
        phases.mark("head lint");
        // The head's inputs and its merge read the run only: made side by side.
        let global = self.options.config.global_policy_namespace.as_deref();
        let (head_inputs, head_merged) = rayon::join(
            || Inputs::of_run(&head_run, &render_options, global),
            || render::merge(&head_run, &render_options),
        );
        if let Some(gateway) = &render_options.gateway
            && !base_inputs.gateways.contains_key(gateway)
            && !head_inputs.gateways.contains_key(gateway)
        {
            let (ns, name) = gateway;
            return Err(format!("no Gateway {ns}/{name} in BASE or HEAD"));
        }
        let only = diff::inputs::changed(&base_inputs, &head_inputs);
        phases.mark(&format!(
            "inputs: {} of {} Gateways differ",
            only.as_ref()
                .map_or(head_inputs.gateways.len(), |o| o.len()),
            head_inputs.gateways.len()
        ));
        let mut base = base;
        if let Some(only) = &only {
            diff::rendered::keep_only(&mut base.rendered, only);
        }
        let render_options = RenderOptions {
            only: only.map(Arc::new),
            ..render_options
        };
        let mut base = located(base, &self.base);
        let mut head = diff::Head::of_run(
            &mut base,
            &head_run,
            head_merged,
            Some(head_findings),
            &render_options,
            graph,
        );
        phases.mark("head side");
        // What is left (comparing, writing) makes little: the run is freed beside it.
        lint::drop_aside(head_run);
        head.side = located(head.side, &self.head);
        let d = diff::diff_head(&base, head);
        phases.mark("compare");
        Ok(d)
    }

    /// The base's run reduced to its side (rendered whole) and each Gateway's inputs; its facts
    /// and objects of the files the head has the same then go to the head's run.
    fn base_side(
        &self,
        render_options: &RenderOptions,
        graph: bool,
    ) -> Result<(Inputs, Side), String> {
        let mut base_run = side_run(&self.base, &self.options)?;
        let base_findings = located_findings(&mut base_run);
        let global = self.options.config.global_policy_namespace.as_deref();
        let (inputs, side) = rayon::join(
            || Inputs::of_run(&base_run, render_options, global),
            || Side::of_located(&base_run, base_findings, render_options, graph),
        );
        match &self.options.reuse {
            Some(reuse) => reuse.take_model(base_run),
            None => drop(base_run),
        }
        Ok((inputs, side))
    }
}

/// Prints the diff in the asked format; the exit code says whether it changes the effect or
/// introduces findings at the `--fail-on` level.
fn report(args: &DiffArgs, d: &diff::Diff, mut phases: crate::lint::Phases) -> u8 {
    let text = match args.output {
        DiffFormat::Human => diff::human(
            d,
            use_color(
                args.color,
                std::io::stdout().is_terminal(),
                std::env::var_os("NO_COLOR").as_deref(),
            ),
        ),
        DiffFormat::Json => diff::json(d),
        DiffFormat::Markdown => diff::markdown(d, args.max_chars),
    };
    phases.mark("report");
    if let Err(code) = print_stdout(&text) {
        super::exit_now(code);
    }
    phases.mark("write");
    let changed = args.exit_code && d.changes_effect();
    let failed = args
        .fail_on
        .is_some_and(|f| d.introduced_at_least(threshold(f)) > 0);
    super::exit_now(u8::from(changed || failed))
}

/// BASE and HEAD from the three forms of the command line.
fn sides(args: &DiffArgs) -> Result<(Input, Input), String> {
    if let Some(rev) = &args.git {
        // Handed to git as an argument: a leading `-` would be read as an option.
        if rev.is_empty() || rev.starts_with('-') {
            return Err(format!("--git {rev:?} is not a git revision"));
        }
        let mut head: Vec<PathBuf> = args.paths.iter().chain(&args.head).cloned().collect();
        if head.is_empty() {
            head.push(PathBuf::from("."));
        }
        if head.iter().any(|p| p.as_os_str() == "-") {
            return Err("diff reads no stdin (`-`): give paths".to_string());
        }
        return Ok((Input::Git(rev.clone(), head.clone()), Input::Paths(head)));
    }
    let (base, head) = if args.base.is_empty() && args.head.is_empty() {
        match &args.paths[..] {
            [b, h] => (vec![b.clone()], vec![h.clone()]),
            _ => {
                return Err(
                    "diff takes BASE HEAD, --base PATH... --head PATH..., or --git REV [PATH...]"
                        .to_string(),
                );
            }
        }
    } else if !args.paths.is_empty() || args.base.is_empty() || args.head.is_empty() {
        return Err("with --base and --head, give every path through them".to_string());
    } else {
        (args.base.clone(), args.head.clone())
    };
    if base.iter().chain(&head).any(|p| p.as_os_str() == "-") {
        return Err("diff reads no stdin (`-`): give paths".to_string());
    }
    Ok((Input::Paths(base), Input::Paths(head)))
}

/// A side's findings, located; its texts, read no more after, are freed before it renders.
fn located_findings(run: &mut LintRun) -> diff::findings::Findings {
    let findings = diff::findings::of_run(run);
    run.files = Vec::new();
    findings
}

/// One side's run; `Err` when an input could not be read.
fn side_run(input: &Input, options: &LintOptions) -> Result<LintRun, String> {
    let run = match input {
        Input::Paths(paths) => lint_paths(paths, options)?,
        Input::Git(rev, paths) => revision(rev, paths, options)?,
    };
    match super::unreadable(&run) {
        Some(unread) => Err(unread),
        None => Ok(run),
    }
}

/// A side's findings located in the revision they were read from.
fn located(mut side: Side, input: &Input) -> Side {
    if let Input::Git(rev, _) = input {
        side.findings.locate_in(&format!("{rev}:"));
    }
    side
}

/// A git revision's manifests, linted as files on disk are (with the values file from disk).
fn revision(rev: &str, paths: &[PathBuf], options: &LintOptions) -> Result<LintRun, String> {
    // The config file's include and exclude globs, as lint_paths adds them on disk.
    let filters = input::Filters {
        include: options.config.include.clone(),
        exclude: options.config.exclude.clone(),
    };
    let mut loaded =
        diff::git::read_revision(rev, paths, &filters, options.limits.max_total_bytes)?;
    lint::without_kustomization_inputs(&mut loaded, &options.limits);
    let values = match options.values_file() {
        Some(path) => {
            let read = input::load(&[path.to_path_buf()], &input::Filters::default())?;
            if read.input_error() {
                return Err(read.unreadable.join("; "));
            }
            read.files.into_iter().next()
        }
        None => None,
    };
    let mut run = lint_sources_with_values(loaded.files, values, options);
    run.diagnostics.splice(0..0, loaded.diagnostics);
    Ok(run)
}
