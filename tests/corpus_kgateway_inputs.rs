//! The reference's translator inputs (renamed to this API, `kgateway-seed`), both data planes:
//! no false error. Every error gwctl reports there is listed in `INPUT_ERRORS` with the reason
//! it is right.

mod common;

use common::{corpus, files_under};

/// Errors gwctl reports on the reference's translator inputs (renamed), each right for the
/// reason given: (file below the seed corpus, message fragment, how many, why).
const MALFORMED_TEMPLATE: &str = "the case is written to be invalid: the transformation template `{{ invalid_template }` does not close its expression, which the proxy rejects when loading it (GW127)";

const INPUT_ERRORS: &[(&str, &str, usize, &str)] = &[
    (
        "pkg/agentgateway/plugins/testdata/trafficpolicy/cel-invalid.yaml",
        "CEL syntax error",
        1,
        "the case is written to be invalid: `foolen_{{header(...)}}` is not CEL (GW116)",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/route-replacement/policy/policy-csrf-regex-invalid.yaml",
        "unclosed character class",
        1,
        "the case is written to be invalid: safeRegex `[` fails RE2, as its comment says (GW118)",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/route-replacement/attachment/gateway-invalid.yaml",
        "GW127 spec.transformation.request.body.value: template: unexpected `}`",
        1,
        MALFORMED_TEMPLATE,
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/route-replacement/attachment/gateway-listener-invalid.yaml",
        "GW127 spec.transformation.request.body.value: template: unexpected `}`",
        1,
        MALFORMED_TEMPLATE,
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/route-replacement/attachment/gateway-listener-merge-invalid.yaml",
        "GW127 spec.transformation.request.body.value: template: unexpected `}`",
        1,
        MALFORMED_TEMPLATE,
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/route-replacement/attachment/httproute-invalid.yaml",
        "GW127 spec.transformation.request.body.value: template: unexpected `}`",
        1,
        MALFORMED_TEMPLATE,
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/route-replacement/attachment/httproute-rule-invalid.yaml",
        "GW127 spec.transformation.request.body.value: template: unexpected `}`",
        1,
        MALFORMED_TEMPLATE,
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/route-replacement/attachment/multi-target-invalid.yaml",
        "GW127 spec.transformation.request.body.value: template: unexpected `}`",
        1,
        MALFORMED_TEMPLATE,
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/route-replacement/attachment/xlistenerset-invalid.yaml",
        "GW127 spec.transformation.request.body.value: template: unexpected `}`",
        1,
        MALFORMED_TEMPLATE,
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/route-replacement/attachment/xlistenerset-listener-invalid.yaml",
        "GW127 spec.transformation.request.body.value: template: unexpected `}`",
        1,
        MALFORMED_TEMPLATE,
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/route-replacement/policy/policy-transformation-malformed-template-invalid.yaml",
        "GW127 spec.transformation.request.body.value: template: unexpected `}`",
        1,
        MALFORMED_TEMPLATE,
    ),
    (
        "pkg/agentgateway/plugins/testdata/frontendpolicy/full.yaml",
        "tracing.resources\"",
        1,
        "AI Tracing is {backendRef, protocol, attributes, randomSampling, clientSampling} in ai-gateway-api.md",
    ),
    (
        "pkg/agentgateway/plugins/testdata/frontendpolicy/tls.yaml",
        "tls.cipherSuites\"",
        1,
        "AI FrontendTLS is {handshakeTimeout, alpnProtocols} in ai-gateway-api.md",
    ),
    (
        "pkg/agentgateway/plugins/testdata/frontendpolicy/tls.yaml",
        "tls.maxProtocolVersion\"",
        1,
        "AI FrontendTLS is {handshakeTimeout, alpnProtocols} in ai-gateway-api.md",
    ),
    (
        "pkg/agentgateway/plugins/testdata/frontendpolicy/tls.yaml",
        "tls.minProtocolVersion\"",
        1,
        "AI FrontendTLS is {handshakeTimeout, alpnProtocols} in ai-gateway-api.md",
    ),
    (
        "pkg/agentgateway/plugins/testdata/trafficpolicy/extauthz-grpc.yaml",
        "extAuth.grpc\"",
        1,
        "AI ExtAuth is {backendRef, forwardBody, contextExtensions} in ai-gateway-api.md",
    ),
    (
        "pkg/agentgateway/plugins/testdata/trafficpolicy/extauthz-http.yaml",
        "extAuth.http\"",
        1,
        "AI ExtAuth is {backendRef, forwardBody, contextExtensions} in ai-gateway-api.md",
    ),
    (
        "pkg/agentgateway/plugins/testdata/trafficpolicy/extauthz-missing-backend.yaml",
        "extAuth.grpc\"",
        1,
        "AI ExtAuth is {backendRef, forwardBody, contextExtensions} in ai-gateway-api.md",
    ),
    (
        "pkg/agentgateway/translator/testdata/backends/serviceentry-with-network.yaml",
        "tls mode must be set for protocol TLS",
        2,
        "Gateway API rule: a TLS listener needs tls.mode (the input omits it)",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/httplistenerpolicy/accept-http10.yaml",
        "protocol: Unsupported value",
        1,
        "Service port protocol must be TCP, UDP or SCTP; the input writes an application protocol there",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/httplistenerpolicy/default-host-for-http10-without-accept-http10.yaml",
        "protocol: Unsupported value",
        1,
        "Service port protocol must be TCP, UDP or SCTP; the input writes an application protocol there",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/httplistenerpolicy/generate-request-id-false.yaml",
        "protocol: Unsupported value",
        1,
        "Service port protocol must be TCP, UDP or SCTP; the input writes an application protocol there",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/httplistenerpolicy/generate-request-id-false.yaml",
        "unknown field \"spec.generateRequestId\"",
        1,
        "HTTPListenerPolicy generateRequestId is not in gateway-api-and-install.md",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/httplistenerpolicy/merge.yaml",
        "openTelemetry.attributes\"",
        1,
        "access-log openTelemetry is {grpcService, body, disableBuiltinLabels} in gateway-api-and-install.md",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/httplistenerpolicy/merge.yaml",
        "protocol: Unsupported value",
        1,
        "Service port protocol must be TCP, UDP or SCTP; the input writes an application protocol there",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/httplistenerpolicy/preserve-external-request-id.yaml",
        "protocol: Unsupported value",
        1,
        "Service port protocol must be TCP, UDP or SCTP; the input writes an application protocol there",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/httplistenerpolicy/preserve-external-request-id.yaml",
        "unknown field \"spec.preserveExternalRequestId\"",
        1,
        "HTTPListenerPolicy preserveExternalRequestId is not in gateway-api-and-install.md",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/httplistenerpolicy/preserve-http1-header-case.yaml",
        "protocol: Unsupported value",
        1,
        "Service port protocol must be TCP, UDP or SCTP; the input writes an application protocol there",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/httplistenerpolicy/route-and-pol.yaml",
        "protocol: Unsupported value",
        1,
        "Service port protocol must be TCP, UDP or SCTP; the input writes an application protocol there",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/httplistenerpolicy/use-remote-addr-absent.yaml",
        "protocol: Unsupported value",
        1,
        "Service port protocol must be TCP, UDP or SCTP; the input writes an application protocol there",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/httplistenerpolicy/use-remote-addr-true.yaml",
        "protocol: Unsupported value",
        1,
        "Service port protocol must be TCP, UDP or SCTP; the input writes an application protocol there",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/httproute-timeout-retry/builtin.yaml",
        "protocol: Unsupported value",
        1,
        "Service port protocol must be TCP, UDP or SCTP; the input writes an application protocol there",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/https-listener-pol/upgrades.yaml",
        "protocol: Unsupported value",
        1,
        "Service port protocol must be TCP, UDP or SCTP; the input writes an application protocol there",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/invalid-filter-chains/gateway-empty-listenerset-tcp-no-routes.yaml",
        "in body should have at least 1 items",
        1,
        "Gateway API: a ListenerSet needs at least one listener (an intentionally invalid input)",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/invalid-filter-chains/gateway-empty-listenerset-tls-mixed.yaml",
        "in body should have at least 1 items",
        1,
        "Gateway API: a ListenerSet needs at least one listener (an intentionally invalid input)",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/jwt/cross-namespace.yaml",
        "unknown field \"spec.allowedRoutes\"",
        1,
        "Gateway API: allowedRoutes belongs to a listener, not to the Gateway spec",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/listener-policy-http/accept-http10.yaml",
        "protocol: Unsupported value",
        1,
        "Service port protocol must be TCP, UDP or SCTP; the input writes an application protocol there",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/listener-policy-http/accept-http10.yaml",
        "unknown field \"spec.default.httpSettings\"",
        1,
        "ListenerPolicy httpSettings is reference-only (decisions.md section 3)",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/listener-policy-http/default-host-for-http10-without-accept-http10.yaml",
        "protocol: Unsupported value",
        1,
        "Service port protocol must be TCP, UDP or SCTP; the input writes an application protocol there",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/listener-policy-http/default-host-for-http10-without-accept-http10.yaml",
        "unknown field \"spec.default.httpSettings\"",
        1,
        "ListenerPolicy httpSettings is reference-only (decisions.md section 3)",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/listener-policy-http/early-header-mutation.yaml",
        "unknown field \"spec.default.httpSettings\"",
        1,
        "ListenerPolicy httpSettings is reference-only (decisions.md section 3)",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/listener-policy-http/idle-timeout.yaml",
        "protocol: Unsupported value",
        1,
        "Service port protocol must be TCP, UDP or SCTP; the input writes an application protocol there",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/listener-policy-http/idle-timeout.yaml",
        "unknown field \"spec.default.httpSettings\"",
        1,
        "ListenerPolicy httpSettings is reference-only (decisions.md section 3)",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/listener-policy-http/merge.yaml",
        "protocol: Unsupported value",
        1,
        "Service port protocol must be TCP, UDP or SCTP; the input writes an application protocol there",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/listener-policy-http/merge.yaml",
        "unknown field \"spec.default.httpSettings\"",
        3,
        "ListenerPolicy httpSettings is reference-only (decisions.md section 3)",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/listener-policy-http/preserve-http1-header-case.yaml",
        "protocol: Unsupported value",
        1,
        "Service port protocol must be TCP, UDP or SCTP; the input writes an application protocol there",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/listener-policy-http/preserve-http1-header-case.yaml",
        "unknown field \"spec.default.httpSettings\"",
        1,
        "ListenerPolicy httpSettings is reference-only (decisions.md section 3)",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/listener-policy-http/route-and-pol.yaml",
        "protocol: Unsupported value",
        1,
        "Service port protocol must be TCP, UDP or SCTP; the input writes an application protocol there",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/listener-policy-http/route-and-pol.yaml",
        "unknown field \"spec.default.httpSettings\"",
        1,
        "ListenerPolicy httpSettings is reference-only (decisions.md section 3)",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/listener-policy-http/use-remote-addr-false.yaml",
        "protocol: Unsupported value",
        1,
        "Service port protocol must be TCP, UDP or SCTP; the input writes an application protocol there",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/listener-policy-http/use-remote-addr-false.yaml",
        "unknown field \"spec.default.httpSettings\"",
        1,
        "ListenerPolicy httpSettings is reference-only (decisions.md section 3)",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/listener-policy-http/use-remote-addr-true.yaml",
        "protocol: Unsupported value",
        1,
        "Service port protocol must be TCP, UDP or SCTP; the input writes an application protocol there",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/listener-policy-http/use-remote-addr-true.yaml",
        "unknown field \"spec.default.httpSettings\"",
        1,
        "ListenerPolicy httpSettings is reference-only (decisions.md section 3)",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/listener-policy/http-proxy-protocol.yaml",
        "protocol: Unsupported value",
        1,
        "Service port protocol must be TCP, UDP or SCTP; the input writes an application protocol there",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/listener-policy/per-connection-buffer-limit.yaml",
        "protocol: Unsupported value",
        1,
        "Service port protocol must be TCP, UDP or SCTP; the input writes an application protocol there",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/listener-policy/per-port.yaml",
        "protocol: Unsupported value",
        1,
        "Service port protocol must be TCP, UDP or SCTP; the input writes an application protocol there",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/listener-sets/basic.yaml",
        "protocol: Unsupported value",
        1,
        "Service port protocol must be TCP, UDP or SCTP; the input writes an application protocol there",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/listener-sets/no-allowed-lis.yaml",
        "protocol: Unsupported value",
        1,
        "Service port protocol must be TCP, UDP or SCTP; the input writes an application protocol there",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/listener-sets/tls-missing-reference-grant.yaml",
        "protocol: Unsupported value",
        2,
        "Service port protocol must be TCP, UDP or SCTP; the input writes an application protocol there",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/route-replacement/backendconfigpolicy/invalid-outlier-detection-zero-interval.yaml",
        "interval must be at least 1ms",
        1,
        "reference rule: outlierDetection.interval must be at least 1ms (an intentionally invalid input)",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/route-replacement/backendconfigpolicy/invalid-cipher-suites.yaml",
        "unsupported cipher suite",
        3,
        "cipher suites the proxy's TLS library does not know (an intentionally invalid input: the proxy rejects the cluster)",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/route-replacement/backendconfigpolicy/invalid-cipher-suites.yaml",
        "unsupported ECDH curve",
        3,
        "ECDH curves the proxy's TLS library does not know (an intentionally invalid input)",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/route-replacement/policy/policy-multiple-invalid-conflict.yaml",
        "headerTransformations\"",
        2,
        "not a field of TrafficPolicy transformation in either API (an intentionally invalid input)",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/route-replacement/policy/policy-multiple-invalid-conflict.yaml",
        "unknown field \"spec.ai\"",
        1,
        "TrafficPolicy has no ai field in either API (an intentionally invalid input)",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/traffic-policy/api-key-auth-gateway.yaml",
        "unknown field \"spec.apiKeyAuth\"",
        1,
        "TrafficPolicy apiKeyAuth is reference-only (decisions.md section 3)",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/traffic-policy/api-key-auth-httproute.yaml",
        "unknown field \"spec.apiKeyAuth\"",
        1,
        "TrafficPolicy apiKeyAuth is reference-only (decisions.md section 3)",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/traffic-policy/api-key-auth-override-section.yaml",
        "unknown field \"spec.apiKeyAuth\"",
        2,
        "TrafficPolicy apiKeyAuth is reference-only (decisions.md section 3)",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/traffic-policy/api-key-auth-route.yaml",
        "unknown field \"spec.apiKeyAuth\"",
        1,
        "TrafficPolicy apiKeyAuth is reference-only (decisions.md section 3)",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/traffic-policy/api-key-auth-secretref-with-refgrant.yaml",
        "unknown field \"spec.apiKeyAuth\"",
        1,
        "TrafficPolicy apiKeyAuth is reference-only (decisions.md section 3)",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/traffic-policy/api-key-auth-secretref.yaml",
        "unknown field \"spec.apiKeyAuth\"",
        1,
        "TrafficPolicy apiKeyAuth is reference-only (decisions.md section 3)",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/traffic-policy/api-key-auth-selector-no-matching-secret.yaml",
        "unknown field \"spec.apiKeyAuth\"",
        1,
        "TrafficPolicy apiKeyAuth is reference-only (decisions.md section 3)",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/traffic-policy/oauth2.yaml",
        "exactly one of the fields in [extAuth extProc rateLimit jwt] must be set",
        3,
        "a GatewayExtension with only the reference-only oauth2 provider sets none of this API's providers",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/traffic-policy/oauth2.yaml",
        "unknown field \"spec.oauth2\"",
        6,
        "oauth2 is reference-only: TrafficPolicy (decisions.md section 3) and GatewayExtension (not in gateway-api-and-install.md)",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/traffic-policy/timeout-retry.yaml",
        "protocol: Unsupported value",
        1,
        "Service port protocol must be TCP, UDP or SCTP; the input writes an application protocol there",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/traffic-policy/timeout-retry.yaml",
        "targetRefs may only reference Gateway, HTTPRoute, or ListenerSet resources",
        1,
        "reference rule: a TrafficPolicy may not target a GRPCRoute",
    ),
    (
        "pkg/kgateway/translator/gateway/testutils/inputs/validation/xlistenerset-reserved-port.yaml",
        "spec.listeners: Required value",
        1,
        "Gateway API: a ListenerSet needs listeners (an intentionally invalid input)",
    ),
];

