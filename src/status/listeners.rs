//! The Gateway's conditions (AttachedListenerSets, Accepted, Programmed), its listeners' (Accepted,
//! Conflicted, ResolvedRefs, Programmed, with attachedRoutes and supportedKinds), and those of its
//! listener sets. A listener is judged from the Gateway's spec: its protocol, its allowed route
//! kinds, its certificate references, the other listeners on its port, and the routes attached.

use serde_json::{Map, Value};

use super::lookup::Lookup;
use super::messages::controller_message;
use super::proxy::RESERVED_PORTS;
use super::{Attachment, Context, Shared, condition, is, key, named, status_word, tls};
use crate::model::Object;
use crate::model::facts::{self, Facts, GATEWAY_API, Spec};
use crate::resolve::{Grants, resource_ref};

/// A condition that does not hold: its reason and message.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Failure {
    pub reason: &'static str,
    pub message: String,
}

impl Failure {
    pub fn new(reason: &'static str, message: impl Into<String>) -> Self {
        Failure {
            reason,
            message: message.into(),
        }
    }
}

const INVALID_KINDS: &str = "InvalidRouteKinds";
const REPLACED: &str = "ListenerReplaced";
const NO_ROUTES: &str = "TCP/TLS listener has no valid backends or routes";

#[derive(Debug)]
struct Listener<'v> {
    name: &'v str,
    port: Option<i64>,
    protocol: &'v str,
    hostname: &'v str,
    accepted: Option<Failure>,
    conflicted: Option<Failure>,
    resolved_refs: Option<Failure>,
    programmed: Option<Failure>,
    supported_kinds: Vec<&'static str>,
    attached_routes: usize,
    /// On a port the proxy serves itself: the controller finds it first, as a conflict.
    reserved_port: bool,
    /// A TCP or TLS listener without routes: not programmed, unless another TCP or TLS listener
    /// on its port has routes (the port is programmed then).
    no_routes: bool,
}

impl Listener<'_> {
    /// Whether the controller keeps the listener: a listener it accepts without conflict and
    /// whose route kinds it knows. One that fails later (a certificate, no routes) is kept, and
    /// reported as not programmed; one a policy makes it replace is kept too.
    fn valid(&self) -> bool {
        // A replaced listener is still programmed (with the replacement).
        self.accepted.as_ref().is_none_or(|f| f.reason == REPLACED)
            && self.conflicted.is_none()
            && self
                .resolved_refs
                .as_ref()
                .is_none_or(|f| f.reason != INVALID_KINDS)
    }

    /// The conditions: those that do not hold first (the controller sets them as it finds
    /// them, then the others), each group in the order Accepted, Conflicted, ResolvedRefs,
    /// Programmed.
    fn conditions(&self) -> Vec<Value> {
        // (type, failed, status, reason, message)
        let all = [
            match &self.accepted {
                None => (
                    "Accepted",
                    false,
                    "True",
                    "Accepted",
                    "Successfully accepted Listener",
                ),
                Some(f) => ("Accepted", true, "False", f.reason, f.message.as_str()),
            },
            match &self.conflicted {
                None => (
                    "Conflicted",
                    false,
                    "False",
                    "NoConflicts",
                    "Successfully verified that Listener has no conflicts",
                ),
                Some(f) => ("Conflicted", true, "True", f.reason, f.message.as_str()),
            },
            match &self.resolved_refs {
                None => (
                    "ResolvedRefs",
                    false,
                    "True",
                    "ResolvedRefs",
                    "Successfully resolved all references",
                ),
                Some(f) => ("ResolvedRefs", true, "False", f.reason, f.message.as_str()),
            },
            match &self.programmed {
                None => (
                    "Programmed",
                    false,
                    "True",
                    "Programmed",
                    "Successfully programmed Listener",
                ),
                Some(f) => ("Programmed", true, "False", f.reason, f.message.as_str()),
            },
        ];
        // The order the controller finds the failures in.
        let order: [usize; 4] = if self.reserved_port {
            [1, 0, 3, 2]
        } else {
            [0, 1, 2, 3]
        };
        let failed = order.iter().map(|&i| &all[i]).filter(|c| c.1);
        let held = all.iter().filter(|c| !c.1);
        failed
            .chain(held)
            .map(|(t, _, status, reason, message)| condition(t, status, reason, message))
            .collect()
    }

    fn to_json(&self, with_port: bool) -> Value {
        let mut l = Map::new();
        l.insert("attachedRoutes".into(), self.attached_routes.into());
        l.insert("conditions".into(), self.conditions().into());
        l.insert("name".into(), self.name.into());
        if with_port && let Some(port) = self.port {
            l.insert("port".into(), port.into());
        }
        let kinds: Vec<Value> = self
            .supported_kinds
            .iter()
            .map(|k| {
                let mut m = Map::new();
                m.insert("group".into(), GATEWAY_API.into());
                m.insert("kind".into(), (*k).into());
                Value::Object(m)
            })
            .collect();
        l.insert("supportedKinds".into(), kinds.into());
        Value::Object(l)
    }
}

