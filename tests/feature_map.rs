//! `docs/feature-map.md` covers every field of this API's kinds: the embedded schemas' fields
//! down to two levels below `spec` (both groups of the specification, and the Gateway API kinds
//! that reach the data plane) each have a row, no row names a field no schema has, the modules
//! it names exist, and the reference-only fields it lists are in no schema.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;

/// The Gateway API kinds whose fields reach the data plane (the map's tables for them).
const GATEWAY_API_KINDS: &[&str] = &[
    "GatewayClass",
    "Gateway",
    "ListenerSet",
    "XListenerSet",
    "HTTPRoute",
    "GRPCRoute",
    "TCPRoute",
    "TLSRoute",
    "BackendTLSPolicy",
];

/// How deep below `spec` the map has a row per field.
const DEPTH: usize = 2;

type Field = (String, String);

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &str) -> String {
    match std::fs::read_to_string(root().join(path)) {
        Ok(text) => text,
        Err(e) => panic!("{path}: {e}"),
    }
}

/// The field paths of a schema below `path`, down to `depth` levels (`None`: all).
fn walk(schema: &Value, path: &str, level: usize, depth: Option<usize>, out: &mut Vec<String>) {
    if depth.is_some_and(|d| level > d) {
        return;
    }
    if let Some(props) = schema.get("properties").and_then(Value::as_object) {
        for (name, sub) in props {
            let p = format!("{path}.{name}");
            out.push(p.clone());
            walk(sub, &p, level + 1, depth, out);
        }
    }
    if let Some(items) = schema.get("items").filter(|i| i.is_object()) {
        walk(items, &format!("{path}[]"), level, depth, out);
    }
    if let Some(values) = schema.get("additionalProperties").filter(|v| v.is_object()) {
        walk(values, &format!("{path}.*"), level, depth, out);
    }
}

/// (kind, field) of every mapped kind's schema (its last served version), to `depth`.
fn schema_fields(depth: Option<usize>) -> BTreeSet<Field> {
    let mut out = BTreeSet::new();
    for (file, only) in [
        ("schemas/kgateway.json", None),
        ("schemas/gateway-api.json", Some(GATEWAY_API_KINDS)),
    ] {
        let bundle: Value = match serde_json::from_str(&read(file)) {
            Ok(v) => v,
            Err(e) => panic!("{file}: {e}"),
        };
        for kind in bundle["kinds"].as_array().into_iter().flatten() {
            let name = kind["kind"].as_str().unwrap_or_default();
            if only.is_some_and(|k| !k.contains(&name)) {
                continue;
            }
            let served = kind["versions"]
                .as_array()
                .into_iter()
                .flatten()
                .rfind(|v| v["served"] == true);
            let Some(index) = served.and_then(|v| v["schema"].as_u64()) else {
                panic!("{file}: {name} has no served version");
            };
            let spec = &bundle["schemas"][index as usize]["properties"]["spec"];
            let mut paths = Vec::new();
            walk(spec, "spec", 1, depth, &mut paths);
            out.extend(paths.into_iter().map(|p| (name.to_string(), p)));
        }
    }
    out
}

/// A parsed map: the kinds' rows (kind, field, rendered in, difference) and the reference-only
/// fields (kind, field).
#[derive(Default)]
struct Map {
    rows: Vec<(String, String, String, String)>,
    reference_only: Vec<Field>,
}

fn cells(line: &str) -> Vec<String> {
    line.trim()
        .trim_matches('|')
        .split(" | ")
        .map(|c| c.trim().to_string())
        .collect()
}

fn unquoted(cell: &str) -> String {
    cell.trim_matches('`').to_string()
}

fn parse(doc: &str) -> Map {
    let mut map = Map::default();
    let mut kind: Option<String> = None;
    for line in doc.lines() {
        if let Some(title) = line.strip_prefix("## ") {
            // `## Kind (group)`; any other heading ends the kinds' tables.
            kind = title
                .split_once(" (")
                .filter(|(_, g)| g.ends_with(')'))
                .map(|(k, _)| k.to_string());
            continue;
        }
        if !line.starts_with("| ") {
            continue;
        }
        let c = cells(line);
        match &kind {
            Some(k) if c.len() == 4 && c[0].starts_with('`') => {
                map.rows
                    .push((k.clone(), unquoted(&c[0]), c[1].clone(), c[3].clone()));
            }
            None if c.len() == 3 && c[1].starts_with('`') => {
                map.reference_only.push((c[0].clone(), unquoted(&c[1])));
            }
            _ => {}
        }
    }
    map
}

/// Fields without a row, and rows naming no field.
fn coverage(fields: &BTreeSet<Field>, map: &Map) -> (Vec<Field>, Vec<Field>) {
    let rows: BTreeSet<Field> = map
        .rows
        .iter()
        .map(|(k, f, _, _)| (k.clone(), f.clone()))
        .collect();
    (
        fields.difference(&rows).cloned().collect(),
        rows.difference(fields).cloned().collect(),
    )
}

#[test]
fn every_field_has_a_row_and_every_row_a_field() {
    let map = parse(&read("docs/feature-map.md"));
    let (missing, unknown) = coverage(&schema_fields(Some(DEPTH)), &map);
    assert!(
        missing.is_empty(),
        "fields without a row in docs/feature-map.md: {missing:#?}"
    );
    assert!(
        unknown.is_empty(),
        "rows of docs/feature-map.md naming no schema field: {unknown:#?}"
    );
    let mut seen = BTreeSet::new();
    for (kind, field, _, _) in &map.rows {
        assert!(seen.insert((kind, field)), "{kind} {field}: two rows");
    }
}

#[test]
fn rows_name_existing_modules_and_say_why_a_field_is_not_rendered() {
    let map = parse(&read("docs/feature-map.md"));
    assert!(!map.rows.is_empty());
    for (kind, field, module, difference) in &map.rows {
        assert!(!difference.is_empty(), "{kind} {field}: no difference cell");
        if module == "not rendered" {
            assert_ne!(difference, "—", "{kind} {field}: not rendered, and no why");
            continue;
        }
        let paths: Vec<&str> = module
            .split([',', ' '])
            .filter(|t| t.starts_with("src/"))
            .collect();
        assert!(
            !paths.is_empty(),
            "{kind} {field}: {module:?} names no module"
        );
        for p in paths {
            assert!(root().join(p).exists(), "{kind} {field}: no {p}");
        }
    }
}

#[test]
fn reference_only_fields_are_in_no_schema() {
    let map = parse(&read("docs/feature-map.md"));
    assert!(!map.reference_only.is_empty());
    let all = schema_fields(None);
    for field in &map.reference_only {
        assert!(
            !all.contains(field),
            "{field:?} is in a schema now: move its row to the kind's table"
        );
    }
}

#[test]
fn a_field_without_a_row_and_a_stray_row_are_found() {
    let fields: BTreeSet<Field> = [("Backend", "spec.type"), ("Backend", "spec.static")]
        .map(|(k, f)| (k.to_string(), f.to_string()))
        .into();
    let doc = "## Backend (gateway.kgateway.dev)\n\n| field | rendered in | pinned by | difference |\n|---|---|---|---|\n| `spec.type` | src/render | — | — |\n| `spec.gone` | src/render | — | — |\n";
    let (missing, unknown) = coverage(&fields, &parse(doc));
    assert_eq!(
        missing,
        [("Backend".to_string(), "spec.static".to_string())]
    );
    assert_eq!(unknown, [("Backend".to_string(), "spec.gone".to_string())]);
}
