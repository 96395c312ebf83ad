//! Benchmark of the RKS engines on RSMCheck models (`.rsm` JSON + `.ctl`, e.g. the unzipped
//! `../shared/bench/java/*.zip`): loads the model straight into a `RecursiveKripkeStructure`
//! (boxes become calls, RSMCheck's C-semantics being our transparent calls; a return node
//! leading directly into another box gets a virtual location labelled like that box's entry),
//! checks every spec with each engine and prints a table.
//!
//! `cargo run --release --example rks_bench -- MODEL.rsm SPECS.ctl [MAX_SPECS]`

use serde_json::Value;
use std::time::Instant;
use xmv_rs::check::rks::{self, RksEngine, RksOptions, RksStats};
use xmv_rs::explicit::rks::RecursiveKripkeStructure;
use xmv_rs::explicit::rks::{ComponentId, NodeId};
use xmv_rs::explicit::rks_builder::{RksBuilder, parse_ctl};
use xmv_rs::syntax::ast::TerminationRule;

fn load_rsm(json: &Value, wanted_labels: &dyn Fn(&str) -> bool, props: &[String]) -> Result<(RecursiveKripkeStructure, ComponentId), String> {
    let mut b = RksBuilder::new();
    b.termination(TerminationRule::Loop);
    let comps = json["components"].as_array().ok_or("no components")?;
    let name = |v: &Value| v.as_str().map(str::to_string).ok_or("expected a string".to_string());
    // Declare the spec's propositions first so that their ids are the same in every model.
    let p0 = b.component("__props");
    b.loc(p0, "__props", &props.iter().map(String::as_str).collect::<Vec<_>>());
    for c in comps {
        let cid = b.component(&name(&c["name"])?);
        let nodes = c["nodes"].as_array().ok_or("no nodes")?;
        let mut entry_labels: Vec<String> = Vec::new();
        for n in nodes {
            let labels: Vec<String> = n["labels"]
                .as_array()
                .map(|a| a.iter().filter_map(|l| l.as_str()).filter(|l| wanted_labels(l)).map(str::to_string).collect())
                .unwrap_or_default();
            let nn = name(&n["name"])?;
            b.loc(cid, &nn, &labels.iter().map(String::as_str).collect::<Vec<_>>());
            if n["is_entry"].as_bool() == Some(true) {
                b.entry(cid, &nn);
                entry_labels = labels;
            }
            if n["is_exit"].as_bool() == Some(true) {
                b.exit(cid, &nn, &nn);
            }
        }
        let _ = entry_labels;
    }
    // Entry labels per component (for virtual locations).
    let mut entry_of = std::collections::HashMap::new();
    let mut entry_is_exit = std::collections::HashSet::new();
    for c in comps {
        for n in c["nodes"].as_array().into_iter().flatten() {
            if n["is_entry"].as_bool() == Some(true) {
                let labels: Vec<String> = n["labels"]
                    .as_array()
                    .map(|a| a.iter().filter_map(|l| l.as_str()).filter(|l| wanted_labels(l)).map(str::to_string).collect())
                    .unwrap_or_default();
                entry_of.insert(name(&c["name"])?, labels);
                if n["is_exit"].as_bool() == Some(true) {
                    entry_is_exit.insert(name(&c["name"])?);
                }
            }
        }
    }
    for c in comps {
        let cid = b.component(&name(&c["name"])?);
        let mut box_target = std::collections::HashMap::new();
        for bx in c["boxes"].as_array().into_iter().flatten() {
            let (bn, t) = (name(&bx["name"])?, name(&bx["component"])?);
            if bx["call_nodes"].as_array().map_or(0, |a| a.len()) != 1 {
                return Err(format!("box {bn}: only single-entry boxes are supported"));
            }
            b.call(cid, &bn, &t);
            box_target.insert(bn, t);
        }
        let mut virtuals = 0;
        for tr in c["transitions"].as_array().into_iter().flatten() {
            let src = &tr["source"];
            for tg in tr["targets"].as_array().into_iter().flatten() {
                let target = if tg["type"] == "box_node" { name(&tg["box_name"])? } else { name(&tg["name"])? };
                if src["type"] == "node" {
                    b.edge(cid, &name(&src["name"])?, &target);
                } else {
                    let (bx, ex) = (name(&src["box_name"])?, name(&src["node_name"])?);
                    let to = if tg["type"] == "box_node" {
                        virtuals += 1;
                        let v = format!("__v{virtuals}");
                        let labels = &entry_of[&box_target[&target]];
                        b.loc(cid, &v, &labels.iter().map(String::as_str).collect::<Vec<_>>());
                        b.edge(cid, &v, &target);
                        v
                    } else {
                        target
                    };
                    // RSMCheck's reading: a call into an entry without successors (an entry
                    // that is also an exit) is a dead end (dubslaff-2024-digest.md §2.3).
                    let dead = std::env::var("RSMCHECK_DEAD_ENDS").is_ok_and(|v| v == "1") && entry_is_exit.contains(&box_target[&bx]);
                    if !dead {
                        b.ret(cid, &bx, &ex, &to);
                    }
                }
            }
        }
    }
    let rks = b.build()?;
    let init_name = name(&json["initial_component"])?;
    let init = ComponentId::new(rks.components.iter().position(|c| c.name == init_name).ok_or("no initial component")?);
    Ok((rks, init))
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        return Err("usage: rks_bench MODEL.rsm SPECS.ctl [MAX_SPECS]".into());
    }
    let text = std::fs::read_to_string(&args[1]).map_err(|e| e.to_string())?;
    let json: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let ctl = std::fs::read_to_string(&args[2]).map_err(|e| e.to_string())?;
    let max: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(usize::MAX);
    let lines: Vec<&str> = ctl.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).take(max).collect();
    let mut props: Vec<String> = Vec::new();
    for l in &lines {
        for w in l.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
            if !w.is_empty() && !["A", "E", "X", "F", "G", "U", "not", "and", "or", "true", "false"].contains(&w) && !props.iter().any(|p| p == w) {
                props.push(w.to_string());
            }
        }
    }
    let t0 = Instant::now();
    let (rks, init) = load_rsm(&json, &|l| props.iter().any(|p| p == l), &props)?;
    let nodes: u32 = rks.components.iter().map(|c| c.num_nodes).sum();
    let max_exits = rks.components.iter().map(|c| c.exits.len()).max().unwrap_or(0);
    println!("model {}: {} components, {} nodes, max {} exits, loaded in {:.3}s", args[1], rks.components.len(), nodes, max_exits, t0.elapsed().as_secs_f64());
    let specs: Vec<_> = lines.iter().map(|l| parse_ctl(l, &rks).map(|f| (init, f))).collect::<Result<_, _>>()?;
    println!("| engine | threads | specs | true | time (s) | pairs created | pairs checked | local checks | fixpoints |");
    println!("|---|---|---|---|---|---|---|---|---|");
    let mut verdicts: Vec<Vec<bool>> = Vec::new();
    for engine in [RksEngine::Summary, RksEngine::Incremental, RksEngine::Global] {
        for threads in [1, 2] {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().map_err(|e| e.to_string())?;
            let t = Instant::now();
            let res = pool.install(|| rks::check_many(&rks, &specs, &RksOptions { engine, want_trace: false }));
            let secs = t.elapsed().as_secs_f64();
            let mut st = RksStats::default();
            res.iter().for_each(|r| st.add(&r.stats));
            let v: Vec<bool> = res.iter().map(|r| r.holds).collect();
            println!(
                "| {:?} | {} | {} | {} | {:.3} | {} | {} | {} | {} |",
                engine,
                threads,
                specs.len(),
                v.iter().filter(|&&x| x).count(),
                secs,
                st.context_pairs_created,
                st.context_pairs_checked,
                st.local_checks,
                st.fixpoint_rounds
            );
            verdicts.push(v);
        }
    }
    if std::env::var("TRACE").is_ok() {
        let r = rks::check(&rks, specs[0].0, &specs[0].1, &RksOptions { engine: RksEngine::Incremental, want_trace: true });
        if let Some(t) = r.trace {
            for s in &t.steps {
                if !s.terminated {
                    let (component, node, stack) = (&s.component, &s.state, &s.stack);
                    let c = &rks.components[*component as usize];
                    let labels: Vec<&str> =
                        rks.prop_names.iter().enumerate().filter(|(p, _)| c.props[*p].contains(*node as usize)).map(|(_, n)| n.as_str()).collect();
                    println!(
                        "{} {} depth {} exit {} succ {:?} {:?}",
                        c.name,
                        c.node_names[*node as usize],
                        stack.len(),
                        c.is_exit(NodeId::from_u32(*node)),
                        c.succ.neighbours(NodeId::from_u32(*node)),
                        labels
                    );
                } else {
                    println!("terminated");
                }
            }
            println!("loop {:?} push {}", t.loop_start, t.loop_push.len());
        }
    }
    if verdicts.windows(2).any(|w| w[0] != w[1]) {
        return Err("engines or thread counts disagree".into());
    }
    println!("all runs agree on every spec");
    Ok(())
}