/// The translator inputs of both data planes: every error gwctl reports is one of `INPUT_ERRORS`.
/// The agent gateway test files end with a `# Output` section (expected translation, not input).
#[test]
fn seed_translator_inputs() {
    let Some(corpus) = corpus("seed_translator_inputs") else {
        return;
    };
    let root = corpus.join("kgateway-seed");
    let mut files = files_under(
        &root.join("pkg/kgateway/translator/gateway/testutils/inputs"),
        &["yaml", "yml"],
    );
    files.extend(files_under(
        &root.join("pkg/agentgateway"),
        &["yaml", "yml"],
    ));
    let texts: Vec<(String, String)> = files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f).expect("readable corpus file");
            let input = match text.find("\n# Output") {
                Some(i) => text[..i + 1].to_string(),
                None => text,
            };
            let rel = f
                .strip_prefix(&root)
                .expect("below root")
                .display()
                .to_string();
            (rel, input)
        })
        .collect();
    let borrowed: Vec<(&str, &str)> = texts
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect();
    let run = common::lint_texts(&borrowed);
    let mut found: std::collections::BTreeMap<(String, String), usize> = Default::default();
    let mut unexplained = Vec::new();
    // All inputs linted together: references across cases mean nothing (tests/corpus_kgateway_routes.rs
    // resolves each case on its own).
    for e in common::errors_without_references(&run) {
        let file = e.split(':').next().unwrap_or_default().to_string();
        match INPUT_ERRORS
            .iter()
            .find(|(f, frag, _, _)| *f == file && e.contains(frag))
        {
            Some((_, frag, _, _)) => *found.entry((file, frag.to_string())).or_default() += 1,
            None => unexplained.push(e),
        }
    }
    let mut wrong_counts = Vec::new();
    for (f, frag, n, _) in INPUT_ERRORS {
        let got = found
            .get(&(f.to_string(), frag.to_string()))
            .copied()
            .unwrap_or(0);
        if got != *n {
            wrong_counts.push(format!("{f}: {frag:?} expected {n}, got {got}"));
        }
    }
    println!(
        "translator inputs: {} files, {} resources, {} errors, all explained: {}",
        files.len(),
        run.stats.resources,
        found.values().sum::<usize>() + unexplained.len(),
        unexplained.is_empty()
    );
    assert!(
        unexplained.is_empty(),
        "unexplained errors:\n{}",
        unexplained.join("\n")
    );
    assert!(wrong_counts.is_empty(), "{}", wrong_counts.join("\n"));
}
