//! Values read from Secrets and ConfigMaps, and how a rendered resource shows a credential.

use serde_json::Value;

use super::super::secret_digest;
use super::Context;
use crate::model::facts_settings::Settings;

/// Entry `key` of the Secret `namespace/name`, as the model keeps it: every Secret value is
/// secret, so this is its digest (see `render::secret_data`). `None` when the Secret or the
/// entry is missing or not base64.
pub(super) fn secret_text(
    ctx: &Context<'_>,
    namespace: &str,
    name: &str,
    key: &str,
) -> Option<String> {
    let secret = ctx.inputs.get("", "Secret", namespace, name)?;
    // The render-only facts keep a Secret's data (render keeps no JSON of it).
    let Some(Settings::Secret { data, string_data }) =
        ctx.inputs.facts_at(secret)?.settings.as_deref()
    else {
        return None;
    };
    if let Some(data) = data[key].as_str() {
        return super::super::secret_data(data);
    }
    string_data[key].as_str().map(str::to_string)
}

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
