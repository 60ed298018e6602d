//! Envoy rendering of the small examples in `testdata/render/`: snapshots of the Listeners,
//! Routes and Clusters, and the behaviours a snapshot would not make plain (secrets hidden,
//! invalid rules in `standard` and `strict`, listeners without chains omitted).

mod common;

use std::path::Path;

use gwctl::lint::{LintOptions, lint_paths};
use gwctl::render::{self, RenderOptions, Rendered, ValidationLevel};
use serde_json::Value;

fn rendered(file: &str, level: ValidationLevel) -> Rendered {
    rendered_with(file, level, false)
}

fn rendered_with(file: &str, level: ValidationLevel, weighted: bool) -> Rendered {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/render")
        .join(file);
    let options = render::render_options(LintOptions::default());
    let ai_controller = options.config.controllers.ai.clone();
    let run = match lint_paths(&[path], &options) {
        Ok(run) => run,
        Err(e) => panic!("{file}: {e}"),
    };
    render::render(
        &run,
        &RenderOptions {
            gateway: None,
            validation_level: level,
            ai_controller,
            weighted_route_precedence: weighted,
            ..RenderOptions::default()
        },
    )
}

/// The xDS of the file's only Gateway, as YAML (digests numbered: their key is per run).
fn xds(file: &str) -> String {
    let r = rendered(file, ValidationLevel::Standard);
    assert_eq!(r.gateways.len(), 1, "{file}: one Gateway");
    let kinds = ["listener", "route", "cluster"];
    let text = r
        .into_documents(&kinds, false)
        .iter()
        .map(gwctl::report::yaml::to_yaml)
        .collect::<Vec<_>>()
        .join("---\n");
    common::stable_digests(&text)
}

fn resource<'r>(r: &'r Rendered, kind: &str, name: &str) -> &'r Value {
    let found = r.gateways[0]
        .resources
        .iter()
        .chain(&r.clusters)
        .find(|x| x.kind == kind && x.name == name);
    match found {
        Some(x) => &x.value,
        None => panic!("no {kind} {name}"),
    }
}

#[test]
fn http_routing() {
    insta::assert_snapshot!(xds("http.yaml"));
}

#[test]
fn tcp_and_tls_passthrough() {
    insta::assert_snapshot!(xds("tcp.yaml"));
}

#[test]
fn policies() {
    insta::assert_snapshot!(xds("policies.yaml"));
}

#[test]
fn invalid_rule_standard() {
    insta::assert_snapshot!(xds("invalid.yaml"));
}

#[test]
fn delegation_and_upstream_tls() {
    insta::assert_snapshot!(xds("delegation.yaml"));
}

