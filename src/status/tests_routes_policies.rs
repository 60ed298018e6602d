//! Statuses of routes (their parents' conditions: a missing backend, a rule replaced, a rule
//! refused under strict validation) and of policies (their ancestors, and what they replace).

use serde_json::{Value, json};

use super::tests::{
    ADMITTED_SET, GATEWAY, LISTENER_OK, ROUTE, SERVICE, admitting_gateway, conditions, statuses,
    statuses_at, triples,
};
use crate::lint::{LintOptions, lint_sources};
use crate::render::{RenderOptions, render, render_options};
use crate::source::SourceFile;

#[test]
fn a_missing_backend_is_reported_first() {
    let s = statuses(&[GATEWAY, ROUTE]);
    let parent = &s["httpRoutes"]["default/route"]["parents"][0];
    assert_eq!(
        conditions(&parent["conditions"]),
        triples(&[
            ("ResolvedRefs", "False", "BackendNotFound"),
            ("Accepted", "True", "Accepted"),
        ])
    );
    assert_eq!(
        parent["conditions"][0]["message"],
        "Service default/svc not found"
    );
}

#[test]
fn a_port_the_service_does_not_have_is_the_service_not_found() {
    let route = ROUTE.replace("port: 80}", "port: 8080}");
    let s = statuses(&[GATEWAY, SERVICE, &route]);
    let resolved = &s["httpRoutes"]["default/route"]["parents"][0]["conditions"][0];
    assert_eq!(resolved["reason"], "BackendNotFound");
    assert_eq!(resolved["message"], "Service default/svc not found");
}

#[test]
fn a_rule_naming_a_missing_policy_is_replaced() {
    let route = ROUTE.replace(
        "  - backendRefs: [{name: svc, port: 80}]",
        "  - backendRefs: [{name: svc, port: 80}]
    matches: [{path: {value: /a}}, {path: {value: /b}}]
    filters:
    - {type: ExtensionRef, extensionRef: {group: gateway.kgateway.dev, kind: TrafficPolicy, name: gone}}",
    );
    let s = statuses(&[GATEWAY, SERVICE, &route]);
    let accepted = &s["httpRoutes"]["default/route"]["parents"][0]["conditions"][0];
    assert_eq!(accepted["status"], "False");
    assert_eq!(accepted["reason"], "RouteRuleReplaced");
    assert_eq!(
        accepted["message"],
        "Replaced Rule (1): gateway.kgateway.dev/TrafficPolicy/default/gone: policy not found"
    );
}

#[test]
fn a_rule_with_two_direct_responses_is_replaced() {
    let direct = |name: &str| {
        format!(
            "apiVersion: gateway.kgateway.dev/v1alpha1\nkind: DirectResponse\n\
             metadata: {{name: {name}, namespace: default}}\nspec: {{status: 200}}"
        )
    };
    let filter = |name: &str| {
        format!(
            "    - {{type: ExtensionRef, extensionRef: {{group: gateway.kgateway.dev, kind: DirectResponse, name: {name}}}}}"
        )
    };
    let route = |filters: &[&str]| {
        let list: Vec<String> = filters.iter().map(|n| filter(n)).collect();
        ROUTE.replace(
            "  - backendRefs: [{name: svc, port: 80}]",
            &format!("  - filters:\n{}", list.join("\n")),
        )
    };
    let accepted = |route: &str| {
        let s = statuses(&[GATEWAY, &direct("one"), &direct("two"), route]);
        s["httpRoutes"]["default/route"]["parents"][0]["conditions"][0].clone()
    };
    assert_eq!(accepted(&route(&["one"]))["reason"], "Accepted");
    let two = accepted(&route(&["one", "two"]));
    assert_eq!(two["reason"], "RouteRuleReplaced");
    assert_eq!(
        two["message"],
        json!(format!(
            "Replaced Rule (0): {}",
            super::SECOND_DIRECT_RESPONSE
        ))
    );
}

