//! Route rules the controller replaces (with a direct response 500) because it cannot build
//! them: a filter's extensionRef to a policy that is not there, a redirect status code it cannot
//! use. The route is then not Accepted, with reason `RouteRuleReplaced`. With strict validation,
//! a rule whose matcher the proxy rejects is dropped instead (reason `RouteRuleDropped`).

use serde_json::Value;

use super::Context;
use super::messages::Written;
use crate::merge::Place;
use crate::model::Object;
use crate::model::facts_settings::RouteSettings;
use crate::resolve::DirectResponses;

/// The groups whose kinds a filter's extensionRef names as policies (TrafficPolicy,
/// DirectResponse ...), as the reference reports them missing.
const POLICY_GROUPS: &[&str] = &["gateway.kgateway.dev", "agentgateway.dev"];

/// Why a rule with a second DirectResponse filter cannot be built: the first one already set
/// the route's action (in the controller's words, which name the action's Go type).
pub const SECOND_DIRECT_RESPONSE: &str =
    "DirectResponse cannot be applied to route with existing action: *routev3.Route_DirectResponse";

/// The status codes a redirect may use.
const REDIRECT_CODES: &[&str] = &["301", "302", "303", "307", "308"];

/// The Accepted message of a route with replaced rules, or `None`. The controller builds one
/// route per match of a rule and sets the condition for each replaced one, numbered by the
/// match's index within its rule; the last one set is what the status keeps.
pub(super) fn replaced(ctx: &Context<'_>, route: &Object) -> Option<String> {
    let (typed, settings) = ctx.inputs.route(route);
    let codes = redirect_codes(settings);
    settings
        .rules
        .iter()
        .enumerate()
        .rev()
        .find_map(|(i, rule)| {
            let forwards = typed.rule_backends(i).next().is_some();
            let errors = rule_errors(ctx, route, rule, forwards, &codes)?;
            Some(format!(
                "Replaced Rule ({}): {errors}",
                settings.matches(i).len().saturating_sub(1)
            ))
        })
}

/// The Accepted message of a route with a rule a TrafficPolicy reaches (on the route, the rule,
/// or by the rule's ExtensionRef) that the controller rejects when it translates it, for a
/// reference it cannot resolve (or, with validation level strict, the proxy's check refuses):
/// the rule is replaced, with the policy's error. `None` without.
pub(super) fn policy_rejected(ctx: &Context<'_>, route: &Object) -> Option<String> {
    let (merged, model) = (ctx.merged?, ctx.run.model.as_ref()?);
    let r = ctx.fact_of(route)?;
    let (_, settings) = ctx.inputs.route(route);
    let h = &merged.hierarchy;
    let strict = ctx.options.validation_level == super::ValidationLevel::Strict;
    (0..settings.rules.len()).rev().find_map(|i| {
        let places = [Place::Route(r), Place::Rule(r, i)];
        let attached = places.iter().filter_map(|p| h.attached.get(p)).flatten();
        let named = h.extension.get(&Place::Rule(r, i)).into_iter().flatten();
        let why = attached.chain(named).find_map(|&p| {
            let id = &model.facts[p].id;
            let verdicts = &ctx.run.verdicts;
            let rejection = if strict {
                verdicts.rejected_strict(&crate::resolve::resource_ref(id))?
            } else {
                verdicts.rejected(&id.kind, &id.namespace, &id.name)?
            };
            let value = ctx
                .inputs
                .get(&id.group, &id.kind, &id.namespace, &id.name)
                .map(|o| Written::of(o, ctx.inputs.facts_at(o)));
            let translated = rejection.is_reference()
                || (strict && super::messages::proxy_words(rejection, value).is_some());
            (id.kind == "TrafficPolicy" && translated)
                .then(|| super::messages::controller_message(rejection, value))
        })?;
        Some(format!(
            "Replaced Rule ({}): {why}",
            settings.matches(i).len().saturating_sub(1)
        ))
    })
}

