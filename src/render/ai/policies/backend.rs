//! The `backend` features of an AiGatewayPolicy: TLS, HTTP, auth, AI and MCP.

use crate::render::base64;
use serde_json::{Map, Value, json};

use super::traffic::{authorization, existing_backend};
use super::{Feature, Policy, Section};
use crate::model::Object;
use crate::render::ai::secrets::{config_map_text, secret_text, shown};
use crate::render::ai::{Context, pick, service_host, str_at};
use crate::render::json::single;

pub(super) fn features(ctx: &Context<'_>, policy: &Policy<'_>, b: Section<'_>) -> Vec<Feature> {
    let mut out = Vec::new();
    if let Some(h) = b.get("http") {
        out.push(Feature::backend(
            None,
            "backend-http",
            single("backendHttp", pick(h, &["version", "requestTimeout"])),
        ));
    }
    if let Some(t) = b.get("tls") {
        out.push(Feature::backend(
            None,
            "tls",
            single("backendTls", backend_tls(ctx, policy, t)),
        ));
    }
    if let Some(auth) = b.get("auth").and_then(|a| auth(ctx, policy, a)) {
        out.push(Feature::backend(
            Some("backend"),
            "backend-auth",
            single("auth", auth),
        ));
    }
    if let Some(ai) = b.get("ai") {
        out.push(Feature::backend(
            Some("backend"),
            "ai",
            single("ai", ai_policy(ctx, policy, ai)),
        ));
    }
    if let Some(a) = b.at("mcp", "authorization") {
        out.push(Feature::backend(
            None,
            "mcp-authorization",
            single("mcpAuthorization", authorization(a)),
        ));
    }
    if let Some(a) = b.at("mcp", "authentication") {
        out.push(Feature::backend(
            None,
            "mcp-authentication",
            single("mcpAuthentication", mcp_authentication(ctx, policy, a)),
        ));
    }
    out
}

/// Backend auth: an inline key, a key from a Secret (its `Authorization`, without `Bearer `),
/// passing the client's through, or a cloud provider's credentials from a Secret. `None`, with
/// the problem recorded, when a Secret it needs is missing or incomplete.
fn auth(ctx: &Context<'_>, policy: &Policy<'_>, a: &Value) -> Option<Value> {
    let ns = policy.object.id.namespace.as_str();
    let secret = str_at(a, "/aws/secretRef/name").or_else(|| str_at(a, "/secretRef/name"));
    if let Some(name) = secret
        && ctx.inputs.get("", "Secret", ns, name).is_none()
    {
        policy.problem(format!("secret {ns}/{name} not found"));
        return None;
    }
    if let Some(name) = str_at(a, "/aws/secretRef/name") {
        let read = |key: &str| secret_text(ctx, ns, name, key).map(shown);
        let mut explicit = Map::new();
        explicit.insert("accessKeyId".into(), read("accessKey")?);
        explicit.insert("secretAccessKey".into(), read("secretKey")?);
        if let Some(token) = read("sessionToken") {
            explicit.insert("sessionToken".into(), token);
        }
        return Some(json!({"aws": {"explicitConfig": explicit}}));
    }
    if let Some(key) = a["key"].as_str() {
        return Some(json!({ "key": { "secret": shown(key.to_string()) } }));
    }
    if let Some(name) = str_at(a, "/secretRef/name") {
        let Some(text) = secret_text(ctx, ns, name, "Authorization") else {
            policy.problem(format!("secret {ns}/{name} missing Authorization value"));
            return None;
        };
        let key = text
            .strip_prefix("Bearer ")
            .unwrap_or(&text)
            .trim()
            .to_string();
        return Some(json!({ "key": { "secret": shown(key) } }));
    }
    if a.get("passthrough").is_some() {
        return Some(json!({ "passthrough": {} }));
    }
    None
}

