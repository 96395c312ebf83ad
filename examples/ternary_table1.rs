//! Table 1 of Dubslaff et al. 2024 (Java interprocedural data-flow analysis) with the ternary
//! engines: for each benchmark directory given on the command line (an unpacked
//! `shared/bench/java/*.zip` holding `<name>.rsm` and `<name>_single_usedef.ctl`), prints the
//! verdict, the number of reachable components k, and contexts built and time for eager and lazy.
//! Run through `tools/ternary-table1.sh`, which unpacks the archives.

#[path = "../tests/rks_support/mod.rs"]
mod rks_support;

use rks_support::{ctl_text, rsm_json};
use std::time::Instant;
use xmv_rs::check::ternary::{TernaryEngine, check};
use xmv_rs::explicit::rks::{ComponentId, NodeId};

/// RSMCheck's formula syntax to the test parser's NuSMV-style syntax.
fn nusmv_syntax(f: &str) -> String {
    f.replace("-->", "->")
        .replace("A G", "AG")
        .replace("E F", "EF")
        .replace("A X", "AX")
        .replace("E X", "EX")
        .replace("E G", "EG")
        .replace("A F", "AF")
        .replace('~', "!")
}

/// Locations without outgoing transitions (PDS conversions have some) get a self-loop: the
/// use-def pattern `AG (d -> EF u)` only asks about reachable states, which this does not change.
fn with_self_loops(text: &str) -> String {
    let mut json: serde_json::Value = serde_json::from_str(text).expect("RSM JSON");
    for comp in json["components"].as_array_mut().expect("components") {
        let sources: Vec<String> = comp["transitions"]
            .as_array()
            .expect("transitions")
            .iter()
            .filter(|t| t["source"]["type"] == "node" && t["targets"].as_array().is_some_and(|a| !a.is_empty()))
            .map(|t| t["source"]["name"].as_str().unwrap_or_default().to_string())
            .collect();
        let dead: Vec<String> = comp["nodes"]
            .as_array()
            .expect("nodes")
            .iter()
            .filter(|n| n["is_exit"] != true && !sources.iter().any(|s| n["name"] == s.as_str()))
            .map(|n| n["name"].as_str().unwrap_or_default().to_string())
            .collect();
        let transitions = comp["transitions"].as_array_mut().expect("transitions");
        for d in dead {
            let end = serde_json::json!({"name": d, "type": "node"});
            transitions.push(serde_json::json!({"source": end, "targets": [end]}));
        }
    }
    json.to_string()
}

fn main() {
    println!("| program | result | k | eager #ctx | eager s | lazy #ctx | lazy s | lazy expansions | Finis incremental s |");
    println!("|---|---|---|---|---|---|---|---|---|");
    for dir in std::env::args().skip(1) {
        let name = std::path::Path::new(&dir).file_name().and_then(|s| s.to_str()).unwrap_or("?").to_string();
        let read = |suffix: &str| std::fs::read_to_string(format!("{dir}/{name}{suffix}")).unwrap_or_else(|e| panic!("{dir}: {e}"));
        let mut rsm = rsm_json::parse(&with_self_loops(&read(".rsm"))).unwrap_or_else(|e| panic!("{name}: {e}"));
        if std::env::var("XMV_DEAD_END_ENTRY_EXITS").is_ok() {
            // RSMCheck's reading: a call into a component whose entry is an exit is a dead end.
            let entry_exit: Vec<bool> = rsm.model.comps.iter().map(|c| c.exits.contains(&0)).collect();
            for c in &mut rsm.model.comps {
                let calls: Vec<usize> = (0..c.nodes.len()).filter(|&n| matches!(c.nodes[n].kind, rks_support::model::Kind::Call(t) if entry_exit[t])).collect();
                if calls.is_empty() {
                    continue;
                }
                // Continue at a fresh unlabelled self-looping location: for EU-only formulas such
                // as the use-def pattern this is the same as a dead end.
                let dead = c.nodes.len();
                c.nodes.push(rks_support::model::Node { name: "dead_end".into(), kind: rks_support::model::Kind::Loc(vec![]) });
                c.edges.push((dead, dead));
                c.returns.retain(|r| !calls.contains(&r.0));
                for &call in &calls {
                    c.returns.push((call, 0, dead));
                }
            }
        }
        for line in read("_single_usedef.ctl").lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
            let text = nusmv_syntax(line);
            for word in text.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
                if word.contains("__") && !rsm.model.props.iter().any(|p| p == word) {
                    rsm.model.props.push(word.to_string());
                }
            }
            let rks = rsm.model.build();
            let f = ctl_text::parse(&text, &rsm.model.props);
            let k = rks.components.len();
            let t = Instant::now();
            let e = check(&rks, ComponentId::from_u32(rsm.initial as u32), &f, TernaryEngine::Eager, false);
            let te = t.elapsed().as_secs_f64();
            let t = Instant::now();
            let l = check(&rks, ComponentId::from_u32(rsm.initial as u32), &f, TernaryEngine::Lazy, false);
            let tl = t.elapsed().as_secs_f64();
            let t = Instant::now();
            let finis = if std::env::var("XMV_TABLE1_FINIS").is_ok() {
                xmv_rs::check::rks::check(&rks, ComponentId::from_u32(rsm.initial as u32), &f, &Default::default()).holds
            } else {
                e.holds
            };
            let tf = t.elapsed().as_secs_f64();
            if std::env::var("XMV_TABLE1_ORACLE").is_ok() {
                let (v, complete) = rks_support::oracle::check(&rks, rsm.initial as u32, &f, 64, 2_000_000);
                eprintln!("{name}: oracle {v:?} (complete unfolding: {complete})");
            }
            if std::env::var("XMV_TABLE1_TRACE").is_ok() {
                let t = check(&rks, ComponentId::from_u32(rsm.initial as u32), &f, TernaryEngine::Eager, true).trace;
                if let Some(t) = t {
                    let through_entry_exit =
                        t.steps.iter().filter(|s| !s.terminated && s.state == 0 && rks.components[s.component as usize].exits.contains(&NodeId::ENTRY)).count();
                    let last = t.steps.last().map(|s| {
                        if s.terminated {
                            return "terminated".to_string();
                        }
                        let c = &rks.components[s.component as usize];
                        let labels: Vec<&str> =
                            (0..rks.prop_names.len()).filter(|&p| c.props[p].contains(s.state as usize)).map(|p| rks.prop_names[p].as_str()).collect();
                        format!("{}:{} depth {} labels {labels:?}", c.name, c.node_names[s.state as usize], s.stack.len())
                    });
                    eprintln!(
                        "{name}: counterexample of {} steps, {through_entry_exit} at the entry of an entry=exit component, ends at {last:?}",
                        t.steps.len()
                    );
                } else {
                    eprintln!("{name}: no trace");
                }
            }
            let verdict = if l.holds == e.holds && e.holds == finis { if l.holds { "tt" } else { "ff" } } else { "DISAGREE" };
            println!(
                "| {name} | {verdict} | {k} | {} | {te:.3} | {} | {tl:.3} | {} | {tf:.3} |",
                e.stats.contexts_created, l.stats.contexts_created, l.stats.expansions
            );
        }
    }
}
