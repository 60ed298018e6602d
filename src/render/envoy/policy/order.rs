//! The order of a listener's HTTP filters: the reference's, by filter name, and among the
//! filters of several ExtAuth or ExtProc GatewayExtensions, their extensions' rank.

use std::collections::BTreeMap;

use serde_json::Value;

use super::Policies;

/// The listener's HTTP filters in the order the reference declares them (by name prefix).
const ORDER: &[&str] = &[
    "envoy.filters.http.cors",
    "envoy.filters.http.oauth2",
    "global_disable/jwt",
    "jwt",
    "envoy.filters.http.basic_auth",
    "envoy.filters.http.api_key_auth",
    "global_disable/ext_auth",
    "ext_auth",
    "envoy.filters.http.rbac",
    "global_disable/ext_proc",
    "ext_proc",
    "ratelimit",
    "ratelimit/local",
    "envoy.filters.http.csrf",
    "dynamic_modules/simple_mutations",
    "envoy.filters.http.buffer",
    "envoy.extensions.filters.http.header_mutation",
    "envoy.filters.http.compressor",
    "envoy.filters.http.decompressor",
    "envoy.filters.http.dynamic_forward_proxy",
    "envoy.filters.http.stateful_session",
];

impl Policies<'_> {
    /// The listener's HTTP filters, in the reference's order, from every place's declarations.
    /// The filters of ExtAuth and ExtProc GatewayExtensions (several when policies are
    /// deep-merged) follow their extensions' rank, as the reference orders them.
    pub fn ordered(&self, declarations: &BTreeMap<String, Value>) -> Vec<Value> {
        // An exact name first (`ratelimit/local`), else the prefix (`ratelimit/<ns>/<name>`).
        let rank = |name: &str| {
            ORDER
                .iter()
                .position(|p| name == *p)
                .or_else(|| {
                    ORDER
                        .iter()
                        .position(|p| name.starts_with(&format!("{p}/")))
                })
                .unwrap_or(ORDER.len())
        };
        let mut list: Vec<(&String, &Value)> = declarations.iter().collect();
        list.sort_by_cached_key(|(n, _)| (rank(n), self.extension_rank(n)));
        list.into_iter().map(|(_, v)| v.clone()).collect()
    }

    /// The rank of the GatewayExtension behind an `ext_auth/<ns>/<name>` or
    /// `ext_proc/<ns>/<name>` filter: heavier `kgateway.dev/policy-weight` first, then the
    /// older (none last), then by namespace and name; other filters rank equal.
    fn extension_rank(&self, filter: &str) -> (std::cmp::Reverse<i64>, bool, String, String) {
        let equal = (std::cmp::Reverse(0), false, String::new(), String::new());
        let Some((kind, rest)) = filter.split_once('/') else {
            return equal;
        };
        let Some((ns, name)) = rest.split_once('/') else {
            return equal;
        };
        if !matches!(kind, "ext_auth" | "ext_proc") {
            return equal;
        }
        let ext = super::super::settings::extension(self.ctx, ns, name);
        let weight = ext.map_or(0, |e| e.weight);
        let created = ext.and_then(|e| e.created.as_deref());
        (
            std::cmp::Reverse(weight),
            created.is_none(),
            created.unwrap_or_default().to_string(),
            format!("{ns}/{name}"),
        )
    }
}
