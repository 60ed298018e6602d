//! The API server's size bounds of a schema, for the compile-time cost estimate of its CEL rules:
//! a value without `maxItems`, `maxProperties` or `maxLength` is as large as fits in one request,
//! and a rule under such a list or map runs once per item, up to as many as fit.

use crate::cel::{MAX_REQUEST_BYTES, SizeView};

use super::compile::{Additional, Format, JsonType, SchemaNode};

/// Longest JSON text of a `date` and a `date-time` (RFC 3339 with nanoseconds and an offset).
const DATE_BYTES: u64 = 10;
const DATE_TIME_BYTES: u64 = 35;

impl SizeView for SchemaNode {
    fn field(&self, name: &str) -> Option<&dyn SizeView> {
        SchemaNode::field(self, name).map(|s| s as &dyn SizeView)
    }

    fn element(&self) -> Option<&dyn SizeView> {
        match (&self.items, &self.additional) {
            (Some(items), _) => Some(&**items),
            (None, Additional::Schema(values)) => Some(&**values),
            _ => None,
        }
    }

    fn max_size(&self) -> u64 {
        max_elements(self)
    }

    fn is_map(&self) -> bool {
        self.items.is_none() && !matches!(self.additional, Additional::Unknown)
    }
}

/// The most items, entries or characters a value of `s` can have in one request.
fn max_elements(s: &SchemaNode) -> u64 {
    let fit = |min_size: u64| (MAX_REQUEST_BYTES - 2) / min_size.max(1);
    if s.int_or_string {
        return MAX_REQUEST_BYTES - 2;
    }
    match s.ty {
        Some(JsonType::Array) => s.max_items.unwrap_or_else(|| {
            // Each item and its comma.
            fit(s.items.as_deref().map_or(1, min_json_size) + 1)
        }),
        Some(JsonType::Object) => match &s.additional {
            Additional::Unknown => s.properties.as_ref().map_or(0, |p| p.len() as u64),
            // A key of at least `""`, a colon, a comma and the value.
            Additional::Schema(values) => s
                .max_properties
                .unwrap_or_else(|| fit(min_json_size(values) + 4)),
            Additional::Any => s.max_properties.unwrap_or_else(|| fit(5)),
        },
        Some(JsonType::String) => s.max_length.unwrap_or_else(|| longest_string(s)),
        _ => 1,
    }
}

/// The longest string of a schema without `maxLength`: its longest enumerated value, the
/// longest text of its format, else as long as a request allows.
fn longest_string(s: &SchemaNode) -> u64 {
    if let Some(values) = &s.enum_values {
        return values
            .iter()
            .filter_map(|v| v.as_str())
            .map(|v| v.len() as u64)
            .max()
            .unwrap_or(0);
    }
    match s.format {
        Some(Format::Date) => DATE_BYTES,
        Some(Format::DateTime) => DATE_TIME_BYTES,
        // Less the quotes.
        _ => MAX_REQUEST_BYTES - 2,
    }
}

/// The fewest bytes a value of `s` takes in JSON.
fn min_json_size(s: &SchemaNode) -> u64 {
    if s.int_or_string {
        return 1;
    }
    match s.ty {
        Some(JsonType::String) => 2 + s.min_length.unwrap_or(0),
        Some(JsonType::Boolean) => 4,
        Some(JsonType::Array) => 2,
        Some(JsonType::Object) => s.required.iter().fold(2, |size, name| {
            // `"name":value,` for each required field.
            let value = s.property(name).map_or(1, min_json_size);
            size.saturating_add(name.len() as u64 + value + 4)
        }),
        _ => 1,
    }
}