#[test]
fn delegated_children_within_the_parent_match() {
    let r = rendered("delegation.yaml", ValidationLevel::Standard);
    let rc = resource(&r, "route", "listener~80");
    let routes = rc["virtualHosts"][0]["routes"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let summary: Vec<(String, String)> = routes
        .iter()
        .map(|r| {
            let path = r["match"]["pathSeparatedPrefix"]
                .as_str()
                .unwrap_or("")
                .to_string();
            let to = match r["route"]["cluster"].as_str() {
                Some(c) => c.to_string(),
                None => format!("status {}", r["directResponse"]["status"]),
            };
            (path, to)
        })
        .collect();
    // The child's /elsewhere rule is outside /shop: left out. /blog has no child: 500.
    assert_eq!(
        summary,
        [
            ("/shop/cart".to_string(), "kube_shop_cart_443".to_string()),
            ("/blog".to_string(), "status 500".to_string()),
        ]
    );
}

#[test]
fn upstream_tls_material_is_digests() {
    let r = rendered("delegation.yaml", ValidationLevel::Standard);
    let cluster = resource(&r, "cluster", "kube_shop_cart_443");
    let tls = &cluster["transportSocket"]["typedConfig"];
    assert_eq!(tls["sni"], "cart.shop.svc");
    let common = &tls["commonTlsContext"];
    // Digests of the Secret data's bytes ("client-cert", "client-key", "ca-cert").
    assert_eq!(
        common["tlsCertificates"][0]["certificateChain"]["inlineString"],
        render::secret_digest("client-cert")
    );
    assert_eq!(
        common["tlsCertificates"][0]["privateKey"]["inlineString"],
        render::secret_digest("client-key")
    );
    assert_eq!(
        common["validationContext"]["trustedCa"]["inlineString"],
        render::secret_digest("ca-cert")
    );
}

/// Routes that all delegate `*` to their own namespace: the expansion is bounded (depth and
/// entries), the cycles answer 500, and nothing loops.
#[test]
fn mutual_delegation_is_bounded() {
    let mut text = String::from(
        "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {name: gw, namespace: x}\n\
         spec:\n  gatewayClassName: c\n  listeners:\n  - {name: http, protocol: HTTP, port: 80}\n\
         ---\napiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: root, namespace: x}\n\
         spec:\n  parentRefs: [{name: gw}]\n  rules:\n  - backendRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: \"*\", namespace: y}]\n",
    );
    for i in 0..12 {
        text.push_str(&format!(
            "---\napiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {{name: r{i}, namespace: y}}\n\
             spec:\n  rules:\n  - backendRefs: [{{group: gateway.networking.k8s.io, kind: HTTPRoute, name: \"*\", namespace: y}}]\n"
        ));
    }
    let options = render::render_options(LintOptions::default());
    let run = gwctl::lint::lint_sources(
        vec![gwctl::source::SourceFile::new(0, "loop.yaml", text)],
        &options,
    );
    let r = render::render(&run, &RenderOptions::default());
    let rc = resource(&r, "route", "listener~80");
    let routes = rc["virtualHosts"][0]["routes"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    // Every path ends in a cycle or the depth limit: only direct responses 500 remain.
    assert!(!routes.is_empty());
    assert!(routes.iter().all(|r| r["directResponse"]["status"] == 500));
    assert!(routes.len() <= 10_001, "{} routes", routes.len());
}

#[test]
fn certificate_and_key_are_digests() {
    let text = xds("http.yaml");
    // The Secret's data, base64 as in the manifest, and its PEM blocks' bodies.
    const CERTIFICATE: &str =
        "-----BEGIN CERTIFICATE-----\nY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n";
    const KEY: &str = "-----BEGIN PRIVATE KEY-----\na2V5\n-----END PRIVATE KEY-----\n";
    for secret in [CERTIFICATE, KEY] {
        assert!(
            !text.contains(&gwctl::base64::encode(secret.as_bytes())),
            "{text}"
        );
    }
    assert!(!text.contains("Y2VydGlmaWNhdGU="), "{text}");
    assert!(!text.contains("a2V5\\n"), "{text}");
    let r = rendered("http.yaml", ValidationLevel::Standard);
    let listener = resource(&r, "listener", "listener~443");
    let cert = &listener["filterChains"][0]["transportSocket"]["typedConfig"]["commonTlsContext"]["tlsCertificates"]
        [0];
    assert_eq!(
        cert["certificateChain"]["inlineBytes"],
        render::secret_digest(CERTIFICATE)
    );
    assert_eq!(
        cert["privateKey"]["inlineBytes"],
        render::secret_digest(KEY)
    );
}

#[test]
fn missing_backend_goes_to_the_blackhole() {
    let r = rendered("http.yaml", ValidationLevel::Standard);
    let rc = resource(&r, "route", "listener~80");
    let host = &rc["virtualHosts"][1];
    assert_eq!(host["name"], "listener~80~store_example_com");
    let gone = host["routes"]
        .as_array()
        .and_then(|rs| {
            rs.iter()
                .find(|r| r["match"]["pathSeparatedPrefix"] == "/gone")
        })
        .cloned()
        .unwrap_or_default();
    assert_eq!(gone["route"]["cluster"], "blackhole-cluster");
    assert_eq!(
        gone["route"]["clusterNotFoundResponseCode"],
        "INTERNAL_SERVER_ERROR"
    );
}

fn routes_of(r: &Rendered) -> Vec<Value> {
    resource(r, "route", "listener~80")["virtualHosts"][0]["routes"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

fn route_condition(r: &Rendered) -> Value {
    r.gateways[0].statuses["httpRoutes"]["web/mixed"]["parents"][0]["conditions"][0].clone()
}

#[test]
fn standard_answers_an_invalid_rule_with_500_and_passes_a_bad_regex_through() {
    let r = rendered("invalid.yaml", ValidationLevel::Standard);
    let routes = routes_of(&r);
    assert_eq!(routes.len(), 3, "{routes:?}");
    // Only the proxy checks a regular expression: written as given.
    assert_eq!(routes[0]["match"]["safeRegex"]["regex"], "/items/[0-9+");
    assert_eq!(routes[0]["route"]["cluster"], "kube_web_items_80");
    assert_eq!(routes[1]["match"]["pathSeparatedPrefix"], "/legacy");
    assert_eq!(routes[1]["directResponse"]["status"], 500);
    assert!(routes[1].get("route").is_none());
    assert_eq!(routes[2]["match"]["prefix"], "/");
    assert_eq!(routes[2]["route"]["cluster"], "kube_web_items_80");
}

#[test]
fn strict_drops_a_rule_whose_matcher_the_proxy_rejects_and_keeps_the_gateway() {
    let r = rendered("invalid.yaml", ValidationLevel::Strict);
    let routes = routes_of(&r);
    assert_eq!(routes.len(), 2, "{routes:?}");
    // The dropped route keeps its number: the others are numbered as in standard.
    assert_eq!(
        routes[0]["name"],
        "listener~80~example_com-route-1-httproute-mixed-web-1-0-matcher-0"
    );
    assert_eq!(routes[0]["directResponse"]["status"], 500);
    assert_eq!(routes[1]["route"]["cluster"], "kube_web_items_80");
    assert_eq!(
        route_condition(&r),
        serde_json::json!({
            "lastTransitionTime": null,
            "message": "Dropped Rule (0): invalid matcher configuration: validation failed: invalid xds configuration: error initializing configuration '/dev/fd/0': missing ]: [0-9+",
            "reason": "RouteRuleDropped",
            "status": "False",
            "type": "Accepted",
        })
    );
}

#[test]
fn tcp_listener_without_routes_has_no_listener() {
    let r = rendered("tcp.yaml", ValidationLevel::Standard);
    let names: Vec<&str> = r.gateways[0]
        .resources
        .iter()
        .filter(|x| x.kind == "listener")
        .map(|x| x.name.as_str())
        .collect();
    assert_eq!(names, ["listener~5432", "listener~8443"]);
}

#[test]
fn route_policy_overrides_gateway_policy() {
    let r = rendered("policies.yaml", ValidationLevel::Standard);
    let rc = resource(&r, "route", "listener~8080");
    // The Gateway's ExtAuth on the route configuration, switched off on the upload rule.
    assert!(rc["typedPerFilterConfig"]["ext_auth/apps/authz"].is_object());
    let upload = rc["virtualHosts"][0]["routes"]
        .as_array()
        .and_then(|rs| {
            rs.iter()
                .find(|r| r["match"]["pathSeparatedPrefix"] == "/upload")
        })
        .cloned()
        .unwrap_or_default();
    let per_filter = &upload["typedPerFilterConfig"];
    assert!(per_filter["global_disable/ext_auth"].is_object());
    assert_eq!(
        per_filter["envoy.filters.http.buffer"]["buffer"]["maxRequestBytes"],
        1048576
    );
    assert_eq!(
        upload["metadata"]["filterMetadata"]["merge.TrafficPolicy.gateway.kgateway.dev"]["buffer"]
            [0],
        "gateway.kgateway.dev/TrafficPolicy/apps/uploads"
    );
}

#[test]
fn csrf_is_declared_off_on_the_listener_and_enabled_per_route() {
    let r = rendered("csrf.yaml", ValidationLevel::Standard);
    let listener = resource(&r, "listener", "listener~8080");
    let filters = &listener["filterChains"][0]["filters"][0]["typedConfig"]["httpFilters"];
    let csrf_type = "type.googleapis.com/envoy.extensions.filters.http.csrf.v3.CsrfPolicy";
    assert_eq!(
        filters[0],
        serde_json::json!({"disabled": true, "name": "envoy.filters.http.csrf", "typedConfig": {
            "@type": csrf_type, "filterEnabled": {"defaultValue": {}}}})
    );
    let rc = resource(&r, "route", "listener~8080");
    let route = route_by_match(rc, "prefix", "/");
    assert_eq!(
        route["typedPerFilterConfig"]["envoy.filters.http.csrf"],
        serde_json::json!({
            "@type": csrf_type,
            "filterEnabled": {
                "defaultValue": {"numerator": 50},
                "runtimeKey": "envoy.csrf.filter_enabled",
            },
            "additionalOrigins": [
                {"exact": "https://a.example.com"},
                {"safeRegex": {"googleRe2": {}, "regex": "https://.*\\.b\\.com"}, "ignoreCase": true},
            ],
        })
    );
}

#[test]
fn a_policy_path_rewrite_yields_to_the_rules_own() {
    let r = rendered("url_rewrite.yaml", ValidationLevel::Standard);
    let rc = resource(&r, "route", "listener~8080");
    let a = route_by_match(rc, "pathSeparatedPrefix", "/a");
    assert_eq!(
        a["route"]["regexRewrite"],
        serde_json::json!({"pattern": {"regex": "^/a/(.*)$"}, "substitution": "/v2/\\1"})
    );
    let b = route_by_match(rc, "pathSeparatedPrefix", "/b");
    assert_eq!(b["route"]["prefixRewrite"], "/c");
    assert!(b["route"].get("regexRewrite").is_none());
}

#[test]
fn load_balancer_settings_common_to_every_algorithm() {
    let r = rendered("lb_common.yaml", ValidationLevel::Standard);
    let cluster = resource(&r, "cluster", "kube_default_svc_80");
    assert_eq!(
        cluster["commonLbConfig"],
        serde_json::json!({
            "closeConnectionsOnHostSetChange": true,
            "healthyPanicThreshold": {"value": 40},
            "updateMergeWindow": "2s",
        })
    );
}

/// The rule's Envoy route whose match is `field` = `value`.
fn route_by_match<'v>(rc: &'v Value, field: &str, value: &str) -> &'v Value {
    let found = rc["virtualHosts"][0]["routes"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|r| r["match"][field] == value);
    match found {
        Some(r) => r,
        None => panic!("no route matching {field} {value}"),
    }
}

#[test]
fn rbac_is_a_cel_matcher_on_the_rule() {
    let r = rendered("rbac_weight.yaml", ValidationLevel::Standard);
    let rc = resource(&r, "route", "listener~8080");
    let cart = route_by_match(rc, "path", "/cart");
    let deny = serde_json::json!({
        "@type": "type.googleapis.com/envoy.config.rbac.v3.Action",
        "action": "DENY",
        "name": "deny-request",
    });
    let expected = serde_json::json!({
        "@type": "type.googleapis.com/envoy.extensions.filters.http.rbac.v3.RBACPerRoute",
        "rbac": {"matcher": {
            "matcherList": {"matchers": [{
                "onMatch": {"action": {"name": "envoy.filters.rbac.action", "typedConfig": deny}},
                "predicate": {"singlePredicate": {
                    "customMatch": {
                        "name": "envoy.matching.matchers.cel_matcher",
                        "typedConfig": {
                            "@type": "type.googleapis.com/xds.type.matcher.v3.CelMatcher",
                            "exprMatch": {"celExprParsed": {
                                "expr": {"id": "5", "callExpr": {"function": "_!=_", "args": [
                                    {"id": "3", "callExpr": {"function": "_[_]", "args": [
                                        {"id": "2", "selectExpr": {
                                            "operand": {"id": "1", "identExpr": {"name": "request"}},
                                            "field": "headers",
                                        }},
                                        {"id": "4", "constExpr": {"stringValue": "x-role"}},
                                    ]}},
                                    {"id": "6", "constExpr": {"stringValue": "admin"}},
                                ]}},
                                "sourceInfo": {
                                    "lineOffsets": [37],
                                    "location": "<input>",
                                    "positions": {"1": 0, "2": 7, "3": 15, "4": 16, "5": 26, "6": 29},
                                },
                            }},
                        },
                    },
                    "input": {
                        "name": "envoy.matching.inputs.cel_data_input",
                        "typedConfig": {"@type": "type.googleapis.com/xds.type.matcher.v3.HttpAttributesCelMatchInput"},
                    },
                }},
            }]},
            "onNoMatch": {"action": {"name": "action", "typedConfig": deny}},
        }},
    });
    assert_eq!(
        cart["typedPerFilterConfig"]["envoy.filters.http.rbac"],
        expected
    );
    // The filter runs on every request of the chain; a route without a policy has no matcher.
    let listener = resource(&r, "listener", "listener~8080");
    let filters = &listener["filterChains"][0]["filters"][0]["typedConfig"]["httpFilters"];
    assert_eq!(
        filters[0],
        serde_json::json!({"name": "envoy.filters.http.rbac", "typedConfig": {
            "@type": "type.googleapis.com/envoy.extensions.filters.http.rbac.v3.RBAC"}})
    );
    let promo = route_by_match(rc, "prefix", "/");
    assert!(promo.get("typedPerFilterConfig").is_none());
}

#[test]
fn route_weight_orders_routes_only_with_the_setting() {
    let names = |weighted: bool| -> Vec<String> {
        let r = rendered_with("rbac_weight.yaml", ValidationLevel::Standard, weighted);
        resource(&r, "route", "listener~8080")["virtualHosts"][0]["routes"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|r| r["name"].as_str().map(str::to_string))
            .collect()
    };
    // Match precedence: the exact path before the prefix, whatever the weights.
    assert_eq!(
        names(false),
        [
            "listener~8080~shop_example_com-route-0-httproute-shop-apps-0-0-matcher-0",
            "listener~8080~shop_example_com-route-1-httproute-promo-apps-0-0-matcher-0",
        ]
    );
    // WeightedRoutePrecedence: promo (weight 3) before shop (weight -1).
    assert_eq!(
        names(true),
        [
            "listener~8080~shop_example_com-route-0-httproute-promo-apps-0-0-matcher-0",
            "listener~8080~shop_example_com-route-1-httproute-shop-apps-0-0-matcher-0",
        ]
    );
}

#[test]
fn upstream_tls_files_are_rendered_as_their_paths_but_a_client_certificate_is_refused() {
    let r = rendered("tls_files.yaml", ValidationLevel::Standard);
    let cluster = resource(&r, "cluster", "kube_apps_ca-only_443");
    assert_eq!(
        cluster["transportSocket"],
        serde_json::json!({
            "name": "envoy.transport_sockets.tls",
            "typedConfig": {
                "@type": "type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext",
                "commonTlsContext": {
                    "validationContext": {"trustedCa": {"filename": "/etc/certs/ca.pem"}},
                },
                "sni": "ca.internal",
            },
        })
    );
    // The controller reads tlsCertificate and tlsKey as PEM data and refuses the policy.
    let refused = resource(&r, "cluster", "kube_apps_api_443");
    assert_eq!(
        refused,
        &serde_json::json!({
            "loadAssignment": {"clusterName": "kube_apps_api_443"},
            "name": "kube_apps_api_443",
            "type": "STATIC",
        })
    );
}

#[test]
fn simple_upstream_tls_presents_no_client_certificate_and_offers_alpn() {
    let r = rendered("tls_simple.yaml", ValidationLevel::Standard);
    let cluster = resource(&r, "cluster", "kube_apps_api_443");
    assert_eq!(
        cluster["transportSocket"]["typedConfig"]["commonTlsContext"],
        serde_json::json!({
            "alpnProtocols": ["h2", "http/1.1"],
            "validationContext": {"trustedCa": {"filename": "/etc/certs/ca.pem"}},
        })
    );
}

#[test]
fn a_backend_tls_policys_names_and_options_reach_the_upstream_context() {
    let r = rendered("backend_tls_sans.yaml", ValidationLevel::Standard);
    let cluster = resource(&r, "cluster", "kube_default_svc_443");
    let tls = &cluster["transportSocket"]["typedConfig"];
    assert_eq!(tls["sni"], "svc.internal");
    assert_eq!(
        tls["commonTlsContext"],
        serde_json::json!({
            "alpnProtocols": ["h2", "http/1.1"],
            "combinedValidationContext": {
                "defaultValidationContext": {"matchTypedSubjectAltNames": [
                    {"matcher": {"exact": "svc.example.com"}, "sanType": "DNS"},
                    {"matcher": {"exact": "spiffe://cluster.local/ns/default/sa/svc"}, "sanType": "URI"},
                ]},
                "validationContextSdsSecretConfig": {"name": "SYSTEM_CA_CERT"},
            },
            "tlsParams": {
                "cipherSuites": ["ECDHE-RSA-AES128-GCM-SHA256", "ECDHE-RSA-AES256-GCM-SHA384"],
                "tlsMinimumProtocolVersion": "TLSv1_2",
            },
        })
    );
}

#[test]
fn the_chart_values_turn_route_weight_on() {
    let dir = match tempfile::tempdir() {
        Ok(dir) => dir,
        Err(e) => panic!("tempdir: {e}"),
    };
    let values = dir.path().join("values.yaml");
    if let Err(e) = std::fs::write(
        &values,
        "controller:\n  extraEnv:\n    KGW_WEIGHTED_ROUTE_PRECEDENCE: \"true\"\n",
    ) {
        panic!("write values: {e}");
    }
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/render/rbac_weight.yaml");
    let options = render::render_options(LintOptions {
        values: Some(values),
        ..LintOptions::default()
    });
    let run = match lint_paths(&[path], &options) {
        Ok(run) => run,
        Err(e) => panic!("{e}"),
    };
    let findings: Vec<&str> = run.diagnostics.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(findings, Vec::<&str>::new());
    let r = render::render(&run, &RenderOptions::default());
    let first = &resource(&r, "route", "listener~8080")["virtualHosts"][0]["routes"][0]["name"];
    assert_eq!(
        first,
        "listener~8080~shop_example_com-route-0-httproute-promo-apps-0-0-matcher-0"
    );
}

/// Every value of `key` anywhere below `v`.
fn values_of<'v>(v: &'v Value, key: &str, out: &mut Vec<&'v Value>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                if k == key {
                    out.push(x);
                }
                values_of(x, key, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| values_of(x, key, out)),
        _ => {}
    }
}

