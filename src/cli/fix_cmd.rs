//! `gwctl lint --fix`, `--unsafe-fixes`, `--diff`, `--fix-only`: the fix rounds of
//! [`crate::fix`], then the files written (or the diff printed), the report of what remains and a
//! summary on stderr.

use std::io::Write;

use super::args::LintArgs;
use super::lint_cmd::exit_code;
use super::{EXIT_USAGE, usage_error, written};
use crate::fix::{self, FixOutcome, Selection};
use crate::lint::LintOptions;
use crate::report::{self, Format, RenderOptions};

pub(super) fn run(args: &LintArgs, options: &LintOptions, render: &RenderOptions) -> u8 {
    let selection = if args.unsafe_fixes {
        Selection::All
    } else {
        Selection::Safe
    };
    let outcome = match fix::fix_paths(&args.paths, options, selection) {
        Ok(outcome) => outcome,
        Err(message) => return usage_error(&message),
    };
    warn_unapplied(&outcome);
    if args.diff {
        return print_diff(&outcome);
    }
    if let Err(errors) = fix::write::write_all(&outcome.changed) {
        for e in &errors {
            eprintln!("gwctl: error: cannot fix {e}");
        }
        return EXIT_USAGE;
    }
    if let Err(code) = report_remaining(args, &outcome, render) {
        return code;
    }
    eprintln!(
        "gwctl: {}",
        summary(&outcome, "applied", ("remains", "remain"))
    );
    if args.fix_only {
        u8::from(outcome.run.input_error()) * EXIT_USAGE
    } else {
        exit_code(&outcome.run, args.fail_on)
    }
}

/// The fixes that were not applied as offered: malformed ones, and those tried again after an
/// overlap.
fn warn_unapplied(outcome: &FixOutcome) {
    for (file, title) in &outcome.malformed {
        eprintln!(
            "gwctl: {file}: fix \"{title}\" not applied: its edits overlap one another or fall outside the file"
        );
    }
    for (file, title) in &outcome.deferred {
        eprintln!(
            "gwctl: {file}: fix \"{title}\" overlapped another fix; tried again on the fixed text"
        );
    }
}

/// `--diff`: the fixes as a unified diff on stdout, nothing written; the exit code says whether
/// there is something to fix.
fn print_diff(outcome: &FixOutcome) -> u8 {
    // A diff shows lines around each edit: not those of a file with secret values.
    let secret: Vec<&str> = outcome
        .run
        .masked
        .iter()
        .filter_map(|m| outcome.run.files.get(m.file).map(|f| f.name.as_str()))
        .collect();
    let shown: Vec<fix::Changed> = outcome
        .changed
        .iter()
        .filter(|c| {
            let hidden = secret.contains(&c.name.as_str());
            if hidden {
                eprintln!("gwctl: {}: holds secret values; its fixes are not shown as a diff (--fix applies them)", c.name);
            }
            !hidden
        })
        .cloned()
        .collect();
    if let Err(code) = super::print_stdout(&fix::diff::unified(&shown)) {
        return code;
    }
    eprintln!(
        "gwctl: {}",
        summary(
            outcome,
            "would be applied",
            ("would remain", "would remain")
        )
    );
    u8::from(!outcome.changed.is_empty())
}

/// After the files are written: stdin's fixed text on stdout, the report of the findings that
/// remain to `--output` and to the terminal (unless `--fix-only`). `Err` is the exit code of a
/// failed write.
fn report_remaining(
    args: &LintArgs,
    outcome: &FixOutcome,
    render: &RenderOptions,
) -> Result<(), u8> {
    let stdin = stdin_text(args, outcome);
    if let Some(text) = &stdin {
        super::print_stdout(text)?;
    }
    if let Some(path) = &args.output {
        let file_options = RenderOptions {
            color: false,
            ..render.clone()
        };
        let run = &outcome.run;
        if let Err(e) = super::lint_cmd::write_report_file(path, run, args.format, &file_options) {
            return Err(usage_error(&format!("{}: {e}", path.display())));
        }
    }
    if args.fix_only {
        return Ok(());
    }
    // With stdin's fixed text on stdout, the report goes to stderr, in the human format.
    let printed = if stdin.is_some() {
        let mut err = std::io::stderr().lock();
        let options = RenderOptions {
            color: false,
            ..render.clone()
        };
        report::write(&outcome.run, Format::Human, &options, &mut err).and_then(|()| err.flush())
    } else {
        // With --output the report went to the file; the terminal gets the human format.
        let format = if args.output.is_some() {
            Format::Human
        } else {
            args.format
        };
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        report::write(&outcome.run, format, render, &mut out).and_then(|()| out.flush())
    };
    written(printed)
}

/// The fixed text of stdin (as read when nothing changed), when `-` is an input.
fn stdin_text(args: &LintArgs, outcome: &FixOutcome) -> Option<String> {
    if !args.paths.iter().any(|p| p.as_os_str() == "-") {
        return None;
    }
    if let Some(c) = outcome.changed.iter().find(|c| c.name == "<stdin>") {
        return Some(c.fixed.to_string());
    }
    let file = outcome.run.files.iter().find(|f| f.name == "<stdin>")?;
    Some(file.text.to_string())
}

/// `3 fixes applied in 2 files, 1 finding remains`; `remain` is the verb for one and for several.
fn summary(outcome: &FixOutcome, applied: &str, remain: (&str, &str)) -> String {
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let remaining = outcome.run.diagnostics.len();
    let mut s = format!(
        "{} {applied} in {}, {} {}",
        plural(outcome.applied, "fix", "fixes"),
        plural(outcome.changed.len(), "file", "files"),
        plural(remaining, "finding", "findings"),
        if remaining == 1 { remain.0 } else { remain.1 },
    );
    if outcome.left > 0 {
        s.push_str(&format!(
            " ({} not applied after {} rounds of fixes)",
            plural(outcome.left, "fix", "fixes"),
            fix::MAX_ROUNDS
        ));
    }
    s
}
