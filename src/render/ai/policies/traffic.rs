//! The `traffic` and `frontend` features of an AiGatewayPolicy.

use serde_json::{Map, Value, json};

use super::{Feature, Policy, Section};
use crate::render::ai::routes::{backend_ref, cors};
use crate::render::ai::{Context, pick};
use crate::render::json::single;

pub(super) fn features(ctx: &Context<'_>, policy: &Policy<'_>, t: Section<'_>) -> Vec<Feature> {
    let mut out = Vec::new();
    if let Some(timeouts) = t.get("timeouts") {
        out.push(Feature::traffic(
            "timeout",
            single("timeout", pick(timeouts, &["request", "backendRequest"])),
        ));
    }
    if let Some(r) = t.get("retry").and_then(|r| retry(policy, r)) {
        out.push(Feature::traffic("retry", single("retry", r)));
    }
    if let Some(c) = t.get("cors") {
        out.push(Feature::traffic("cors", single("cors", cors(c))));
    }
    if let Some(c) = t.get("csrf") {
        out.push(Feature::traffic(
            "csrf",
            single("csrf", pick(c, &["additionalOrigins"])),
        ));
    }
    if let Some(h) = t.get("headerModifiers") {
        // One policy per direction, under one key.
        for (field, name) in [
            ("request", "requestHeaderModifier"),
            ("response", "responseHeaderModifier"),
        ] {
            if let Some(m) = h.get(field) {
                out.push(Feature::traffic(
                    "header-modifier",
                    single(name, pick(m, &["add", "set", "remove"])),
                ));
            }
        }
    }
    if let Some(tr) = t.get("transformation") {
        out.push(Feature::traffic(
            "transformation",
            single("transformation", transformation(policy, tr)),
        ));
    }
    if let Some(e) = t.get("extAuth") {
        out.push(Feature::traffic(
            "extauth",
            single("extAuthz", ext_auth(ctx, policy, e)),
        ));
    }
    if let Some(e) = t.get("extProc") {
        let mut v = Map::new();
        if let Some(target) =
            existing_backend(ctx, policy, &e["backendRef"], "failed to build extProc")
        {
            v.insert("target".into(), target);
        }
        out.push(Feature::traffic("extproc", single("extProc", v)));
    }
    if let Some(g) = t.at("rateLimit", "global") {
        out.push(Feature::traffic(
            "rl-global",
            single("remoteRateLimit", global_rate_limit(ctx, policy, g)),
        ));
    }
    if let Some(j) = t.get("jwtAuthentication") {
        out.push(Feature::traffic(
            "jwt",
            in_phase(t, single("jwt", jwt_authentication(j))),
        ));
    }
    if let Some(b) = t.get("basicAuthentication")
        && let Some(v) = basic_authentication(ctx, policy, b)
    {
        out.push(Feature::traffic(
            "basicauth",
            in_phase(t, single("basicAuth", v)),
        ));
    }
    if let Some(a) = t.get("authorization") {
        out.push(Feature::traffic(
            "rbac",
            single("authorization", authorization(a)),
        ));
    }
    out
}

/// A traffic feature of a policy in the PreRouting phase runs at the gateway, before routing.
fn in_phase(t: Section<'_>, mut value: Value) -> Value {
    if t.get("phase").and_then(Value::as_str) == Some("PreRouting")
        && let Value::Object(map) = &mut value
    {
        map.insert("phase".into(), "GATEWAY".into());
    }
    value
}

/// The mode of an authentication: Strict, Optional or Permissive, as the data plane names it.
fn auth_mode(a: &Value) -> Option<Value> {
    a["mode"].as_str().map(|m| Value::String(m.to_uppercase()))
}

/// `jwtAuthentication`: the mode and the providers with an inline key set (a remote one needs
/// a fetch the controller makes, which gwctl cannot).
fn jwt_authentication(j: &Value) -> Value {
    let providers: Vec<Value> = j["providers"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| {
            let inline = p["jwks"]["inline"].as_str()?;
            let mut out = pick(p, &["issuer", "audiences"]);
            out.insert("inline".into(), inline.trim_end_matches('\n').into());
            Some(Value::Object(out))
        })
        .collect();
    let mut out = json!({ "providers": providers });
    if let Some(mode) = auth_mode(j) {
        out["mode"] = mode;
    }
    out
}

