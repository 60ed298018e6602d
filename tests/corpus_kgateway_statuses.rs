//! Agreement of `gwctl render`'s predicted statuses with the reference's: for every translator
//! case of the corpus (`CASES.yaml`), the case's Gateway is rendered from the renamed inputs
//! (`kgateway-seed`) and its `statuses` compared with the expected output's `Statuses`, section by
//! section: gateways (with listenerSets), routes (httpRoutes, grpcRoutes, tcpRoutes, tlsRoutes)
//! and policies. Each case prints equal, or differs at the first differing path.
//!
//! The reference's test harness names its gateway controller `kgateway` (route parents'
//! `controllerName`); the render is given the same name, as the harness's setting.

mod common;

use common::{corpus, kgateway};
use gwctl::lint::LintOptions;
use gwctl::render::{self, RenderOptions};
use serde_json::Value;

/// The sections compared, with the keys of `Statuses` each holds.
const SECTIONS: &[(&str, &[&str])] = &[
    ("gateways", &["gateways", "listenerSets"]),
    (
        "routes",
        &[
            "httpRoutes",
            "grpcRoutes",
            "tcpRoutes",
            "tlsRoutes",
            "udpRoutes",
        ],
    ),
    ("policies", &["policies"]),
];

/// The agreement reached, per section (cases equal); the test fails below any of them.
const FLOORS: &[(&str, usize)] = &[("gateways", 0), ("routes", 0), ("policies", 0)];

/// (case name, section, why gwctl disagrees with the reference).
const KNOWN: &[(&str, &str, &str)] = &[];

/// The part of a `Statuses` document a section compares: its keys that are present.
fn section(statuses: &Value, keys: &[&str]) -> Value {
    let mut out = serde_json::Map::new();
    for k in keys {
        if let Some(v) = statuses.get(*k).filter(|v| !v.is_null()) {
            out.insert((*k).to_string(), v.clone());
        }
    }
    Value::Object(out)
}

/// The first path where `got` differs from `want`, with both values there; `None` when equal.
fn first_difference(want: &Value, got: &Value, path: &str) -> Option<String> {
    match (want, got) {
        (Value::Object(w), Value::Object(g)) => {
            let mut keys: Vec<&String> = w.keys().chain(g.keys()).collect();
            keys.sort();
            keys.dedup();
            keys.into_iter().find_map(|k| {
                let here = format!("{path}.{k}");
                match (w.get(k), g.get(k)) {
                    (Some(a), Some(b)) => first_difference(a, b, &here),
                    (Some(_), None) => Some(format!("{here}: missing")),
                    (None, Some(b)) => Some(format!("{here}: unexpected {}", short(b))),
                    (None, None) => None,
                }
            })
        }
        (Value::Array(w), Value::Array(g)) => {
            let found = w
                .iter()
                .zip(g)
                .enumerate()
                .find_map(|(i, (a, b))| first_difference(a, b, &format!("{path}[{i}]")));
            found.or_else(|| {
                (w.len() != g.len())
                    .then(|| format!("{path}: {} items, expected {}", g.len(), w.len()))
            })
        }
        _ if want == got => None,
        _ => Some(format!("{path}: {} expected {}", short(got), short(want))),
    }
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 160 {
        format!("{}...", s.chars().take(160).collect::<String>())
    } else {
        s
    }
}

#[test]
fn rendered_statuses_agree_with_the_reference() {
    let Some(corpus) = corpus("corpus_kgateway_statuses") else {
        return;
    };
    let cases = kgateway::cases(&corpus, &render::render_options(LintOptions::default()));
    let mut equal = vec![0usize; SECTIONS.len()];
    let mut all_equal = 0;
    let mut unexplained = Vec::new();
    for case in &cases {
        let rendered = render::render(
            &case.run,
            &RenderOptions {
                gateway: case.gateway.clone(),
                proxy_controller: "kgateway".to_string(),
                ..RenderOptions::default()
            },
        );
        let got = rendered
            .gateways
            .first()
            .map(|g| g.statuses.clone())
            .unwrap_or(Value::Null);
        let want = &case.output["Statuses"];
        let mut case_equal = true;
        for (i, (name, keys)) in SECTIONS.iter().enumerate() {
            match first_difference(&section(want, keys), &section(&got, keys), "") {
                None => {
                    equal[i] += 1;
                    eprintln!("{}: {name}: equal", case.name);
                }
                Some(at) => {
                    case_equal = false;
                    eprintln!("{}: {name}: differs at {at}", case.name);
                    match KNOWN.iter().find(|(n, s, _)| *n == case.name && s == name) {
                        Some((_, _, why)) => eprintln!("  known: {why}"),
                        None => unexplained.push(format!("{}: {name}: {at}", case.name)),
                    }
                }
            }
        }
        all_equal += usize::from(case_equal);
    }
    let n = cases.len();
    for (i, (name, _)) in SECTIONS.iter().enumerate() {
        eprintln!("statuses {name}: {}/{n} cases equal", equal[i]);
    }
    eprintln!("statuses, every section: {all_equal}/{n} cases equal");
    for (i, (name, _)) in SECTIONS.iter().enumerate() {
        let floor = FLOORS.iter().find(|(s, _)| s == name).map_or(0, |f| f.1);
        assert!(
            equal[i] >= floor,
            "{name}: {}/{n} cases equal, below the floor {floor}",
            equal[i]
        );
    }
    assert!(
        unexplained.is_empty(),
        "{} differences not in KNOWN:\n{}",
        unexplained.len(),
        unexplained.join("\n")
    );
}