/// The route kinds a protocol carries, in the order the controller lists them; `None` for a
/// protocol the proxy-based data plane does not serve.
fn protocol_kinds(protocol: &str) -> Option<&'static [&'static str]> {
    match protocol {
        "HTTP" => Some(&["HTTPRoute", "GRPCRoute"]),
        "HTTPS" => Some(&["HTTPRoute"]),
        // A TLS listener terminating TLS also carries TCPRoutes.
        "TLS" => Some(&["TLSRoute", "TCPRoute"]),
        "TCP" => Some(&["TCPRoute"]),
        _ => None,
    }
}

/// The listeners of a Gateway or listener set, judged on their own (conflicts come after).
fn listeners<'v>(
    ctx: &Context<'v>,
    lookup: &Lookup<'_>,
    index: Option<&Grants>,
    owner: &Object,
    attached: &[Attachment<'_>],
) -> Vec<Listener<'v>> {
    let specs = ctx
        .inputs
        .facts_at(owner)
        .map_or(&[][..], |f| f.listeners());
    specs
        .iter()
        .map(|spec| listener(ctx, lookup, index, owner, spec, attached))
        .collect()
}

fn listener<'v>(
    ctx: &Context<'_>,
    lookup: &Lookup<'_>,
    index: Option<&Grants>,
    owner: &Object,
    spec: &'v facts::Listener,
    attached: &[Attachment<'_>],
) -> Listener<'v> {
    let name = spec.name.as_str();
    let protocol = spec.protocol.as_str();
    let mut routes: Vec<(&str, &str, &str)> = attached
        .iter()
        .filter(|a| std::ptr::eq(a.parent, owner) && a.status.accepted.status)
        .filter(|a| a.status.listeners.iter().any(|l| l == name))
        .map(|a| {
            let id = &a.route.id;
            (id.kind.as_str(), id.namespace.as_str(), id.name.as_str())
        })
        .collect();
    routes.sort_unstable();
    routes.dedup();
    let mut l = Listener {
        name,
        port: spec.port,
        protocol,
        hostname: spec.hostname.as_deref().unwrap_or(""),
        accepted: None,
        conflicted: None,
        resolved_refs: None,
        programmed: None,
        supported_kinds: Vec::new(),
        attached_routes: routes.len(),
        reserved_port: false,
        no_routes: false,
    };
    if let Some(message) = replacing_policy(lookup, owner, name) {
        l.accepted = Some(Failure::new(REPLACED, message));
    }
    let Some(carried) = protocol_kinds(protocol) else {
        l.accepted = Some(Failure::new(
            "UnsupportedProtocol",
            format!("Protocol {protocol} is unsupported."),
        ));
        return l;
    };
    // A port the proxy serves itself: found once the protocol is known to be served.
    if let Some(port) = l.port.filter(|p| RESERVED_PORTS.contains(p)) {
        let message = format!("invalid port {port} in listener: port is reserved");
        l.reserved_port = true;
        l.conflicted = Some(Failure::new("Invalid", message.clone()));
        l.accepted = Some(Failure::new("Invalid", message.clone()));
        l.programmed = Some(Failure::new("Invalid", message));
    }
    route_kinds(&mut l, carried, &spec.kinds);
    let terminates = terminates_tls(spec);
    let failure = || {
        tls::certificate_failure(ctx, index, owner, spec)
            .or_else(|| tls::client_validation_failure(ctx, index, owner, spec))
    };
    if terminates && let Some(f) = failure() {
        l.resolved_refs.get_or_insert(f.clone());
        l.programmed = Some(Failure::new("Invalid", f.message));
    }
    if matches!(protocol, "TCP" | "TLS") && l.attached_routes == 0 && l.programmed.is_none() {
        l.no_routes = true;
        l.programmed = Some(Failure::new("Invalid", NO_ROUTES));
    }
    l
}

