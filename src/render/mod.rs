//! Render: what the controller would program from the manifests, without a cluster. Envoy v3
//! xDS for proxy-based Gateways ([`envoy`]) and the AI data plane's resources for AI Gateways
//! ([`ai`]); each Gateway's rendering carries the status conditions the controller would write,
//! predicted by the status stage (`status`) before it.
//!
//! Works on a lint run made with `Needs::Render` (see [`render_options`]); returns data,
//! printed by the CLI.

pub mod ai;
// Shared with the secrets' digests of Secret data; kept under this path for the renderers.
pub use crate::base64;
pub mod dangling;
mod document;
pub mod envoy;
pub(crate) mod json;
mod pointer;
pub mod proto;
mod served;

use std::borrow::Cow;

use rayon::prelude::*;
use serde_json::Value;

use crate::lint::{LintOptions, LintRun, Needs};
use crate::merge::Merged;
use crate::model::Object;
use crate::model::facts::{Facts, GATEWAY_API, Spec};
use crate::status;
pub use crate::status::{Context, Inputs, RenderOptions, ReplacedRoute, ValidationLevel};
use served::kind_and_name;
pub use served::{ServedListener, served};

/// Which data plane serves a Gateway.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum DataPlane {
    Envoy,
    Ai,
}

/// One rendered resource.
#[derive(Debug, Clone, PartialEq)]
pub struct RenderedResource {
    /// The section of the output document it is listed under: `Listeners`, `Routes`,
    /// `Clusters` for Envoy (as in the reference's golden files), `output` for the AI data plane.
    pub section: &'static str,
    /// What `--type` selects it by: `listener`, `route` or `cluster`.
    pub kind: &'static str,
    /// Its name, unique within its section (the unit `diff` compares).
    pub name: String,
    pub value: Value,
}

/// The rendering of one Gateway.
#[derive(Debug, Clone)]
pub struct RenderedGateway {
    pub namespace: String,
    pub name: String,
    pub data_plane: DataPlane,
    pub resources: Vec<RenderedResource>,
    /// The conditions the controller would write, in the shape of the reference's `Statuses`
    /// (`gateways`, `httpRoutes`, `policies` ...), for this Gateway and what attaches to it.
    pub statuses: Value,
    /// Routes the controller's own check of the generated route replaced (a direct response
    /// 500), in the order it builds them: the status stage reports them.
    pub replaced: Vec<ReplacedRoute>,
}

#[derive(Debug, Clone, Default)]
pub struct Rendered {
    pub gateways: Vec<RenderedGateway>,
    /// The Envoy clusters: every Service port and Backend, the same for each proxy-based
    /// Gateway, so listed once (a copy per Gateway grows as Gateways times Services).
    pub clusters: Vec<RenderedResource>,
    /// The statuses of the policies on backends no route sends to (`{"policies": ...}`, or
    /// `Null`): every Gateway translates those backends, so they are listed once too.
    pub unrouted_statuses: Value,
    /// AI data plane resources that belong to no single Gateway (backends and policies are
    /// global in that data plane), with their statuses.
    pub shared: Vec<RenderedResource>,
    pub shared_statuses: Value,
}

/// How a [`secret_digest`] starts (the proto check recognises it).
pub const SECRET_PREFIX: &str = crate::secrets::DIGEST_PREFIX;

/// What is printed in place of secret material (a certificate's key, a password): its keyed
/// digest (`crate::secrets`), equal when the secret is. The model holds digests already where
/// the inputs hold secrets; a digest given here is returned as it is.
pub fn secret_digest(data: &str) -> String {
    crate::secrets::digest(data)
}

/// The text of a Secret's `data` entry for the renderers: the model keeps the digest of its
/// bytes (every Secret value is secret), which is shown as it is; other text (a test's object
/// built by hand) is decoded from base64.
pub fn secret_data(value: &str) -> Option<String> {
    if crate::secrets::is_digest(value) {
        return Some(value.to_string());
    }
    let bytes = base64::decode(value)?;
    Some(String::from_utf8(bytes).unwrap_or_else(|e| crate::secrets::digest_bytes(e.as_bytes())))
}

