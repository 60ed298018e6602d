//! Table-driven tests over every rule of `decisions.md` section 5: each case asserts the
//! effective value and the provenance of every field at one place.

use super::tests_fixture::{GW, HTTP, LLM, PORT, ROUTE, RULE, SVC, effective, policy};
use super::{Family, MergeOptions};

struct Case {
    name: &'static str,
    docs: Vec<String>,
    options: MergeOptions,
    at: &'static str,
    family: Family,
    want: &'static [&'static str],
}

fn tp(name: &str, meta: &str, targets: &str, fields: &str) -> String {
    policy("TrafficPolicy", name, meta, targets, fields)
}

fn deep() -> MergeOptions {
    MergeOptions {
        deep_ext_auth: true,
        deep_ext_proc: false,
        deep_transformation: true,
        ..MergeOptions::default()
    }
}

fn cases() -> Vec<Case> {
    // A field every level applies (timeouts configures routes only: see `route_only_field`).
    let t = |s: &str| format!("  cors: {{maxAge: {}}}", s.trim_end_matches('s'));
    vec![
        Case {
            name: "TrafficPolicy levels: Gateway < listener < route < rule < ExtensionRef",
            docs: vec![
                tp("g", "", GW, &t("1s")),
                tp("l", "", HTTP, &t("2s")),
                tp("r", "", ROUTE, &t("3s")),
                tp("ru", "", RULE, &t("4s")),
                tp("ext", "", "", &t("5s")),
            ],
            options: MergeOptions::default(),
            at: "HTTPRoute/r:a",
            family: Family::TrafficPolicy,
            want: &[
                r#"cors = {"maxAge":5} <- TrafficPolicy default/ext @extensionRef | lost: TrafficPolicy default/ru @rule (more specific level) | lost: TrafficPolicy default/r @route (more specific level) | lost: TrafficPolicy default/l @listener (more specific level) | lost: TrafficPolicy default/g @gateway (more specific level)"#,
            ],
        },
        Case {
            name: "timeouts configures routes only: a Gateway's or a listener's is not effective",
            docs: vec![
                tp("g", "", GW, "  timeouts: {request: 1s}"),
                tp("l", "", HTTP, "  timeouts: {request: 2s}"),
                tp("r", "", ROUTE, "  timeouts: {request: 3s}"),
            ],
            options: MergeOptions::default(),
            at: "HTTPRoute/r",
            family: Family::TrafficPolicy,
            want: &[r#"timeouts = {"request":"3s"} <- TrafficPolicy default/r @route"#],
        },
        Case {
            name: "the unnamed rule has no rule or ExtensionRef level: the route wins",
            docs: vec![
                tp("g", "", GW, &t("1s")),
                tp("r", "", ROUTE, &t("3s")),
                tp("ext", "", "", &t("5s")),
            ],
            options: MergeOptions::default(),
            at: "HTTPRoute/r:1",
            family: Family::TrafficPolicy,
            want: &[
                r#"cors = {"maxAge":3} <- TrafficPolicy default/r @route | lost: TrafficPolicy default/g @gateway (more specific level)"#,
            ],
        },
        Case {
            name: "a listener not on the route's path does not apply",
            docs: vec![
                tp("g", "", GW, &t("1s")),
                tp(
                    "o",
                    "",
                    "[{group: gateway.networking.k8s.io, kind: Gateway, name: gw, sectionName: other}]",
                    &t("2s"),
                ),
            ],
            options: MergeOptions::default(),
            at: "HTTPRoute/r",
            family: Family::TrafficPolicy,
            want: &[r#"cors = {"maxAge":1} <- TrafficPolicy default/g @gateway"#],
        },
        Case {
            name: "within a level the heavier weight wins over age and name",
            docs: vec![
                tp(
                    "a",
                    ", creationTimestamp: '2020-01-01T00:00:00Z'",
                    ROUTE,
                    &t("1s"),
                ),
                tp(
                    "z",
                    ", annotations: {kgateway.dev/policy-weight: '10'}",
                    ROUTE,
                    &t("2s"),
                ),
            ],
            options: MergeOptions::default(),
            at: "HTTPRoute/r",
            family: Family::TrafficPolicy,
            want: &[
                r#"cors = {"maxAge":2} <- TrafficPolicy default/z @route | lost: TrafficPolicy default/a @route (heavier weight)"#,
            ],
        },
        Case {
            name: "same weight: the older creationTimestamp wins over name",
            docs: vec![
                tp(
                    "a",
                    ", creationTimestamp: '2024-05-01T00:00:00Z'",
                    ROUTE,
                    &t("1s"),
                ),
                tp(
                    "z",
                    ", creationTimestamp: '2023-01-01T00:00:00Z'",
                    ROUTE,
                    &t("2s"),
                ),
            ],
            options: MergeOptions::default(),
            at: "HTTPRoute/r",
            family: Family::TrafficPolicy,
            want: &[
                r#"cors = {"maxAge":2} <- TrafficPolicy default/z @route | lost: TrafficPolicy default/a @route (older)"#,
            ],
        },
        Case {
            name: "a policy without creationTimestamp ranks after one with it",
            docs: vec![
                tp("a", "", ROUTE, &t("1s")),
                tp(
                    "z",
                    ", creationTimestamp: '2024-05-01T00:00:00Z'",
                    ROUTE,
                    &t("2s"),
                ),
            ],
            options: MergeOptions::default(),
            at: "HTTPRoute/r",
            family: Family::TrafficPolicy,
            want: &[
                r#"cors = {"maxAge":2} <- TrafficPolicy default/z @route | lost: TrafficPolicy default/a @route (older)"#,
            ],
        },
        Case {
            name: "nothing else tells them apart: namespace/name order",
            docs: vec![tp("b", "", ROUTE, &t("1s")), tp("a", "", ROUTE, &t("2s"))],
            options: MergeOptions::default(),
            at: "HTTPRoute/r",
            family: Family::TrafficPolicy,
            want: &[
                r#"cors = {"maxAge":2} <- TrafficPolicy default/a @route | lost: TrafficPolicy default/b @route (name order)"#,
            ],
        },
        Case {
            name: "merge is per top-level field",
            docs: vec![
                tp(
                    "g",
                    "",
                    GW,
                    "  csrf: {percentageEnabled: 1}\n  cors: {allowOrigins: ['https://a']}",
                ),
                tp("r", "", ROUTE, "  cors: {allowOrigins: ['https://b']}"),
            ],
            options: MergeOptions::default(),
            at: "HTTPRoute/r",
            family: Family::TrafficPolicy,
            want: &[
                r#"csrf = {"percentageEnabled":1} <- TrafficPolicy default/g @gateway"#,
                r#"cors = {"allowOrigins":["https://b"]} <- TrafficPolicy default/r @route | lost: TrafficPolicy default/g @gateway (more specific level)"#,
            ],
        },
        Case {
            name: "disable turns the feature off at its level and below",
            docs: vec![
                tp("g", "", GW, "  extAuth: {extensionRef: {name: auth}}"),
                tp("r", "", ROUTE, "  extAuth: {disable: {}}"),
            ],
            options: MergeOptions::default(),
            at: "HTTPRoute/r",
            family: Family::TrafficPolicy,
            want: &[
                r#"extAuth = {"disable":{}} <- TrafficPolicy default/r @route | lost: TrafficPolicy default/g @gateway (more specific level) [disabled]"#,
            ],
        },
        Case {
            name: "a more specific level re-enables what a disable turned off",
            docs: vec![
                tp("r", "", ROUTE, "  extAuth: {disable: {}}"),
                tp("ru", "", RULE, "  extAuth: {extensionRef: {name: auth}}"),
            ],
            options: MergeOptions::default(),
            at: "HTTPRoute/r:a",
            family: Family::TrafficPolicy,
            want: &[
                r#"extAuth = {"extensionRef":{"name":"auth"}} <- TrafficPolicy default/ru @rule | lost: TrafficPolicy default/r @route (more specific level)"#,
            ],
        },
        Case {
            name: "DeepMerge extAuth keeps the providers of one level; other levels still lose",
            docs: vec![
                tp("g", "", GW, "  extAuth: {extensionRef: {name: g}}"),
                tp("r1", "", ROUTE, "  extAuth: {extensionRef: {name: one}}"),
                tp("r2", "", ROUTE, "  extAuth: {extensionRef: {name: two}}"),
            ],
            options: deep(),
            at: "HTTPRoute/r",
            family: Family::TrafficPolicy,
            want: &[
                r#"extAuth = [{"extensionRef":{"name":"one"}},{"extensionRef":{"name":"two"}}] <- TrafficPolicy default/r1 @route + TrafficPolicy default/r2 @route | lost: TrafficPolicy default/g @gateway (more specific level)"#,
            ],
        },
        Case {
            name: "without DeepMerge the first of the level supplies extAuth whole",
            docs: vec![
                tp("r1", "", ROUTE, "  extAuth: {extensionRef: {name: one}}"),
                tp("r2", "", ROUTE, "  extAuth: {extensionRef: {name: two}}"),
            ],
            options: MergeOptions::default(),
            at: "HTTPRoute/r",
            family: Family::TrafficPolicy,
            want: &[
                r#"extAuth = {"extensionRef":{"name":"one"}} <- TrafficPolicy default/r1 @route | lost: TrafficPolicy default/r2 @route (name order)"#,
            ],
        },
        Case {
            name: "DeepMerge transformation concatenates",
            docs: vec![
                tp(
                    "r1",
                    "",
                    ROUTE,
                    "  transformation: {response: {add: [{name: a, value: '1'}]}}",
                ),
                tp(
                    "r2",
                    "",
                    ROUTE,
                    "  transformation: {response: {add: [{name: b, value: '2'}]}}",
                ),
            ],
            options: deep(),
            at: "HTTPRoute/r",
            family: Family::TrafficPolicy,
            want: &[
                r#"transformation = {"response":{"add":[{"name":"a","value":"1"},{"name":"b","value":"2"}]}} <- TrafficPolicy default/r1 @route + TrafficPolicy default/r2 @route"#,
            ],
        },
        Case {
            name: "AI traffic: PreRouting and PostRouting are separate sets",
            docs: vec![
                policy(
                    "AiGatewayPolicy",
                    "pre",
                    "",
                    GW,
                    "  traffic: {phase: PreRouting, extAuth: {backendRef: {name: svc, port: 80}}}",
                ),
                policy(
                    "AiGatewayPolicy",
                    "post",
                    "",
                    ROUTE,
                    "  traffic: {extAuth: {backendRef: {name: svc, port: 9000}}, timeouts: {request: 1s}}",
                ),
            ],
            options: MergeOptions::default(),
            at: "HTTPRoute/r:a",
            family: Family::AiPreRouting,
            want: &[
                r#"extAuth = {"backendRef":{"name":"svc","port":80}} <- AiGatewayPolicy default/pre @gateway"#,
            ],
        },
        Case {
            name: "AI traffic PostRouting of the same place",
            docs: vec![
                policy(
                    "AiGatewayPolicy",
                    "pre",
                    "",
                    GW,
                    "  traffic: {phase: PreRouting, extAuth: {backendRef: {name: svc, port: 80}}}",
                ),
                policy(
                    "AiGatewayPolicy",
                    "post",
                    "",
                    ROUTE,
                    "  traffic: {extAuth: {backendRef: {name: svc, port: 9000}}, timeouts: {request: 1s}}",
                ),
            ],
            options: MergeOptions::default(),
            at: "HTTPRoute/r:a",
            family: Family::AiPostRouting,
            want: &[
                r#"extAuth = {"backendRef":{"name":"svc","port":9000}} <- AiGatewayPolicy default/post @route"#,
                r#"timeouts = {"request":"1s"} <- AiGatewayPolicy default/post @route"#,
            ],
        },
        Case {
            name: "AI backend: policy < backend spec.policies < provider policies",
            docs: vec![policy(
                "AiGatewayPolicy",
                "b",
                "",
                LLM,
                "  backend: {ai: {defaults: [{field: temperature, value: '0.9'}]}, http: {requestTimeout: 5s}}",
            )],
            options: MergeOptions::default(),
            at: "AiGatewayBackend/llm:main",
            family: Family::AiBackend,
            want: &[
                r#"ai = {"defaults":[{"field":"temperature","value":"0.1"}]} <- AiGatewayBackend default/llm provider main policies | lost: AiGatewayBackend default/llm spec.policies (more specific level) | lost: AiGatewayPolicy default/b @backend (more specific level)"#,
                r#"http = {"requestTimeout":"5s"} <- AiGatewayPolicy default/b @backend"#,
                r#"tls = {"sni":"llm.example"} <- AiGatewayBackend default/llm spec.policies"#,
            ],
        },
        Case {
            name: "AI backend through the route rule that reaches the provider: every layer",
            docs: vec![
                policy(
                    "AiGatewayPolicy",
                    "g",
                    "",
                    GW,
                    "  backend: {http: {requestTimeout: 1s}, tcp: {keepalive: {time: 1s}}}",
                ),
                policy(
                    "AiGatewayPolicy",
                    "b",
                    "",
                    LLM,
                    "  backend: {http: {requestTimeout: 2s}}",
                ),
            ],
            options: MergeOptions::default(),
            at: "AiGatewayBackend/llm:main@HTTPRoute/r:rule 1",
            family: Family::AiBackend,
            want: &[
                r#"http = {"requestTimeout":"2s"} <- AiGatewayPolicy default/b @backend | lost: AiGatewayPolicy default/g @gateway (more specific level)"#,
                r#"tcp = {"keepalive":{"time":"1s"}} <- AiGatewayPolicy default/g @gateway"#,
                r#"ai = {"defaults":[{"field":"temperature","value":"0.1"}]} <- AiGatewayBackend default/llm provider main policies | lost: AiGatewayBackend default/llm spec.policies (more specific level)"#,
                r#"tls = {"sni":"llm.example"} <- AiGatewayBackend default/llm spec.policies"#,
            ],
        },
        Case {
            name: "AI backend: route levels rank below the backend's own",
            docs: vec![
                policy(
                    "AiGatewayPolicy",
                    "g",
                    "",
                    GW,
                    "  backend: {http: {requestTimeout: 1s}}",
                ),
                policy(
                    "AiGatewayPolicy",
                    "ru",
                    "",
                    RULE,
                    "  backend: {http: {requestTimeout: 2s}}",
                ),
            ],
            options: MergeOptions::default(),
            at: "HTTPRoute/r:a",
            family: Family::AiBackend,
            want: &[
                r#"http = {"requestTimeout":"2s"} <- AiGatewayPolicy default/ru @rule | lost: AiGatewayPolicy default/g @gateway (more specific level)"#,
            ],
        },
        Case {
            name: "AI frontend: all policies on the Gateway are one level",
            docs: vec![
                policy(
                    "AiGatewayPolicy",
                    "f2",
                    "",
                    GW,
                    "  frontend: {tcp: {keepalive: {time: 1s}}}",
                ),
                policy(
                    "AiGatewayPolicy",
                    "f1",
                    ", annotations: {kgateway.dev/policy-weight: '1'}",
                    GW,
                    "  frontend: {tcp: {keepalive: {time: 2s}}, http: {http1MaxHeaders: 50}}",
                ),
            ],
            options: MergeOptions::default(),
            at: "Gateway/gw",
            family: Family::AiFrontend,
            want: &[
                r#"tcp = {"keepalive":{"time":"2s"}} <- AiGatewayPolicy default/f1 @gateway | lost: AiGatewayPolicy default/f2 @gateway (heavier weight)"#,
                r#"http = {"http1MaxHeaders":50} <- AiGatewayPolicy default/f1 @gateway"#,
            ],
        },
        Case {
            name: "ListenerPolicy: a perPort entry replaces default whole for its port",
            docs: vec![policy(
                "ListenerPolicy",
                "lp",
                "",
                GW,
                "  default: {perConnectionBufferLimitBytes: 100, proxyProtocol: {}}\n  perPort: [{port: 8080, listener: {perConnectionBufferLimitBytes: 200}}]",
            )],
            options: MergeOptions::default(),
            at: "Gateway/gw:other",
            family: Family::ListenerPolicy,
            want: &[r#"perConnectionBufferLimitBytes = 200 <- ListenerPolicy default/lp @gateway"#],
        },
        Case {
            name: "ListenerPolicy default applies to the other ports",
            docs: vec![policy(
                "ListenerPolicy",
                "lp",
                "",
                GW,
                "  default: {perConnectionBufferLimitBytes: 100, proxyProtocol: {}}\n  perPort: [{port: 8080, listener: {perConnectionBufferLimitBytes: 200}}]",
            )],
            options: MergeOptions::default(),
            at: "Gateway/gw:http",
            family: Family::ListenerPolicy,
            want: &[
                r#"perConnectionBufferLimitBytes = 100 <- ListenerPolicy default/lp @gateway"#,
                r#"proxyProtocol = {} <- ListenerPolicy default/lp @gateway"#,
            ],
        },
        Case {
            name: "BackendConfigPolicy on a Service: one level, weight decides",
            docs: vec![
                policy(
                    "BackendConfigPolicy",
                    "s",
                    "",
                    SVC,
                    "  connectTimeout: 1s\n  http1ProtocolOptions: {}",
                ),
                policy(
                    "BackendConfigPolicy",
                    "w",
                    ", annotations: {kgateway.dev/policy-weight: '3'}",
                    SVC,
                    "  connectTimeout: 2s",
                ),
            ],
            options: MergeOptions::default(),
            at: "Service/svc:web",
            family: Family::BackendConfigPolicy,
            want: &[
                r#"connectTimeout = "2s" <- BackendConfigPolicy default/w @backend | lost: BackendConfigPolicy default/s @backend (heavier weight)"#,
                r#"http1ProtocolOptions = {} <- BackendConfigPolicy default/s @backend"#,
            ],
        },
        Case {
            name: "AI backend on a Service port and on the Service: one level",
            docs: vec![
                policy(
                    "AiGatewayPolicy",
                    "p",
                    "",
                    PORT,
                    "  backend: {http: {requestTimeout: 1s}}",
                ),
                policy(
                    "AiGatewayPolicy",
                    "s",
                    ", creationTimestamp: '2024-01-01T00:00:00Z'",
                    SVC,
                    "  backend: {http: {requestTimeout: 2s}}",
                ),
            ],
            options: MergeOptions::default(),
            at: "Service/svc:web",
            family: Family::AiBackend,
            want: &[
                r#"http = {"requestTimeout":"2s"} <- AiGatewayPolicy default/s @backend | lost: AiGatewayPolicy default/p @backend (older)"#,
            ],
        },
        Case {
            name: "a policy the controller would not accept supplies nothing",
            docs: vec![
                tp("bad", "", ROUTE, "  timeouts: {request: 1s}\n  nonsense: 1"),
                tp("g", "", GW, &t("2s")),
            ],
            options: MergeOptions::default(),
            at: "HTTPRoute/r",
            family: Family::TrafficPolicy,
            want: &[r#"cors = {"maxAge":2} <- TrafficPolicy default/g @gateway"#],
        },
    ]
}

#[test]
fn decisions_section_5() {
    let mut failed = Vec::new();
    for c in cases() {
        let got = effective(&c.docs, &c.options, c.at, c.family);
        if got != c.want {
            failed.push(format!(
                "{}:\n  got:  {got:#?}\n  want: {:#?}",
                c.name, c.want
            ));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
