//! Gateway API BackendTLSPolicy: the UpstreamTlsContext it gives the clusters of the Services
//! and Backends it targets, as the reference's BackendTLSPolicy plugin builds it.

use serde_json::{Map, Value, json};

use super::super::Context;
use super::plan::array as array_of;
use super::typed;
use crate::model::Object;
use crate::model::facts::GATEWAY_API;

/// The value of one of a policy's `options` (`kgateway.dev/*` keys).
fn option<'v>(options: Option<&'v Value>, key: &str) -> Option<&'v str> {
    options.and_then(|o| o.get(key)).and_then(Value::as_str)
}

/// The UpstreamTlsContext a Gateway API BackendTLSPolicy gives a Service or Backend: SNI and
/// subject alternative name from `validation.hostname`, CAs from ConfigMaps or Secrets (as
/// digests) or the system's.
pub fn policy(ctx: &Context<'_>, target: &Object) -> Option<Value> {
    let policy = attached(ctx, target)?;
    let validation = policy.value.pointer("/spec/validation")?;
    let hostname = validation.get("hostname").and_then(Value::as_str);
    let mut context = Map::new();
    let sans = subject_alt_names(validation, hostname);
    if !sans.is_empty() {
        context.insert("matchTypedSubjectAltNames".into(), Value::Array(sans));
    }
    let options = policy.value.pointer("/spec/options");
    if let Some(hashes) = option(options, "kgateway.dev/verify-certificate-hash") {
        // One hash, or a YAML-like list of them (`- HASH` lines), as on a listener.
        let list: Vec<&str> = hashes.split_whitespace().filter(|t| *t != "-").collect();
        context.insert("verifyCertificateHash".into(), json!(list));
    }
    let mut common = Map::new();
    if validation
        .get("wellKnownCACertificates")
        .and_then(Value::as_str)
        == Some("System")
    {
        common.insert(
            "combinedValidationContext".into(),
            json!({
                "defaultValidationContext": context,
                "validationContextSdsSecretConfig": {"name": "SYSTEM_CA_CERT"},
            }),
        );
    } else {
        let cas = ca_certificates(ctx, validation, &target.id.namespace);
        if !cas.is_empty() {
            context.insert(
                "trustedCa".into(),
                json!({"inlineString": super::secret_digest(&cas.concat())}),
            );
        }
        common.insert("tlsParams".into(), json!({}));
        common.insert("validationContext".into(), Value::Object(context));
    }
    tls_options(&mut common, options);
    let mut tls = Map::new();
    tls.insert("commonTlsContext".into(), Value::Object(common));
    if let Some(h) = hostname {
        tls.insert("sni".into(), json!(h));
    }
    Some(json!({
        "name": "envoy.transport_sockets.tls",
        "typedConfig": typed(
            "envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext",
            Value::Object(tls),
        ),
    }))
}

/// The BackendTLSPolicy of the target's namespace whose targetRefs name it.
fn attached<'a>(ctx: &Context<'a>, target: &Object) -> Option<&'a Object> {
    let group = target.id.group.as_str();
    ctx.inputs
        .of_kind(GATEWAY_API, "BackendTLSPolicy")
        .filter(|o| o.id.namespace == target.id.namespace)
        .find(|o| {
            array_of(&o.value, "/spec/targetRefs").any(|r| {
                r.get("group").and_then(Value::as_str).unwrap_or("") == group
                    && r.get("kind").and_then(Value::as_str) == Some(target.id.kind.as_str())
                    && r.get("name").and_then(Value::as_str) == Some(target.id.name.as_str())
            })
        })
}

/// The CA certificates a BackendTLSPolicy's validation names, as their text (a Secret's
/// decoded), in order; missing ones left out.
fn ca_certificates(ctx: &Context<'_>, validation: &Value, ns: &str) -> Vec<String> {
    let mut cas = Vec::new();
    for r in array_of(validation, "/caCertificateRefs") {
        let name = r.get("name").and_then(Value::as_str).unwrap_or("");
        let text = match r.get("kind").and_then(Value::as_str) {
            Some("Secret") => ctx
                .inputs
                .get("", "Secret", ns, name)
                .and_then(|s| s.value.pointer("/data/ca.crt"))
                .and_then(Value::as_str)
                .and_then(crate::render::secret_data),
            _ => ctx
                .inputs
                .get("", "ConfigMap", ns, name)
                .and_then(|c| c.value.pointer("/data/ca.crt"))
                .and_then(Value::as_str)
                .map(str::to_string),
        };
        cas.extend(text);
    }
    cas
}

/// The certificate names a BackendTLSPolicy accepts: its `subjectAltNames` (a hostname as DNS, a
/// URI as URI), else its hostname.
fn subject_alt_names(validation: &Value, hostname: Option<&str>) -> Vec<Value> {
    let listed: Vec<Value> = array_of(validation, "/subjectAltNames")
        .filter_map(|san| match san.get("type").and_then(Value::as_str) {
            Some("Hostname") => {
                Some(json!({"matcher": {"exact": san.get("hostname")?}, "sanType": "DNS"}))
            }
            Some("URI") => Some(json!({"matcher": {"exact": san.get("uri")?}, "sanType": "URI"})),
            _ => None,
        })
        .collect();
    if !listed.is_empty() {
        return listed;
    }
    hostname
        .map(|h| json!({"matcher": {"exact": h}, "sanType": "DNS"}))
        .into_iter()
        .collect()
}

/// A BackendTLSPolicy's `options`: the TLS settings a Gateway listener takes from the same
/// `kgateway.dev/*` keys (cipher suites, curves, protocol versions, ALPN).
fn tls_options(common: &mut Map<String, Value>, options: Option<&Value>) {
    let option = |key: &str| option(options, key);
    let list = |text: &str| -> Vec<String> {
        text.split(',')
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(str::to_string)
            .collect()
    };
    let mut params = Map::new();
    for (key, field) in [
        ("kgateway.dev/cipher-suites", "cipherSuites"),
        ("kgateway.dev/ecdh-curves", "ecdhCurves"),
    ] {
        if let Some(text) = option(key) {
            params.insert(field.into(), json!(list(text)));
        }
    }
    for (key, field) in [
        ("kgateway.dev/min-tls-version", "tlsMinimumProtocolVersion"),
        ("kgateway.dev/max-tls-version", "tlsMaximumProtocolVersion"),
    ] {
        if let Some(v) = option(key) {
            params.insert(field.into(), json!(format!("TLSv{}", v.replace('.', "_"))));
        }
    }
    if !params.is_empty()
        && let Value::Object(existing) = common
            .entry("tlsParams")
            .or_insert_with(|| Value::Object(Map::new()))
    {
        existing.extend(params);
    }
    if let Some(text) = option("kgateway.dev/alpn-protocols").filter(|t| *t != "allow-empty") {
        let protocols = list(text);
        if !protocols.is_empty() {
            common.insert("alpnProtocols".into(), json!(protocols));
        }
    }
}
