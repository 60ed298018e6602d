//! TrafficPolicy `jwt`: the providers of a JWT GatewayExtension as one `jwt_authn` filter per
//! extension (`jwt/<ns>/<name>`), behind the `global_disable/jwt` switch; a PEM public key is
//! written as the JWKS the reference writes.

use crate::render::base64;
use crate::render::pointer::Pointer;
use serde_json::{Map, Value, json};

use super::super::listener_policy::backend_ref_cluster;
use super::super::{settings, typed};
use super::extensions::{Extension, composite};
use super::{Applied, Policies, declare};
use crate::merge::FieldOutcome;

impl Policies<'_> {
    pub(super) fn jwt(
        &self,
        out: &mut Applied,
        f: &FieldOutcome<'_>,
        value: &Value,
    ) -> Result<(), String> {
        if self.switch(out, f, "jwt") {
            return Ok(());
        }
        let ext = value.get("extensionRef").ok_or("jwt has no extensionRef")?;
        let Extension { ns, name, spec } = self.extension(f, ext, "jwt")?;
        let (ns, name) = (ns.as_str(), name.as_str());
        let prefix = format!("{name}_{ns}");
        let mut providers = Map::new();
        let mut names = Vec::new();
        for p in spec
            .get("providers")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let provider = format!(
                "{prefix}_{}",
                p.get("name").and_then(Value::as_str).unwrap_or("")
            );
            providers.insert(provider.clone(), self.provider(p, ns)?);
            names.push(provider);
        }
        let mut requirement = match names.as_slice() {
            [one] => json!({"providerName": one}),
            many => json!({"requiresAny": {"requirements":
                many.iter().map(|n| json!({"providerName": n})).collect::<Vec<_>>()}}),
        };
        if spec.get("validationMode").and_then(Value::as_str) == Some("AllowMissing") {
            let mut any: Vec<Value> = names.iter().map(|n| json!({"providerName": n})).collect();
            any.push(json!({"allowMissing": {}}));
            requirement = json!({"requiresAny": {"requirements": any}});
        }
        let requirement_name = format!("{prefix}_requirements");
        let authn = json!({
            "providers": providers,
            "requirementMap": {requirement_name.clone(): requirement},
        });
        let filter = format!("jwt/{ns}/{name}");
        declare(
            out,
            &filter,
            true,
            composite(
                "composite_jwt",
                "envoy.filters.http.jwt_authn",
                typed(
                    "envoy.extensions.filters.http.jwt_authn.v3.JwtAuthentication",
                    authn,
                ),
                "dev.kgateway.disable_jwt",
            ),
        );
        out.per_filter.insert(
            filter,
            typed(
                "envoy.extensions.filters.http.jwt_authn.v3.PerRouteConfig",
                json!({"requirementName": requirement_name}),
            ),
        );
        Ok(())
    }

    /// One provider: issuer, audiences, token source, claims to headers, keys.
    fn provider(&self, p: &Value, ns: &str) -> Result<Value, String> {
        let mut out = Map::new();
        if let Some(a) = p.get("audiences") {
            out.insert("audiences".into(), a.clone());
        }
        let claims: Vec<Value> = p
            .get("claimsToHeaders")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(|c| json!({"claimName": c.get("name"), "headerName": c.get("header")}))
            .collect();
        if !claims.is_empty() {
            out.insert("claimToHeaders".into(), Value::Array(claims));
            out.insert("clearRouteCache".into(), json!(true));
        }
        if p.get("forwardToken").and_then(Value::as_bool) == Some(true) {
            out.insert("forward".into(), json!(true));
        }
        if let Some(h) = p.at("/tokenSource/header") {
            let mut header = json!({"name": h.get("header").or(h.get("name"))});
            if let Some(prefix) = h.get("prefix") {
                header["valuePrefix"] = prefix.clone();
            }
            out.insert("fromHeaders".into(), json!([header]));
        }
        if let Some(q) = p.at("/tokenSource/queryParameter") {
            out.insert("fromParams".into(), json!([q]));
        }
        if let Some(i) = p.get("issuer") {
            out.insert("issuer".into(), i.clone());
        }
        if let Some(local) = p.at("/jwks/local") {
            let text = match local.get("inline").and_then(Value::as_str) {
                Some(t) => t.to_string(),
                None => {
                    let name = local
                        .at("/configMapRef/name")
                        .and_then(Value::as_str)
                        .unwrap_or("");
                    settings::data(self.ctx, "ConfigMap", ns, name, "jwks")
                        .and_then(Value::as_str)
                        .ok_or_else(|| format!("ConfigMap {ns}/{name} has no jwks"))?
                        .to_string()
                }
            };
            out.insert("localJwks".into(), json!({"inlineString": jwks(&text)?}));
        }
        if let Some(remote) = p.at("/jwks/remote") {
            let b = remote.get("backendRef").unwrap_or(&Value::Null);
            let cluster = backend_ref_cluster(b, ns)?;
            let cache = remote
                .get("cacheDuration")
                .and_then(Value::as_str)
                .and_then(super::super::duration)
                .unwrap_or_else(|| "300s".to_string());
            out.insert(
                "remoteJwks".into(),
                json!({
                    "cacheDuration": cache,
                    "httpUri": {"cluster": cluster, "timeout": "5s", "uri": remote.get("url")},
                }),
            );
        }
        out.insert("payloadInMetadata".into(), json!("payload"));
        Ok(Value::Object(out))
    }
}

