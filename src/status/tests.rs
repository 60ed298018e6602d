//! Statuses of the Gateway, its listeners and listener sets; the documents and helpers every
//! status test module shares.

use serde_json::{Value, json};

use crate::lint::{LintOptions, lint_sources};
use crate::render::{RenderOptions, render, render_options};
use crate::source::SourceFile;

pub(super) const GATEWAY: &str = "
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: default}
spec:
  gatewayClassName: kgateway
  listeners:
  - {name: http, protocol: HTTP, port: 8080}
";

pub(super) const SERVICE: &str = "
apiVersion: v1
kind: Service
metadata: {name: svc, namespace: default}
spec:
  ports: [{port: 80}]
";

pub(super) const ROUTE: &str = "
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: route, namespace: default}
spec:
  parentRefs: [{name: gw}]
  rules:
  - backendRefs: [{name: svc, port: 80}]
";

/// The statuses of Gateway default/gw rendered from the documents.
pub(super) fn statuses(docs: &[&str]) -> Value {
    statuses_at(docs, crate::render::ValidationLevel::default())
}

/// [`statuses`] with a validation level.
pub(super) fn statuses_at(
    docs: &[&str],
    validation_level: crate::render::ValidationLevel,
) -> Value {
    let text = docs.join("\n---\n");
    let files = vec![SourceFile::new(0, "test.yaml", text)];
    let run = lint_sources(files, &render_options(LintOptions::default()));
    let options = RenderOptions {
        gateway: Some(("default".into(), "gw".into())),
        validation_level,
        ..RenderOptions::default()
    };
    let rendered = render(&run, &options);
    rendered
        .gateways
        .first()
        .map(|g| g.statuses.clone())
        .unwrap_or_default()
}

/// (type, status, reason) of each condition, in order.
pub(super) fn conditions(v: &Value) -> Vec<(String, String, String)> {
    v.as_array()
        .into_iter()
        .flatten()
        .map(|c| {
            let s = |k: &str| c[k].as_str().unwrap_or("").to_string();
            (s("type"), s("status"), s("reason"))
        })
        .collect()
}

pub(super) fn triples(list: &[(&str, &str, &str)]) -> Vec<(String, String, String)> {
    list.iter()
        .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
        .collect()
}

pub(super) const LISTENER_OK: &[(&str, &str, &str)] = &[
    ("Accepted", "True", "Accepted"),
    ("Conflicted", "False", "NoConflicts"),
    ("ResolvedRefs", "True", "ResolvedRefs"),
    ("Programmed", "True", "Programmed"),
];

#[test]
fn an_accepted_route_counts_on_its_listener() {
    let s = statuses(&[GATEWAY, SERVICE, ROUTE]);
    let gw = &s["gateways"]["default/gw"];
    assert_eq!(
        conditions(&gw["conditions"]),
        triples(&[
            ("AttachedListenerSets", "Unknown", "ListenerSetsNotAllowed"),
            ("Accepted", "True", "Accepted"),
            ("Programmed", "True", "Programmed"),
        ])
    );
    let l = &gw["listeners"][0];
    assert_eq!(l["name"], "http");
    assert_eq!(l["attachedRoutes"], 1);
    assert_eq!(conditions(&l["conditions"]), triples(LISTENER_OK));
    assert_eq!(
        l["supportedKinds"],
        json!([
            {"group": "gateway.networking.k8s.io", "kind": "HTTPRoute"},
            {"group": "gateway.networking.k8s.io", "kind": "GRPCRoute"},
        ])
    );
    let parent = &s["httpRoutes"]["default/route"]["parents"][0];
    assert_eq!(parent["controllerName"], "kgateway.dev/kgateway");
    assert_eq!(
        parent["parentRef"],
        json!({"group": "", "kind": "", "name": "gw"})
    );
    assert_eq!(
        conditions(&parent["conditions"]),
        triples(&[
            ("Accepted", "True", "Accepted"),
            ("ResolvedRefs", "True", "ResolvedRefs"),
        ])
    );
    assert_eq!(
        parent["conditions"][0]["lastTransitionTime"],
        Value::Null,
        "a dry run has no transition time"
    );
}

#[test]
fn route_kinds_the_protocol_cannot_carry_leave_no_valid_listener() {
    let gateway = GATEWAY.replace(
        "port: 8080}",
        "port: 8080, allowedRoutes: {kinds: [{kind: TCPRoute}]}}",
    );
    let s = statuses(&[&gateway]);
    let gw = &s["gateways"]["default/gw"];
    assert_eq!(gw["conditions"][1]["message"], "No valid listeners");
    assert_eq!(gw["conditions"][2]["reason"], "Invalid");
    let l = &gw["listeners"][0];
    assert_eq!(l["supportedKinds"], json!([]));
    assert_eq!(
        l["conditions"][0]["message"],
        "Found invalid route kinds: [TCPRoute]"
    );
    assert_eq!(l["conditions"][0]["reason"], "InvalidRouteKinds");
}

