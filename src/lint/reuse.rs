//! Per-file results shared by two runs over mostly the same files (`diff`'s base and head): a
//! file of the second run with the same id and text as one of the first takes the first run's
//! results instead of being linted again. The per-file pass depends on nothing but the file's id
//! and text and the options (not its name: BASE and HEAD directories name the same file
//! differently), and the positions in its results stay valid since the bytes are the same, so
//! its findings are the same.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use crate::source::SourceFile;

use super::per_file::{FileResult, lint_each};
use super::{LintOptions, LintRun};

/// The second run's files, and the first run's results for those it has the same.
pub struct Reuse {
    /// The second run's files' texts, by id.
    wanted: Vec<Arc<str>>,
    state: Mutex<State>,
    /// How many files the second run took the results of.
    taken: AtomicUsize,
}

enum State {
    /// The first run is to come: it keeps the results of the wanted files.
    Keeping,
    /// The first run kept these (by file id), for the second to take.
    Giving(Vec<Option<Kept>>),
}

/// A file's per-file results kept by the first run. Its facts and objects, the bulk of them,
/// are not copied: they are taken from the first run's model when that run is done with
/// ([`Reuse::take_model`]).
struct Kept {
    /// What the file was linted with.
    collect_secrets: bool,
    /// How many facts and objects it had.
    facts: usize,
    objects: usize,
    result: FileResult,
}

impl Kept {
    fn of(collect_secrets: bool, r: &FileResult) -> Kept {
        Kept {
            collect_secrets,
            facts: r.facts.len(),
            objects: r.objects.len(),
            result: FileResult {
                documents: r.documents,
                resources: r.resources,
                not_checked: r.not_checked.clone(),
                diagnostics: r.diagnostics.clone(),
                entries: r.entries.clone(),
                secrets: r.secrets.clone(),
                masked: r.masked.clone(),
                security: r.security.clone(),
                facts: Vec::new(),
                objects: Vec::new(),
            },
        }
    }

    /// The whole results, when the facts and objects came back.
    fn whole(self, collect_secrets: bool) -> Option<FileResult> {
        let r = self.result;
        (self.collect_secrets == collect_secrets
            && r.facts.len() == self.facts
            && r.objects.len() == self.objects)
            .then_some(r)
    }
}

/// Drops a run's large structures on a thread of their own: freeing them takes a second on a
/// large repository, which the caller need not wait for. Only when nothing large is made
/// meanwhile: the memory is freed later, so the peak can rise.
pub fn drop_aside<T: Send + 'static>(value: T) {
    // Were no thread to be had, the value is dropped here.
    let _ = std::thread::Builder::new().spawn(move || drop(value));
}

impl Reuse {
    /// For a second run over `files` (their texts shared, not copied).
    pub fn for_files(files: &[SourceFile]) -> Reuse {
        Reuse {
            wanted: files.iter().map(|f| Arc::clone(&f.text)).collect(),
            state: Mutex::new(State::Keeping),
            taken: AtomicUsize::new(0),
        }
    }

    /// How many files' results the first run kept that the second has not taken yet.
    pub fn kept(&self) -> usize {
        match &*self.state.lock().unwrap_or_else(PoisonError::into_inner) {
            State::Keeping => 0,
            State::Giving(kept) => kept.iter().flatten().count(),
        }
    }

    /// How many files the second run took the first run's results of.
    pub fn taken(&self) -> usize {
        self.taken.load(Ordering::Relaxed)
    }

    /// Takes back the kept files' facts and objects from the first run's model (in file order,
    /// as the per-file pass made them), and drops the run. A file the run left an object of
    /// out (defined twice) does not get all of them back, and is linted again.
    pub fn take_model(&self, run: LintRun) {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let (State::Giving(kept), Some(model)) = (&mut *state, run.model) else {
            return;
        };
        let mut objects = model.objects.into_iter();
        let rendering = objects.len() == model.facts.len();
        for facts in model.facts {
            let object = objects.next().filter(|_| rendering);
            if let Some(Some(k)) = kept.get_mut(facts.id.file) {
                k.result.facts.push(facts);
                k.result.objects.extend(object);
            }
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
                    slot.take()?.whole(collect_secrets)
                })
                .collect(),
        };
        let taken = results.iter().flatten().count();
        self.taken.fetch_add(taken, Ordering::Relaxed);
        let todo: Vec<SourceFile> = files
            .iter()
            .zip(&results)
            .filter(|(_, r)| r.is_none())
            .map(|(f, _)| f.clone())
            .collect();
        let mut linted = lint_each(&todo, options, collect_secrets, None).into_iter();
        if matches!(*state, State::Keeping) {
            let mut kept: Vec<Option<Kept>> = (0..self.wanted.len()).map(|_| None).collect();
            for (f, r) in todo.iter().zip(linted.as_slice()) {
                if self.wanted(f) {
                    kept[f.id] = Some(Kept::of(collect_secrets, r));
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
        let reuse = Arc::new(Reuse::for_files(&files("head", &head_service)));
        let plain = crate::render::render_options(LintOptions::default());
        let options = LintOptions {
            reuse: Some(Arc::clone(&reuse)),
            ..plain.clone()
        };
        let base = lint_sources(files("base", SERVICE), &options);
        let base_findings = findings(&base);
        // The route is the same on both sides: its results are kept; the Service is not.
        assert_eq!(reuse.kept(), 1);
        reuse.take_model(base);
        let head = lint_sources(files("head", &head_service), &options);
        assert_eq!((reuse.kept(), reuse.taken()), (0, 1));

        let fresh = |side: &str, service: &str| lint_sources(files(side, service), &plain);
        let fresh_head = fresh("head", &head_service);
        assert_eq!(findings(&head), findings(&fresh_head));
        assert_eq!(base_findings, findings(&fresh("base", SERVICE)));
        // The route's backendRef port is found on the head's Service only.
        assert_ne!(base_findings, findings(&head));
        // The route's facts and object came back from the base's model.
        assert_eq!(objects(&head), objects(&fresh_head));
        assert_eq!(head.model.as_ref().map(|m| m.facts.len()), Some(2));
    }

    /// A run's objects, as text.
    fn objects(run: &LintRun) -> String {
        format!("{:?}", run.model.as_ref().map(|m| &m.objects))
    }

    #[test]
    fn a_kept_file_whose_facts_did_not_come_back_is_linted_again() {
        let reuse = Arc::new(Reuse::for_files(&files("head", SERVICE)));
        let options = LintOptions {
            reuse: Some(Arc::clone(&reuse)),
            ..crate::render::render_options(LintOptions::default())
        };
        let _base = lint_sources(files("base", SERVICE), &options);
        assert_eq!(reuse.kept(), 2);
        // No take_model: the head lints both files itself, with their facts.
        let head = lint_sources(files("head", SERVICE), &options);
        assert_eq!((reuse.kept(), reuse.taken()), (0, 0));
        assert_eq!(head.model.as_ref().map(|m| m.facts.len()), Some(2));
    }
}