#[test]
fn a_remote_jwks_through_a_backend_names_the_backends_cluster() {
    let r = rendered("jwks_backend.yaml", ValidationLevel::Standard);
    let mut remote = Vec::new();
    for res in &r.gateways[0].resources {
        values_of(&res.value, "remoteJwks", &mut remote);
    }
    let clusters: Vec<&str> = remote
        .iter()
        .filter_map(|j| j.pointer("/httpUri/cluster").and_then(Value::as_str))
        .collect();
    assert_eq!(clusters, ["backend_apps_idp_0"]);
    assert_eq!(
        resource(&r, "cluster", "backend_apps_idp_0")["name"],
        "backend_apps_idp_0"
    );
}

#[test]
fn a_listener_on_a_reserved_port_is_not_programmed() {
    let text = "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {name: gw, namespace: x}\n\
         spec:\n  gatewayClassName: c\n  listeners:\n  - {name: http, protocol: HTTP, port: 80}\n\
         \x20 - {name: metrics, protocol: HTTP, port: 9091}\n\
         ---\napiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: r, namespace: x}\n\
         spec:\n  parentRefs: [{name: gw}]\n  rules:\n  - backendRefs: [{name: svc, port: 80}]\n\
         ---\napiVersion: v1\nkind: Service\nmetadata: {name: svc, namespace: x}\nspec:\n  ports: [{port: 80}]\n";
    let options = render::render_options(LintOptions::default());
    let run = gwctl::lint::lint_sources(
        vec![gwctl::source::SourceFile::new(
            0,
            "reserved.yaml",
            text.to_string(),
        )],
        &options,
    );
    let r = render::render(&run, &RenderOptions::default());
    let listeners: Vec<&str> = r.gateways[0]
        .resources
        .iter()
        .filter(|x| x.kind == "listener")
        .map(|x| x.name.as_str())
        .collect();
    assert_eq!(listeners, ["listener~80"]);
}

