//! The server's state: the workspace folders linted as `gwctl lint` would read them, the
//! editor's unsaved buffers over the files on disk, the last run, and what was published.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use lsp_types::{PublishDiagnosticsParams, TextDocumentContentChangeEvent, Uri};

use crate::config;
use crate::lint::{Incremental, LintOptions, LintRun, Needs};
use crate::report::lsp::{lsp_diagnostic, offset};
use crate::source::{FileId, SourceFile};

use super::uri;

pub struct Workspace {
    roots: Vec<PathBuf>,
    options: LintOptions,
    /// Why the config file or the folders could not be used, for the client to show.
    pub problem: Option<String>,
    inc: Incremental,
    /// Unsaved buffers by path, with their versions: they win over the disk.
    open: BTreeMap<PathBuf, (String, i32)>,
    ids: HashMap<PathBuf, FileId>,
    pub run: LintRun,
    /// The diagnostics last published per file (files without findings are absent).
    published: HashMap<PathBuf, Vec<lsp_types::Diagnostic>>,
}

impl Workspace {
    /// The workspace of the folders: their config file (the first folder's nearest), then every
    /// file linted once.
    pub fn new(roots: Vec<PathBuf>) -> Self {
        let (options, problem) = options_of(&roots);
        let mut ws = Workspace {
            roots,
            options,
            problem,
            inc: Incremental::empty(&LintOptions::default()),
            open: BTreeMap::new(),
            ids: HashMap::new(),
            run: LintRun::default(),
            published: HashMap::new(),
        };
        ws.reload();
        ws
    }

    /// The config file changed: its settings read again, then every folder.
    pub fn reconfigure(&mut self) {
        (self.options, self.problem) = options_of(&self.roots);
        self.reload();
    }

    /// Reads every folder again (files were created or deleted), the open buffers over it.
    pub fn reload(&mut self) {
        self.inc = match Incremental::load(&self.roots, &self.options) {
            Ok(inc) => inc,
            Err(message) => {
                self.problem = Some(message);
                Incremental::empty(&self.options)
            }
        };
        self.ids = self
            .inc
            .files()
            .iter()
            .map(|f| (PathBuf::from(&f.name), f.id))
            .collect();
        let open: Vec<(PathBuf, String)> = self
            .open
            .iter()
            .map(|(p, (t, _))| (p.clone(), t.clone()))
            .collect();
        for (path, text) in open {
            self.put(&path, &text);
        }
        self.relint();
    }

    /// The text of a file, the buffer's when it is open. A file of a folder that the lint did not
    /// read (excluded by the config or .gitignore) stays out, as it is out of `gwctl lint`.
    fn put(&mut self, path: &Path, text: &str) {
        if self.inc.set_values_text(path, text) {
            return;
        }
        match self.ids.get(path) {
            Some(&id) => {
                self.inc.set_text(id, text);
            }
            None if path.is_file() && self.roots.iter().any(|r| path.starts_with(r)) => {}
            None => {
                let id = self.inc.add(path.display().to_string(), text);
                self.ids.insert(path.to_path_buf(), id);
            }
        }
    }

    /// An editor's buffer, opened or changed; the run is not made again (see [`Self::relint`]).
    pub fn set_buffer(&mut self, path: &Path, text: String, version: i32) {
        self.put(path, &text);
        self.open.insert(path.to_path_buf(), (text, version));
    }

    /// A buffer's changes: each the whole text, or a range of it replaced (the server asks for
    /// whole texts, and some clients send ranges all the same).
    pub fn change_buffer(
        &mut self,
        path: &Path,
        changes: Vec<TextDocumentContentChangeEvent>,
        version: i32,
    ) {
        let mut text = match self.open.get(path) {
            Some((text, _)) => text.clone(),
            None => std::fs::read_to_string(path).unwrap_or_default(),
        };
        for change in changes {
            text = match change.range {
                None => change.text,
                Some(range) => {
                    let file = SourceFile::new(0, String::new(), text.as_str());
                    let (start, end) = (offset(&file, range.start), offset(&file, range.end));
                    let mut edited = text;
                    edited.replace_range(start..end.max(start), &change.text);
                    edited
                }
            };
        }
        self.set_buffer(path, text, version);
    }