#[test]
fn a_rewrite_the_controllers_route_check_rejects_replaces_the_rule() {
    let route = ROUTE.replace(
        "  - backendRefs: [{name: svc, port: 80}]",
        "  - backendRefs: [{name: svc, port: 80}]
    matches: [{path: {value: /a}}]
    filters:
    - {type: URLRewrite, urlRewrite: {path: {type: ReplacePrefixMatch, replacePrefixMatch: /x//y}}}",
    );
    let s = statuses(&[GATEWAY, SERVICE, &route]);
    let accepted = &s["httpRoutes"]["default/route"]["parents"][0]["conditions"][0];
    assert_eq!(accepted["reason"], "RouteRuleReplaced");
    assert_eq!(
        accepted["message"],
        "Replaced Rule (0): invalid route configuration: error listener~8080~*-route-0-httproute-route-default-0-0-matcher-0: the rewrite /x//y is invalid: path [/x//y] cannot contain [//]"
    );
}

#[test]
fn a_route_policy_naming_a_missing_extension_replaces_the_rule() {
    let policy = "
apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata: {name: auth, namespace: default}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: route}]
  extAuth: {extensionRef: {name: gone}}
";
    let s = statuses(&[GATEWAY, SERVICE, ROUTE, policy]);
    let accepted = &s["httpRoutes"]["default/route"]["parents"][0]["conditions"][0];
    assert_eq!(accepted["reason"], "RouteRuleReplaced");
    assert_eq!(
        accepted["message"],
        "Replaced Rule (0): extauth: gateway extension default/gone not found"
    );
    let policy = &s["policies"]["TrafficPolicy/default/auth"]["ancestors"][0]["conditions"][0];
    assert_eq!(policy["reason"], "Invalid");
    assert_eq!(
        policy["message"],
        "extauth: gateway extension default/gone not found"
    );
}

#[test]
fn a_policy_whose_extension_service_needs_a_grant_is_refused_in_its_plugins_words() {
    let cases = [
        (
            "extAuth",
            "{extensionRef: {name: ext}}",
            "extauth: failed to resolve ExtAuth backend: missing reference grant",
        ),
        (
            "extProc",
            "{extensionRef: {name: ext}}",
            "extproc: failed to resolve ExtProc backend: missing reference grant",
        ),
        (
            "rateLimit",
            "{global: {descriptors: [{entries: [{type: Path}]}], extensionRef: {name: ext}}}",
            "ratelimit: ratelimit: missing reference grant",
        ),
    ];
    for (field, setting, words) in cases {
        let extension = format!(
            "apiVersion: gateway.kgateway.dev/v1alpha1
kind: GatewayExtension
metadata: {{name: ext, namespace: default}}
spec:
  {field}: {{grpcService: {{backendRef: {{name: svc, namespace: elsewhere, port: 9000}}}}}}"
        );
        let policy = format!(
            "apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata: {{name: tp, namespace: default}}
spec:
  targetRefs: [{{group: gateway.networking.k8s.io, kind: HTTPRoute, name: route}}]
  {field}: {setting}"
        );
        let s = statuses(&[GATEWAY, SERVICE, ROUTE, &extension, &policy]);
        let accepted = &s["httpRoutes"]["default/route"]["parents"][0]["conditions"][0];
        assert_eq!(
            accepted["message"],
            json!(format!("Replaced Rule (0): {words}")),
            "{field}"
        );
        let policy = &s["policies"]["TrafficPolicy/default/tp"]["ancestors"][0]["conditions"][0];
        assert_eq!(policy["message"], json!(words), "{field}");
    }
}

/// Strict validation refuses TrafficPolicy default/tp with the proxy's `words` and replaces
/// the rule of HTTPRoute default/route; standard validation sends it on and the controller
/// accepts both. Returns the strict statuses.
fn refused_only_when_strict(docs: &[&str], words: &str) -> Value {
    let strict = statuses_at(docs, crate::render::ValidationLevel::Strict);
    let tp = &strict["policies"]["TrafficPolicy/default/tp"]["ancestors"][0]["conditions"];
    assert_eq!(tp[0]["reason"], "Invalid");
    assert_eq!(tp[0]["message"], words);
    let route = &strict["httpRoutes"]["default/route"]["parents"][0]["conditions"][0];
    assert_eq!(route["message"], format!("Replaced Rule (0): {words}"));
    let standard = statuses(docs);
    let tp = &standard["policies"]["TrafficPolicy/default/tp"]["ancestors"][0]["conditions"];
    assert_eq!(tp[0]["reason"], "Valid");
    let route = &standard["httpRoutes"]["default/route"]["parents"][0]["conditions"][0];
    assert_eq!(route["reason"], "Accepted");
    strict
}

#[test]
fn strict_validation_refuses_a_template_only_the_proxy_rejects() {
    let policy = "
apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata: {name: tp, namespace: default}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: route}]
  transformation: {request: {body: {parseAs: AsJson, value: '{{ broken }'}}}