/// `basicAuthentication`: the htpasswd lines (written, or the Secret's `.htaccess`) and the
/// realm; `None` when the Secret or its key is missing.
fn basic_authentication(ctx: &Context<'_>, policy: &Policy<'_>, b: &Value) -> Option<Value> {
    let content = match (b.get("users"), b["secretRef"]["name"].as_str()) {
        (Some(Value::Array(users)), _) => {
            let lines: Vec<&str> = users.iter().filter_map(Value::as_str).collect();
            super::super::secrets::shown(lines.join("\n"))
        }
        // The model keeps the digest of secret material, not the lines.
        (Some(Value::String(digest)), _) => super::super::secrets::shown(digest.clone()),
        (_, Some(name)) => {
            let ns = &policy.object.id.namespace;
            super::super::secrets::shown(super::super::secrets::secret_text(
                ctx,
                ns,
                name,
                ".htaccess",
            )?)
        }
        _ => return None,
    };
    let mut out = json!({ "htpasswdContent": content });
    if let Some(realm) = b.get("realm") {
        out["realm"] = realm.clone();
    }
    // Strict is the data plane's default mode, left out as protobuf leaves a default out.
    if let Some(mode) = auth_mode(b).filter(|m| m != "STRICT") {
        out["mode"] = mode;
    }
    Some(out)
}

/// `allow` or `deny` (the action, Allow by default) with the policy's expressions.
pub(super) fn authorization(a: &Value) -> Value {
    let action = match a["action"].as_str() {
        Some("Deny") => "deny",
        _ => "allow",
    };
    json!({ action: a["policy"]["matchExpressions"] })
}

/// A retry the data plane can hold: attempts within 0..=i32::MAX, else none at all.
fn retry(policy: &Policy<'_>, r: &Value) -> Option<Value> {
    let mut out = pick(r, &["attempts", "backoff"]);
    if let Some(a) = r.get("attempts") {
        let valid = a
            .as_i64()
            .is_some_and(|a| (0..=i64::from(i32::MAX)).contains(&a));
        if !valid {
            // The reference's wording, typo included.
            policy.invalid(format!(
                "failed to parse retry attemptes should be positive int32 ({a})"
            ));
            return None;
        }
    }
    if let Some(c) = r.get("codes") {
        out.insert("retryStatusCodes".into(), c.clone());
    }
    Some(Value::Object(out))
}

/// Header and body transformations: each value is a CEL expression; one that does not parse
/// is left out (the data plane would reject it).
fn transformation(policy: &Policy<'_>, t: &Value) -> Value {
    let mut out = Map::new();
    for side in ["request", "response"] {
        let Some(s) = t.get(side) else {
            continue;
        };
        let mut v = Map::new();
        for op in ["set", "add"] {
            if let Some(headers) = s[op].as_array() {
                let kept: Vec<Value> = headers
                    .iter()
                    .filter(|h| {
                        let value = h["value"].as_str().unwrap_or("");
                        let valid = valid_cel(value);
                        if !valid {
                            policy.problem(format!(
                                "header value is not a valid CEL expression: {value}"
                            ));
                        }
                        valid
                    })
                    .map(|h| json!({"name": h["name"], "expression": h["value"]}))
                    .collect();
                if !kept.is_empty() {
                    v.insert(op.into(), kept.into());
                }
            }
        }
        if let Some(r) = s.get("remove") {
            v.insert("remove".into(), r.clone());
        }
        if let Some(body) = s["body"].as_str() {
            if valid_cel(body) {
                v.insert("body".into(), json!({ "expression": body }));
            } else {
                policy.problem(format!("body value is not a valid CEL expression: {body}"));
            }
        }
        out.insert(side.into(), v.into());
    }
    Value::Object(out)
}

fn valid_cel(expr: &str) -> bool {
    crate::cel::check_syntax(expr).is_ok()
}

fn ext_auth(ctx: &Context<'_>, policy: &Policy<'_>, e: &Value) -> Value {
    let mut out = Map::new();
    if let Some(target) = existing_backend(ctx, policy, &e["backendRef"], "failed to build extAuth")
    {
        out.insert("target".into(), target);
    }
    if let Some(size) = e.pointer("/forwardBody/maxSize") {
        out.insert(
            "includeRequestBody".into(),
            json!({"allowPartialMessage": true, "maxRequestBytes": size}),
        );
    }
    if let Some(g) = e.get("grpc") {
        let mut grpc = Map::new();
        if let Some(c) = g.get("contextExtensions") {
            grpc.insert("context".into(), c.clone());
        }
        if let Some(m) = g.get("requestMetadata") {
            grpc.insert("metadata".into(), m.clone());
        }
        out.insert("grpc".into(), grpc.into());
    }
    if let Some(h) = e.get("http") {
        let mut http = pick(h, &["path", "redirect", "addRequestHeaders"]);
        if let Some(r) = h.get("allowedResponseHeaders") {
            http.insert("includeResponseHeaders".into(), r.clone());
        }
        if let Some(m) = h.get("responseMetadata") {
            http.insert("metadata".into(), m.clone());
        }
        if let Some(r) = h.get("allowedRequestHeaders") {
            out.insert("includeRequestHeaders".into(), r.clone());
        }
        out.insert("http".into(), http.into());
    }
    Value::Object(out)
}

