//! AI Gateways: the AI data plane's resource model (decisions.md section 7), in the shapes of the
//! reference's agent gateway goldens: per Gateway its binds (one per port), listeners and routes;
//! shared by every Gateway the backends, the services they reach and the policies.

mod ai_backend;
mod backends;
mod gateway;
mod mesh;
mod policies;
mod routes;
mod secrets;

use serde_json::{Map, Value, json};

use super::{Context, DataPlane, RenderedGateway, RenderedResource};
use crate::model::Object;
use crate::model::facts::{GATEWAY_API, Spec};
use crate::render::json::single;

/// The AI API group (the config file's `apiGroups.ai` is not threaded into the stages yet).
pub(super) use crate::security::AI_GROUP;

pub use super::secret_digest;
pub use routes::Prepared;

/// One AI Gateway's binds, listeners and routes; `prepared` is made once per render, at the
/// first AI Gateway.
/// The listeners of an AI Gateway that have a port (the others are not rendered) and the
/// routes each carries.
pub fn served(
    ctx: &Context<'_>,
    prepared: &Prepared<'_>,
    gateway: &Object,
) -> Vec<super::ServedListener> {
    routes::served(ctx, prepared, gateway)
        .into_iter()
        .map(|(listener, routes)| super::ServedListener {
            owner: super::kind_and_name(gateway),
            listener: listener.to_string(),
            routes: routes.iter().map(|r| super::kind_and_name(r)).collect(),
        })
        .collect()
}

pub fn render_gateway<'a>(
    ctx: &Context<'a>,
    prepared: &Prepared<'a>,
    gateway: &Object,
) -> RenderedGateway {
    let mut out = RenderedGateway::new(gateway, DataPlane::Ai);
    let owner = json!({"Name": gateway.id.name, "Namespace": gateway.id.namespace});
    let mut items = gateway::binds_and_listeners(ctx, gateway);
    // An unroutable backendRef keeps its place at either validation level (its share of
    // traffic fails); the Gateway is never refused whole (decisions.md section 7).
    items.extend(routes::routes(ctx, prepared, gateway));
    out.resources = items
        .into_iter()
        .map(|(kind, value)| {
            let mut item = Map::new();
            item.insert("gateway".into(), owner.clone());
            item.insert("resource".into(), json!({ kind: value }));
            resource(kind, Value::Object(item))
        })
        .collect();
    unique_names(&mut out.resources);
    out
}

/// How many AiGatewayBackends or AiGatewayPolicies are translated (in parallel) before their
/// resources are handed on: enough to keep every thread busy, few enough that the resources
/// waiting to be written stay small.
const CHUNK: usize = 512;

