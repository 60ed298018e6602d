//! Load stage: turns the user's paths (files, directories, `-` for stdin) into source files.
//! Directories are walked recursively, honouring .gitignore and skipping hidden entries.

use std::io::Read;
use std::path::{Path, PathBuf};

use globset::{Glob, GlobSet, GlobSetBuilder};
use rayon::prelude::*;

use crate::diag::Diagnostic;
use crate::rules;
use crate::source::SourceFile;

mod helm;

/// Which files of a directory walk are read.
#[derive(Debug, Clone, Default)]
pub struct Filters {
    /// When non-empty, only files matching one of these globs (relative to the walked directory).
    pub include: Vec<String>,
    pub exclude: Vec<String>,
}

/// Files as read, in a stable order (arguments in order; each directory sorted by name).
pub struct Loaded {
    pub files: Vec<SourceFile>,
    /// Unreadable paths (GW001), bad encodings (GW009), skipped tool files and Helm chart
    /// sources (GW008).
    pub diagnostics: Vec<Diagnostic>,
    /// Why each path that could not be read at all was not (the run exits 2): the commands that
    /// need every input say so without looking at the findings.
    pub unreadable: Vec<String>,
    /// The kustomization files met (skipped, not linted): they name the patches and other files
    /// of theirs that are not manifests.
    pub kustomizations: Vec<SourceFile>,
}

impl Loaded {
    /// A path could not be read at all.
    pub fn input_error(&self) -> bool {
        !self.unreadable.is_empty()
    }
}

/// A finding about an input that could not be read, with its reason kept apart as data.
pub(crate) struct Unread {
    pub reason: String,
    pub finding: Diagnostic,
}

impl Unread {
    fn new(reason: String) -> Box<Self> {
        Box::new(Unread {
            finding: Diagnostic::new(rules::GW001, reason.clone()),
            reason,
        })
    }

    fn push(self, unreadable: &mut Vec<String>, diagnostics: &mut Vec<Diagnostic>) {
        unreadable.push(self.reason);
        diagnostics.push(self.finding);
    }
}

const EXTENSIONS: &[&str] = &["yaml", "yml", "json"];
/// The names kustomize reads a kustomization from.
const KUSTOMIZATIONS: &[&str] = &["kustomization.yaml", "kustomization.yml", "Kustomization"];
/// Files that hold tool configuration, not resources.
const TOOL_FILES: &[&str] = &[
    "kustomization.yaml",
    "kustomization.yml",
    "Kustomization",
    "Chart.yaml",
    // gwctl's own config file (`.gwctl.yaml` is hidden, so never walked).
    "gwctl.yaml",
];

/// Reads every input. Invalid globs are reported as usage errors by the caller through `Err`.
pub fn load(paths: &[PathBuf], filters: &Filters) -> Result<Loaded, String> {
    load_bounded(paths, filters, u64::MAX)
}

