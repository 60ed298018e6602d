//! The status conditions the controller would write: on the Gateway and its listeners, on the
//! routes attached to it and on the policies that reach it.

use serde_json::Value;

use super::Context;
use crate::model::Object;

pub fn statuses(_ctx: &Context<'_>, _gateway: &Object) -> Value {
    Value::Null
}
