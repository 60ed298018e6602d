//! The htpasswd file of a Secret: its `.htpasswd` key, which a TrafficPolicy's
//! `basicAuth.secretRef` reads unless it names another key. Each line is checked as inline users
//! are (GW124); hashes are never quoted.

use crate::diag::Diagnostic;
use crate::model::Resource;
use crate::validate::values::{htpasswd, position::ScalarMap};

/// The key basic authentication reads by default.
const KEY: &str = ".htpasswd";

pub(super) fn check(resource: &Resource<'_>) -> Vec<Diagnostic> {
    if !resource.group.is_empty() || resource.kind != "Secret" {
        return Vec::new();
    }
    let prefix = resource
        .path_prefix_index
        .map_or(String::new(), |i| format!("items[{i}]."));
    let mut out = Vec::new();
    for (field, encoded) in [("stringData", false), ("data", true)] {
        let Some(node) = resource.root.get(field).and_then(|d| d.get(KEY)) else {
            continue;
        };
        let Some(written) = node.as_str() else {
            continue;
        };
        // `data` is base64: a position in the decoded text is none in the file.
        let (text, positions) = if encoded {
            match crate::base64::decode(written).and_then(|b| String::from_utf8(b).ok()) {
                Some(text) => (text, None),
                None => continue,
            }
        } else {
            let map = ScalarMap::new(&resource.source.text, node.span, written);
            (written.to_string(), Some(map))
        };
        let path = format!("{prefix}{field}[{KEY}]");
        for f in htpasswd::check(&text) {
            let span = match (&positions, &f.range) {
                (Some(map), Some(r)) => map.span(r.start, r.end),
                _ => node.span,
            };
            let mut d = Diagnostic::new(f.code, format!("{path}: {}", f.message))
                .at(resource.file, span)
                .with_resource(Some(resource.reference()))
                .with_path(path.clone());
            if text.contains("\\n") {
                d = d.with_help(
                    "the value holds a backslash and an n, not a line break (YAML turns \\n into one only in double quotes): write the lines in a block scalar (|)",
                );
            }
            out.push(d);
        }
    }
    out
}
