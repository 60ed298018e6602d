//! The files a kustomization reads that are not manifests: its patches (a strategic merge patch
//! is a partial object, a JSON 6902 patch a list of operations), its replacements, what its
//! generators read and its Helm charts' values. Linted as manifests, each gives findings that are
//! no mistakes (required fields a partial object leaves out, the same object as the base's).

use std::path::{Component, Path, PathBuf};

use crate::diag::Diagnostic;
use crate::parse::{self, Limits, Node, Value};
use crate::rules;
use crate::source::SourceFile;

/// A file a kustomization reads, by its path as the load stage names files (normalised).
pub(super) struct Read {
    pub path: PathBuf,
    /// What it is to the kustomization (`a patch`).
    pub what: &'static str,
    /// The kustomization's directory, as the finding names it.
    pub dir: String,
}

impl Read {
    /// The finding that skips the file, named `name`.
    pub fn skipped(&self, name: &str) -> Diagnostic {
        Diagnostic::new(
            rules::GW008,
            format!(
                "{name}: skipped: {} of the kustomization in {}, not a manifest",
                self.what, self.dir
            ),
        )
        .with_help("lint what kustomize builds: `kustomize build DIR | gwctl lint -`")
    }
}

/// What the kustomizations among the inputs say of the other files: which they read as
/// something other than manifests, and which namespaces they set.
#[derive(Default)]
pub(super) struct Kustomizations {
    pub reads: Vec<Read>,
    pub namespaced: Vec<Namespaced>,
}

/// Each kustomization parsed once: the files it reads that are not manifests, and the
/// namespace it sets on those its `resources` name.
pub(super) fn read(kustomizations: &[SourceFile], limits: &Limits) -> Kustomizations {
    let mut out = Kustomizations::default();
    for k in kustomizations {
        let dir = Path::new(&k.name).parent().unwrap_or(Path::new(""));
        let shown = dir.to_string_lossy();
        let shown = if shown.is_empty() { "." } else { &shown };
        for doc in parse::parse_file(k, limits).documents {
            for (path, what) in references(&doc.root) {
                out.reads.push(Read {
                    path: normalised(&dir.join(path)),
                    what,
                    dir: shown.to_string(),
                });
            }
            out.namespaced.extend(namespaced(&doc.root, dir));
        }
    }
    out
}

/// A path with its `.` and `..` components resolved lexically (as the load stage names a file).
pub(super) fn normalised(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir if out.file_name().is_some() => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// A namespace a kustomization sets (its `namespace`) on the namespaced objects it builds: those
/// of a file its `resources` name, or of every file under a directory they name (built by that
/// directory's own kustomization).
pub(super) struct Namespaced {
    /// The file or directory, as the load stage names files (normalised).
    pub path: PathBuf,
    /// How deep the kustomization's directory is: the outermost kustomization sets the
    /// namespace last, so its own wins.
    pub depth: usize,
    pub namespace: std::sync::Arc<str>,
}

/// What a kustomization (the document `root`, in `dir`) sets with its `namespace`, and on
/// which files.
fn namespaced(root: &Node, dir: &Path) -> Vec<Namespaced> {
    let Some(namespace) = root
        .get("namespace")
        .and_then(Node::as_str)
        .filter(|n| !n.is_empty())
    else {
        return Vec::new();
    };
    let namespace: std::sync::Arc<str> = namespace.into();
    let mut out = Vec::new();
    for key in ["resources", "bases"] {
        let Some(Value::Seq(items)) = root.get(key).map(|n| &n.value) else {
            continue;
        };
        // A remote resource (a URL, a git repository) is no file here.
        let local = items.iter().filter_map(Node::as_str).filter(|p| {
            !p.contains("://") && !p.contains("?ref=") && !p.starts_with("github.com/")
        });
        out.extend(local.map(|p| Namespaced {
            path: normalised(&dir.join(p)),
            depth: dir.components().count(),
            namespace: std::sync::Arc::clone(&namespace),
        }));
    }
    out
}

/// The namespace the kustomizations set on the objects of the file at `path` (normalised), if
/// any.
pub(super) fn namespace_of<'n>(
    namespaced: &'n [Namespaced],
    path: &Path,
) -> Option<&'n std::sync::Arc<str>> {
    namespaced
        .iter()
        .filter(|n| path.starts_with(&n.path))
        .min_by_key(|n| n.depth)
        .map(|n| &n.namespace)
}

/// The group of Flux's Kustomization, which applies what kustomize builds from a directory.
const FLUX_GROUP: &str = "kustomize.toolkit.fluxcd.io";

/// A Flux Kustomization's `targetNamespace`, with its `path`: Flux sets the namespace on every
/// namespaced object it applies from that directory, over what kustomize set.
pub(super) struct Targeted {
    /// `spec.path`, relative to the root of the Kustomization's source (a repository), without
    /// its leading `./` and trailing `/`.
    path: String,
    pub namespace: std::sync::Arc<str>,
}

impl Targeted {
    /// Whether the file at `path` (normalised) is under the directory: its path has one ending
    /// in `spec.path` (the source's root is not known here).
    fn includes(&self, path: &Path) -> bool {
        let name = path.to_string_lossy();
        let (under, inside) = (format!("{}/", self.path), format!("/{}/", self.path));
        name.starts_with(&under) || name.contains(&inside)
    }
}

