//! The security and practice rules (GW4xx): one failing case per rule with its exact position and
//! message, what must not fire, and that secret material never reaches a message.

mod common;

use common::{describe, lint_text, lint_texts};

fn findings(text: &str) -> Vec<String> {
    describe(&lint_text(text))
}

#[test]
fn gw401_insecure_skip_verify_in_an_ai_tls_block() {
    let text = r#"apiVersion: agentgateway.dev/v1alpha1
kind: AiGatewayPolicy
metadata: {name: p, namespace: default}
spec:
  targetRefs:
  - {group: gateway.networking.k8s.io, kind: HTTPRoute, name: llm}
  backend:
    tls:
      insecureSkipVerify: Hostname
"#;
    assert_eq!(
        findings(text),
        [
            "test.yaml:9:27 GW401 spec.backend.tls.insecureSkipVerify: the backend certificate's hostname is not verified (Hostname), so any certificate of a trusted CA is accepted"
        ]
    );
}

#[test]
fn gw402_sha_in_a_traffic_policy_points_at_the_hash_and_never_quotes_it() {
    let hash = "{SHA}W6ph5Mm5Pz8GgiULbPgzG37mj9g=";
    let text = format!(
        r#"apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata: {{name: p, namespace: default}}
spec:
  basicAuth:
    users:
    - "alice:{hash}"
"#
    );
    let run = lint_text(&text);
    assert_eq!(
        describe(&run),
        [
            "test.yaml:7:14 GW402 spec.basicAuth.users[0]: password hash of user \"alice\" is unsalted SHA-1 ({SHA}) written into the policy, which is fast to brute-force"
        ]
    );
    let d = &run.diagnostics[0];
    assert!(d.help.as_deref().is_some_and(|h| h.contains("secretRef")));
    let span = d.location.as_ref().map(|l| l.span).unwrap_or_default();
    assert_eq!(&text[span.start..span.end], hash);
    assert!(!d.message.contains("W6ph5"));
}

#[test]
fn gw402_strong_hashes_and_plain_text_are_not_weak_hash_findings() {
    // bcrypt is fine; a plain-text password is GW124 (an error), not repeated as GW402.
    let text = r#"apiVersion: agentgateway.dev/v1alpha1
kind: AiGatewayPolicy
metadata: {name: p, namespace: default}
spec:
  targetRefs:
  - {group: gateway.networking.k8s.io, kind: HTTPRoute, name: llm}
  traffic:
    basicAuthentication:
      users:
      - "alice:$2y$05$c4WoMPo3SXsafkva.HHa6uXQZWr7oboPiC2bT/r7q1BB8I2s0BRqC"
      - "bob:hunter2"
"#;
    let codes: Vec<String> = findings(text)
        .iter()
        .map(|l| l.split(' ').nth(1).unwrap_or_default().to_string())
        .collect();
    assert_eq!(codes, ["GW124"]);
}

#[test]
fn gw403_configmap_key_and_value_shapes_without_echoing_values() {
    let text = r#"apiVersion: v1
kind: ConfigMap
metadata: {name: c, namespace: default}
data:
  apiKey: "correct horse battery"
  token-url: https://login.example.com/token
  max-tokens: "4096"
  tls-secret: gateway-cert
  upstream: sk-proj-0123456789abcdefABCDEF
  signing.pem: |
    -----BEGIN PRIVATE KEY-----
    MIIB
    -----END PRIVATE KEY-----
"#;
    let run = lint_text(text);
    assert_eq!(
        describe(&run),
        [
            "test.yaml:5:11 GW403 data.apiKey: ConfigMap holds what looks like secret material: the key is named like a credential and has a value",
            "test.yaml:9:13 GW403 data.upstream: ConfigMap holds what looks like secret material: the value looks like an API key or access token",
            "test.yaml:10:16 GW403 data.signing.pem: ConfigMap holds what looks like secret material: the value looks like a PEM private key",
        ]
    );
    for d in &run.diagnostics {
        assert!(!d.message.contains("horse") && !d.message.contains("sk-proj"));
    }
}

#[test]
fn gw404_cors_wildcard_with_credentials_in_an_ai_policy() {
    let text = r#"apiVersion: agentgateway.dev/v1alpha1
kind: AiGatewayPolicy
metadata: {name: p, namespace: default}
spec:
  targetRefs:
  - {group: gateway.networking.k8s.io, kind: HTTPRoute, name: llm}
  traffic:
    cors:
      allowCredentials: true
      allowOrigins:
      - "*"
"#;
    assert_eq!(
        findings(text),
        [
            "test.yaml:11:9 GW404 spec.traffic.cors.allowOrigins[0]: any origin (\"*\") is allowed together with allowCredentials: true, so every website can make credentialed requests and read the responses"
        ]
    );
}