#[test]
fn render_command_in_strict_drops_the_rule_and_exits_0() {
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/render/invalid.yaml");
    let out = assert_cmd::Command::cargo_bin("gwctl")
        .unwrap_or_else(|e| panic!("{e}"))
        .args(["render", "--validation-level", "strict", "--output", "json"])
        .arg(&example)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    // Strict never refuses a Gateway: the rendering succeeds.
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let docs: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}"));
    let gateway = docs
        .as_array()
        .and_then(|d| d.iter().find(|d| d["Gateway"] == "web/gw"))
        .cloned()
        .unwrap_or_default();
    assert!(gateway.get("Refused").is_none(), "{gateway}");
    let accepted = &gateway["Statuses"]["httpRoutes"]["web/mixed"]["parents"][0]["conditions"][0];
    assert_eq!(accepted["type"], "Accepted");
    assert_eq!(accepted["reason"], "RouteRuleDropped");
}

#[test]
fn render_json_is_the_text_serde_prints_for_the_whole_array() {
    // The documents are written one by one, each serialised straight into the output: the text
    // is still exactly one pretty-printed array (an Envoy Gateway, the AI data plane's shared
    // document, and the envoy clusters' document).
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata");
    for case in ["render/http.yaml", "render-ai/gateway.yaml"] {
        let out = assert_cmd::Command::cargo_bin("gwctl")
            .unwrap_or_else(|e| panic!("{e}"))
            .args(["render", "--output", "json"])
            .arg(root.join(case))
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        let text = String::from_utf8(out.stdout).unwrap_or_else(|e| panic!("{e}"));
        let docs: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{case}: {e}"));
        assert!(
            docs.as_array().is_some_and(|d| d.len() > 1),
            "{case}: {text}"
        );
        let whole = serde_json::to_string_pretty(&docs).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(text, format!("{whole}\n"), "{case}");
    }
}

