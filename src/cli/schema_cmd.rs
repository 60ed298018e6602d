//! `gwctl schema KIND [--api-version GROUP/VERSION]`: the JSON Schema a kind is checked against.

use super::args::SchemaArgs;
use super::{print_stdout, usage_error};
use crate::schema::Registry;

pub(super) fn run(args: &SchemaArgs) -> u8 {
    match schema_text(Registry::builtin(), &args.kind, args.api_version.as_deref()) {
        Ok(text) => print_stdout(&text).map_or_else(|code| code, |()| 0),
        Err(message) => usage_error(&message),
    }
}

/// The pretty-printed schema of a kind (case-insensitive), or the usage error to print.
pub fn schema_text(
    registry: &Registry,
    kind: &str,
    api_version: Option<&str>,
) -> Result<String, String> {
    // `v1` is the core group; `group/version` any other.
    let wanted = api_version.map(|av| match av.rsplit_once('/') {
        Some((g, v)) => (g.to_string(), v.to_string()),
        None => (String::new(), av.to_string()),
    });
    let kinds = registry.kinds();
    let matches: Vec<&(String, String, Vec<String>)> = kinds
        .iter()
        .filter(|(g, k, _)| {
            k.eq_ignore_ascii_case(kind) && wanted.as_ref().is_none_or(|(wg, _)| wg == g)
        })
        .collect();
    let (group, name, versions) = match matches.as_slice() {
        [] => return Err(unknown_kind(&kinds, kind, api_version)),
        [one] => *one,
        several => {
            let groups: Vec<String> = several.iter().map(|(g, _, _)| g.clone()).collect();
            return Err(format!(
                "kind {kind:?} is in several API groups ({}); choose one with --api-version",
                groups.join(", ")
            ));
        }
    };
    let version = match &wanted {
        Some((_, v)) if versions.contains(v) => v.clone(),
        Some((_, v)) => {
            return Err(format!(
                "no version {v} of kind {name}; known: {}",
                versions.join(", ")
            ));
        }
        None => versions
            .first()
            .cloned()
            .ok_or(format!("kind {name} has no served version"))?,
    };
    let schema = registry
        .schema_json(group, &version, name)
        .ok_or(format!("no schema for {name} {version}"))?;
    let mut text = serde_json::to_string_pretty(schema).map_err(|e| e.to_string())?;
    text.push('\n');
    Ok(text)
}

fn unknown_kind(
    kinds: &[(String, String, Vec<String>)],
    kind: &str,
    api_version: Option<&str>,
) -> String {
    let lower = kind.to_ascii_lowercase();
    let mut close: Vec<&str> = kinds
        .iter()
        .map(|(_, k, _)| k.as_str())
        .filter(|k| {
            let k = k.to_ascii_lowercase();
            strsim::levenshtein(&k, &lower) <= 3
                || (lower.len() >= 4 && (k.contains(&lower) || lower.contains(&k)))
        })
        .collect();
    close.sort_unstable();
    close.dedup();
    let place = api_version
        .map(|av| format!(" in {av}"))
        .unwrap_or_default();
    if close.is_empty() {
        format!("unknown kind {kind:?}{place}; `gwctl schema` knows the kinds gwctl checks")
    } else {
        format!(
            "unknown kind {kind:?}{place}; did you mean {}?",
            close.join(", ")
        )
    }
}