/// The Flux Kustomizations among the manifests that set a target namespace.
pub(super) fn flux_targets(files: &[SourceFile], limits: &Limits) -> Vec<Targeted> {
    use rayon::prelude::*;
    let with_flux: Vec<&SourceFile> = files
        .par_iter()
        .filter(|f| f.text.contains(FLUX_GROUP))
        .collect();
    let mut out = Vec::new();
    for f in with_flux {
        for doc in parse::parse_file(f, limits).documents {
            let root = &doc.root;
            let field = |key: &str| root.get("spec")?.get(key)?.as_str();
            let flux = root
                .get("apiVersion")
                .and_then(Node::as_str)
                .is_some_and(|v| v.starts_with(&format!("{FLUX_GROUP}/")))
                && root.get("kind").and_then(Node::as_str) == Some("Kustomization");
            let (Some(path), Some(namespace)) = (field("path"), field("targetNamespace")) else {
                continue;
            };
            let path = path.trim_start_matches("./").trim_end_matches('/');
            if flux && !path.is_empty() && !namespace.is_empty() {
                out.push(Targeted {
                    path: path.to_string(),
                    namespace: namespace.into(),
                });
            }
        }
    }
    out
}

/// The namespace Flux sets on the objects of the file at `path` (normalised), if any.
pub(super) fn target_of<'t>(
    targets: &'t [Targeted],
    path: &Path,
) -> Option<&'t std::sync::Arc<str>> {
    targets
        .iter()
        .find(|t| t.includes(path))
        .map(|t| &t.namespace)
}

/// The relative paths a kustomization names of files that are not manifests, with what each is.
fn references(root: &Node) -> Vec<(&str, &'static str)> {
    let items = |key: &str| match root.get(key).map(|n| &n.value) {
        Some(Value::Seq(items)) => items.iter().collect(),
        _ => Vec::new(),
    };
    let mut out = Vec::new();
    // A strategic merge patch given inline (a YAML text) names no file.
    let strategic = items("patchesStrategicMerge");
    let paths = strategic.iter().filter_map(|n| n.as_str());
    out.extend(paths.filter(|p| !p.contains('\n')).map(|p| (p, "a patch")));
    for key in ["patches", "patchesJson6902"] {
        let paths = items(key)
            .into_iter()
            .filter_map(|n| n.get("path")?.as_str());
        out.extend(paths.map(|p| (p, "a patch")));
    }
    let replacements = items("replacements").into_iter();
    out.extend(replacements.filter_map(|n| Some((n.get("path")?.as_str()?, "a replacement"))));
    for key in ["configMapGenerator", "secretGenerator"] {
        for generator in items(key) {
            let lists = ["files", "envs"]
                .into_iter()
                .filter_map(|k| generator.get(k));
            let listed = lists.flat_map(|l| match &l.value {
                Value::Seq(items) => items.iter().filter_map(Node::as_str).collect(),
                _ => Vec::new(),
            });
            let env = generator.get("env").and_then(Node::as_str);
            // `key=path` names the key the file's content is put under.
            let paths = listed
                .chain(env)
                .map(|f| f.split_once('=').map_or(f, |(_, p)| p));
            out.extend(paths.map(|p| (p, "an input of a generator")));
        }
    }
    let charts = items("helmCharts").into_iter();
    out.extend(
        charts.filter_map(|n| Some((n.get("valuesFile")?.as_str()?, "the values of a chart"))),
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patches_replacements_generator_inputs_and_chart_values_are_found() {
        let text = "resources:\n- ../../base\n- route.yaml\n\
            patches:\n- path: gateway-patch.yaml\n- patch: |-\n    - op: remove\n      path: /spec/x\n\
            patchesStrategicMerge:\n- listeners.yaml\n- |-\n  apiVersion: v1\n  kind: Service\n\
            patchesJson6902:\n- target: {kind: Gateway, name: edge}\n  path: ../json/patch.yaml\n\
            replacements:\n- path: replace.yaml\n\
            configMapGenerator:\n- name: c\n  files: [conf.yaml, key=data/other.yaml]\n  envs: [a.env]\n\
            helmCharts:\n- name: x\n  valuesFile: values-prod.yaml\n";
        let file = SourceFile::new(0, "overlays/prod/kustomization.yaml".to_string(), text);
        let read = read(&[file], &Limits::default()).reads;
        let found: Vec<(String, &str)> = read
            .iter()
            .map(|r| (r.path.to_string_lossy().into_owned(), r.what))
            .collect();
        let expected = [
            ("overlays/prod/listeners.yaml", "a patch"),
            ("overlays/prod/gateway-patch.yaml", "a patch"),
            ("overlays/json/patch.yaml", "a patch"),
            ("overlays/prod/replace.yaml", "a replacement"),
            ("overlays/prod/conf.yaml", "an input of a generator"),
            ("overlays/prod/data/other.yaml", "an input of a generator"),
            ("overlays/prod/a.env", "an input of a generator"),
            ("overlays/prod/values-prod.yaml", "the values of a chart"),
        ];
        let expected: Vec<(String, &str)> =
            expected.iter().map(|(p, w)| (p.to_string(), *w)).collect();
        assert_eq!(found, expected);
        assert!(read.iter().all(|r| r.dir == "overlays/prod"));
    }

    #[test]
    fn paths_are_normalised_as_the_load_stage_names_files() {
        assert_eq!(
            normalised(Path::new("a/./b/../c.yaml")),
            Path::new("a/c.yaml")
        );
        assert_eq!(
            normalised(Path::new("../x/y.yaml")),
            Path::new("../x/y.yaml")
        );
        assert_eq!(
            normalised(Path::new("/r/a/../b.yaml")),
            Path::new("/r/b.yaml")
        );
    }
}