    /// A buffer closed: the file on disk counts again (nothing, when it is not there).
    pub fn close_buffer(&mut self, path: &Path) {
        if self.open.remove(path).is_some() {
            let text = std::fs::read_to_string(path).unwrap_or_default();
            self.put(path, &text);
        }
    }

    /// A file changed on disk (a manifest or the values file); an open buffer still wins.
    pub fn disk_changed(&mut self, path: &Path) {
        let ours = self.ids.contains_key(path) || self.roots.iter().any(|r| path.starts_with(r));
        if ours && !self.open.contains_key(path) {
            let text = std::fs::read_to_string(path).unwrap_or_default();
            self.put(path, &text);
        }
    }

    /// The cross-resource stages again, over every file's kept results.
    pub fn relint(&mut self) {
        self.run = self.inc.run();
    }

    /// The run's file of a path.
    pub fn file(&self, path: &Path) -> Option<&SourceFile> {
        self.ids.get(path).and_then(|&id| self.run.files.get(id))
    }

    pub fn registry(&self) -> &crate::schema::Registry {
        self.options
            .registry
            .as_deref()
            .unwrap_or_else(|| crate::schema::Registry::builtin())
    }

    pub fn limits(&self) -> &crate::parse::Limits {
        &self.options.limits
    }

    /// The diagnostics to publish: every file whose findings changed since the last time (an
    /// empty list for one that has none any more), and `always` whatever it has.
    pub fn diagnostics_to_publish(
        &mut self,
        always: Option<&Path>,
    ) -> Vec<PublishDiagnosticsParams> {
        let files = &self.run.files;
        let mut by_file: BTreeMap<FileId, Vec<lsp_types::Diagnostic>> = BTreeMap::new();
        for finding in &self.run.diagnostics {
            let Some(location) = &finding.location else {
                continue;
            };
            if let Some(d) = lsp_diagnostic(finding, files, &|f: &SourceFile| {
                uri::from_path(Path::new(&f.name))
            }) {
                by_file.entry(location.file).or_default().push(d);
            }
        }
        let mut out = Vec::new();
        let mut now: HashMap<PathBuf, Vec<lsp_types::Diagnostic>> = HashMap::new();
        for f in files {
            let path = PathBuf::from(&f.name);
            let found = by_file.remove(&f.id).unwrap_or_default();
            let changed = self
                .published
                .get(&path)
                .map_or(!found.is_empty(), |old| *old != found);
            if changed || always == Some(path.as_path()) {
                out.extend(self.params(&path, found.clone()));
            }
            if !found.is_empty() {
                now.insert(path, found);
            }
        }
        // Files that are gone (deleted, no longer read): their findings cleared.
        for path in self.published.keys() {
            if !now.contains_key(path) && self.file(path).is_none() {
                out.extend(self.params(path, Vec::new()));
            }
        }
        self.published = now;
        out
    }

    fn params(
        &self,
        path: &Path,
        diagnostics: Vec<lsp_types::Diagnostic>,
    ) -> Option<PublishDiagnosticsParams> {
        let uri: Uri = uri::from_path(path)?;
        Some(PublishDiagnosticsParams {
            uri,
            diagnostics,
            version: self.open.get(path).map(|(_, v)| *v),
        })
    }
}

/// The lint options of the folders: their config file's (the first folder's nearest), and why
/// it could not be used.
fn options_of(roots: &[PathBuf]) -> (LintOptions, Option<String>) {
    let (config, problem) = match roots.first().and_then(|r| config::discover(r)) {
        None => (config::Config::default(), None),
        Some(path) => match config::load_file(&path) {
            Ok(c) => (c, None),
            Err(config::ConfigError::Unreadable(message)) => (
                config::Config::default(),
                Some(format!("cannot read config file {message}")),
            ),
            Err(config::ConfigError::Invalid { .. }) => (
                config::Config::default(),
                Some(format!(
                    "invalid config file {} (`gwctl lint` lists its errors); using the defaults",
                    path.display()
                )),
            ),
        },
    };
    // The config's `crds` and `values` count as `gwctl lint` counts them
    // (`LintOptions::crd_paths`, `values_file`).
    let options = LintOptions {
        config,
        needs: Needs::Editor,
        ..LintOptions::default()
    };
    (options, problem)
}
