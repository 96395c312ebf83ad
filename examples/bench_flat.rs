//! Benchmark of the flat checker on random control-flow-style models (tools/cfg_model.rs),
//! printing a Markdown table; with `--nusmv` (and `NUSMV=/path/to/NuSMV`) also times NuSMV
//! (`-dcx`) on the same model, compares the verdicts and prints the ratio.
//!
//! `cargo run --release --example bench_flat -- [--states 1000,5000] [--specs 4500]
//!  [--threads 1,2] [--seed 1] [--depth 2] [--nusmv]`
//!
//! Until `xmv-rs check` runs end to end, the Kripke structure is built directly from the
//! generated graph ("build" column), so parse/lowering time is not included.

#[path = "../tools/cfg_model.rs"]
mod cfg_model;

use cfg_model::{CfgModel, CfgParams};
use std::time::Instant;
use xmv_rs::check::flat::{CheckOptions, check_ctl};

fn list(args: &[String], name: &str, default: &str) -> Vec<usize> {
    let raw = args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).map_or(default, |s| s.as_str());
    raw.split(',').filter_map(|v| v.trim().parse().ok()).collect()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let sizes = list(&args, "--states", "1000,5000");
    let specs = list(&args, "--specs", "4500")[0];
    let threads = list(&args, "--threads", "1,2");
    let seed = list(&args, "--seed", "1")[0] as u64;
    let depth = list(&args, "--depth", "2")[0];
    let nusmv = args.iter().any(|a| a == "--nusmv").then(|| std::env::var("NUSMV").ok()).flatten();

    print!("| states | edges | specs | distinct subformulas | build (s) |");
    for t in &threads {
        print!(" check -j{t} (s) |");
    }
    if nusmv.is_some() {
        print!(" NuSMV 2.5.4 -dcx (s) | speed-up (best) | verdicts agree |");
    }
    println!();
    println!("|{}", "---|".repeat(5 + threads.len() + if nusmv.is_some() { 3 } else { 0 }));
    for &n in &sizes {
        let mut p = CfgParams::new(n, specs, seed);
        p.depth = depth;
        let model = CfgModel::generate(&p);
        let t0 = Instant::now();
        let k = model.to_kripke();
        let build = t0.elapsed().as_secs_f64();
        let mut best = f64::MAX;
        let mut verdicts = Vec::new();
        let mut cells = Vec::new();
        let mut distinct = 0;
        for &j in &threads {
            let t1 = Instant::now();
            let report = check_ctl(&k, &model.specs, &[], &CheckOptions { threads: j, traces: !args.iter().any(|a| a == "--no-trace") });
            let secs = t1.elapsed().as_secs_f64();
            best = best.min(secs);
            distinct = report.distinct_subformulas;
            verdicts = report.verdicts.iter().map(|v| v.holds).collect::<Vec<_>>();
            cells.push(format!(" {secs:.3} |"));
        }
        print!("| {n} | {} | {specs} | {distinct} | {build:.3} |{}", k.succ.edge_count(), cells.concat());
        if let Some(bin) = &nusmv {
            match run_nusmv(bin, &model.to_smv()) {
                Ok((secs, theirs)) => {
                    let agree = theirs == verdicts;
                    print!(" {secs:.2} | {:.0}× | {} |", secs / (best + build), if agree { "yes" } else { "NO" });
                }
                Err(e) => print!(" failed: {e} | | |"),
            }
        }
        println!();
    }
}

/// Runs NuSMV without counterexamples; returns its wall time and the CTL verdicts in order.
fn run_nusmv(bin: &str, smv: &str) -> Result<(f64, Vec<bool>), String> {
    let path = std::env::temp_dir().join(format!("xmv-bench-{}.smv", std::process::id()));
    std::fs::write(&path, smv).map_err(|e| e.to_string())?;
    let t = Instant::now();
    let out = std::process::Command::new(bin).arg("-dcx").arg(&path).output().map_err(|e| e.to_string())?;
    let secs = t.elapsed().as_secs_f64();
    let _ = std::fs::remove_file(&path);
    let text = String::from_utf8_lossy(&out.stdout);
    let verdicts: Vec<bool> = text
        .lines()
        .filter(|l| l.starts_with("-- specification"))
        .map(|l| l.trim_end().ends_with("is true"))
        .collect();
    Ok((secs, verdicts))
}