#[test]
fn session_persistence_names_and_lifetimes_as_the_controller_writes_them() {
    let r = rendered("session_persistence.yaml", ValidationLevel::Standard);
    let states: Vec<(String, Value)> = routes_of(&r)
        .iter()
        .map(|route| {
            let prefix = route["match"]["pathSeparatedPrefix"]
                .as_str()
                .unwrap_or_default()
                .to_string();
            let state = &route["typedPerFilterConfig"]["envoy.filters.http.stateful_session"]
                ["statefulSession"]["sessionState"]["typedConfig"];
            let mut state = state.clone();
            if let Some(o) = state.as_object_mut() {
                o.remove("@type");
            }
            (prefix, state)
        })
        .collect();
    let expected = [
        (
            "/a",
            serde_json::json!({"cookie": {"name": "cart-session", "ttl": "3600s"}}),
        ),
        // Permanent without a timeout: a year.
        (
            "/b",
            serde_json::json!({"cookie": {"name": "cart-permanent", "ttl": "31536000s"}}),
        ),
        // A session cookie has no expiry; unnamed, the controller's name.
        (
            "/c",
            serde_json::json!({"cookie": {"name": "sessionPersistence"}}),
        ),
        (
            "/d",
            serde_json::json!({"cookie": {"name": "dev-cookie", "path": "/d"}}),
        ),
        ("/e", serde_json::json!({"name": "x-session-persistence"})),
    ];
    let expected: Vec<(String, Value)> = expected
        .into_iter()
        .map(|(p, v)| (p.to_string(), v))
        .collect();
    assert_eq!(states, expected);
}

