//! Gateway API BackendTLSPolicy: the UpstreamTlsContext it gives the clusters of the Services
//! and Backends it targets, as the reference's BackendTLSPolicy plugin builds it.

use serde_json::{Map, Value, json};

use super::super::Context;
use super::plan::array as array_of;
use super::tls_options;
use crate::model::Object;
use crate::model::facts::{GATEWAY_API, Spec};
use crate::model::facts_policy::PolicyFacts;

/// The value of one of a policy's `options` (`kgateway.dev/*` keys).
fn option<'v>(options: Option<&'v Value>, key: &str) -> Option<&'v str> {
    options.and_then(|o| o.get(key)).and_then(Value::as_str)
}

/// The UpstreamTlsContext a Gateway API BackendTLSPolicy gives a Service or Backend: SNI and
/// subject alternative name from `validation.hostname`, CAs from ConfigMaps or Secrets (as
/// digests) or the system's.
pub fn policy(ctx: &Context<'_>, target: &Object) -> Option<Value> {
    let policy = attached(ctx, target)?;
    let validation = policy.field("validation")?;
    let hostname = validation.get("hostname").and_then(Value::as_str);
    let mut context = Map::new();
    let sans = subject_alt_names(validation, hostname);
    if !sans.is_empty() {
        context.insert("matchTypedSubjectAltNames".into(), Value::Array(sans));
    }
    let options = policy.field("options");
    if let Some(hashes) = option(options, "kgateway.dev/verify-certificate-hash") {
        context.insert(
            "verifyCertificateHash".into(),
            json!(tls_options::certificate_hashes(hashes)),
        );
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
    Some(super::upstream_tls(Value::Object(tls)))
}

/// The BackendTLSPolicy of the target's namespace whose targetRefs name it.
fn attached<'a>(ctx: &Context<'a>, target: &Object) -> Option<&'a PolicyFacts> {
    let group = target.id.group.as_str();
    ctx.inputs
        .of_kind(GATEWAY_API, "BackendTLSPolicy")
        .filter(|o| o.id.namespace == target.id.namespace)
        .filter_map(|o| match &ctx.inputs.facts_at(o)?.spec {
            Spec::Policy(p) => Some(&**p),
            _ => None,
        })
        .find(|p| {
            p.target_refs.iter().any(|r| {
                r.group().unwrap_or("") == group
                    && r.kind() == Some(target.id.kind.as_str())
                    && &*r.name == target.id.name.as_str()
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
            Some("Secret") => super::settings::data(ctx, "Secret", ns, name, "ca.crt")
                .and_then(Value::as_str)
                .and_then(crate::render::secret_data),
            _ => super::settings::data(ctx, "ConfigMap", ns, name, "ca.crt")
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
    let params = tls_options::params(option);
    if !params.is_empty()
        && let Value::Object(existing) = common
            .entry("tlsParams")
            .or_insert_with(|| Value::Object(Map::new()))
    {
        existing.extend(params);
    }
    if let Some(text) = option("kgateway.dev/alpn-protocols").filter(|t| *t != "allow-empty") {
        let protocols = tls_options::split_list(text, ',');
        if !protocols.is_empty() {
            common.insert("alpnProtocols".into(), json!(protocols));
        }
    }
}
