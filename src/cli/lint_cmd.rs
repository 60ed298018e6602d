//! `gwctl lint`: runs the pipeline, prints the report, decides the exit status.

use std::ffi::OsStr;
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::Arc;

use super::args::{ColorChoice, FailOn, LintArgs};
use super::progress::Bar;
use super::{EXIT_USAGE, usage_error, written};
use crate::config::{self, Config, ConfigError};
use crate::diag::Severity;
use crate::input::Filters;
use crate::lint::{BenchSkips, LintOptions, LintRun, Needs, Phases, Progress, lint_paths};
use crate::report::{self, Format, RenderOptions};

/// Width of the human report when `COLUMNS` does not say; fixed so output is reproducible.
const DEFAULT_WIDTH: usize = 100;

pub(super) fn run(args: &LintArgs) -> u8 {
    if args.watch {
        return super::watch::run(args);
    }
    let (code, run) = lint_keeping(args);
    // The process ends now and its memory with it: freeing a large run first (tens of
    // milliseconds at 100,000 resources) would only delay the exit.
    std::mem::forget(run);
    super::exit_now(code)
}

/// One lint of the paths: the report printed (and written with `--output`), the exit status
/// returned.
pub(super) fn lint_once(args: &LintArgs) -> u8 {
    lint_keeping(args).0
}

/// [`lint_once`], with the run linted (none when the lint stopped early or fixed files).
fn lint_keeping(args: &LintArgs) -> (u8, Option<LintRun>) {
    let config = match load_config(args.config.as_deref()) {
        Ok(config) => config,
        Err(code) => return (code, None),
    };
    let progress: Option<Arc<dyn Progress>> = (!args.quiet && std::io::stderr().is_terminal())
        .then(|| Arc::new(Bar::default()) as Arc<dyn Progress>);
    let options = LintOptions {
        filters: Filters {
            include: args.include.clone(),
            exclude: args.exclude.clone(),
        },
        limits: (&args.limits).into(),
        registry: None,
        config,
        progress,
        values: args.values.clone(),
        strict_refs: args.strict_refs,
        crds: args.crds.clone(),
        needs: Needs::Findings,
        // Not a flag: a benchmarking aid that no user needs (bench/resolve.sh).
        bench: BenchSkips::from_env(),
        texts: None,
        reuse: None,
    };
    let render_options = render_options(args);
    if args.fixing() {
        return (super::fix_cmd::run(args, &options, &render_options), None);
    }
    let mut phases = Phases::start();
    let run = match lint_paths(&args.paths, &options) {
        Ok(run) => run,
        Err(message) => return (usage_error(&message), None),
    };
    let terminal_format = match &args.output {
        Some(path) => {
            let file_options = RenderOptions {
                color: false,
                ..render_options.clone()
            };
            if let Err(e) = write_report_file(path, &run, args.format, &file_options) {
                return (usage_error(&format!("{}: {e}", path.display())), None);
            }
            Format::Human
        }
        None => args.format,
    };
    phases.mark("lint");
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let printed =
        report::write(&run, terminal_format, &render_options, &mut out).and_then(|()| out.flush());
    drop(out);
    if let Err(code) = written(printed) {
        super::exit_now(code);
    }
    phases.mark("report");
    // Formats without a place for the table keep stdout machine-readable: it goes to stderr.
    if args.statistics && !matches!(terminal_format, Format::Human | Format::Json) {
        eprint!("{}", report::statistics_table(&run));
    }
    (exit_code(&run, args.fail_on), Some(run))
}

/// How the report is printed: colour, width and the flags that shape it.
fn render_options(args: &LintArgs) -> RenderOptions {
    RenderOptions {
        color: use_color(
            args.color,
            std::io::stdout().is_terminal(),
            std::env::var_os("NO_COLOR").as_deref(),
        ),
        width: std::env::var("COLUMNS")
            .ok()
            .and_then(|c| c.trim().parse().ok())
            .filter(|w| *w >= 40)
            .unwrap_or(DEFAULT_WIDTH),
        quiet: args.quiet,
        show_suppressed: args.show_suppressed,
        statistics: args.statistics,
        fail_on: threshold(args.fail_on),
    }
}

/// `--output FILE`: the report in its format, streamed to the file.
pub(super) fn write_report_file(
    path: &Path,
    run: &LintRun,
    format: Format,
    options: &RenderOptions,
) -> std::io::Result<()> {
    let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
    report::write(run, format, options, &mut out)?;
    out.flush()
}

/// The config file named by `--config`, else the nearest one above the current directory, else
/// the defaults. A file that cannot be read or has errors is a usage error: its findings go to
/// stderr.
pub(super) fn load_config(explicit: Option<&Path>) -> Result<Config, u8> {
    let path = match explicit {
        Some(p) => Some(p.to_path_buf()),
        None => std::env::current_dir()
            .ok()
            .and_then(|dir| config::discover(&dir)),
    };
    let Some(path) = path else {
        return Ok(Config::default());
    };
    match config::load_file(&path) {
        Ok(config) => Ok(config),
        Err(ConfigError::Unreadable(message)) => {
            Err(usage_error(&format!("cannot read config file {message}")))
        }
        Err(ConfigError::Invalid { file, diagnostics }) => {
            let run = LintRun {
                files: vec![*file],
                diagnostics,
                ..LintRun::default()
            };
            let options = RenderOptions {
                quiet: true,
                ..RenderOptions::default()
            };
            eprint!("{}", report::render(&run, Format::Human, &options));
            Err(usage_error(&format!(
                "invalid config file {}",
                path.display()
            )))
        }
    }
}

pub(super) fn threshold(fail_on: FailOn) -> Severity {
    match fail_on {
        FailOn::Error => Severity::Error,
        FailOn::Warning => Severity::Warning,
    }
}

/// 2 when an input could not be read, else 1 when a finding is at or above `fail_on`, else 0.
/// The same in every output format; suppressed findings do not count.
pub fn exit_code(run: &LintRun, fail_on: FailOn) -> u8 {
    let threshold = threshold(fail_on);
    if run.input_error() {
        EXIT_USAGE
    } else if run.diagnostics.iter().any(|d| d.severity >= threshold) {
        1
    } else {
        0
    }
}

/// Colour when asked to, or (auto) when stdout is a terminal and `NO_COLOR` is unset or empty
/// (<https://no-color.org>).
pub fn use_color(choice: ColorChoice, stdout_is_terminal: bool, no_color: Option<&OsStr>) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => stdout_is_terminal && no_color.is_none_or(OsStr::is_empty),
    }
}