/// A key set as written, or a PEM RSA public key as a one-key JWKS.
fn jwks(text: &str) -> Result<String, String> {
    let trimmed = text.trim();
    if !trimmed.starts_with("-----BEGIN") {
        return Ok(trimmed.to_string());
    }
    let body: String = trimmed
        .lines()
        .filter(|l| !l.starts_with("-----"))
        .collect();
    let der = crate::render::base64::decode(&body).ok_or("the PEM key is not base64")?;
    let (n, e) = rsa_public_key(&der).ok_or("the PEM key is not an RSA public key")?;
    Ok(format!(
        r#"{{"keys":[{{"use":"sig","kty":"RSA","alg":"RS256","n":"{}","e":"{}"}}]}}"#,
        base64::encode_url(n),
        base64::encode_url(e)
    ))
}

/// The modulus and exponent of a SubjectPublicKeyInfo (DER) holding an RSA key.
fn rsa_public_key(der: &[u8]) -> Option<(&[u8], &[u8])> {
    let (spki, _) = element(der, 0x30)?;
    let (_, rest) = element(spki, 0x30)?; // the algorithm
    let (bits, _) = element(rest, 0x03)?;
    let (key, _) = element(bits.get(1..)?, 0x30)?; // past the unused-bits byte
    let (n, rest) = element(key, 0x02)?;
    let (e, _) = element(rest, 0x02)?;
    Some((unsigned(n), unsigned(e)))
}

/// A DER INTEGER's magnitude, without the sign byte.
fn unsigned(v: &[u8]) -> &[u8] {
    match v.split_first() {
        Some((0, tail)) if !tail.is_empty() => tail,
        _ => v,
    }
}

/// One DER element of the given tag: its content and what follows it.
fn element(data: &[u8], tag: u8) -> Option<(&[u8], &[u8])> {
    let (&t, rest) = data.split_first()?;
    if t != tag {
        return None;
    }
    let (&first, rest) = rest.split_first()?;
    let (len, rest) = if first < 0x80 {
        (usize::from(first), rest)
    } else {
        let count = usize::from(first & 0x7f);
        if count == 0 || count > 4 || rest.len() < count {
            return None;
        }
        let len = rest[..count]
            .iter()
            .fold(0usize, |acc, b| (acc << 8) | usize::from(*b));
        (len, &rest[count..])
    };
    if rest.len() < len {
        return None;
    }
    Some(rest.split_at(len))
}

#[cfg(test)]
mod tests {
    use super::element;

    #[test]
    fn der_elements_are_bounded() {
        assert_eq!(
            element(&[0x02, 0x01, 0x05, 0x09], 0x02),
            Some((&[5u8][..], &[9u8][..]))
        );
        assert_eq!(element(&[0x02, 0x05, 0x01], 0x02), None);
        assert_eq!(element(&[0x30, 0x81], 0x30), None);
        assert_eq!(element(&[], 0x30), None);
    }
}