/// Sets each rule's estimated cost: one evaluation's worst case times how many times the rule
/// can run in one object (the product of the sizes of the lists and maps above it), as the API
/// server computes it when the CRD is created.
pub(super) fn estimate_rule_costs(node: &mut SchemaNode, runs: u64) {
    let costs: Vec<u64> = node
        .rules
        .iter()
        .map(|rule| match &*rule.compiled {
            Ok(c) => c.estimated_cost(node).saturating_mul(runs),
            Err(_) => 0,
        })
        .collect();
    for (rule, cost) in node.rules.iter_mut().zip(costs) {
        rule.estimated_cost = cost;
    }
    if !node.rules_below {
        return;
    }
    let per_item = runs.saturating_mul(max_elements(node));
    // A value runs its rules at most as often as copies of it fit in one request.
    let fit = |child: &SchemaNode| per_item.min(MAX_REQUEST_BYTES / (min_json_size(child) + 1));
    if let Some(props) = &mut node.properties {
        for child in props.values_mut() {
            estimate_rule_costs(child, runs);
        }
    }
    if let Additional::Schema(values) = &mut node.additional {
        let runs = fit(values);
        estimate_rule_costs(values, runs);
    }
    if let Some(items) = &mut node.items {
        let runs = fit(items);
        estimate_rule_costs(items, runs);
    }
    let alternatives = node
        .one_of
        .iter_mut()
        .chain(&mut node.any_of)
        .chain(&mut node.all_of);
    for alt in alternatives.chain(node.not.as_deref_mut()) {
        estimate_rule_costs(alt, runs);
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::super::compile::{SchemaNode, compile};
    use super::super::{ApiGroups, Registry};
    use crate::cel::STATIC_COST_LIMIT;
    use crate::parse::Limits;

    /// Every rule's estimated cost, with its kind, path and source, in every schema of `registry`.
    fn rule_costs(registry: &Registry) -> Vec<(u64, String)> {
        fn walk(n: &SchemaNode, path: &str, out: &mut Vec<(u64, String)>) {
            out.extend(
                n.rules
                    .iter()
                    .map(|r| (r.estimated_cost, format!("{path}: {}", r.rule))),
            );
            for (name, child) in n.properties.iter().flat_map(|p| p.iter()) {
                walk(child, &format!("{path}.{name}"), out);
            }
            if let Some(items) = &n.items {
                walk(items, &format!("{path}[]"), out);
            }
            if let super::Additional::Schema(values) = &n.additional {
                walk(values, &format!("{path}{{}}"), out);
            }
        }
        let mut out = Vec::new();
        for (group, kind, versions) in registry.kinds() {
            for version in versions {
                if let Some(json) = registry.schema_json(&group, &version, &kind) {
                    walk(&compile(json).root, &kind, &mut out);
                }
            }
        }
        out.sort();
        out
    }

    #[test]
    fn built_in_rules_are_within_the_static_limit() {
        let costs = rule_costs(Registry::builtin());
        assert!(costs.len() > 100, "{}", costs.len());
        let over: Vec<_> = costs
            .iter()
            .filter(|(c, _)| *c > STATIC_COST_LIMIT)
            .collect();
        assert!(over.is_empty(), "{over:#?}");
    }

    /// The shared corpus's CRDs are accepted by real API servers: none of their rules may be
    /// over the limit here. Skipped without the corpus.
    #[test]
    fn corpus_crd_rules_are_within_the_static_limit() {
        let corpus = std::env::var_os("GWCTL_CORPUS")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"));
        if !corpus.join("gateway-api").is_dir() {
            println!("skipped: corpus not found at {}", corpus.display());
            return;
        }
        let dirs = [
            "gateway-api/config/crd/experimental",
            "gateway-api/config/crd/standard",
            "kgateway/crds",
        ];
        for dir in dirs {
            let paths = [corpus.join(dir)];
            let (registry, found) =
                crate::crds::load_crds(&paths, &Limits::default(), &ApiGroups::default())
                    .unwrap_or_else(|e| panic!("{dir}: {e}"));
            assert!(found.imported > 0, "{dir}");
            let costs = rule_costs(&registry);
            println!("{dir}: {} rules, largest {:?}", costs.len(), costs.last());
            let over: Vec<_> = costs
                .iter()
                .filter(|(c, _)| *c > STATIC_COST_LIMIT)
                .collect();
            assert!(over.is_empty(), "{dir}: {over:#?}");
        }
    }
}
