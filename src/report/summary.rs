//! The one-line summary that ends the human report.

use crate::diag::Severity;
use crate::lint::LintRun;

/// `3 files, 5 resources: 2 errors, 1 warning, 0 infos (0.12s)`.
pub fn summary_line(run: &LintRun) -> String {
    let s = &run.stats;
    format!(
        "{}, {}: {}, {}, {} ({:.2}s)",
        plural(s.files, "file"),
        plural(s.resources, "resource"),
        plural(run.count(Severity::Error), "error"),
        plural(run.count(Severity::Warning), "warning"),
        plural(run.count(Severity::Info), "info"),
        s.elapsed.as_secs_f64(),
    )
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}