";
    let docs = [GATEWAY, SERVICE, ROUTE, policy];
    let words = "invalid xds configuration: error initializing configuration '/dev/fd/0': Failed to create pre-route filter config: Failed to initialize per-route dynamic module";
    let strict = refused_only_when_strict(&docs, words);
    let tp = &strict["policies"]["TrafficPolicy/default/tp"]["ancestors"][0]["conditions"];
    assert_eq!(tp[1]["reason"], "Pending");
}

#[test]
fn strict_validation_refuses_a_policy_regex_only_the_proxy_rejects() {
    let policy = "
apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata: {name: tp, namespace: default}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: route}]
  csrf: {additionalOrigins: [{exact: 'https://a.example.com'}, {safeRegex: '['}]}
";
    let docs = [GATEWAY, SERVICE, ROUTE, policy];
    // RE2's words, naming the pattern the policy's second origin holds.
    let words =
        "invalid xds configuration: error initializing configuration '/dev/fd/0': missing ]: [";
    refused_only_when_strict(&docs, words);
}

#[test]
fn strict_validation_refuses_a_policy_whose_extension_the_proxy_rejects() {
    let policy = "
apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata: {name: tp, namespace: default}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: route}]
  extAuth: {extensionRef: {name: auth}}
";
    let extension = "
apiVersion: gateway.kgateway.dev/v1alpha1
kind: GatewayExtension
metadata: {name: auth, namespace: default}
spec:
  extAuth: {httpService: {backendRef: {name: svc, port: 80}, pathPrefix: 'x'}}
";
    let docs = [GATEWAY, SERVICE, ROUTE, policy, extension];
    let words = "invalid xds configuration: error initializing configuration '/dev/fd/0': path_prefix should start with \"/\".";
    refused_only_when_strict(&docs, words);
}

#[test]
fn a_policy_on_the_gateway_has_the_gateway_as_ancestor() {
    let policy = "
apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata: {name: tp, namespace: default, generation: 3}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw}]
  timeouts: {request: 10s}
";
    let s = statuses(&[GATEWAY, policy]);
    let ancestor = &s["policies"]["TrafficPolicy/default/tp"]["ancestors"][0];
    assert_eq!(
        ancestor["ancestorRef"],
        json!({"group": "gateway.networking.k8s.io", "kind": "Gateway", "name": "gw", "namespace": "default"})
    );
    assert_eq!(ancestor["controllerName"], "kgateway.dev/kgateway");
    assert_eq!(
        conditions(&ancestor["conditions"]),
        triples(&[
            ("Accepted", "True", "Valid"),
            ("Attached", "True", "Attached")
        ])
    );
    assert_eq!(ancestor["conditions"][0]["observedGeneration"], 3);
}