/// Entry `key` of the Secret `namespace/name`, as the model keeps it: every Secret value is
/// secret, so this is its digest (see [`secret_data`]). `None` when the Secret or the entry is
/// missing or not base64.
pub(crate) fn secret_text(
    ctx: &Context<'_>,
    namespace: &str,
    name: &str,
    key: &str,
) -> Option<String> {
    let secret = ctx.inputs.get("", "Secret", namespace, name)?;
    // The render-only facts keep a Secret's data (render keeps no JSON of it).
    let Some(crate::model::facts_settings::Settings::Secret { data, string_data }) =
        ctx.inputs.facts_at(secret)?.settings.as_deref()
    else {
        return None;
    };
    if let Some(data) = data[key].as_str() {
        return secret_data(data);
    }
    string_data[key].as_str().map(str::to_string)
}

/// The lint options a render needs on top of the caller's. The inputs are all the controller
/// would see, so a reference to a kind absent from them is a missing object (`--strict-refs`):
/// the predicted statuses say so, as the controller would.
pub fn render_options(mut options: LintOptions) -> LintOptions {
    options.needs = Needs::Render;
    options.strict_refs = true;
    options
}

/// The lint options of a `diff`: a render's, with what the digest of a Gateway's inputs reads
/// of every resource as written (`model::written`).
pub fn diff_options(options: LintOptions) -> LintOptions {
    LintOptions {
        needs: Needs::Diff,
        ..render_options(options)
    }
}

impl<'a> Context<'a> {
    /// The Gateways to render (`--gateway`, else all), each with its data plane.
    fn selected(&self) -> Vec<(&'a Object, DataPlane)> {
        let options = self.options;
        self.inputs
            .of_kind(GATEWAY_API, "Gateway")
            .filter(|g| {
                options
                    .gateway
                    .as_ref()
                    .is_none_or(|(ns, name)| &g.id.namespace == ns && &g.id.name == name)
            })
            .map(|g| (g, data_plane(&self.inputs, g, &options.ai_controller)))
            .collect()
    }
}

/// The data plane of a Gateway: its GatewayClass's controllerName.
pub fn data_plane(inputs: &Inputs<'_>, gateway: &Object, ai_controller: &str) -> DataPlane {
    let class = match inputs.facts_at(gateway) {
        Some(Facts {
            spec: Spec::Gateway { class, .. },
            ..
        }) => class.as_ref().map_or("", |c| &*c.name),
        _ => "",
    };
    let controller = match inputs.facts_of(GATEWAY_API, "GatewayClass", "", class) {
        Some(Facts {
            spec: Spec::GatewayClass { controller },
            ..
        }) => Some(controller.as_str()),
        _ => None,
    };
    if controller.is_some_and(|c| !ai_controller.is_empty() && c == ai_controller) {
        DataPlane::Ai
    } else {
        DataPlane::Envoy
    }
}

/// Renders every selected Gateway of a run.
pub fn render(run: &LintRun, options: &RenderOptions) -> Rendered {
    let merged = merge(run, options);
    render_merged(run, merged.as_ref(), options)
}

/// The run's merge as the controller makes it: the policies of the namespaces it does not
/// watch (`discoveryNamespaceSelectors`, from the options or the chart values) are not there
/// for it.
pub fn merge<'r>(run: &'r LintRun, options: &RenderOptions) -> Option<Merged<'r>> {
    let model = run.model.as_ref()?;
    let options = with_values(run, options);
    let selectors = &options.discovery_namespace_selectors;
    if selectors.is_empty() {
        return Some(model.merge());
    }
    let discovery = status::Discovery::new(&model.facts, selectors);
    Some(model.merge_seen(|namespace| discovery.sees(namespace)))
}

