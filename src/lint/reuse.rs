//! Per-file results shared by two runs over mostly the same files (`diff`'s base and head): a
//! file of the second run with the same id and text as one of the first takes the first run's
//! results instead of being linted again. The per-file pass depends on nothing but the file's id
//! and text and the options (not its name: BASE and HEAD directories name the same file
//! differently), and the positions in its results stay valid since the bytes are the same, so
//! its findings are the same.

use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use rayon::prelude::*;

use crate::source::SourceFile;

use super::documents::{KeptDocuments, Reused, lint_keeping, lint_reusing};
use super::per_file::{FileResult, lint_file, registry_of};
use super::{LintOptions, LintRun};

/// The second run's files, and the first run's results for those it has the same.
pub struct Reuse {
    /// A digest of each of the second run's files' texts, by id.
    wanted: Vec<u64>,
    state: Mutex<State>,
    /// How many files the second run took the results of.
    taken: AtomicUsize,
    /// How many documents of other files it took the results of.
    documents_taken: AtomicUsize,
}

enum State {
    /// The first run is to come: it keeps the results of the wanted files, whose texts it
    /// compares its own with (by id). They are let go after: the second run reads its files
    /// again rather than hold them while the first renders.
    Keeping(Vec<(Arc<str>, Option<Arc<str>>)>),
    /// The first run kept these (by file id), for the second to take.
    Giving(Vec<Option<KeptFile>>),
}

/// What the first run kept of a file: all of it (the same text on both sides), or some of its
/// documents (see [`super::documents`]).
enum KeptFile {
    Whole(Kept),
    Documents(KeptDocuments),
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
            result: r.without_model(),
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

/// How the second run lints one of its files.
enum Plan {
    /// The first run's results, whole.
    Taken(FileResult),
    /// Linted, but for these documents (none: the whole file).
    Lint(Vec<Reused>),
}

/// Drops a run's large structures on a thread of their own: freeing them takes a second on a
/// large repository, which the caller need not wait for. Only when nothing large is made
/// meanwhile: the memory is freed later, so the peak can rise.
pub fn drop_aside<T: Send + 'static>(value: T) {
    // Were no thread to be had, the value is dropped here.
    let _ = std::thread::Builder::new().spawn(move || drop(value));
}

/// A digest of a file's text (and the namespace a kustomization gives it): the second run's files are compared with the texts the first
/// compared its own with by it (64 bits of SipHash: two texts that differ collide once in
/// 2^64).
fn digest(file: &SourceFile) -> u64 {
    let mut h = std::hash::DefaultHasher::new();
    file.text.hash(&mut h);
    file.namespace.hash(&mut h);
    h.finish()
}

impl Reuse {
    /// For a second run over `files` (their texts shared, not copied).
    pub fn for_files(files: &[SourceFile]) -> Reuse {
        Reuse {
            wanted: files.par_iter().map(digest).collect(),
            state: Mutex::new(State::Keeping(
                files
                    .iter()
                    .map(|f| (Arc::clone(&f.text), f.namespace.clone()))
                    .collect(),
            )),
            taken: AtomicUsize::new(0),
            documents_taken: AtomicUsize::new(0),
        }
    }

    /// How many files' results the first run kept (whole or some documents') that the second
    /// has not taken yet.
    pub fn kept(&self) -> usize {
        match &*self.state.lock().unwrap_or_else(PoisonError::into_inner) {
            State::Keeping(_) => 0,
            State::Giving(kept) => kept.iter().flatten().count(),
        }
    }

    /// How many files the second run took the first run's results of.
    pub fn taken(&self) -> usize {
        self.taken.load(Ordering::Relaxed)
    }