#[test]
fn a_policy_with_a_missing_extension_replaces_the_listener_it_targets() {
    let policy = "
apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata: {name: tp, namespace: default}
spec:
  targetRefs:
  - {group: gateway.networking.x-k8s.io, kind: XListenerSet, name: ls, sectionName: b}
  extAuth:
    extensionRef: {name: missing}
";
    let s = statuses(&[&admitting_gateway(), ADMITTED_SET, policy]);
    let ls = &s["listenerSets"]["default/ls"];
    assert_eq!(
        conditions(&ls["listeners"][0]["conditions"]),
        triples(LISTENER_OK)
    );
    let replaced = &ls["listeners"][1]["conditions"][0];
    assert_eq!(replaced["reason"], "ListenerReplaced");
    assert_eq!(
        replaced["message"],
        "extauth: gateway extension default/missing not found"
    );
    // The listener set keeps its replaced listener: it is still accepted.
    assert_eq!(ls["conditions"][0]["reason"], "Accepted");
    let ancestor = &s["policies"]["TrafficPolicy/default/tp"]["ancestors"][0];
    assert_eq!(ancestor["ancestorRef"]["kind"], "XListenerSet");
    assert_eq!(
        conditions(&ancestor["conditions"]),
        triples(&[
            ("Accepted", "False", "Invalid"),
            ("Attached", "False", "Pending")
        ])
    );
    assert_eq!(ancestor["conditions"][1]["message"], "");
}

#[test]
fn a_gateway_policy_also_reaches_the_admitted_listener_sets() {
    let policy = "
apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata: {name: tp, namespace: default}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw}]
  timeouts: {request: 10s}
";
    let s = statuses(&[&admitting_gateway(), ADMITTED_SET, policy]);
    let kinds: Vec<&str> = s["policies"]["TrafficPolicy/default/tp"]["ancestors"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|a| a["ancestorRef"]["kind"].as_str())
        .collect();
    assert_eq!(kinds, ["Gateway", "XListenerSet"]);
}

#[test]
fn a_direct_response_is_attached_from_a_rule_and_pending_from_a_backend() {
    let direct = "
apiVersion: gateway.kgateway.dev/v1alpha1
kind: DirectResponse
metadata: {name: NAME, namespace: default}
spec: {status: 200}
";
    let route = ROUTE.replace(
        "  - backendRefs: [{name: svc, port: 80}]",
        "  - filters:
    - {type: ExtensionRef, extensionRef: {group: gateway.kgateway.dev, kind: DirectResponse, name: on-rule}}
  - backendRefs:
    - name: svc
      port: 80
      filters:
      - {type: ExtensionRef, extensionRef: {group: gateway.kgateway.dev, kind: DirectResponse, name: on-backend}}",
    );
    let on_rule = direct.replace("NAME", "on-rule");
    let on_backend = direct.replace("NAME", "on-backend");
    let s = statuses(&[GATEWAY, SERVICE, &route, &on_rule, &on_backend]);
    let attached = |name: &str| {
        s["policies"][format!("DirectResponse/default/{name}")]["ancestors"][0]["conditions"][1]
            ["reason"]
            .clone()
    };
    assert_eq!(attached("on-rule"), "Attached");
    assert_eq!(attached("on-backend"), "Pending");
}