/// The Accepted message of a route one of whose generated routes the controller's check of the
/// route replaced (the rendering says which), or `None`; the last one set kept.
pub(super) fn checked(route: &Object, replaced: &[super::ReplacedRoute]) -> Option<String> {
    let id = &route.id;
    replaced
        .iter()
        .rev()
        .find(|r| r.kind == id.kind && r.namespace == id.namespace && r.name == id.name)
        .map(|r| format!("Replaced Rule ({}): {}", r.match_index, r.message))
}

/// The Accepted message of a route with a match the proxy rejects (strict validation drops
/// it), or `None`; numbered as [`replaced`] numbers, the last one set kept.
pub(super) fn dropped(ctx: &Context<'_>, route: &Object) -> Option<String> {
    let grpc = route.id.kind == "GRPCRoute";
    let (_, settings) = ctx.inputs.route(route);
    (0..settings.rules.len()).rev().find_map(|rule| {
        let matches = settings.matches(rule);
        matches.iter().enumerate().rev().find_map(|(i, m)| {
            let why = super::proxy::rejected_regex(m, grpc)?;
            Some(format!(
                "Dropped Rule ({i}): invalid matcher configuration: validation failed: {}{why}",
                super::proxy::XDS
            ))
        })
    })
}

/// Why a rule cannot be built, one reason a line; `None` when it can. `rule` is as the
/// settings keep it (name and filters); `forwards`, whether it has backendRefs.
fn rule_errors(
    ctx: &Context<'_>,
    route: &Object,
    rule: &Value,
    forwards: bool,
    codes: &[(Option<&str>, &str)],
) -> Option<String> {
    let mut errors = Vec::new();
    let mut action = forwards;
    let mut direct_responses = DirectResponses::default();
    let rule_name = rule.get("name").and_then(Value::as_str);
    for filter in rule
        .get("filters")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        match filter.get("type").and_then(Value::as_str) {
            Some("ExtensionRef") => {
                let r = filter.get("extensionRef").unwrap_or(&Value::Null);
                let text = |key: &str| r.get(key).and_then(Value::as_str).unwrap_or("");
                let (group, kind, name) = (text("group"), text("kind"), text("name"));
                if !POLICY_GROUPS.contains(&group) {
                    continue;
                }
                let ns = &route.id.namespace;
                if ctx.inputs.get(group, kind, ns, name).is_none() {
                    errors.push(format!("{group}/{kind}/{ns}/{name}: policy not found"));
                } else if kind == "DirectResponse" {
                    if !direct_responses.apply() {
                        errors.push(SECOND_DIRECT_RESPONSE.to_string());
                    }
                    action = true;
                }
            }
            Some("RequestRedirect") => {
                let code = codes
                    .iter()
                    .find(|(rule, _)| rule.is_none_or(|r| Some(r) == rule_name))
                    .map(|(_, code)| *code);
                match code {
                    Some(code) if !REDIRECT_CODES.contains(&code) => errors.push(format!(
                        "invalid redirect status code: {code}; must be one of {}",
                        REDIRECT_CODES.join(", ")
                    )),
                    _ => action = true,
                }
            }
            _ => {}
        }
    }
    if errors.is_empty() {
        return None;
    }
    if !action {
        errors.insert(0, "no action specified".to_string());
    }
    Some(errors.join("\n"))
}

/// (rule name, status code) of the route's redirect status code annotation; a code without a
/// rule name is for every rule.
fn redirect_codes(settings: &RouteSettings) -> Vec<(Option<&str>, &str)> {
    let annotation = settings.redirect_code.as_deref().unwrap_or("");
    annotation
        .split(',')
        .filter(|entry| !entry.trim().is_empty())
        .map(|entry| match entry.split_once('=') {
            Some((rule, code)) => (Some(rule.trim()), code.trim()),
            None => (None, entry.trim()),
        })
        .collect()
}