#[test]
fn gw405_fail_open_ext_auth() {
    let text = r#"apiVersion: gateway.kgateway.dev/v1alpha1
kind: GatewayExtension
metadata: {name: authz, namespace: default}
spec:
  type: ExtAuth
  extAuth:
    grpcService:
      backendRef: {name: authz, port: 9000}
    failOpen: true
"#;
    assert_eq!(
        findings(text),
        [
            "test.yaml:9:15 GW405 spec.extAuth.failOpen: requests are allowed without authorization when the authorization service is unavailable or fails"
        ]
    );
}

#[test]
fn gw406_catch_all_rule_without_hostnames_and_what_does_not_fire() {
    let text = r#"apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: default}
spec:
  parentRefs: [{name: public}]
  rules:
  - matches:
    - path: {type: PathPrefix, value: /api}
    backendRefs: [{name: api, port: 80}]
  - matches:
    - headers: [{name: x-canary, value: "1"}]
    backendRefs: [{name: canary, port: 80}]
  - matches:
    - path: {type: PathPrefix, value: /}
    backendRefs: [{name: web, port: 80}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: public, namespace: default}
spec:
  gatewayClassName: kgateway
  listeners: [{name: http, protocol: HTTP, port: 80}]
"#;
    let catch_all = |text: &str| -> Vec<String> {
        findings(text)
            .into_iter()
            .filter(|f| f.contains(" GW406 "))
            .collect()
    };
    assert_eq!(
        catch_all(text),
        [
            "test.yaml:14:39 GW406 spec.rules[2].matches[0].path.value: the route has no hostnames and this rule matches every path, so it forwards to its backends for \"/\" on every hostname of listener \"http\" of Gateway default/public"
        ]
    );
    // A hostname on the listener limits the route to it.
    let limited = text.replace(
        "{name: http, protocol: HTTP, port: 80}",
        "{name: http, protocol: HTTP, port: 80, hostname: web.example.com}",
    );
    assert_eq!(catch_all(&limited), Vec::<String>::new());
}

#[test]
fn gw407_gateway_extension_provider_without_audiences() {
    let text = r#"apiVersion: gateway.kgateway.dev/v1alpha1
kind: GatewayExtension
metadata: {name: jwt, namespace: default}
spec:
  type: JWT
  jwt:
    providers:
    - name: corp
      issuer: https://login.example.com
      jwks:
        local:
          inline: '{"keys":[{"kty":"EC","crv":"P-256","x":"AA","y":"AA"}]}'
"#;
    assert_eq!(
        findings(text),
        [
            "test.yaml:8:13 GW407 spec.jwt.providers[0]: JWT provider \"corp\" has no audiences, so tokens issued for any other service are accepted"
        ]
    );
}

const FORWARD_PROXY: &str = r#"apiVersion: gateway.kgateway.dev/v1alpha1
kind: Backend
metadata: {name: egress, namespace: default}
spec:
  type: DynamicForwardProxy
  dynamicForwardProxy: {}
"#;

#[test]
fn gw408_forward_proxy_without_any_authentication() {
    assert_eq!(
        findings(FORWARD_PROXY),
        [
            "test.yaml:5:9 GW408 spec.type: a dynamic forward proxy sends requests to any host the client names, and no TrafficPolicy or AiGatewayPolicy in the inputs configures authentication"
        ]
    );
}

#[test]
fn gw408_an_authenticating_policy_in_another_file_closes_it_but_an_optional_one_does_not() {
    let strict = r#"apiVersion: agentgateway.dev/v1alpha1
kind: AiGatewayPolicy
metadata: {name: keys, namespace: default}
spec:
  targetRefs:
  - {group: gateway.networking.k8s.io, kind: HTTPRoute, name: egress}
  traffic:
    apiKeyAuthentication:
      secretRef: {name: keys}
"#;
    let run = lint_texts(&[("backend.yaml", FORWARD_PROXY), ("policy.yaml", strict)]);
    assert_eq!(describe(&run), Vec::<String>::new());
    let optional = strict.replace("secretRef", "mode: Optional\n      secretRef");
    let run = lint_texts(&[("backend.yaml", FORWARD_PROXY), ("policy.yaml", &optional)]);
    let codes: Vec<&str> = run.diagnostics.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, ["GW408"]);
}

#[test]
fn findings_can_be_suppressed_on_the_resource() {
    let text = FORWARD_PROXY.replace(
        "metadata: {name: egress, namespace: default}",
        "metadata:\n  name: egress\n  annotations: {gwctl.dev/ignore: GW408}",
    );
    assert_eq!(findings(&text), Vec::<String>::new());
}
