//! `gwctl graph [PATHS] [--gateway NS/NAME] [--namespace NS] [-o mermaid|dot|svg]`: the
//! topology with its policies, as a picture.

use super::args::GraphArgs;
use super::render_cmd::config_and_gateway;
use super::{print_stdout, usage_error};
use crate::graph::{Selection, build, select};
use crate::report::graph::render_graph;

pub(super) fn run(args: &GraphArgs) -> u8 {
    let (config, gateway) =
        match config_and_gateway(args.config.as_deref(), args.gateway.as_deref()) {
            Ok(both) => both,
            Err(code) => return code,
        };
    let (run, skipped) = match super::model_run(config, args.values.clone(), &args.paths) {
        Ok(ran) => ran,
        Err(code) => return code,
    };
    let Some(model) = &run.model else {
        return usage_error("no manifests were read");
    };
    // As render merges: the chart values' discovery selectors leave policies out.
    let merged = crate::render::merge(&run, &Default::default()).unwrap_or_else(|| model.merge());
    let graph = build(&run, &merged);
    let selection = Selection {
        gateway,
        namespace: args.namespace.clone(),
    };
    let graph = match select(graph, &selection) {
        Ok(graph) => graph,
        Err(message) => return usage_error(&message),
    };
    let code =
        print_stdout(&render_graph(&graph, args.output)).map_or_else(|code| code, |()| skipped);
    super::exit_now(code)
}
