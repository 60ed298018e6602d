//! Command line: argument parsing and dispatch. Reports go to stdout, usage errors to stderr.

pub mod args;
mod diff_cmd;
mod explain_cmd;
mod fix_cmd;
mod generate;
mod graph_cmd;
mod lint_cmd;
mod pretty_json;
mod progress;
mod render_cmd;
mod rules_cmd;
mod schema_cmd;
mod watch;

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

pub use args::{Cli, ColorChoice, Command, FailOn};
pub use generate::{write_completions, write_man_pages};
pub use lint_cmd::{exit_code, use_color};
pub use rules_cmd::{rule_details, rules_markdown, rules_table};
pub use schema_cmd::schema_text;

/// Exit status for a usage or input error (clap uses the same for bad flags).
pub const EXIT_USAGE: u8 = 2;

pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // Prints help/version to stdout (exit 0) or the error to stderr (exit 2).
        Err(e) => e.exit(),
    };
    let code = match cli.command {
        Command::Lint(a) => lint_cmd::run(&a),
        Command::Rules(a) => rules_cmd::run(&a),
        Command::Schema(a) => schema_cmd::run(&a),
        Command::Explain(a) => explain_cmd::run(&a),
        Command::Render(a) => render_cmd::run(&a),
        Command::Diff(a) => diff_cmd::run(&a),
        Command::Graph(a) => graph_cmd::run(&a),
        Command::Completions(a) => generate::run_completions(&a),
        Command::Man(a) => generate::run_man(&a),
        Command::Lsp(_) => match crate::lsp::serve() {
            Ok(code) => code,
            Err(message) => usage_error(&format!("lsp: {message}")),
        },
    };
    ExitCode::from(code)
}

/// Writes to stdout. `Err` is the exit status after a failed write (a full disk), which is
/// reported; a closed pipe (`gwctl lint | head`) is not an error worth reporting.
pub(crate) fn print_stdout(text: &str) -> Result<(), u8> {
    let mut out = std::io::stdout().lock();
    written(out.write_all(text.as_bytes()).and_then(|()| out.flush()))
}

/// The outcome of writing the output: a failure other than a closed pipe is reported on stderr
/// and is exit status 2 (a report that did not reach its file must not pass for a clean run).
pub(crate) fn written(result: std::io::Result<()>) -> Result<(), u8> {
    match result {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(usage_error(&format!("cannot write the output: {e}")))
        }
        _ => Ok(()),
    }
}

/// `render` and `explain` print no findings; an input they could not use whole (a file that is
/// not UTF-8, one skipped over a limit: findings without a position) must not pass silently, so
/// those are written on stderr as lint's short format writes them. True when one is an error.
pub(crate) fn report_skipped_inputs(run: &crate::lint::LintRun) -> bool {
    let mut error = false;
    for d in run.diagnostics.iter().filter(|d| d.location.is_none()) {
        if d.severity >= crate::diag::Severity::Warning {
            eprintln!("{}", crate::report::stderr_line(d));
            error |= d.severity == crate::diag::Severity::Error;
        }
    }
    error
}

/// What could not be read, when a path of the run was unreadable (a usage error for the commands
/// that need every input).
pub(crate) fn unreadable(run: &crate::lint::LintRun) -> Option<String> {
    run.input_error().then(|| run.unreadable.join("; "))
}

/// Lints with the model kept (`explain`, `graph`): the run, and 1 when an input could not be
/// used whole (see [`report_skipped_inputs`]); `Err` is the exit status of a usage error or an
/// unreadable path.
pub(crate) fn model_run(
    config: crate::config::Config,
    values: Option<std::path::PathBuf>,
    paths: &[std::path::PathBuf],
) -> Result<(crate::lint::LintRun, u8), u8> {
    let options = crate::lint::LintOptions {
        config,
        values,
        needs: crate::lint::Needs::Model,
        ..crate::lint::LintOptions::default()
    };
    let run = crate::lint::lint_paths(paths, &options).map_err(|message| usage_error(&message))?;
    if let Some(unread) = unreadable(&run) {
        return Err(usage_error(&unread));
    }
    let skipped = u8::from(report_skipped_inputs(&run));
    Ok((run, skipped))
}

/// Ends the process once every output is written, without running destructors or the
/// allocator's clean-up at exit: freeing a large run object by object, then returning its pages
/// to the system one by one, took a tenth of a second that the system does at once when the
/// process ends.
pub(crate) fn exit_now(code: u8) -> ! {
    use std::io::Write;
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    #[cfg(target_os = "linux")]
    // SAFETY: `_exit` takes a plain integer and never returns; nothing is left to write.
    unsafe {
        libc::_exit(i32::from(code))
    }
    #[cfg(not(target_os = "linux"))]
    std::process::exit(i32::from(code))
}

/// `gwctl: error: ...` on stderr, returning the usage exit status.
pub(crate) fn usage_error(message: &str) -> u8 {
    eprintln!("gwctl: error: {message}");
    EXIT_USAGE
}
