//! References inside policies and other kinds whose reference fields are spread over many
//! places: a walk of the spec for the keys that name another object, each mapped to what the
//! field needs of its target (the keys a Secret must hold, the provider a GatewayExtension must
//! set). The spec documents say which keys each field needs.

use crate::parse::Node;

use super::facts::{FieldRef, Need, RefField, obj_ref};

const GATEWAY_GROUP: &str = "gateway.kgateway.dev";
const PROVIDERS: &[&str] = &["extAuth", "extProc", "rateLimit", "jwt", "oauth2"];
/// Deep enough for every reference of the spec; bounded so a hostile document cannot recurse far.
const MAX_DEPTH: usize = 24;

/// The reference fields of a spec. `group` and `kind` are the owning resource's.
pub fn field_refs(group: &str, kind: &str, spec: &Node) -> Vec<FieldRef> {
    let mut out = Vec::new();
    let mut keys = Vec::new();
    let mut path = String::from("spec");
    walk(group, kind, spec, &mut path, &mut keys, &mut out);
    out
}

/// `path` is one buffer extended and truncated on the way, so that the walk allocates only for
/// the references it finds.
fn walk<'a>(
    group: &str,
    kind: &str,
    node: &'a Node,
    path: &mut String,
    keys: &mut Vec<&'a str>,
    out: &mut Vec<FieldRef>,
) {
    if keys.len() > MAX_DEPTH {
        return;
    }
    let len = path.len();
    if let Some(entries) = node.as_map() {
        for e in entries {
            path.push('.');
            path.push_str(&e.key);
            if let Some(r) = reference(group, kind, &e.key, &e.value, keys, path) {
                out.push(r);
            } else if e.key != "targetRefs" && e.key != "targetSelectors" {
                // Target refs and selectors name policy targets: attachment is GW3xx's.
                keys.push(&e.key);
                walk(group, kind, &e.value, path, keys, out);
                keys.pop();
            }
            path.truncate(len);
        }
    } else if let Some(items) = node.as_seq() {
        for (i, item) in items.iter().enumerate() {
            use std::fmt::Write;
            let _ = write!(path, "[{i}]");
            walk(group, kind, item, path, keys, out);
            path.truncate(len);
        }
    }
}

fn reference(
    group: &str,
    kind: &str,
    key: &str,
    value: &Node,
    ancestors: &[&str],
    path: &str,
) -> Option<FieldRef> {
    value.as_map()?;
    let parent = ancestors.last().copied().unwrap_or("");
    let mut target = obj_ref(value, path.to_string());
    let need = match key {
        "secretRef" => {
            target.set_target("", "Secret", false);
            Need::Keys(secret_keys(group, kind, parent, ancestors, value))
        }
        "configMapRef" => {
            target.set_target("", "ConfigMap", false);
            if ancestors.contains(&"jwks") {
                Need::Keys(vec!["jwks".into()])
            } else {
                Need::Exists
            }
        }
        "extensionRef" => {
            target.set_target(GATEWAY_GROUP, "GatewayExtension", false);
            match ancestors
                .iter()
                .rev()
                .find_map(|a| PROVIDERS.iter().find(|p| *p == a))
            {
                Some(p) => Need::Provider(p),
                None => Need::Exists,
            }
        }
        "backendRef" => {
            target.set_target("", "Service", true);
            Need::Exists
        }
        "parametersRef" => Need::Exists,
        _ => return None,
    };
    let field = ref_field(group, kind, key, parent);
    Some(FieldRef {
        target,
        need,
        field,
    })
}

/// The reference field a key of an object of (group, kind) is, for the ReferenceGrant table.
fn ref_field(group: &str, kind: &str, key: &str, parent: &str) -> RefField {
    match (kind, key) {
        ("GatewayExtension", "backendRef") => RefField::ExtensionBackend,
        ("AiGatewayPolicy", "backendRef") => RefField::AiPolicyBackend,
        ("GatewayClass", "parametersRef") => RefField::ClassParameters,
        (_, "extensionRef") => RefField::PolicyExtension,
        (_, "secretRef") if parent == "basicAuth" && group == GATEWAY_GROUP => {
            RefField::BasicAuthSecret
        }
        _ => RefField::Other,
    }
}

fn secret_keys(
    group: &str,
    kind: &str,
    parent: &str,
    ancestors: &[&str],
    value: &Node,
) -> Vec<String> {
    let explicit = value.get("key").and_then(Node::as_str);
    match parent {
        // gateway-api-and-install.md: `key` defaults to `.htpasswd`.
        "basicAuth" if group == GATEWAY_GROUP => {
            vec![explicit.unwrap_or(".htpasswd").to_string()]
        }
        // ai-gateway-api.md: a key named `.htaccess` holding the complete file.
        "basicAuthentication" => vec![".htaccess".into()],
        "auth" if ancestors.contains(&"cloud") => vec!["accessKey".into(), "secretKey".into()],
        "tls" if kind == "BackendConfigPolicy" => vec!["tls.crt".into(), "tls.key".into()],
        _ => explicit.map(|k| vec![k.to_string()]).unwrap_or_default(),
    }
}
