//! Proxy-based Gateways: Envoy v3 Listeners, RouteConfigurations and Clusters, named as the
//! reference names them (decisions.md section 7).

use super::{Context, DataPlane, RenderedGateway};
use crate::model::Object;

pub fn render_gateway(_ctx: &Context<'_>, gateway: &Object) -> RenderedGateway {
    RenderedGateway::new(gateway, DataPlane::Envoy)
}
