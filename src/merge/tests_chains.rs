//! The chains a route's rules (and a rule's backend sections) share are gathered once: what each
//! place gets equals what gathering its whole chain gives.

use super::super::tests_fixture::{GW, HTTP, LLM, ROUTE, RULE, policy, run};
use super::super::{Hierarchy, MergeOptions, Place};
use super::{Chains, Level, Source, Step, listener_steps, reached, rule_steps};
use crate::model::facts::Spec;

fn docs() -> Vec<String> {
    let tp = |name: &str, targets: &str, s: &str| {
        policy(
            "TrafficPolicy",
            name,
            "",
            targets,
            &format!("  timeouts: {{request: {s}}}"),
        )
    };
    let ai = |name: &str, targets: &str, s: &str| {
        let fields = format!("  backend: {{http: {{requestTimeout: {s}}}}}");
        policy("AiGatewayPolicy", name, "", targets, &fields)
    };
    vec![
        tp("g", GW, "1s"),
        tp("l", HTTP, "2s"),
        tp("r", ROUTE, "3s"),
        tp("ru", RULE, "4s"),
        tp("ext", "", "5s"),
        ai("ag", GW, "6s"),
        ai("ar", ROUTE, "7s"),
        ai("ab", LLM, "8s"),
    ]
}

/// Every place's chain, whole, as gathering it step by step gives it.
fn whole_chains(chains: &Chains<'_, '_>, i: usize) -> Vec<(Place, Option<Place>, Vec<Step>)> {
    let (facts, h) = (chains.facts, chains.h);
    let mut out = Vec::new();
    match &facts[i].spec {
        Spec::Route(route) => {
            for &lp in h.parents.get(&i).map(Vec::as_slice).unwrap_or(&[]) {
                let mut steps = listener_steps(h, lp);
                steps.push(Step::Attached(Place::Route(i), Level::Route));
                for ri in 0..route.rules.len() {
                    let rule = Place::Rule(i, ri);
                    let mut chain = steps.clone();
                    chain.extend([Step::Attached(rule, Level::Rule), Step::Extension(rule)]);
                    out.push((rule, Some(lp), chain));
                }
            }
        }
        Spec::Backend { sections, .. } => {
            let b = Place::Backend(i);
            for &rule in chains.reached.get(&i).map(Vec::as_slice).unwrap_or(&[]) {
                for si in 0..sections.len() {
                    let p = Place::Provider(i, si);
                    let mut chain = rule_steps(h, rule);
                    chain.extend([
                        Step::Attached(b, Level::Backend),
                        Step::Attached(p, Level::Backend),
                        Step::Inline(Source::BackendSpec(i)),
                        Step::Inline(Source::Provider(i, si)),
                    ]);
                    out.push((p, Some(rule), chain));
                }
            }
        }
        _ => {}
    }
    out
}

#[test]
fn shared_chain_prefixes_give_what_whole_chains_give() {
    let options = MergeOptions::default();
    let lint = run(&docs(), &options);
    let model = lint.model.as_ref().expect("the fixture keeps its model");
    let h = Hierarchy::new(&model.facts, &model.attachments, &model.route_attachments);
    let reached = reached(&h);
    let chains = Chains::new(&model.facts, &h, &options, &reached);
    let mut compared = 0;
    for i in 0..model.facts.len() {
        let got = chains.of_object(i);
        for (place, via, steps) in whole_chains(&chains, i) {
            let only = via
                .filter(|_| matches!(place, Place::Provider(..)))
                .map(|_| super::Family::AiBackend);
            let mut want = Vec::new();
            chains.emit(&mut want, (place, via, true), &steps, None, only);
            let got: Vec<_> = got
                .iter()
                .filter(|e| e.place == place && e.via == via)
                .collect();
            assert_eq!(
                format!("{got:?}"),
                format!("{:?}", want.iter().collect::<Vec<_>>())
            );
            compared += want.len();
        }
    }
    // The fixture's rules and provider each have effective policies through their chains.
    assert!(compared >= 4, "only {compared} effective policies compared");
}