#[test]
fn a_cipher_suite_the_proxy_does_not_know_empties_the_cluster_only_with_strict() {
    let cluster = "kube_web_payments_443";
    let standard = rendered("tls_unknown_cipher.yaml", ValidationLevel::Standard);
    let params = &resource(&standard, "cluster", cluster)["transportSocket"]["typedConfig"]["commonTlsContext"]
        ["tlsParams"];
    assert_eq!(
        params["cipherSuites"],
        serde_json::json!(["ECDHE-RSA-AES128-GCM-SHA256", "TLS_RSA_WITH_RC4_128_SHA"])
    );
    let strict = rendered("tls_unknown_cipher.yaml", ValidationLevel::Strict);
    assert_eq!(
        resource(&strict, "cluster", cluster),
        &serde_json::json!({"loadAssignment": {"clusterName": cluster}, "name": cluster, "type": "STATIC"})
    );
    let accepted = &strict.gateways[0].statuses["policies"]["BackendConfigPolicy/web/payments-tls"]
        ["ancestors"][0]["conditions"][0];
    assert_eq!(accepted["reason"], "Invalid");
    assert_eq!(
        accepted["message"],
        "unsupported cipher suite: \"TLS_RSA_WITH_RC4_128_SHA\" (ensure you are using a BoringSSL-supported name)"
    );
}