/// Like [`load`], reading at most `max_total_bytes` in all (`--max-total-bytes`): the files that
/// would go beyond are skipped with a finding (GW005), in input order.
pub fn load_bounded(
    paths: &[PathBuf],
    filters: &Filters,
    max_total_bytes: u64,
) -> Result<Loaded, String> {
    let include = build_globset(&filters.include)?;
    let exclude = build_globset(&filters.exclude)?;
    let mut candidates: Vec<Candidate> = Vec::new();
    let mut diagnostics = Vec::new();
    let mut unreadable = Vec::new();
    for path in paths {
        if path.as_os_str() == "-" {
            candidates.push(Candidate::Stdin);
            continue;
        }
        match std::fs::metadata(path) {
            Ok(meta) if meta.is_dir() => {
                walk_dir(
                    path,
                    include.as_ref(),
                    exclude.as_ref(),
                    &mut candidates,
                    (&mut unreadable, &mut diagnostics),
                );
            }
            Ok(meta) if meta.is_file() => candidates.push(Candidate::File(path.clone(), 0)),
            // A FIFO without a writer blocks forever, a device never ends: only `-` reads a stream.
            Ok(meta) => {
                let mut unread = Unread::new(format!(
                    "{}: not a regular file ({})",
                    display_name(path),
                    file_kind(&meta)
                ));
                unread.finding = unread
                    .finding
                    .with_help("give a stream on stdin with `-` (`cmd | gwctl lint -`)");
                unread.push(&mut unreadable, &mut diagnostics);
            }
            Err(e) => Unread::new(format!("{}: {}", path.display(), io_reason(&e)))
                .push(&mut unreadable, &mut diagnostics),
        }
    }
    let candidates = within_budget(candidates, max_total_bytes, &mut diagnostics);
    // Reading, the UTF-8 check and the line index run in parallel; ids follow input order.
    let read: Vec<Prepared> = candidates
        .into_par_iter()
        .map(|c| prepare(read_candidate(c)))
        .collect();
    let mut files = Vec::with_capacity(read.len());
    let mut kustomizations = Vec::new();
    for item in read {
        match item {
            Prepared::File(mut file) => {
                file.id = files.len();
                files.push(file);
            }
            Prepared::Skipped(d) => diagnostics.push(*d),
            Prepared::Tool(d, kustomization) => {
                diagnostics.push(*d);
                kustomizations.extend(kustomization);
            }
            Prepared::Failed(unread) => unread.push(&mut unreadable, &mut diagnostics),
        }
    }
    Ok(Loaded {
        files,
        diagnostics,
        unreadable,
        kustomizations,
    })
}

/// What became of one candidate: a source file (its id is set in input order), or a finding.
enum Prepared {
    File(SourceFile),
    /// Not linted, not an input error (a binary file).
    Skipped(Box<Diagnostic>),
    /// A tool file, not linted; a kustomization's text is kept.
    Tool(Box<Diagnostic>, Option<SourceFile>),
    Failed(Box<Unread>),
}

fn prepare(read: ReadResult) -> Prepared {
    let (name, bytes) = match read {
        Ok(r) => r,
        Err(d) => return Prepared::Failed(d),
    };
    let file_name = Path::new(&name).file_name().and_then(|f| f.to_str());
    if let Some(tool) = file_name.filter(|f| TOOL_FILES.contains(f)) {
        let kustomization = KUSTOMIZATIONS.contains(&tool);
        let d = Diagnostic::new(
            rules::GW008,
            format!("{name}: skipped: a tool file, not a resource"),
        );
        let text = kustomization
            .then(|| String::from_utf8(bytes).ok())
            .flatten();
        let kept = text.map(|text| SourceFile::new(0, name, text));
        return Prepared::Tool(Box::new(d), kept);
    }
    match String::from_utf8(bytes) {
        Ok(text) => Prepared::File(SourceFile::new(0, name, text)),
        Err(e) => Prepared::Skipped(Box::new(Diagnostic::new(
            rules::GW009,
            format!(
                "{name}: skipped: not UTF-8 text (invalid byte at offset {})",
                e.utf8_error().valid_up_to()
            ),
        ))),
    }
}

/// A file's display name and bytes, or why it could not be read.
type ReadResult = Result<(String, Vec<u8>), Box<Unread>>;

enum Candidate {
    Stdin,
    /// A regular file, and the bytes it may have when read (what was left of the budget when
    /// it was counted), so that a file that grows meanwhile is read only that far.
    File(PathBuf, u64),
    /// Already read (stdin, whose size is known only by reading it).
    Read(ReadResult),
}