/// TLS toward the backend: the client certificate (and its CA) from the mTLS Secret, CAs from
/// ConfigMaps, SNI, SANs to verify and ALPN.
fn backend_tls(ctx: &Context<'_>, policy: &Policy<'_>, t: &Value) -> Value {
    let ns = policy.object.id.namespace.as_str();
    let mut out = Map::new();
    if let Some(name) = str_at(t, "/mtlsCertificateRef/0/name") {
        if ctx.inputs.get("", "Secret", ns, name).is_none() {
            policy.problem(format!("secret {ns}/{name} not found"));
        }
        for (key, field) in [("tls.crt", "cert"), ("tls.key", "key"), ("ca.crt", "root")] {
            // Every value of a Secret is secret, the certificates too: digests.
            if let Some(text) = secret_text(ctx, ns, name, key) {
                out.insert(field.into(), shown(text));
            }
        }
    }
    for name in t["caCertificateRefs"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| r["name"].as_str())
    {
        if ctx.inputs.get("", "ConfigMap", ns, name).is_none() {
            policy.problem(format!("ConfigMap {ns}/{name} not found"));
        }
    }
    if !out.contains_key("root") {
        let roots: Vec<String> = t["caCertificateRefs"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|r| config_map_text(ctx, ns, r["name"].as_str()?, "ca.crt"))
            .map(|pem| format!("{pem}\n"))
            .collect();
        if !roots.is_empty() {
            out.insert(
                "root".into(),
                base64::encode(roots.join("\n").as_bytes()).into(),
            );
        }
    }
    if let Some(sni) = t.get("sni") {
        out.insert("hostname".into(), sni.clone());
    }
    if let Some(s) = t.get("verifySubjectAltNames") {
        out.insert("verifySubjectAltNames".into(), s.clone());
    }
    if let Some(a) = t.get("alpnProtocols") {
        out.insert("alpn".into(), single("protocols", a.clone()));
    }
    if t["insecureSkipVerify"].as_str() == Some("All") {
        out.insert("verification".into(), "INSECURE_ALL".into());
    }
    Value::Object(out)
}

/// `CreditCard` -> `CREDIT_CARD`.
fn upper_snake(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 4);
    for (i, c) in s.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_uppercase());
    }
    out
}

/// The AI features: request defaults and overrides (values as JSON text), prompts, guards,
/// caching, model aliases and route types.
fn ai_policy(ctx: &Context<'_>, policy: &Policy<'_>, ai: &Value) -> Value {
    let mut out = Map::new();
    for field in ["defaults", "overrides"] {
        if let Some(list) = ai[field].as_array() {
            let map: Map<String, Value> = list
                .iter()
                .filter_map(|d| {
                    let name = d["field"].as_str()?;
                    Some((name.to_string(), d["value"].to_string().into()))
                })
                .collect();
            out.insert(field.into(), map.into());
        }
    }
    if let Some(a) = ai.get("modelAliases") {
        out.insert("modelAliases".into(), a.clone());
    }
    if let Some(c) = ai["promptCaching"].as_object() {
        // Unset and false mean the same to the data plane.
        let set: Map<String, Value> = c
            .iter()
            .filter(|(_, v)| **v != Value::Bool(false))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        out.insert("promptCaching".into(), set.into());
    }
    if let Some(p) = ai.get("prompt") {
        out.insert("prompts".into(), p.clone());
    }
    if let Some(g) = ai.get("promptGuard") {
        let mut guard = Map::new();
        for side in ["request", "response"] {
            if let Some(list) = g[side].as_array() {
                let guards: Vec<Value> =
                    list.iter().map(|x| prompt_guard(ctx, policy, x)).collect();
                guard.insert(side.into(), guards.into());
            }
        }
        out.insert("promptGuard".into(), guard.into());
    }
    if let Some(routes) = ai["routes"].as_object() {
        let map: Map<String, Value> = routes
            .iter()
            .map(|(path, kind)| {
                (
                    path.clone(),
                    upper_snake(kind.as_str().unwrap_or("")).into(),
                )
            })
            .collect();
        out.insert("routes".into(), map.into());
    }
    Value::Object(out)
}