/// Whether a listener terminates TLS: HTTPS, and TLS unless its mode is Passthrough. Its
/// certificates are then checked here and served by render (both data planes).
pub fn terminates_tls(l: &facts::Listener) -> bool {
    l.protocol == "HTTPS" || (l.protocol == "TLS" && !l.tls.as_ref().is_some_and(|t| t.passthrough))
}

/// The route kinds a listener supports: those of `allowed` (`allowedRoutes.kinds`, as
/// (group, kind)) its protocol carries, else all it carries; a kind it cannot carry fails
/// ResolvedRefs.
fn route_kinds(l: &mut Listener<'_>, carried: &[&'static str], allowed: &[(String, String)]) {
    if allowed.is_empty() {
        l.supported_kinds = carried.to_vec();
        return;
    }
    let mut invalid = Vec::new();
    for (group, kind) in allowed {
        match carried.iter().find(|c| **c == kind) {
            Some(c) if group == GATEWAY_API => l.supported_kinds.push(c),
            _ => invalid.push(kind.as_str()),
        }
    }
    if !invalid.is_empty() {
        l.resolved_refs = Some(Failure::new(
            INVALID_KINDS,
            format!("Found invalid route kinds: [{}]", invalid.join(" ")),
        ));
    }
}

/// A policy on the listener (by its listener set, or by section name) that the controller
/// cannot translate for a reference it cannot resolve: the controller then replaces the
/// listener. Its message.
fn replacing_policy(lookup: &Lookup<'_>, owner: &Object, listener: &str) -> Option<String> {
    let whole_owner_counts = owner.id.kind != "Gateway";
    lookup.targeting([owner]).into_iter().find_map(|policy| {
        let targets = lookup.facts_of(policy)?.target_refs();
        let reaches = targets.iter().any(|t| {
            is(owner, &named(t, &policy.id.namespace, ""))
                && t.section().map_or(whole_owner_counts, |s| s == listener)
        });
        if !reaches {
            return None;
        }
        let r = lookup.rejection(&resource_ref(&policy.id))?;
        (r.is_reference() || r.proxy.is_some())
            .then(|| controller_message(r, Some(lookup.written_of(policy))))
    })
}

/// A policy on the whole Gateway that the controller cannot translate (a reference it cannot
/// resolve, or with validation level strict a configuration the proxy's check refuses): the
/// controller then replaces the Gateway. Its message.
fn replacing_gateway_policy(lookup: &Lookup<'_>, gateway: &Object) -> Option<String> {
    lookup.targeting([gateway]).into_iter().find_map(|policy| {
        let targets = lookup.facts_of(policy)?.target_refs();
        let whole = targets
            .iter()
            .any(|t| is(gateway, &named(t, &policy.id.namespace, "")) && t.section().is_none());
        if !whole || policy.id.kind != "TrafficPolicy" {
            return None;
        }
        let r = lookup.rejection(&resource_ref(&policy.id))?;
        (r.is_reference() || r.proxy.is_some())
            .then(|| controller_message(r, Some(lookup.written_of(policy))))
    })
}

