//! `gwctl lint --watch`: lint, then lint again whenever a manifest under the paths changes, until
//! Ctrl-C. Each report replaces the previous one on a terminal; piped, reports follow each other.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

use notify::{Event, EventKind, RecursiveMode, Watcher};

use super::args::LintArgs;
use super::lint_cmd::lint_once;
use super::{print_stdout, usage_error};

/// How often the wait for a change looks at the Ctrl-C flag.
const POLL: Duration = Duration::from_millis(100);
/// Changes arriving this soon after the first belong to the same save (an editor writes a
/// temporary file, renames it, touches the directory): one lint for all of them.
const SETTLE: Duration = Duration::from_millis(50);

/// Clears the screen and the scrollback and puts the cursor home.
const CLEAR: &str = "\x1b[2J\x1b[3J\x1b[H";

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

pub(super) fn run(args: &LintArgs) -> u8 {
    if args.paths.iter().any(|p| p.as_os_str() == "-") {
        return usage_error("--watch cannot read stdin (`-`): give files or directories");
    }
    let (tx, rx) = channel();
    let mut watcher = match notify::recommended_watcher(tx) {
        Ok(w) => w,
        Err(e) => return usage_error(&format!("--watch: cannot watch files: {e}")),
    };
    for path in &args.paths {
        // A file is watched through its directory: editors replace a file on save, and a watch
        // on the old file would see nothing after the first save.
        let (target, mode) = if path.is_dir() {
            (path.clone(), RecursiveMode::Recursive)
        } else {
            (parent_dir(path), RecursiveMode::NonRecursive)
        };
        if let Err(e) = watcher.watch(&target, mode) {
            return usage_error(&format!("--watch: {}: {e}", target.display()));
        }
    }
    catch_interrupt();
    let clear = std::io::stdout().is_terminal();
    loop {
        // An output that can no longer be written ends the watch, as it ends any command.
        if clear && let Err(code) = print_stdout(CLEAR) {
            return code;
        }
        lint_once(args);
        if !wait_for_change(&rx) {
            return 0;
        }
    }
}

fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Blocks until a manifest changes (true) or Ctrl-C is pressed or the watcher is gone (false).
fn wait_for_change(rx: &Receiver<notify::Result<Event>>) -> bool {
    loop {
        if INTERRUPTED.load(Ordering::SeqCst) {
            return false;
        }
        match rx.recv_timeout(POLL) {
            Ok(Ok(event)) if is_manifest_change(&event) => break,
            Ok(_) | Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => return false,
        }
    }
    while rx.recv_timeout(SETTLE).is_ok() {}
    !INTERRUPTED.load(Ordering::SeqCst)
}

/// A created, changed or removed YAML or JSON file (what `lint` reads), not a read or an
/// editor's swap file.
fn is_manifest_change(event: &Event) -> bool {
    matches!(
        event.kind,
        EventKind::Create(_) | EventKind::Modify(_) | EventKind::Remove(_) | EventKind::Any
    ) && event.paths.iter().any(|p| {
        p.extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| matches!(e, "yaml" | "yml" | "json"))
    })
}

#[cfg(target_os = "linux")]
fn catch_interrupt() {
    extern "C" fn on_signal(_: libc::c_int) {
        // Only an atomic store: nothing else is safe in a signal handler.
        INTERRUPTED.store(true, Ordering::SeqCst);
    }
    let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
    // SAFETY: the handler only stores to an atomic, which is async-signal-safe.
    unsafe {
        libc::signal(libc::SIGINT, handler);
        libc::signal(libc::SIGTERM, handler);
    }
}

/// Elsewhere Ctrl-C ends the process the default way.
#[cfg(not(target_os = "linux"))]
fn catch_interrupt() {}