fn global_rate_limit(ctx: &Context<'_>, policy: &Policy<'_>, g: &Value) -> Value {
    let mut out = pick(g, &["domain"]);
    if let Some(d) = g["descriptors"].as_array() {
        let descriptors: Vec<Value> = d
            .iter()
            .map(|d| {
                let entries: Vec<Value> = d["entries"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|e| json!({"key": e["name"], "value": e["expression"]}))
                    .collect();
                json!({ "entries": entries })
            })
            .collect();
        out.insert("descriptors".into(), descriptors.into());
    }
    if let Some(target) =
        existing_backend(ctx, policy, &g["backendRef"], "failed to build rateLimit")
    {
        out.insert("target".into(), target);
    }
    Value::Object(out)
}

/// A policy's backendRef when what it names is in the inputs (a policy toward a missing
/// service is programmed without its target).
/// `what` names the feature in the status message when it is missing.
pub(super) fn existing_backend(
    ctx: &Context<'_>,
    policy: &Policy<'_>,
    r: &Value,
    what: &str,
) -> Option<Value> {
    let name = r["name"].as_str()?;
    let ns = r["namespace"]
        .as_str()
        .unwrap_or(&policy.object.id.namespace);
    let kind = r["kind"].as_str().unwrap_or("Service");
    let group = r["group"].as_str().unwrap_or("");
    if ctx.inputs.get(group, kind, ns, name).is_none() {
        policy.problem(format!("{what}: unable to find the {kind} {ns}/{name}"));
        return None;
    }
    backend_ref(ctx, policy.object, r)
}

pub(super) fn frontend_features(
    ctx: &Context<'_>,
    policy: &Policy<'_>,
    f: Section<'_>,
) -> Vec<Feature> {
    let mut out = Vec::new();
    if let Some(t) = f.get("tracing") {
        // Only whether its collector is there is checked: tracing itself is not rendered.
        existing_backend(
            ctx,
            policy,
            &t["backendRef"],
            "failed to translate tracing backend ref",
        );
    }
    if let Some(h) = f.get("http") {
        out.push(Feature::frontend(
            "frontend-http",
            single("http", h.clone()),
        ));
    }
    if let Some(t) = f.get("tls") {
        out.push(Feature::frontend(
            "frontend-tls",
            single("tls", frontend_tls(t)),
        ));
    }
    if let Some(k) = f.at("tcp", "keepalive") {
        out.push(Feature::frontend(
            "frontend-tcp",
            json!({"tcp": {"keepalives": k}}),
        ));
    }
    if let Some(a) = f.get("accessLog") {
        let mut logging = pick(a, &["filter"]);
        if let Some(attributes) = a.get("attributes") {
            logging.insert("fields".into(), attributes.clone());
        }
        out.push(Feature::frontend(
            "frontend-logging",
            single("logging", logging),
        ));
    }
    out
}

fn frontend_tls(t: &Value) -> Value {
    let mut out = pick(t, &["handshakeTimeout"]);
    if let Some(a) = t.get("alpnProtocols") {
        out.insert("alpn".into(), single("protocols", a.clone()));
    }
    if let Some(c) = t["cipherSuites"].as_array() {
        // The data plane names TLS 1.3 suites without the version: TLS13_X is TLS_X.
        let suites: Vec<Value> = c
            .iter()
            .filter_map(Value::as_str)
            .map(|s| match s.strip_prefix("TLS13_") {
                Some(rest) => format!("TLS_{rest}").into(),
                None => s.into(),
            })
            .collect();
        out.insert("cipherSuites".into(), suites.into());
    }
    for (field, key) in [
        ("minProtocolVersion", "minVersion"),
        ("maxProtocolVersion", "maxVersion"),
    ] {
        if let Some(v) = t[field].as_str() {
            out.insert(key.into(), format!("TLS_V{}", v.replace('.', "_")).into());
        }
    }
    Value::Object(out)
}
