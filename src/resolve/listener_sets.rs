//! GW218: a ListenerSet whose parent Gateway does not take ListenerSets from its namespace
//! (`spec.allowedListeners.namespaces`; by default it takes none). The controller then attaches
//! none of the set's listeners, and its routes reach nothing through them.

use crate::model::facts::{Facts, ObjRef, Spec};
use crate::rules;

use super::{Ctx, diag, qualified};

/// `set`'s `parent` reference names `gateway` (found in the inputs).
pub(super) fn check(ctx: &mut Ctx<'_>, set: &Facts, parent: &ObjRef, gateway: &Facts) {
    let Spec::Gateway {
        allowed_listeners, ..
    } = &gateway.spec
    else {
        return;
    };
    let ns = set.id.namespace.as_str();
    let labels = ctx.index.namespace_labels(ns);
    if allowed_listeners
        .admits(&gateway.id.namespace, ns, labels)
        .is_none_or(|admitted| admitted)
    {
        return;
    }
    let why = match allowed_listeners.from.as_deref() {
        None => "its spec.allowedListeners is not set (the default takes none)".to_string(),
        Some("Same") => format!(
            "it takes them only from its own namespace {}",
            gateway.id.namespace
        ),
        Some("Selector") => format!(
            "it takes them from the namespaces its selector picks, and the labels of Namespace {ns} do not match"
        ),
        Some(from) => format!("its spec.allowedListeners.namespaces.from is {from}"),
    };
    let name = qualified(&gateway.id.namespace, &gateway.id.name);
    ctx.out.push(
        diag(
            rules::GW218,
            format!("Gateway {name} does not take ListenerSets from namespace {ns}: {why}"),
            &set.id,
            parent,
        )
        .with_related(
            gateway.id.file,
            allowed_listeners.span,
            "what the Gateway takes is set here",
        )
        .with_help("set the Gateway's spec.allowedListeners.namespaces.from (Same, All or Selector) to take this ListenerSet"),
    );
}
