//! A Gateway's routes: HTTPRoute and GRPCRoute rules as `route`, TCPRoute and TLSRoute rules as
//! `tcpRoute`, one per rule and listener.

use serde_json::Value;

use super::Context;
use crate::model::Object;

pub(super) fn routes(_ctx: &Context<'_>, _gw: &Object) -> Vec<(&'static str, Value)> {
    Vec::new()
}