/// [`render`] with the run's merge already made (`diff` needs it too; merging is not repeated).
pub fn render_merged<'a>(
    run: &'a LintRun,
    merged: Option<&'a Merged<'a>>,
    options: &'a RenderOptions,
) -> Rendered {
    let mut gateways = Vec::new();
    let mut out = render_with(run, merged, options, |chunk| gateways.extend(chunk));
    out.gateways = gateways;
    out
}

/// [`render_merged`], handing the rendering on to `sink` piece by piece as [`render_into`]
/// does, with the run's merge already made (`diff` reduces each piece as it comes: a large
/// repository's rendering then never is in memory whole).
pub fn render_merged_into<'a>(
    run: &'a LintRun,
    merged: Option<&'a Merged<'a>>,
    options: &'a RenderOptions,
    sink: &mut (impl Sink + Send),
) {
    let options = &*with_values(run, options);
    render_to_sink(&Context::new(run, merged, options), sink);
}

/// Where a rendering goes, piece by piece in output order (see [`render_into`]).
pub trait Sink {
    /// What a Gateway's rendering is handed on as (made by [`Sink::make`]).
    type Gateway: Send;
    /// What [`Sink::make`] reads: the sink itself is busy with the previous chunk meanwhile.
    type Settings: Sync;
    fn settings(&self) -> Self::Settings;
    /// Makes what is handed on of a Gateway's rendering, on the thread that rendered it while
    /// its values are in cache (a sink that writes text makes the text here, in parallel).
    fn make(settings: &Self::Settings, gateway: RenderedGateway) -> Self::Gateway;
    /// A chunk of Gateways (rendered in parallel), in input order.
    fn gateways(&mut self, chunk: Vec<Self::Gateway>);
    /// What belongs to no single Gateway, but for the AI data plane's shared resources: the
    /// clusters and the unrouted backends' policy statuses (`shared` is empty here).
    fn rest(&mut self, rest: Rendered);
    /// One of the AI data plane's shared resources, in order.
    fn shared(&mut self, resource: RenderedResource);
    /// A batch of them, in order: one at a time to [`Sink::shared`] unless the sink takes them
    /// together.
    fn shared_batch(&mut self, batch: Vec<RenderedResource>) {
        for resource in batch {
            self.shared(resource);
        }
    }
    /// Their statuses, last (`Null` when that data plane programs nothing).
    fn shared_statuses(&mut self, statuses: Value);
}

/// [`render`], handing each Gateway's rendering and the AI data plane's shared resources on one
/// at a time (to `sink`, in output order): nothing of the rendering is kept. Returns the merge
/// it made: freeing a large repository's takes a twentieth of a second that a caller about to
/// exit can spare.
pub fn render_into<'r>(
    run: &'r LintRun,
    options: &RenderOptions,
    sink: &mut (impl Sink + Send),
) -> Option<Merged<'r>> {
    let mut phases = crate::lint::Phases::start();
    let options = &*with_values(run, options);
    // The lookups read no effective policy: made while the merge runs.
    let (merged, lookups) = rayon::join(
        || merge(run, options),
        || status::Lookups::new(run, options),
    );
    phases.mark("merge");
    render_to_sink(&Context::of(lookups, merged.as_ref()), sink);
    merged
}

/// The rendering kept, but for the Gateways handed to `each` (a chunk at a time).
struct Collect<F> {
    each: F,
    out: Rendered,
}

impl<F: FnMut(Vec<RenderedGateway>)> Sink for Collect<F> {
    type Gateway = RenderedGateway;
    type Settings = ();

    fn settings(&self) {}

    fn make((): &(), gateway: RenderedGateway) -> RenderedGateway {
        gateway
    }

    fn gateways(&mut self, chunk: Vec<RenderedGateway>) {
        (self.each)(chunk);
    }

    fn rest(&mut self, rest: Rendered) {
        self.out = rest;
    }

    fn shared(&mut self, resource: RenderedResource) {
        self.out.shared.push(resource);
    }

    fn shared_statuses(&mut self, statuses: Value) {
        self.out.shared_statuses = statuses;
    }
}

