//! Command line: argument parsing and dispatch. INTERFACE STUB: replaced by the real CLI.

use std::process::ExitCode;

pub fn main() -> ExitCode {
    ExitCode::SUCCESS
}
