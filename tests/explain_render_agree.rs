//! `explain` and `render` tell the same story about route attachment: on every listener that
//! `render` programs, the routes `explain` hangs from it (the merge hierarchy) are exactly the
//! routes `render` serves there. Over every folder of `testdata/`, the reference's translator
//! cases and the AI data plane's goldens.
//!
//! Listeners `render` does not program (an unknown protocol, a certificate that does not
//! resolve, a ListenerSet its Gateway does not admit) are left out: `explain` still shows the
//! route's place there, as the route's status does, while the data plane gets nothing.

mod common;

use std::collections::BTreeSet;
use std::path::Path;

use gwctl::lint::{LintOptions, LintRun, lint_paths, lint_sources};
use gwctl::merge::Place;
use gwctl::model::facts::{Facts, Spec};
use gwctl::render::{self, RenderOptions};
use gwctl::source::SourceFile;

/// (listener owner, listener, route), each as `explain` names it.
type Triple = (String, String, String);

fn kind_and_name(f: &Facts) -> String {
    if f.id.namespace.is_empty() {
        format!("{} {}", f.id.kind, f.id.name)
    } else {
        format!("{} {}/{}", f.id.kind, f.id.namespace, f.id.name)
    }
}

/// The differences between what explain and render say of a run, as lines; empty when they
/// agree.
fn disagreements(run: &LintRun, options: &RenderOptions) -> Vec<String> {
    let served = render::served(run, options);
    let programmed: BTreeSet<(String, String)> = served
        .iter()
        .map(|l| (l.owner.clone(), l.listener.clone()))
        .collect();
    let by_render: BTreeSet<Triple> = served
        .iter()
        .flat_map(|l| {
            l.routes
                .iter()
                .map(|r| (l.owner.clone(), l.listener.clone(), r.clone()))
        })
        .collect();
    let Some(model) = &run.model else {
        return vec!["no model in the run".to_string()];
    };
    let merged = model.merge();
    let facts = &model.facts;
    let mut by_explain = BTreeSet::new();
    for (&route, parents) in &merged.hierarchy.parents {
        for p in parents {
            let Place::Listener(owner, li) = *p else {
                continue;
            };
            let (Spec::Gateway { listeners, .. } | Spec::ListenerSet { listeners, .. }) =
                &facts[owner].spec
            else {
                continue;
            };
            let key = (kind_and_name(&facts[owner]), listeners[li].name.clone());
            if programmed.contains(&key) {
                by_explain.insert((key.0, key.1, kind_and_name(&facts[route])));
            }
        }
    }
    let only = |a: &BTreeSet<Triple>, b: &BTreeSet<Triple>, who: &str| -> Vec<String> {
        a.difference(b)
            .map(|(o, l, r)| format!("only {who}: {r} on {o} listener {l}"))
            .collect()
    };
    let mut out = only(&by_explain, &by_render, "explain");
    out.extend(only(&by_render, &by_explain, "render"));
    out
}

#[test]
fn explain_and_render_hang_routes_from_the_same_listeners_in_testdata() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata");
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    let options = RenderOptions::new(
        &gwctl::config::Config::default(),
        None,
        render::ValidationLevel::Standard,
    );
    let (mut listeners, mut problems) = (0, Vec::new());
    for dir in dirs {
        let run = lint_paths(
            std::slice::from_ref(&dir),
            &render::render_options(LintOptions::default()),
        )
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        listeners += render::served(&run, &options).len();
        problems.extend(
            disagreements(&run, &options)
                .into_iter()
                .map(|p| format!("{}: {p}", dir.display())),
        );
    }
    assert!(listeners > 10, "only {listeners} listeners programmed");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn explain_and_render_hang_routes_from_the_same_listeners_in_the_corpus() {
    let Some(corpus) = common::corpus("explain_and_render_agree_in_the_corpus") else {
        return;
    };
    let mut problems = Vec::new();
    let mut listeners = 0;
    let lint_options = render::render_options(LintOptions::default());
    for case in common::kgateway::cases(&corpus, &lint_options) {
        let options = RenderOptions {
            gateway: case.gateway.clone(),
            ..RenderOptions::new(
                &gwctl::config::Config::default(),
                None,
                render::ValidationLevel::Standard,
            )
        };
        listeners += render::served(&case.run, &options).len();
        problems.extend(
            disagreements(&case.run, &options)
                .into_iter()
                .map(|p| format!("{}: {p}", case.name)),
        );
    }
    // The AI data plane's goldens: the input before `# Output`, with the folder's defaults.
    let pkg = corpus.join("kgateway-seed/pkg/agentgateway/translator/testdata");
    let options = RenderOptions::new(
        &gwctl::config::Config::default(),
        None,
        render::ValidationLevel::Standard,
    );
    for folder in ["backends", "gateways", "routes"] {
        let dir = pkg.join(folder);
        let defaults = std::fs::read_to_string(dir.join("_defaults.yaml")).unwrap_or_default();
        for path in common::files_under(&dir, &["yaml"]) {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            let Some((input, _)) = text.split_once("\n# Output") else {
                continue;
            };
            let files = vec![
                SourceFile::new(0, "_defaults.yaml", defaults.clone()),
                SourceFile::new(1, path.display().to_string(), input.to_string()),
            ];
            let run = lint_sources(files, &lint_options);
            listeners += render::served(&run, &options).len();
            problems.extend(
                disagreements(&run, &options)
                    .into_iter()
                    .map(|p| format!("{}: {p}", path.display())),
            );
        }
    }
    println!("explain and render: {listeners} programmed listeners compared");
    assert!(listeners > 100, "only {listeners} listeners programmed");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