/// How many Gateways are rendered in parallel, per thread, before they are handed on: enough to
/// keep every thread busy, few enough that the renderings waiting to be written stay small.
const CHUNK_PER_THREAD: usize = 4;

fn render_with<'a>(
    run: &'a LintRun,
    merged: Option<&'a Merged<'a>>,
    options: &'a RenderOptions,
    each: impl FnMut(Vec<RenderedGateway>) + Send,
) -> Rendered {
    let mut collect = Collect {
        each,
        out: Rendered::default(),
    };
    let options = &*with_values(run, options);
    render_to_sink(&Context::new(run, merged, options), &mut collect);
    collect.out
}

fn render_to_sink<S: Sink + Send>(ctx: &Context<'_>, sink: &mut S) {
    let options = ctx.options;
    // `GWCTL_BENCH_PHASES=1`: each step's wall time, after the lint stages'.
    let mut phases = crate::lint::Phases::start();
    let mut out = Rendered::default();
    let mut selected = ctx.selected();
    // What belongs to no single Gateway is made for the whole selection, rendered or not.
    let any = !selected.is_empty();
    let serves = |plane: DataPlane| selected.iter().any(|(_, p)| *p == plane);
    let (envoy, ai) = (serves(DataPlane::Envoy), serves(DataPlane::Ai));
    if let Some(only) = &options.only {
        selected.retain(|(g, _)| only.contains(&(g.id.namespace.clone(), g.id.name.clone())));
    }
    // What every Gateway of a data plane looks up, made once; then the Gateways are rendered
    // in parallel (in a large repository, most of the time is theirs).
    let ((envoy_prepared, ai_prepared), shared) = rayon::join(
        || {
            rayon::join(
                || envoy.then(|| envoy::Prepared::new(ctx)),
                || ai.then(|| ai::Prepared::new(ctx)),
            )
        },
        || status::Shared::new(ctx),
    );
    phases.mark("prepare");
    let chunk_len = CHUNK_PER_THREAD * rayon::current_num_threads();
    // Each chunk is rendered while the previous one is handed on (written, compared): at most
    // two chunks are in memory, and the caller's work overlaps the rendering.
    let settings = sink.settings();
    let mut pending: Vec<S::Gateway> = Vec::new();
    for chunk in selected.chunks(chunk_len.max(1)) {
        let (rendered, ()) = rayon::join(
            || {
                chunk
                    .par_iter()
                    .filter_map(|&(gateway, plane)| {
                        let mut rendered = match plane {
                            DataPlane::Envoy => {
                                envoy::render_gateway(ctx, envoy_prepared.as_ref()?, gateway)
                            }
                            DataPlane::Ai => {
                                ai::render_gateway(ctx, ai_prepared.as_ref()?, gateway)
                            }
                        };
                        rendered.statuses =
                            status::statuses_with(ctx, &shared, gateway, &rendered.replaced);
                        Some(S::make(&settings, rendered))
                    })
                    .collect::<Vec<S::Gateway>>()
            },
            || hand_on(&mut pending, sink),
        );
        pending = rendered;
    }
    hand_on(&mut pending, sink);
    phases.mark("gateways");
    if let Some(prepared) = envoy_prepared {
        out.clusters = prepared.into_clusters();
    }
    drop(ai_prepared);
    if any {
        out.unrouted_statuses = shared.unrouted_statuses();
    }
    drop(shared);
    sink.rest(out);
    let ai_statuses = render_shared(ctx, sink);
    phases.mark("ai shared");
    sink.shared_statuses(ai_statuses);
}

/// How many of the AI data plane's shared resources go from the thread rendering them to the
/// one handing them on at a time.
const SHARED_BATCH: usize = 64;

