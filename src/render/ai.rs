//! AI Gateways: the AI data plane's resources (binds, listeners, routes, backends, policies).

use serde_json::Value;

use super::{Context, DataPlane, RenderedGateway, RenderedResource};
use crate::model::Object;

pub fn render_gateway(_ctx: &Context<'_>, gateway: &Object) -> RenderedGateway {
    RenderedGateway::new(gateway, DataPlane::Ai)
}

/// The resources that belong to no single Gateway (backends, policies), and their statuses.
pub fn render_shared(_ctx: &Context<'_>) -> (Vec<RenderedResource>, Value) {
    (Vec::new(), Value::Null)
}