fn prompt_guard(ctx: &Context<'_>, policy: &Policy<'_>, g: &Value) -> Value {
    let mut out = Map::new();
    if let Some(r) = g.get("regex") {
        let mut rules: Vec<Value> = r["matches"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|m| json!({ "regex": m }))
            .collect();
        rules.extend(
            r["builtins"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(|b| json!({ "builtin": upper_snake(b) })),
        );
        out.insert("regex".into(), single("rules", rules));
    }
    if let Some(m) = g.get("openAIModeration") {
        let mut moderation = pick(m, &["model"]);
        if str_at(m, "/policies/tls/insecureSkipVerify") == Some("All") {
            moderation.insert(
                "inlinePolicies".into(),
                json!([{"backendTls": {"verification": "INSECURE_ALL"}}]),
            );
        }
        out.insert("openaiModeration".into(), moderation.into());
    }
    if let Some(w) = g.get("webhook") {
        let mut webhook = Map::new();
        if let Some(b) = existing_backend(ctx, policy, &w["backendRef"], "failed to build webhook")
        {
            webhook.insert("backend".into(), b);
        }
        out.insert("webhook".into(), webhook.into());
    }
    if let Some(message) = str_at(g, "/response/message") {
        out.insert(
            "rejection".into(),
            json!({"body": base64::encode(message.as_bytes())}),
        );
    }
    Value::Object(out)
}

/// MCP authentication: the identity provider, and the key set as the controller fetched it
/// (its JWKS store ConfigMaps, keyed by URL).
fn mcp_authentication(ctx: &Context<'_>, policy: &Policy<'_>, a: &Value) -> Value {
    let ns = policy.object.id.namespace.as_str();
    let mut out = pick(a, &["audiences", "issuer"]);
    if let Some(p) = a["provider"].as_str() {
        // The data plane's names of the two identity providers.
        let named = match p {
            "IdpOne" => "AUTH0",
            "IdpTwo" => "KEYCLOAK",
            other => other,
        };
        out.insert("provider".into(), named.into());
    }
    if let Some(m) = a.get("resourceMetadata") {
        out.insert("resourceMetadata".into(), single("extra", m.clone()));
    }
    let jwks = &a["jwks"];
    if let (Some(svc), Some(path)) = (str_at(jwks, "/backendRef/name"), jwks["jwksPath"].as_str()) {
        let svc_ns = str_at(jwks, "/backendRef/namespace").unwrap_or(ns);
        let port = jwks["backendRef"]["port"].as_u64().unwrap_or(80);
        let url = format!(
            "http://{}:{port}/{}",
            service_host(svc_ns, svc),
            path.trim_start_matches('/')
        );
        if !jwks_store_exists(ctx) {
            policy.problem("jwks store hasn't been initialized".to_string());
        } else if let Some(inline) = jwks_from_store(ctx, &url) {
            out.insert("jwksInline".into(), inline.into());
        }
    }
    Value::Object(out)
}

/// The controller's JWKS store: ConfigMaps labelled as its parts.
fn jwks_store<'s, 'c>(ctx: &'s Context<'c>) -> impl Iterator<Item = &'c Object> + 's {
    ctx.inputs.of_kind("", "ConfigMap").filter(|c| {
        str_at(&c.value, "/metadata/labels/app.kubernetes.io~1component") == Some("jwks-store")
    })
}

fn jwks_store_exists(ctx: &Context<'_>) -> bool {
    jwks_store(ctx).next().is_some()
}

/// The key set fetched from `url`, as the controller's JWKS store holds it.
fn jwks_from_store(ctx: &Context<'_>, url: &str) -> Option<String> {
    jwks_store(ctx).find_map(|c| {
        let store: Value = serde_json::from_str(c.value["data"]["jwks-store"].as_str()?).ok()?;
        store[url].as_str().map(str::to_string)
    })
}