/// The AI data plane's shared resources, after the Gateways and the rest, not beside them, and a
/// few at a time: the largest part of a rendering is never in memory whole. They are rendered one
/// after another, so on a thread of their own while this one hands them on to `sink` (writing
/// them costs about as much).
fn render_shared(ctx: &Context<'_>, sink: &mut impl Sink) -> Value {
    // With a pool of one thread, this one waiting for the renderer's batches could be the pool's
    // only worker (diff renders inside a join), which the renderer's parallel translation needs:
    // the two would wait for each other forever. Then each batch is handed on as it is made.
    if rayon::current_num_threads() < 2 {
        return shared_in_batches(ctx, &mut |batch| sink.shared_batch(batch));
    }
    std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<RenderedResource>>(4);
        let renderer = scope.spawn(move || {
            // The receiver stops only once this thread has.
            shared_in_batches(ctx, &mut |batch| {
                let _ = tx.send(batch);
            })
        });
        for batch in rx {
            sink.shared_batch(batch);
        }
        renderer
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// The AI data plane's shared resources handed to `hand_on` [`SHARED_BATCH`] at a time (the last
/// batch maybe shorter), in order; returns their statuses.
fn shared_in_batches(ctx: &Context<'_>, hand_on: &mut dyn FnMut(Vec<RenderedResource>)) -> Value {
    let mut batch = Vec::with_capacity(SHARED_BATCH);
    let statuses = ai::render_shared_each(ctx, &mut |r| {
        batch.push(r);
        if batch.len() == SHARED_BATCH {
            hand_on(std::mem::replace(
                &mut batch,
                Vec::with_capacity(SHARED_BATCH),
            ));
        }
    });
    hand_on(batch);
    statuses
}

/// Hands the rendered Gateways on to `sink`, in order.
fn hand_on<S: Sink>(rendered: &mut Vec<S::Gateway>, sink: &mut S) {
    if !rendered.is_empty() {
        sink.gateways(std::mem::take(rendered));
    }
}

/// The options with what the chart values file turns on, as the config file can: a controller
/// setting and the namespaces it watches.
fn with_values<'o>(run: &LintRun, options: &'o RenderOptions) -> Cow<'o, RenderOptions> {
    let values = run.model.as_ref().and_then(|m| m.values.as_ref());
    let weighted = !options.weighted_route_precedence
        && values.is_some_and(crate::config::weighted_route_precedence_in_values);
    let selectors = values
        .and_then(|v| v.get("discoveryNamespaceSelectors"))
        .and_then(Value::as_array)
        .filter(|_| options.discovery_namespace_selectors.is_empty());
    if !weighted && selectors.is_none() {
        return Cow::Borrowed(options);
    }
    Cow::Owned(RenderOptions {
        weighted_route_precedence: options.weighted_route_precedence || weighted,
        discovery_namespace_selectors: selectors
            .cloned()
            .unwrap_or_else(|| options.discovery_namespace_selectors.clone()),
        ..options.clone()
    })
}

/// The Gateways a render selects (`--gateway`, else every Gateway of a watched namespace), as
/// (namespace, name), whether or not [`RenderOptions::only`] would render them.
pub fn selected_gateways(run: &LintRun, options: &RenderOptions) -> Vec<(String, String)> {
    let options = with_values(run, options);
    let ctx = Context::new(run, None, &options);
    ctx.selected()
        .into_iter()
        .map(|(g, _)| (g.id.namespace.clone(), g.id.name.clone()))
        .collect()
}

impl RenderedGateway {
    /// An empty rendering of a Gateway, for a data plane's renderer to fill.
    pub fn new(gateway: &Object, data_plane: DataPlane) -> Self {
        RenderedGateway {
            namespace: gateway.id.namespace.clone(),
            name: gateway.id.name.clone(),
            data_plane,
            resources: Vec::new(),
            statuses: Value::Null,
            replaced: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::secret_digest;

    #[test]
    fn digests_hide_the_secret_and_follow_it() {
        let d = secret_digest("c2VjcmV0");
        assert!(!d.contains("c2VjcmV0"));
        assert_eq!(d, secret_digest("c2VjcmV0"));
        assert_ne!(d, secret_digest("b3RoZXI="));
        assert!(d.starts_with("<secret hmac:"), "{d}");
    }
}