/// The candidates that fit in `max` bytes together. Sizes are those of the directory listing: a
/// file that grows before it is read is not cut, the bound is on what the user gave.
fn within_budget(
    candidates: Vec<Candidate>,
    max: u64,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Candidate> {
    let mut left = max;
    let mut out = Vec::with_capacity(candidates.len());
    let skip =
        |name: String, diagnostics: &mut Vec<Diagnostic>| diagnostics.push(over_budget(&name, max));
    for c in candidates {
        match c {
            Candidate::File(p, _) => {
                // An unreadable file costs nothing: reading it reports why.
                let size = std::fs::metadata(&p).map_or(0, |m| m.len());
                if size > left {
                    skip(display_name(&p), diagnostics);
                } else {
                    out.push(Candidate::File(p, left));
                    left -= size;
                }
            }
            Candidate::Stdin => match read_stdin(left) {
                Ok((name, bytes)) if bytes.len() as u64 > left => skip(name, diagnostics),
                Ok((name, bytes)) => {
                    left -= bytes.len() as u64;
                    out.push(Candidate::Read(Ok((name, bytes))));
                }
                Err(d) => out.push(Candidate::Read(Err(d))),
            },
            read @ Candidate::Read(_) => out.push(read),
        }
    }
    out
}

/// The finding for a file skipped because the inputs exceed `--max-total-bytes`.
pub fn over_budget(name: &str, max: u64) -> Diagnostic {
    Diagnostic::new(rules::GW005, over_budget_reason(name, max))
        .with_help("raise the limit with --max-total-bytes to lint this file")
}

fn over_budget_reason(name: &str, max: u64) -> String {
    format!("{name}: skipped: the inputs exceed --max-total-bytes ({max} bytes)")
}

/// Stdin, reading one byte more than `limit` at most (enough to tell it is too large).
fn read_stdin(limit: u64) -> ReadResult {
    let mut buf = Vec::new();
    std::io::stdin()
        .take(limit.saturating_add(1))
        .read_to_end(&mut buf)
        .map_err(|e| Unread::new(format!("<stdin>: {}", io_reason(&e))))?;
    Ok(("<stdin>".to_string(), buf))
}

/// A failed read is boxed: the error path is rare and `Diagnostic` is large.
fn read_candidate(c: Candidate) -> ReadResult {
    match c {
        Candidate::Stdin => read_stdin(u64::MAX),
        Candidate::Read(r) => r,
        Candidate::File(p, allowed) => {
            let name = display_name(&p);
            let mut bytes = Vec::new();
            let read = std::fs::File::open(&p)
                .and_then(|f| f.take(allowed.saturating_add(1)).read_to_end(&mut bytes));
            match read {
                // The file grew past what the budget left it since it was listed.
                Ok(_) if bytes.len() as u64 > allowed => Err(Box::new(Unread {
                    finding: over_budget(&name, allowed),
                    reason: over_budget_reason(&name, allowed),
                })),
                Ok(_) => Ok((name, bytes)),
                Err(e) => Err(Unread::new(format!("{name}: {}", io_reason(&e)))),
            }
        }
    }
}

/// Adds the candidate files below `root`; an entry that cannot be read (a dangling link, a link
/// loop) is an input error like an unreadable path argument.
fn walk_dir(
    root: &Path,
    include: Option<&GlobSet>,
    exclude: Option<&GlobSet>,
    out: &mut Vec<Candidate>,
    (unreadable, diagnostics): (&mut Vec<String>, &mut Vec<Diagnostic>),
) {
    let walker = ignore::WalkBuilder::new(root)
        .hidden(true)
        .require_git(false)
        .follow_links(true)
        .sort_by_file_name(|a, b| a.cmp(b))
        .build();
    let mut found = Vec::new();
    for entry in walker {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                Unread::new(walk_error(root, &e)).push(unreadable, diagnostics);
                continue;
            }
        };
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let path = entry.path();
        if !is_candidate(path) {
            continue;
        }
        let rel = path.strip_prefix(root).unwrap_or(path);
        if include.is_some_and(|g| !g.is_match(rel)) || exclude.is_some_and(|g| g.is_match(rel)) {
            continue;
        }
        found.push(path.to_path_buf());
    }
    let listed: Vec<&Path> = found.iter().map(PathBuf::as_path).collect();
    for (path, skip) in found.iter().zip(helm::chart_sources(&listed)) {
        match skip {
            Some(d) => diagnostics.push(d),
            None => out.push(Candidate::File(path.clone(), 0)),
        }
    }
}