#[test]
fn a_missing_certificate_unprograms_the_listener() {
    let gateway = GATEWAY.replace(
        "{name: http, protocol: HTTP, port: 8080}",
        "{name: https, protocol: HTTPS, port: 8443, tls: {certificateRefs: [{name: cert}]}}",
    );
    let s = statuses(&[&gateway]);
    let gw = &s["gateways"]["default/gw"];
    assert_eq!(
        gw["conditions"][1]["message"],
        "Some listeners are not programmed: https: Secret default/cert not found."
    );
    assert_eq!(gw["conditions"][1]["status"], "True");
    let l = &gw["listeners"][0];
    assert_eq!(
        conditions(&l["conditions"]),
        triples(&[
            ("ResolvedRefs", "False", "InvalidCertificateRef"),
            ("Programmed", "False", "Invalid"),
            ("Accepted", "True", "Accepted"),
            ("Conflicted", "False", "NoConflicts"),
        ])
    );
    assert_eq!(
        l["supportedKinds"],
        json!([{"group": "gateway.networking.k8s.io", "kind": "HTTPRoute"}])
    );
}

#[test]
fn a_certificate_secret_without_pem_data_unprograms_the_listener() {
    let gateway = GATEWAY.replace(
        "{name: http, protocol: HTTP, port: 8080}",
        "{name: https, protocol: HTTPS, port: 8443, tls: {certificateRefs: [{name: cert}]}}",
    );
    let pem = |kind: &str| format!("\"-----BEGIN {kind}-----\\nMIIB\\n-----END {kind}-----\\n\"");
    let secret = |crt: &str, key: &str| {
        format!(
            "apiVersion: v1\nkind: Secret\nmetadata: {{name: cert, namespace: default}}\n\
             stringData: {{tls.crt: {crt}, tls.key: {key}}}"
        )
    };
    let message = |s: &Value| s["gateways"]["default/gw"]["listeners"][0]["conditions"][0].clone();
    // Go's crypto/tls reads the certificate first, then the key.
    for (crt, key, input) in [
        (pem("CERTIFICATE"), "not-a-key".to_string(), "key"),
        (
            "not-a-certificate".to_string(),
            "not-a-key".to_string(),
            "certificate",
        ),
    ] {
        let s = statuses(&[&gateway, &secret(&crt, &key)]);
        let expected = format!(
            "invalid TLS secret default/cert: tls: failed to find any PEM data in {input} input"
        );
        assert_eq!(message(&s)["message"], json!(expected));
        assert_eq!(message(&s)["reason"], "InvalidCertificateRef");
        let gw = &s["gateways"]["default/gw"];
        assert_eq!(
            gw["conditions"][1]["message"],
            json!(format!(
                "Some listeners are not programmed: https: {expected}"
            ))
        );
    }
    let valid = secret(&pem("CERTIFICATE"), &pem("PRIVATE KEY"));
    let s = statuses(&[&gateway, &valid]);
    assert_eq!(message(&s)["reason"], "Accepted");
}

#[test]
fn listeners_with_one_port_and_hostname_conflict() {
    let gateway = GATEWAY.replace(
        "  - {name: http, protocol: HTTP, port: 8080}",
        "  - {name: a, protocol: HTTP, port: 8080, hostname: x.example.com}
  - {name: b, protocol: HTTP, port: 8080, hostname: x.example.com}
  - {name: c, protocol: HTTP, port: 8080, hostname: y.example.com}",
    );
    let s = statuses(&[&gateway]);
    let listeners = &s["gateways"]["default/gw"]["listeners"];
    for i in 0..2 {
        assert_eq!(listeners[i]["conditions"][0]["type"], "Conflicted");
        assert_eq!(listeners[i]["conditions"][0]["status"], "True");
        assert_eq!(listeners[i]["conditions"][0]["reason"], "HostnameConflict");
    }
    assert_eq!(
        conditions(&listeners[2]["conditions"]),
        triples(LISTENER_OK)
    );
}

