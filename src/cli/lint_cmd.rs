//! `gwctl lint`: runs the pipeline, prints the report, decides the exit status.

use std::ffi::OsStr;
use std::io::IsTerminal;

use super::args::{ColorChoice, FailOn, LintArgs};
use super::{EXIT_USAGE, print_stdout, usage_error};
use crate::diag::Severity;
use crate::input::Filters;
use crate::lint::{LintOptions, LintRun, lint_paths};
use crate::report::{self, RenderOptions};

/// Width of the human report when `COLUMNS` does not say; fixed so output is reproducible.
const DEFAULT_WIDTH: usize = 100;

pub(super) fn run(args: &LintArgs) -> u8 {
    let options = LintOptions {
        filters: Filters {
            include: args.include.clone(),
            exclude: args.exclude.clone(),
        },
        limits: (&args.limits).into(),
        registry: None,
        values: args.values.clone(),
    };
    let run = match lint_paths(&args.paths, &options) {
        Ok(run) => run,
        Err(message) => return usage_error(&message),
    };
    let render_options = RenderOptions {
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
    };
    print_stdout(&report::render(&run, args.format, &render_options));
    exit_code(&run, args.fail_on)
}

/// 2 when an input could not be read, else 1 when a finding is at or above `fail_on`, else 0.
/// The same in every output format.
pub fn exit_code(run: &LintRun, fail_on: FailOn) -> u8 {
    let threshold = match fail_on {
        FailOn::Error => Severity::Error,
        FailOn::Warning => Severity::Warning,
    };
    if run.input_error {
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
