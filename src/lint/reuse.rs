//! Per-file results shared by two runs over mostly the same files (`diff`'s base and head): a
//! file of the second run with the same id and text as one of the first takes the first run's
//! results instead of being linted again. The per-file pass depends on nothing but the file's id
//! and text and the options (not its name: BASE and HEAD directories name the same file
//! differently), and the positions in its results stay valid since the bytes are the same, so
//! its findings are the same.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};

use crate::source::SourceFile;

use super::per_file::{FileResult, lint_each};
use super::{LintOptions, load_inputs};

/// The second run's files, and the first run's results for those it has the same.
pub struct Reuse {
    /// The second run's files' texts, by id.
    wanted: Vec<Arc<str>>,
    state: Mutex<State>,
}

enum State {
    /// The first run is to come: it keeps a copy of the results of the wanted files.
    Keeping,
    /// The first run kept these (by file id; `collect_secrets` as it was linted with), for the
    /// second to take.
    Giving(Vec<Option<(bool, FileResult)>>),
}

impl Reuse {
    /// For a second run over `paths`, read as [`super::lint_paths`] reads them (the same ids).
    pub fn for_paths(paths: &[PathBuf], options: &LintOptions) -> Result<Reuse, String> {
        Ok(Reuse::for_files(load_inputs(paths, options)?.files))
    }

    /// For a second run over `files`.
    pub fn for_files(files: Vec<SourceFile>) -> Reuse {
        Reuse {
            wanted: files.into_iter().map(|f| f.text).collect(),
            state: Mutex::new(State::Keeping),
        }
    }

    /// How many files' results the first run kept that the second has not taken yet.
    pub fn kept(&self) -> usize {
        match &*self.state.lock().unwrap_or_else(PoisonError::into_inner) {
            State::Keeping => 0,
            State::Giving(kept) => kept.iter().flatten().count(),
        }
    }

    fn wanted(&self, f: &SourceFile) -> bool {
        self.wanted.get(f.id).is_some_and(|text| **text == *f.text)
    }

    /// The per-file pass of a run: the first run's keeps a copy of the wanted files' results,
    /// the second's takes them.
    pub(super) fn lint_each(
        &self,
        files: &[SourceFile],
        options: &LintOptions,
        collect_secrets: bool,
    ) -> Vec<FileResult> {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let mut results: Vec<Option<FileResult>> = match &mut *state {
            State::Keeping => vec![None; files.len()],
            State::Giving(kept) => files
                .iter()
                .map(|f| {
                    let slot = kept.get_mut(f.id).filter(|_| self.wanted(f))?;
                    match slot.take() {
                        Some((secrets, result)) if secrets == collect_secrets => Some(result),
                        _ => None,
                    }
                })
                .collect(),
        };
        let todo: Vec<SourceFile> = files
            .iter()
            .zip(&results)
            .filter(|(_, r)| r.is_none())
            .map(|(f, _)| f.clone())
            .collect();
        let mut linted = lint_each(&todo, options, collect_secrets, None).into_iter();
        if matches!(*state, State::Keeping) {
            let mut kept: Vec<Option<(bool, FileResult)>> = vec![None; self.wanted.len()];
            for (f, r) in todo.iter().zip(linted.as_slice()) {
                if self.wanted(f) {
                    kept[f.id] = Some((collect_secrets, r.clone()));
                }
            }
            *state = State::Giving(kept);
        }
        for r in results.iter_mut().filter(|r| r.is_none()) {
            *r = linted.next();
        }
        results.into_iter().flatten().collect()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::Reuse;
    use crate::lint::{LintOptions, LintRun, lint_sources};
    use crate::source::SourceFile;

    const ROUTE: &str = "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: web\n  namespace: shop\nspec:\n  parentRefs:\n  - name: edge\n  rules:\n  - backendRefs:\n    - name: web\n      port: 8080\n";
    const SERVICE: &str = "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  namespace: shop\nspec:\n  ports:\n  - port: 80\n";

    /// A side's files, under its directory (as BASE and HEAD are named).
    fn files(side: &str, service: &str) -> Vec<SourceFile> {
        vec![
            SourceFile::new(0, format!("{side}/route.yaml"), ROUTE),
            SourceFile::new(1, format!("{side}/service.yaml"), service),
        ]
    }

    fn findings(run: &LintRun) -> Vec<String> {
        run.diagnostics
            .iter()
            .map(|d| format!("{:?} {:?} {}", d.code, d.location, d.message))
            .collect()
    }

    #[test]
    fn a_file_the_same_on_both_sides_is_linted_once_with_the_same_findings() {
        let head_service = SERVICE.replace("port: 80", "port: 8080");
        let reuse = Arc::new(Reuse::for_files(files("head", &head_service)));
        let options = LintOptions {
            reuse: Some(Arc::clone(&reuse)),
            ..LintOptions::default()
        };
        let base = lint_sources(files("base", SERVICE), &options);
        // The route is the same on both sides: its results are kept; the Service is not.
        assert_eq!(reuse.kept(), 1);
        let head = lint_sources(files("head", &head_service), &options);
        assert_eq!(reuse.kept(), 0);

        let fresh =
            |side: &str, service: &str| lint_sources(files(side, service), &LintOptions::default());
        assert_eq!(findings(&head), findings(&fresh("head", &head_service)));
        assert_eq!(findings(&base), findings(&fresh("base", SERVICE)));
        // The route's backendRef port is found on the head's Service only.
        assert_ne!(findings(&base), findings(&head));
    }
}
