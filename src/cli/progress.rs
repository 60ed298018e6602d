//! The progress bar of `gwctl lint`: on stderr, only when stderr is a terminal, the run is not
//! `--quiet`, and the input is large enough to take a second or more.

use std::sync::OnceLock;

use indicatif::{ProgressBar, ProgressStyle};

use crate::lint::Progress;

/// Inputs above either size get a bar; smaller runs finish before a bar would help.
const MIN_BYTES: u64 = 20 * 1024 * 1024;
const MIN_FILES: usize = 2000;

#[derive(Default)]
pub struct Bar {
    bar: OnceLock<ProgressBar>,
}

impl Progress for Bar {
    fn start(&self, files: usize, bytes: u64) {
        if bytes < MIN_BYTES && files < MIN_FILES {
            return;
        }
        // indicatif draws to stderr and hides itself when stderr is not a terminal or TERM=dumb.
        let bar = ProgressBar::new(bytes);
        if let Ok(style) = ProgressStyle::with_template(
            "linting {wide_bar} {binary_bytes}/{binary_total_bytes} ({eta})",
        ) {
            bar.set_style(style);
        }
        let _ = self.bar.set(bar);
    }

    fn file_done(&self, bytes: u64) {
        if let Some(bar) = self.bar.get() {
            bar.inc(bytes);
        }
    }

    fn finish(&self) {
        if let Some(bar) = self.bar.get() {
            bar.finish_and_clear();
        }
    }
}
