//! Values read from Secrets and ConfigMaps, and how a rendered resource shows a credential.

use serde_json::Value;

use super::super::secret_digest;
pub(super) use super::super::secret_text;
use super::Context;

/// Entry `key` of the ConfigMap `namespace/name`.
pub(super) fn config_map_text<'c>(
    ctx: &Context<'c>,
    namespace: &str,
    name: &str,
    key: &str,
) -> Option<&'c str> {
    ctx.inputs
        .get("", "ConfigMap", namespace, name)?
        .value
        .pointer(&format!(
            "/data/{}",
            key.replace('~', "~0").replace('/', "~1")
        ))
        .and_then(Value::as_str)
}

/// A credential as the output shows it: its digest, never the value.
pub(super) fn shown(value: String) -> Value {
    Value::String(secret_digest(&value))
}