    /// How many documents of files that differ the second run took the first run's results of.
    pub fn documents_taken(&self) -> usize {
        self.documents_taken.load(Ordering::Relaxed)
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
            match kept.get_mut(facts.id.file) {
                Some(Some(KeptFile::Whole(k))) => {
                    k.result.facts.push(facts);
                    k.result.objects.extend(object);
                }
                Some(Some(KeptFile::Documents(d))) => {
                    d.facts.push(facts);
                    d.objects.extend(object);
                }
                _ => {}
            }
        }
    }

    fn wanted(&self, f: &SourceFile) -> bool {
        self.wanted.get(f.id) == Some(&digest(f))
    }

    /// The per-file pass of a run: the first run's keeps a copy of the wanted files' results
    /// (and of the documents of the others that the second run has the same), the second's
    /// takes them.
    pub(super) fn lint_each(
        &self,
        files: &[SourceFile],
        options: &LintOptions,
        collect_secrets: bool,
    ) -> Vec<FileResult> {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        match &mut *state {
            State::Keeping(texts) => {
                let texts = std::mem::take(texts);
                let (results, kept) = self.keeping(files, &texts, options, collect_secrets);
                *state = State::Giving(kept);
                results
            }
            State::Giving(kept) => {
                // Each file's text digested on the pool, not one after the other here.
                let same: Vec<bool> = files.par_iter().map(|f| self.wanted(f)).collect();
                let plans: Vec<Plan> = files
                    .iter()
                    .zip(same)
                    .map(|(f, same)| {
                        let slot = kept.get_mut(f.id).filter(|_| same);
                        match slot.and_then(Option::take) {
                            Some(KeptFile::Whole(k)) => match k.whole(collect_secrets) {
                                Some(r) => Plan::Taken(r),
                                None => Plan::Lint(Vec::new()),
                            },
                            Some(KeptFile::Documents(d)) => Plan::Lint(d.reused(collect_secrets)),
                            None => Plan::Lint(Vec::new()),
                        }
                    })
                    .collect();
                drop(state);
                self.giving(files, plans, options, collect_secrets)
            }
        }
    }

    /// The first run's per-file pass, keeping what the second can take (by file id).
    fn keeping(
        &self,
        files: &[SourceFile],
        texts: &[(Arc<str>, Option<Arc<str>>)],
        options: &LintOptions,
        collect_secrets: bool,
    ) -> (Vec<FileResult>, Vec<Option<KeptFile>>) {
        let registry = registry_of(options);
        let linted: Vec<(FileResult, Option<KeptFile>)> = files
            .par_iter()
            // A file a kustomization gives another namespace has other objects.
            .map(
                |f| match texts.get(f.id).filter(|(_, ns)| *ns == f.namespace) {
                    Some((other, _)) if **other == *f.text => {
                        let r = lint_file(f, registry, options, collect_secrets);
                        let kept = Kept::of(collect_secrets, &r);
                        (r, Some(KeptFile::Whole(kept)))
                    }
                    Some((other, _)) => {
                        let (r, kept) = lint_keeping(f, other, registry, options, collect_secrets);
                        (r, kept.map(KeptFile::Documents))
                    }
                    None => (lint_file(f, registry, options, collect_secrets), None),
                },
            )
            .collect();
        let mut kept: Vec<Option<KeptFile>> = (0..self.wanted.len()).map(|_| None).collect();
        let mut results = Vec::with_capacity(linted.len());
        for (f, (r, k)) in files.iter().zip(linted) {
            if let Some(slot) = kept.get_mut(f.id) {
                *slot = k;
            }
            results.push(r);
        }
        (results, kept)
    }

    /// The second run's per-file pass, taking what the first kept.
    fn giving(
        &self,
        files: &[SourceFile],
        plans: Vec<Plan>,
        options: &LintOptions,
        collect_secrets: bool,
    ) -> Vec<FileResult> {
        let registry = registry_of(options);
        files
            .par_iter()
            .zip(plans)
            .map(|(f, plan)| match plan {
                Plan::Taken(r) => {
                    self.taken.fetch_add(1, Ordering::Relaxed);
                    r
                }
                Plan::Lint(reused) if reused.is_empty() => {
                    lint_file(f, registry, options, collect_secrets)
                }
                Plan::Lint(reused) => {
                    let (r, taken) = lint_reusing(f, reused, registry, options, collect_secrets);
                    self.documents_taken.fetch_add(taken, Ordering::Relaxed);
                    r
                }
            })
            .collect()
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

    /// One file of three documents: a route (with a finding: an unknown field), a Service
    /// (`port` in the text) and a Secret.
    fn stream(port: &str) -> String {
        let route = ROUTE.replace("  rules:", "  colour: red\n  rules:");
        let service = SERVICE.replace("port: 80", port);
        let secret = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: tls\n  namespace: shop\ndata:\n  tls.key: c2VjcmV0\n";
        format!("{route}---\n{service}---\n{secret}")
    }

    #[test]
    fn the_documents_a_changed_file_has_the_same_are_linted_once() {
        // The Service's port changes in place (the same length) and then moves the Secret.
        for head_port in ["port: 81", "port: 8080"] {
            let head_text = stream(head_port);
            let head_files = |side: &str| {
                vec![SourceFile::new(
                    0,
                    format!("{side}/all.yaml"),
                    head_text.as_str(),
                )]
            };
            let reuse = Arc::new(Reuse::for_files(&head_files("head")));
            let plain = crate::render::diff_options(LintOptions::default());
            let options = LintOptions {
                reuse: Some(Arc::clone(&reuse)),
                ..plain.clone()
            };
            let base_files = vec![SourceFile::new(0, "base/all.yaml", stream("port: 80"))];
            let base = lint_sources(base_files.clone(), &options);
            assert_eq!(findings(&base), findings(&lint_sources(base_files, &plain)));
            assert_eq!(reuse.kept(), 1);
            reuse.take_model(base);
            let head = lint_sources(head_files("head"), &options);
            let fresh = lint_sources(head_files("head"), &plain);
            // The route, and the Secret where it has not moved.
            let same = if head_port.len() == "port: 80".len() {
                2
            } else {
                1
            };
            assert_eq!(
                (reuse.taken(), reuse.documents_taken()),
                (0, same),
                "{head_port}"
            );
            assert_eq!(findings(&head), findings(&fresh));
            assert!(findings(&head).iter().any(|f| f.contains("colour")));
            assert_eq!(objects(&head), objects(&fresh));
            assert_eq!(
                format!("{:?}", head.model.as_ref().map(|m| &m.facts)),
                format!("{:?}", fresh.model.as_ref().map(|m| &m.facts))
            );
        }
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
