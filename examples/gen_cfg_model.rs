//! Writes a random control-flow-style SMV model to stdout (see tools/cfg_model.rs).
//!
//! `cargo run --release --example gen_cfg_model -- --states 5000 --specs 4500 [--seed 1]
//!  [--labels 100] [--depth 2] [--deadlock-percent 0] [--fairness 0] [--invariants 0]`

#[path = "../tools/cfg_model.rs"]
mod cfg_model;

use cfg_model::{CfgModel, CfgParams};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |name: &str, default: usize| -> usize {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .map(|v| {
                v.parse().unwrap_or_else(|_| {
                    eprintln!("error: {name} expects a number, got `{v}`");
                    std::process::exit(2)
                })
            })
            .unwrap_or(default)
    };
    let mut p = CfgParams::new(value("--states", 5000), value("--specs", 4500), value("--seed", 1) as u64);
    p.labels = value("--labels", p.labels);
    p.depth = value("--depth", p.depth);
    p.deadlock_percent = value("--deadlock-percent", p.deadlock_percent);
    p.fairness = value("--fairness", p.fairness);
    p.invariants = value("--invariants", p.invariants);
    print!("{}", CfgModel::generate(&p).to_smv());
}