/// Each object translated on its own, in parallel a chunk at a time, each one's items handed to
/// `emit` and its status kept, in the objects' order (only a chunk's translations are held).
fn translate_each<'a>(
    objects: &[&'a Object],
    translate: impl Fn(&'a Object) -> (Vec<Value>, Value) + Sync,
    emit: &mut dyn FnMut(Value),
) -> Vec<Value> {
    use rayon::prelude::*;
    let mut statuses = Vec::with_capacity(objects.len());
    for chunk in objects.chunks(CHUNK) {
        let translated: Vec<(Vec<Value>, Value)> =
            chunk.par_iter().map(|&object| translate(object)).collect();
        for (items, status) in translated {
            for v in items {
                emit(v);
            }
            statuses.push(status);
        }
    }
    statuses
}

/// The resources that belong to no single Gateway (backends, services, policies), each handed
/// to `each` as it is made (in output order) instead of kept: in a large repository they are
/// the largest part of a rendering. Returns their statuses (`Null` when the AI data plane has
/// nothing to program).
pub fn render_shared_each(ctx: &Context<'_>, each: &mut dyn FnMut(RenderedResource)) -> Value {
    // With one Gateway selected, they go with an AI Gateway only.
    if let Some((ns, name)) = &ctx.options.gateway {
        let selected = ctx.inputs.get(GATEWAY_API, "Gateway", ns, name);
        if !selected.is_some_and(|g| {
            super::data_plane(&ctx.inputs, g, &ctx.options.ai_controller) == DataPlane::Ai
        }) {
            return Value::Null;
        }
    }
    // AI kinds are served by the AI data plane only, whatever the classes say.
    let ai_kinds = ctx.inputs.objects.iter().any(|o| o.id.group == AI_GROUP);
    if !ai_kinds && !has_ai_class(ctx) {
        return Value::Null;
    }
    let mut names = UniqueNames::default();
    let mut emit = |kind: &str, value: Value| {
        let mut r = resource(kind, value);
        names.make_unique(&mut r);
        each(r);
    };
    // The parts in their order: backends, policies, services, the mesh's.
    let backend_statuses = backends::backends(ctx, &mut |kind, value| {
        emit(kind, wrapped(kind, value));
    });
    let mut statuses = policies::policies(ctx, &mut |v| {
        emit("policy", wrapped("policy", v));
    });
    for v in backends::services(ctx) {
        emit("service", v);
    }
    for v in mesh::mesh(ctx) {
        let kind = if v.get("workloadName").is_some() {
            "workload"
        } else {
            "service"
        };
        emit(kind, v);
    }
    statuses.extend(backend_statuses);
    Value::Array(statuses)
}

/// `{"resource": {kind: value}}`, the value moved in (`json!` would copy it through
/// serialisation).
fn wrapped(kind: &str, value: Value) -> Value {
    single("resource", single(kind, value))
}

/// Whether some GatewayClass names the AI data plane's controller: else no AI data plane runs.
fn has_ai_class(ctx: &Context<'_>) -> bool {
    let ai = ctx.options.ai_controller.as_str();
    !ai.is_empty()
        && ctx
            .inputs
            .of_kind(GATEWAY_API, "GatewayClass")
            .filter_map(|c| ctx.inputs.facts_at(c))
            .any(|c| matches!(&c.spec, Spec::GatewayClass { controller } if controller == ai))
}

/// One output item; `kind` is the data plane's resource kind, mapped to what `--type` selects.
fn resource(kind: &str, value: Value) -> RenderedResource {
    // A policy goes with what it configures: frontend ones with listeners, traffic ones with
    // routes, backend ones (and backends, services) with clusters.
    let policy = &value["resource"]["policy"];
    let selected = match kind {
        "bind" | "listener" => "listener",
        "route" | "tcpRoute" => "route",
        "policy" if policy.get("frontend").is_some() => "listener",
        "policy" if policy.get("traffic").is_some() => "route",
        _ => "cluster",
    };
    let name = key_of(kind, &value);
    RenderedResource {
        section: "output",
        kind: selected,
        name,
        value,
    }
}

/// Resource names are what `diff` pairs resources by (within a section): a key the data plane
/// gives two resources (a header modifier's request and response halves) gets `#2`, `#3`... on
/// the later ones.
fn unique_names(resources: &mut [RenderedResource]) {
    let mut names = UniqueNames::default();
    for r in resources.iter_mut() {
        names.make_unique(r);
    }
}

/// The names given so far, with how often each was given (see [`unique_names`]).
#[derive(Default)]
struct UniqueNames(crate::fasthash::FastMap<String, usize>);

impl UniqueNames {
    fn make_unique(&mut self, r: &mut RenderedResource) {
        let n = self.0.entry(r.name.clone()).or_insert(0);
        *n += 1;
        if *n > 1 {
            r.name = format!("{}#{n}", r.name);
        }
    }
}

/// A resource's key; a service's or workload's (which have none): its uid, else its namespace
/// and hostname (a ServiceEntry makes one service per host).
fn key_of(kind: &str, item: &Value) -> String {
    if let Some(k) = item["resource"][kind]["key"]
        .as_str()
        .or_else(|| item["uid"].as_str())
    {
        return format!("{kind}/{k}");
    }
    let id = item["hostname"]
        .as_str()
        .or_else(|| item["name"].as_str())
        .unwrap_or("");
    format!("{kind}/{}/{id}", item["namespace"].as_str().unwrap_or(""))
}

/// A status condition, without its transition time (a dry run has none).
fn condition(kind: &str, status: bool, reason: &str, message: &str) -> Value {
    json!({
        "message": message,
        "reason": reason,
        "status": if status { "True" } else { "False" },
        "type": kind,
    })
}

/// The cluster-local hostname of a Service.
fn service_host(namespace: &str, name: &str) -> String {
    format!("{name}.{namespace}.svc.cluster.local")
}

fn str_at<'v>(v: &'v Value, pointer: &str) -> Option<&'v str> {
    v.pointer(pointer).and_then(Value::as_str)
}

/// Whether labels the typed model keeps (a label's value is a string) hold every pair of
/// `match_labels`.
fn labels_match_typed(labels: &[(String, String)], match_labels: &Value) -> bool {
    match_labels.as_object().is_some_and(|m| {
        m.iter().all(|(k, v)| {
            // The last of a repeated key, as the JSON the labels were read from keeps it.
            let label = labels.iter().rev().find(|(key, _)| key == k);
            label.is_some_and(|(_, l)| v.as_str() == Some(l.as_str()))
        })
    })
}

/// A copy of `v` with only the given keys (absent ones left out).
fn pick(v: &Value, keys: &[&str]) -> Map<String, Value> {
    keys.iter()
        .filter_map(|k| v.get(*k).map(|x| ((*k).to_string(), x.clone())))
        .collect()
}