/// Listeners that are not distinct (Gateway API): on one port, a TCP or UDP listener beside any
/// other, listeners of different protocols, or two of one protocol with the same hostname.
fn mark_conflicts(all: &mut [&mut Listener<'_>]) {
    let mut found: Vec<(usize, Failure)> = Vec::new();
    for i in 0..all.len() {
        for j in 0..all.len() {
            let (a, b) = (&all[i], &all[j]);
            if i == j || a.port.is_none() || a.port != b.port || a.accepted.is_some() {
                continue;
            }
            let port = a.port.unwrap_or_default();
            let layer4 = |p: &str| matches!(p, "TCP" | "UDP");
            if a.protocol != b.protocol || layer4(a.protocol) {
                found.push((
                    i,
                    Failure::new(
                        "ProtocolConflict",
                        format!(
                            "Listener {} ({}) and listener {} ({}) share port {port}",
                            a.name, a.protocol, b.name, b.protocol
                        ),
                    ),
                ));
            } else if a.hostname == b.hostname {
                found.push((
                    i,
                    Failure::new(
                        "HostnameConflict",
                        format!(
                            "Listener {} and listener {} share port {port}, protocol {} and hostname {:?}",
                            a.name, b.name, a.protocol, a.hostname
                        ),
                    ),
                ));
            }
        }
    }
    for (i, f) in found {
        all[i].conflicted.get_or_insert(f);
    }
}

/// Whether the Gateway admits a listener set from `namespace` (`spec.allowedListeners`): one
/// decision ([`crate::model::facts::AllowedListeners::admits`]) for the sets the status stage
/// reports attached, the listeners render serves and the resolve stage's finding.
pub fn admits(ctx: &Context<'_>, gateway: &Object, namespace: &str) -> bool {
    let Some(Facts {
        spec: Spec::Gateway {
            allowed_listeners, ..
        },
        ..
    }) = ctx.inputs.facts_at(gateway)
    else {
        return false;
    };
    let labels = ctx
        .inputs
        .facts_of("", "Namespace", "", namespace)
        .map(|ns| ns.labels.as_slice());
    // A selector against labels not in the inputs: not judged, as the resolve stage.
    allowed_listeners
        .admits(&gateway.id.namespace, namespace, labels)
        .unwrap_or(true)
}

/// The `gateways` section (this Gateway) and the `listenerSets` section (its listener sets), if
/// it has any.
pub(super) fn gateway_statuses(
    ctx: &Context<'_>,
    shared: &Shared<'_>,
    gateway: &Object,
    sets: &[&Object],
    attached: &[Attachment<'_>],
) -> (Value, Option<Value>) {
    // ReferenceGrants are asked only about references to other namespaces.
    let crosses = std::iter::once(gateway)
        .chain(sets.iter().copied())
        .any(|o| tls::refers_elsewhere(ctx, o));
    let index = if crosses { shared.grants() } else { None };
    let lookup = &shared.lookup;
    let allowed_from = ctx
        .inputs
        .gateway_settings(gateway)
        .is_some_and(|g| g.allows_listeners);
    let mut own = listeners(ctx, lookup, index, gateway, attached);
    let mut of_sets: Vec<(&Object, Option<Vec<Listener<'_>>>)> = sets
        .iter()
        .map(|s| {
            let admitted = admits(ctx, gateway, &s.id.namespace);
            (
                *s,
                admitted.then(|| listeners(ctx, lookup, index, s, attached)),
            )
        })
        .collect();
    {
        let mut all: Vec<&mut Listener<'_>> = own.iter_mut().collect();
        for (_, ls) in of_sets.iter_mut() {
            all.extend(ls.iter_mut().flatten());
        }
        mark_conflicts(&mut all);
        programmed_ports(&mut all);
    }
    let any_set = of_sets.iter().any(|(_, ls)| ls.is_some());
    // The listeners of admitted listener sets are the Gateway's too.
    let set_listeners = of_sets.iter().flat_map(|(_, ls)| ls.iter().flatten());
    let any_valid = own.iter().chain(set_listeners).any(Listener::valid);
    let mut conditions: Vec<Value> = attached_listener_sets(allowed_from, any_set, any_valid)
        .into_iter()
        .collect();
    let mut owned = owner_conditions(&own, any_valid, "Gateway");
    if let Some(message) = replacing_gateway_policy(&shared.lookup, gateway)
        && let Some(accepted) = owned.first_mut()
    {
        *accepted = condition("Accepted", "False", "GatewayReplaced", &message);
    }
    conditions.extend(owned);
    let mut g = Map::new();
    g.insert("conditions".into(), conditions.into());
    // A Gateway without listeners of its own (only listener sets) has no listener statuses.
    if !own.is_empty() {
        let own_json: Vec<Value> = own.iter().map(|l| l.to_json(false)).collect();
        g.insert("listeners".into(), own_json.into());
    }
    let mut gateways = Map::new();
    gateways.insert(key(gateway), Value::Object(g));

    (Value::Object(gateways), set_statuses(&of_sets))
}

/// The TCP and TLS listeners of a port are programmed together (as one listener's filter
/// chains): one without routes is reported only when none on its port has routes.
fn programmed_ports(all: &mut [&mut Listener<'_>]) {
    let served: Vec<i64> = all
        .iter()
        .filter(|l| l.valid() && matches!(l.protocol, "TCP" | "TLS") && l.attached_routes > 0)
        .filter_map(|l| l.port)
        .collect();
    for l in all.iter_mut() {
        if l.no_routes && l.port.is_some_and(|p| served.contains(&p)) {
            l.no_routes = false;
            l.programmed = None;
        }
    }
}

/// The Gateway's AttachedListenerSets condition. A Gateway that admits listener sets but has no
/// valid listener is rejected before their attachment is reported: none then.
fn attached_listener_sets(allowed_from: bool, any_set: bool, any_valid: bool) -> Option<Value> {
    let (status, reason) = match (allowed_from, any_set) {
        (false, _) => ("Unknown", "ListenerSetsNotAllowed"),
        (true, _) if !any_valid => return None,
        (true, true) => ("True", "ListenerSetsAttached"),
        (true, false) => ("False", "NoResources"),
    };
    Some(condition("AttachedListenerSets", status, reason, ""))
}

/// The `listenerSets` section: each listener set with its listeners, `None` for one the Gateway
/// does not admit; `None` without listener sets.
fn set_statuses(of_sets: &[(&Object, Option<Vec<Listener<'_>>>)]) -> Option<Value> {
    if of_sets.is_empty() {
        return None;
    }
    let mut out = Map::new();
    for (set, ls) in of_sets {
        let mut s = Map::new();
        match ls {
            None => {
                let message =
                    "Unable to attach to parent, gateway has not enabled allowedListeners";
                s.insert(
                    "conditions".into(),
                    vec![
                        condition("Accepted", "False", "NotAllowed", message),
                        condition("Programmed", "False", "NotAllowed", message),
                    ]
                    .into(),
                );
            }
            Some(ls) => {
                // A set whose listeners are on reserved ports is accepted with them not
                // programmed; its Gateway has no valid listener from it.
                let valid = ls.iter().any(|l| l.valid() || l.reserved_port);
                s.insert(
                    "conditions".into(),
                    owner_conditions(ls, valid, "ListenerSet").into(),
                );
                let json: Vec<Value> = ls.iter().map(|l| l.to_json(true)).collect();
                s.insert("listeners".into(), json.into());
            }
        }
        out.insert(key(set), Value::Object(s));
    }
    Some(Value::Object(out))
}

/// Accepted and Programmed of a Gateway or listener set, from its listeners.
fn owner_conditions(listeners: &[Listener<'_>], any_valid: bool, what: &str) -> Vec<Value> {
    // A listener on a reserved port is refused when it is programmed, not when the Gateway is
    // accepted: a Gateway with no other listener is accepted, with none programmed.
    let only_reserved = what == "Gateway" && listeners.iter().any(|l| l.reserved_port);
    if !any_valid && !only_reserved {
        return vec![
            condition(
                "Accepted",
                "False",
                "ListenersNotValid",
                "No valid listeners",
            ),
            condition("Programmed", "False", "Invalid", ""),
        ];
    }
    let unprogrammed: Vec<String> = listeners
        .iter()
        .filter_map(|l| Some(format!("{}: {}", l.name, l.programmed.as_ref()?.message)))
        .collect();
    let accepted = if unprogrammed.is_empty() {
        condition(
            "Accepted",
            status_word(true),
            "Accepted",
            &format!("Successfully accepted {what}"),
        )
    } else {
        condition(
            "Accepted",
            status_word(true),
            "ListenersNotValid",
            &format!(
                "Some listeners are not programmed: {}",
                unprogrammed.join("; ")
            ),
        )
    };
    // A listener set with a listener on a reserved port says so on Programmed too, with no
    // message.
    let programmed = if !any_valid {
        condition(
            "Programmed",
            "False",
            "Invalid",
            "No valid listeners found for Gateway",
        )
    } else if what == "ListenerSet" && listeners.iter().any(|l| l.reserved_port) {
        condition("Programmed", "True", "ListenersNotValid", "")
    } else {
        condition(
            "Programmed",
            "True",
            "Programmed",
            &format!("Successfully programmed {what}"),
        )
    };
    vec![accepted, programmed]
}