#[test]
fn an_unsupported_protocol_and_a_tcp_listener_without_routes() {
    let gateway = GATEWAY.replace(
        "  - {name: http, protocol: HTTP, port: 8080}",
        "  - {name: udp, protocol: UDP, port: 53}
  - {name: tcp, protocol: TCP, port: 9000}",
    );
    let s = statuses(&[&gateway]);
    let gw = &s["gateways"]["default/gw"];
    let udp = &gw["listeners"][0];
    assert_eq!(udp["conditions"][0]["reason"], "UnsupportedProtocol");
    assert_eq!(
        udp["conditions"][0]["message"],
        "Protocol UDP is unsupported."
    );
    assert_eq!(udp["supportedKinds"], json!([]));
    let tcp = &gw["listeners"][1];
    assert_eq!(
        conditions(&tcp["conditions"])[0],
        ("Programmed".into(), "False".into(), "Invalid".into())
    );
    assert_eq!(
        gw["conditions"][1]["message"],
        "Some listeners are not programmed: tcp: TCP/TLS listener has no valid backends or routes"
    );
}

#[test]
fn tls_listeners_of_a_port_are_programmed_together() {
    let gateway = GATEWAY.replace(
        "  - {name: http, protocol: HTTP, port: 8080}",
        "  - {name: a, protocol: TLS, port: 8443, hostname: a.example.com, tls: {mode: Passthrough}}
  - {name: b, protocol: TLS, port: 8443, hostname: b.example.com, tls: {mode: Passthrough}}
  - {name: c, protocol: TLS, port: 8444, hostname: c.example.com, tls: {mode: Passthrough}}",
    );
    let route = "
apiVersion: gateway.networking.k8s.io/v1alpha2
kind: TLSRoute
metadata: {name: tls, namespace: default}
spec:
  parentRefs: [{name: gw, sectionName: b}]
  rules: [{backendRefs: [{name: svc, port: 80}]}]
";
    let s = statuses(&[&gateway, SERVICE, route]);
    let gw = &s["gateways"]["default/gw"];
    let programmed = |i: usize| {
        let c = &gw["listeners"][i]["conditions"];
        conditions(c)
            .into_iter()
            .find(|(t, ..)| t == "Programmed")
            .map(|(_, status, _)| status)
    };
    // `a` has no route, but `b` on its port does: the port is programmed. `c` alone is not.
    assert_eq!(
        [programmed(0), programmed(1), programmed(2)],
        [
            Some("True".into()),
            Some("True".into()),
            Some("False".into())
        ]
    );
    assert_eq!(
        gw["conditions"][1]["message"],
        "Some listeners are not programmed: c: TCP/TLS listener has no valid backends or routes"
    );
}

#[test]
fn a_listener_set_the_gateway_does_not_admit() {
    let set = "
apiVersion: gateway.networking.x-k8s.io/v1alpha1
kind: XListenerSet
metadata: {name: ls, namespace: default}
spec:
  parentRef: {name: gw, kind: Gateway, group: gateway.networking.k8s.io}
  listeners:
  - {name: extra, protocol: HTTP, port: 9090}
";
    let s = statuses(&[GATEWAY, set]);
    assert_eq!(
        conditions(&s["listenerSets"]["default/ls"]["conditions"]),
        triples(&[
            ("Accepted", "False", "NotAllowed"),
            ("Programmed", "False", "NotAllowed"),
        ])
    );
    let admitting = GATEWAY.replace(
        "  listeners:",
        "  allowedListeners: {namespaces: {from: Same}}\n  listeners:",
    );
    let s = statuses(&[&admitting, set]);
    let ls = &s["listenerSets"]["default/ls"];
    assert_eq!(
        ls["conditions"][0]["message"],
        "Successfully accepted ListenerSet"
    );
    assert_eq!(ls["listeners"][0]["port"], 9090);
    assert_eq!(
        s["gateways"]["default/gw"]["conditions"][0]["reason"],
        "ListenerSetsAttached"
    );
}

/// Whether the set other/ls is admitted by the status stage, and whether render serves its
/// listener (port 9090): one decision, so the two always agree.
fn set_admitted_and_served(docs: &[&str]) -> (bool, bool) {
    let text = docs.join("\n---\n");
    let files = vec![SourceFile::new(0, "test.yaml", text)];
    let run = lint_sources(files, &render_options(LintOptions::default()));
    let options = RenderOptions {
        gateway: Some(("default".into(), "gw".into())),
        ..RenderOptions::default()
    };
    let rendered = render(&run, &options);
    let Some(gw) = rendered.gateways.first() else {
        return (false, false);
    };
    let set = &gw.statuses["listenerSets"]["other/ls"]["conditions"][0]["reason"];
    let served = gw
        .resources
        .iter()
        .filter(|r| r.section == "Listeners")
        .any(|r| r.value.to_string().contains("9090"));
    (set == "Accepted", served)
}

