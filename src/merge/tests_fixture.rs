//! Fixtures of the merge tests: a set of targets, policy documents, a lint run that keeps the
//! model, and the effective policy of one place as one line per field.

use crate::lint::{LintOptions, lint_sources};
use crate::source::SourceFile;

use super::view::{effective_view, places_of};
use super::{Family, MergeOptions};

/// A Gateway with two listeners, a route on `http` with a named rule (whose ExtensionRef filter
/// names TrafficPolicy `ext`) and an unnamed one, a Service with a named port, and an
/// AiGatewayBackend with one provider.
pub(super) const TARGETS: &str = r#"apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw}
spec:
  gatewayClassName: kgateway
  listeners:
  - {name: http, protocol: HTTP, port: 80}
  - {name: other, protocol: HTTP, port: 8080}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r}
spec:
  parentRefs: [{name: gw, sectionName: http}]
  rules:
  - name: a
    filters:
    - type: ExtensionRef
      extensionRef: {group: gateway.kgateway.dev, kind: TrafficPolicy, name: ext}
    backendRefs: [{name: svc, port: 80}]
  - backendRefs:
    - {name: svc, port: 80}
    - {group: agentgateway.dev, kind: AiGatewayBackend, name: llm}
---
apiVersion: v1
kind: Service
metadata: {name: svc}
spec:
  ports: [{name: web, port: 80}, {name: admin, port: 9000}]
---
apiVersion: agentgateway.dev/v1alpha1
kind: AiGatewayBackend
metadata: {name: llm}
spec:
  ai:
    groups:
    - providers:
      - name: main
        chatCompletionsVendor: {model: m}
        policies:
          ai: {defaults: [{field: temperature, value: "0.1"}]}
  policies:
    ai: {defaults: [{field: temperature, value: "0.5"}]}
    tls: {sni: llm.example}
"#;

/// A policy document: `kind name [weight] [created]`, its targetRefs and spec fields.
pub(super) fn policy(kind: &str, name: &str, meta: &str, targets: &str, fields: &str) -> String {
    let group = if kind == "AiGatewayPolicy" {
        "agentgateway.dev"
    } else {
        "gateway.kgateway.dev"
    };
    let targets = if targets.is_empty() {
        String::new()
    } else {
        format!("  targetRefs: {targets}\n")
    };
    format!(
        "---\napiVersion: {group}/v1alpha1\nkind: {kind}\nmetadata: {{name: {name}{meta}}}\nspec:\n{targets}{fields}\n"
    )
}

pub(super) const GW: &str = "[{group: gateway.networking.k8s.io, kind: Gateway, name: gw}]";
pub(super) const HTTP: &str =
    "[{group: gateway.networking.k8s.io, kind: Gateway, name: gw, sectionName: http}]";
pub(super) const ROUTE: &str = "[{group: gateway.networking.k8s.io, kind: HTTPRoute, name: r}]";
pub(super) const RULE: &str =
    "[{group: gateway.networking.k8s.io, kind: HTTPRoute, name: r, sectionName: a}]";
pub(super) const SVC: &str = "[{group: '', kind: Service, name: svc}]";
pub(super) const PORT: &str = "[{group: '', kind: Service, name: svc, sectionName: web}]";
pub(super) const LLM: &str = "[{group: agentgateway.dev, kind: AiGatewayBackend, name: llm}]";

pub(super) fn run(docs: &[String], options: &MergeOptions) -> crate::lint::LintRun {
    run_with(docs, options, true)
}

/// Lints the targets and `docs`; with `keep`, the model is kept and the merge left to the test.
pub(super) fn run_with(
    docs: &[String],
    options: &MergeOptions,
    keep: bool,
) -> crate::lint::LintRun {
    let text = format!("{TARGETS}{}", docs.concat());
    let mut config = crate::config::Config::default();
    config.policy_merge = crate::config::PolicyMerge {
        ext_auth_deep: options.deep_ext_auth,
        ext_proc_deep: options.deep_ext_proc,
        transformation_deep: options.deep_transformation,
    };
    let lint = LintOptions {
        needs: if keep {
            crate::lint::Needs::Model
        } else {
            crate::lint::Needs::Findings
        },
        config,
        ..LintOptions::default()
    };
    lint_sources(vec![SourceFile::new(0, "t.yaml", text)], &lint)
}

/// The effective fields of one family at `kind/name[:section]`, one line each:
/// `field = value <- source [+ merged] | lost: source (reason)`.
/// With `place@kind/name:section`, only the effective policy reached through that rule.
pub(super) fn effective(
    docs: &[String],
    options: &MergeOptions,
    at: &str,
    family: Family,
) -> Vec<String> {
    let run = run(docs, options);
    let (at, via) = match at.split_once('@') {
        Some((a, v)) => (a, Some(v)),
        None => (at, None),
    };
    let Some(model) = &run.model else {
        return vec!["no model".into()];
    };
    let merged = model.merge();
    let (object, section) = match at.split_once(':') {
        Some((o, s)) => (o, Some(s)),
        None => (at, None),
    };
    let Some((kind, name)) = object.split_once('/') else {
        return vec!["bad place".into()];
    };
    let Some(i) = model
        .facts
        .iter()
        .position(|f| f.id.kind == kind && f.id.name == name)
    else {
        return vec!["no object".into()];
    };
    let Some(&place) = places_of(&model.facts, i, section).first() else {
        return vec!["no place".into()];
    };
    let via_label = via.map(|v| {
        let (o, s) = v.split_once(':').unwrap_or((v, ""));
        format!(
            "{} default/{}:{s}",
            o.split('/').next().unwrap_or(""),
            o.split('/').nth(1).unwrap_or("")
        )
    });
    let mut out = Vec::new();
    for e in merged.of(place).filter(|e| e.family == family) {
        let label = e.via.map(|p| super::view::place_label(&model.facts, p));
        if via.is_some() && label != via_label
            || via.is_none() && matches!(e.via, Some(super::Place::Rule(..)))
        {
            continue;
        }
        for f in effective_view(&model.facts, e).fields {
            let mut line = format!("{} = {} <- {}", f.field, f.value, f.source.label());
            for m in &f.merged {
                line.push_str(&format!(" + {}", m.label()));
            }
            for l in &f.losers {
                line.push_str(&format!(
                    " | lost: {} ({})",
                    l.source.label(),
                    l.reason.label()
                ));
            }
            if f.disabled {
                line.push_str(" [disabled]");
            }
            out.push(line);
        }
    }
    out
}
