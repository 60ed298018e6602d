//! The render-only facts of the inputs ([`crate::model::facts_settings`]), looked up as the
//! renderer asks for them: by object, or by identity among the objects the controller sees.

use serde_json::Value;

use super::super::Context;
use crate::model::Object;
use crate::model::facts_settings::{
    BackendSettings, ExtensionSettings, RouteSettings, ServicePort, Settings,
};

fn of<'a>(ctx: &Context<'a>, object: &Object) -> Option<&'a Settings> {
    ctx.inputs.facts_at(object)?.settings.as_deref()
}

fn named<'a>(
    ctx: &Context<'a>,
    group: &str,
    kind: &str,
    ns: &str,
    name: &str,
) -> Option<&'a Settings> {
    ctx.inputs
        .facts_of(group, kind, ns, name)?
        .settings
        .as_deref()
}

static NO_ROUTE: std::sync::LazyLock<RouteSettings> =
    std::sync::LazyLock::new(RouteSettings::default);

/// A route's rules as render reads them; none for an object that is not a route.
pub fn route<'a>(ctx: &Context<'a>, route: &Object) -> &'a RouteSettings {
    match of(ctx, route) {
        Some(Settings::Route(r)) => r,
        _ => &NO_ROUTE,
    }
}

/// The ports of a Service.
pub fn service_ports<'a>(ctx: &Context<'a>, service: &Object) -> &'a [ServicePort] {
    match of(ctx, service) {
        Some(Settings::Service(s)) => &s.ports,
        _ => &[],
    }
}

/// The ports of the Service `ns/name`; `None` when the controller sees no such Service.
pub fn service_ports_of<'a>(ctx: &Context<'a>, ns: &str, name: &str) -> Option<&'a [ServicePort]> {
    let facts = ctx.inputs.facts_of("", "Service", ns, name)?;
    Some(match facts.settings.as_deref() {
        Some(Settings::Service(s)) => &s.ports,
        _ => &[],
    })
}

pub fn backend<'a>(ctx: &Context<'a>, backend: &Object) -> Option<&'a BackendSettings> {
    match of(ctx, backend)? {
        Settings::Backend(b) => Some(b),
        _ => None,
    }
}

/// The GatewayExtension `ns/name`.
pub fn extension<'a>(ctx: &Context<'a>, ns: &str, name: &str) -> Option<&'a ExtensionSettings> {
    match named(
        ctx,
        super::clusters::GATEWAY_GROUP,
        "GatewayExtension",
        ns,
        name,
    )? {
        Settings::Extension(e) => Some(e),
        _ => None,
    }
}

/// The entry `key` of the `data` of the Secret or ConfigMap (`kind`) `ns/name`.
pub fn data<'a>(
    ctx: &Context<'a>,
    kind: &str,
    ns: &str,
    name: &str,
    key: &str,
) -> Option<&'a Value> {
    match named(ctx, "", kind, ns, name)? {
        Settings::Data(data) | Settings::Secret { data, .. } => data.get(key),
        _ => None,
    }
}
