//! What a rendering serves, without rendering it: the listeners each selected Gateway programs
//! and the routes on each (what `explain`'s hierarchy must agree with).

use super::{Context, DataPlane, RenderOptions, ai, envoy};
use crate::lint::LintRun;
use crate::model::Object;

/// A listener a Gateway's rendering programs, and the routes it serves there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServedListener {
    /// Who declares the listener: `Gateway ns/name` or `ListenerSet ns/name`.
    pub owner: String,
    pub listener: String,
    /// `Kind ns/name` of each route served on it, in input order.
    pub routes: Vec<String>,
}

/// The listeners each selected Gateway programs and the routes each serves, without rendering
/// them: what `explain`'s hierarchy must agree with.
pub fn served(run: &LintRun, options: &RenderOptions) -> Vec<ServedListener> {
    let ctx = Context::new(run, None, options);
    let selected = ctx.selected();
    let serves = |plane: DataPlane| selected.iter().any(|(_, p)| *p == plane);
    let envoy_routes = serves(DataPlane::Envoy).then(|| envoy::served_routes(&ctx));
    let ai_prepared = serves(DataPlane::Ai).then(|| ai::Prepared::new(&ctx));
    let mut out = Vec::new();
    for (gateway, plane) in selected {
        match (plane, &envoy_routes, &ai_prepared) {
            (DataPlane::Envoy, Some(routes), _) => {
                out.extend(envoy::served(&ctx, routes, gateway));
            }
            (DataPlane::Ai, _, Some(prepared)) => out.extend(ai::served(&ctx, prepared, gateway)),
            _ => {}
        }
    }
    out
}

/// `Kind ns/name` (`Kind name` without a namespace), as `explain` names objects.
pub(super) fn kind_and_name(o: &Object) -> String {
    format!(
        "{} {}",
        o.id.kind,
        crate::resolve::qualified(&o.id.namespace, &o.id.name)
    )
}