#[test]
fn policies_on_backends_no_route_uses_are_listed_once_for_every_gateway() {
    let unused = "
apiVersion: v1
kind: Service
metadata: {name: idle, namespace: default}
spec:
  ports: [{port: 80}]
";
    let policy = |name: &str, service: &str| {
        format!(
            "
apiVersion: gateway.kgateway.dev/v1alpha1
kind: BackendConfigPolicy
metadata: {{name: {name}, namespace: default}}
spec:
  targetRefs: [{{group: '', kind: Service, name: {service}}}]
  connectTimeout: 5s
"
        )
    };
    let (on_used, on_idle) = (policy("used", "svc"), policy("idle", "idle"));
    let text = [GATEWAY, SERVICE, ROUTE, unused, &on_used, &on_idle].join("\n---\n");
    let run = lint_sources(
        vec![SourceFile::new(0, "test.yaml", text)],
        &render_options(LintOptions::default()),
    );
    let rendered = render(&run, &RenderOptions::default());
    let gateway = &rendered.gateways[0].statuses["policies"];
    let keys = |v: &Value| v.as_object().map(|m| m.keys().cloned().collect::<Vec<_>>());
    assert_eq!(
        keys(gateway),
        Some(vec!["BackendConfigPolicy/default/used".to_string()])
    );
    let unrouted = &rendered.unrouted_statuses["policies"];
    assert_eq!(
        keys(unrouted),
        Some(vec!["BackendConfigPolicy/default/idle".to_string()])
    );
    assert_eq!(
        unrouted["BackendConfigPolicy/default/idle"]["ancestors"][0]["ancestorRef"]["name"],
        "idle"
    );
}

/// The reason of each policy's Attached condition on Gateway default/gw, by policy key.
fn attached_reasons(s: &Value) -> Vec<(String, String)> {
    s["policies"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(policy, status)| {
            let reason = &status["ancestors"][0]["conditions"][1]["reason"];
            (policy.clone(), reason.as_str().unwrap_or("").to_string())
        })
        .collect()
}

#[test]
fn a_policy_of_a_namespace_the_controller_does_not_watch_is_not_merged() {
    // The parent route delegates /a to the routes of namespace `team`; each has a policy.
    let parent = ROUTE.replace(
        "  - backendRefs: [{name: svc, port: 80}]",
        "  - matches: [{path: {type: PathPrefix, value: /a}}]
    backendRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: '*', namespace: team}]",
    );
    let child = "
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: child, namespace: team}
spec:
  rules:
  - matches: [{path: {type: PathPrefix, value: /a/1}}]
    backendRefs: [{name: svc, port: 80}]
";
    let policy = |namespace: &str, route: &str, settings: &str| {
        format!(
            "apiVersion: gateway.kgateway.dev/v1alpha1\nkind: TrafficPolicy\n\
             metadata: {{name: tp, namespace: {namespace}}}\n\
             spec:\n  targetRefs: [{{group: gateway.networking.k8s.io, kind: HTTPRoute, name: {route}}}]\n\
             \x20 {settings}"
        )
    };
    let on_parent = policy("default", "route", "timeouts: {request: 5s}");
    let on_child = policy(
        "team",
        "child",
        "rateLimit: {local: {tokenBucket: {maxTokens: 1, tokensPerFill: 1, fillInterval: 1s}}}",
    );
    let docs = [GATEWAY, SERVICE, &parent, child, &on_parent, &on_child].join("\n---\n");
    let reasons = |selectors: Vec<Value>| {
        let files = vec![SourceFile::new(0, "test.yaml", docs.clone())];
        let run = lint_sources(files, &render_options(LintOptions::default()));
        let options = RenderOptions {
            gateway: Some(("default".into(), "gw".into())),
            discovery_namespace_selectors: selectors,
            ..RenderOptions::default()
        };
        let rendered = render(&run, &options);
        attached_reasons(&rendered.gateways[0].statuses)
    };
    let pair = |p: &str, r: &str| (p.to_string(), r.to_string());
    assert_eq!(
        reasons(Vec::new()),
        [
            pair("TrafficPolicy/default/tp", "Merged"),
            pair("TrafficPolicy/team/tp", "Merged")
        ]
    );
    // Watching `default` only: the team's policy is not there for the controller.
    let default_only = json!({"matchLabels": {"kubernetes.io/metadata.name": "default"}});
    assert_eq!(
        reasons(vec![default_only]),
        [pair("TrafficPolicy/default/tp", "Attached")]
    );
}