/// What a path that is neither a file nor a directory is, for the finding.
fn file_kind(meta: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    let _ = meta;
    "neither a file nor a directory"
}

/// Whether a directory walk reads a file of this name: a manifest extension or a tool file (which
/// is then skipped with a finding).
pub fn is_candidate(path: &Path) -> bool {
    let has_ext = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| EXTENSIONS.contains(&e));
    has_ext
        || path
            .file_name()
            .is_some_and(|f| TOOL_FILES.iter().any(|t| f == *t))
}

/// Whether a file found below a directory argument is read, by its path relative to that
/// directory: the `--include`/`--exclude` globs, as a directory walk applies them.
pub fn filter(filters: &Filters) -> Result<impl Fn(&Path) -> bool, String> {
    let include = build_globset(&filters.include)?;
    let exclude = build_globset(&filters.exclude)?;
    Ok(move |rel: &Path| {
        include.as_ref().is_none_or(|g| g.is_match(rel))
            && !exclude.as_ref().is_some_and(|g| g.is_match(rel))
    })
}

/// Files read elsewhere (a git revision), as (display name, bytes) in input order: checked as
/// read files are (tool files, Helm chart sources and non-UTF-8 text are skipped with a finding).
pub fn from_memory(read: Vec<(String, Vec<u8>)>) -> Loaded {
    let mut files = Vec::with_capacity(read.len());
    let mut kustomizations = Vec::new();
    let mut diagnostics = Vec::new();
    let listed: Vec<&Path> = read
        .iter()
        .map(|(name, _)| Path::new(name.as_str()))
        .collect();
    let charts = helm::chart_sources(&listed);
    for (r, skip) in read.into_iter().zip(charts) {
        if let Some(d) = skip {
            diagnostics.push(d);
            continue;
        }
        match prepare(Ok(r)) {
            Prepared::File(mut file) => {
                file.id = files.len();
                files.push(file);
            }
            Prepared::Skipped(d) => diagnostics.push(*d),
            Prepared::Tool(d, kustomization) => {
                diagnostics.push(*d);
                kustomizations.extend(kustomization);
            }
            Prepared::Failed(unread) => diagnostics.push(unread.finding),
        }
    }
    Loaded {
        files,
        diagnostics,
        unreadable: Vec::new(),
        kustomizations,
    }
}

/// A walk error naming the entry it is about (a dangling link, a loop), once.
fn walk_error(root: &Path, e: &ignore::Error) -> String {
    match e {
        ignore::Error::WithDepth { err, .. } => walk_error(root, err),
        ignore::Error::WithPath { path, err } => match err.io_error() {
            Some(io) => format!("{}: {}", display_name(path), io_reason(io)),
            None => format!("{}: {err}", display_name(path)),
        },
        ignore::Error::Loop { ancestor, child } => format!(
            "{}: symbolic link loop: it leads back to {}",
            display_name(child),
            display_name(ancestor)
        ),
        _ => format!("{}: {e}", root.display()),
    }
}

fn build_globset(globs: &[String]) -> Result<Option<GlobSet>, String> {
    if globs.is_empty() {
        return Ok(None);
    }
    let mut b = GlobSetBuilder::new();
    for g in globs {
        b.add(Glob::new(g).map_err(|e| format!("invalid glob {g:?}: {e}"))?);
    }
    b.build().map(Some).map_err(|e| e.to_string())
}

fn display_name(p: &Path) -> String {
    let s = p.to_string_lossy();
    s.strip_prefix("./").unwrap_or(&s).to_string()
}

fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".to_string(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        _ => e.to_string(),
    }
}
