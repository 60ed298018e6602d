//! `gwctl completions` and `gwctl man`: generated from the clap definition, so they cannot
//! drift from the real flags. The committed copies in `completions/` and `man/` are checked for
//! staleness by tests/cli.rs.

use std::path::Path;

use clap::{CommandFactory, ValueEnum};
use clap_complete::Shell;

use super::args::{Cli, CompletionsArgs, ManArgs};
use super::usage_error;

pub(super) fn run_completions(args: &CompletionsArgs) -> u8 {
    if let Some(dir) = &args.dir {
        return match write_completions(dir) {
            Ok(()) => 0,
            Err(e) => usage_error(&format!("{}: {e}", dir.display())),
        };
    }
    let Some(shell) = args.shell else {
        // clap requires one of the two; kept for robustness.
        return usage_error("give a shell or --dir");
    };
    let mut cmd = generated_command();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut cmd, "gwctl", &mut out);
    super::print_stdout(&String::from_utf8_lossy(&out)).map_or_else(|code| code, |()| 0)
}

pub(super) fn run_man(args: &ManArgs) -> u8 {
    match write_man_pages(&args.dir) {
        Ok(()) => 0,
        Err(e) => usage_error(&format!("{}: {e}", args.dir.display())),
    }
}

/// Writes the completion script of every shell clap_complete supports into `dir`.
pub fn write_completions(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let mut cmd = generated_command();
    for shell in Shell::value_variants() {
        clap_complete::generate_to(*shell, &mut cmd, "gwctl", dir)?;
    }
    Ok(())
}

/// Writes `gwctl.1` and one `gwctl-<subcommand>.1` per subcommand into `dir`.
pub fn write_man_pages(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    clap_mangen::generate_to(generated_command(), dir)
}

/// The command line without the commit in its version: generated files are committed.
fn generated_command() -> clap::Command {
    Cli::command().long_version(None::<&str>)
}