#[test]
fn a_route_to_a_backend_no_cluster_is_rendered_for_goes_where_a_missing_one_goes() {
    let r = rendered("backend_without_type.yaml", ValidationLevel::Standard);
    let cluster = routes_of(&r)[0]["route"]["cluster"].clone();
    assert!(
        !r.clusters.iter().any(|c| c.name == "backend_web_httpbin_0"),
        "no cluster for a Backend without type"
    );
    // The same as with no Backend at all.
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/render/backend_without_type.yaml");
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let without = text
        .split("\n---\n")
        .filter(|d| !d.contains("kind: Backend\n"))
        .collect::<Vec<_>>()
        .join("\n---\n");
    let options = render::render_options(LintOptions::default());
    let run = gwctl::lint::lint_sources(
        vec![gwctl::source::SourceFile::new(
            0,
            "without.yaml",
            without.as_str(),
        )],
        &options,
    );
    let missing = render::render(&run, &RenderOptions::default());
    assert_eq!(cluster, routes_of(&missing)[0]["route"]["cluster"]);
    assert_ne!(cluster, Value::String("backend_web_httpbin_0".into()));
}

#[test]
fn a_policy_whose_extensions_service_is_missing_is_refused_and_names_no_cluster() {
    let r = rendered("extproc_missing_service.yaml", ValidationLevel::Standard);
    let accepted = &r.gateways[0].statuses["policies"]["TrafficPolicy/web/process"]["ancestors"][0]
        ["conditions"][0];
    assert_eq!(accepted["reason"], "Invalid");
    assert_eq!(
        accepted["message"],
        "extproc: failed to resolve ExtProc backend: Service web/ext-proc-grpc not found"
    );
    let text = serde_json::to_string(
        &r.gateways[0]
            .resources
            .iter()
            .map(|x| &x.value)
            .collect::<Vec<_>>(),
    )
    .unwrap_or_default();
    assert!(
        !text.contains("ext-proc-grpc"),
        "no filter names the missing service's cluster"
    );
}