#[test]
fn a_selector_admits_a_set_whose_namespace_labels_match_or_are_unknown() {
    let gateway = GATEWAY.replace(
        "  listeners:",
        "  allowedListeners:\n    namespaces:\n      from: Selector\n      selector: {matchLabels: {team: a}}\n  listeners:",
    );
    let set = "
apiVersion: gateway.networking.x-k8s.io/v1alpha1
kind: XListenerSet
metadata: {name: ls, namespace: other}
spec:
  parentRef: {name: gw, namespace: default, kind: Gateway, group: gateway.networking.k8s.io}
  listeners:
  - {name: extra, protocol: HTTP, port: 9090}
";
    let namespace = |team: &str| {
        format!(
            "apiVersion: v1\nkind: Namespace\nmetadata: {{name: other, labels: {{team: {team}}}}}\n"
        )
    };
    assert_eq!(set_admitted_and_served(&[&gateway, set]), (true, true));
    assert_eq!(
        set_admitted_and_served(&[&gateway, set, &namespace("a")]),
        (true, true)
    );
    assert_eq!(
        set_admitted_and_served(&[&gateway, set, &namespace("b")]),
        (false, false)
    );
}

pub(super) const ADMITTED_SET: &str = "
apiVersion: gateway.networking.x-k8s.io/v1alpha1
kind: XListenerSet
metadata: {name: ls, namespace: default}
spec:
  parentRef: {name: gw, kind: Gateway, group: gateway.networking.k8s.io}
  listeners:
  - {name: a, protocol: HTTP, port: 9090}
  - {name: b, protocol: HTTP, port: 9092}
";

pub(super) fn admitting_gateway() -> String {
    GATEWAY.replace(
        "  listeners:",
        "  allowedListeners: {namespaces: {from: All}}\n  listeners:",
    )
}

#[test]
fn routes_of_a_listener_set_the_gateway_does_not_admit_are_not_reported() {
    let route = "
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: via-set, namespace: default}
spec:
  parentRefs: [{name: ls, kind: XListenerSet, group: gateway.networking.x-k8s.io}]
  rules:
  - backendRefs: [{name: svc, port: 80}]
";
    let s = statuses(&[GATEWAY, ADMITTED_SET, SERVICE, route]);
    assert_eq!(s.get("httpRoutes"), None);
    let s = statuses(&[&admitting_gateway(), ADMITTED_SET, SERVICE, route]);
    let parent = &s["httpRoutes"]["default/via-set"]["parents"][0];
    assert_eq!(parent["parentRef"]["kind"], "XListenerSet");
    assert_eq!(
        s["listenerSets"]["default/ls"]["listeners"][0]["attachedRoutes"],
        1
    );
}

#[test]
fn a_listener_on_a_port_the_proxy_serves_itself_is_not_programmed() {
    let gateway = GATEWAY.replace(
        "  - {name: http, protocol: HTTP, port: 8080}",
        "  - {name: http, protocol: HTTP, port: 8080}\n  - {name: admin, protocol: HTTP, port: 19000}",
    );
    let s = statuses(&[&gateway]);
    let g = &s["gateways"]["default/gw"];
    let reserved = &g["listeners"][1];
    assert_eq!(reserved["name"], "admin");
    assert_eq!(
        conditions(&reserved["conditions"]),
        triples(&[
            ("Conflicted", "True", "Invalid"),
            ("Accepted", "False", "Invalid"),
            ("Programmed", "False", "Invalid"),
            ("ResolvedRefs", "True", "ResolvedRefs"),
        ])
    );
    assert_eq!(
        reserved["conditions"][0]["message"],
        "invalid port 19000 in listener: port is reserved"
    );
    // The Gateway keeps its other listener, and says which one is not programmed.
    assert_eq!(
        conditions(&g["listeners"][0]["conditions"]),
        triples(LISTENER_OK)
    );
    let accepted = &g["conditions"][1];
    assert_eq!(accepted["reason"], "ListenersNotValid");
    assert_eq!(
        accepted["message"],
        "Some listeners are not programmed: admin: invalid port 19000 in listener: port is reserved"
    );
    // With no other listener the Gateway is still accepted, with none programmed.
    let gateway = GATEWAY.replace("port: 8080}", "port: 9091}");
    let s = statuses(&[&gateway]);
    assert_eq!(
        s["gateways"]["default/gw"]["conditions"],
        json!([
            {"message": "", "reason": "ListenerSetsNotAllowed", "status": "Unknown", "type": "AttachedListenerSets", "lastTransitionTime": null},
            {"message": "Some listeners are not programmed: http: invalid port 9091 in listener: port is reserved",
             "reason": "ListenersNotValid", "status": "True", "type": "Accepted", "lastTransitionTime": null},
            {"message": "No valid listeners found for Gateway", "reason": "Invalid", "status": "False",
             "type": "Programmed", "lastTransitionTime": null},
        ])
    );
}
