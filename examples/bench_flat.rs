//! Benchmark of the flat checker on random control-flow-style models (tools/cfg_model.rs),
//! printing a Markdown table; with `--nusmv` (and `NUSMV=/path/to/NuSMV`) also times NuSMV
//! (`-dcx`) on the same model, compares the verdicts and prints the ratio of CPU times (CPU time
//! rather than wall time, because the benchmark machine is shared).
//!
//! `cargo run --release --example bench_flat -- [--states 1000,5000] [--specs 4500]
//!  [--threads 1,2] [--seed 1] [--depth 2] [--nusmv]`
//!
//! The Kripke structure is built directly from the generated graph ("build" column), so this
//! times the checker alone; `tools/bench_flat.sh` also times `xmv-rs check` end to end.

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
        print!(" check -j{t} wall (s) |");
    }
    print!(" check -j1 CPU (s) |");
    if nusmv.is_some() {
        print!(" NuSMV 2.5.4 -dcx CPU (s) | CPU ratio (NuSMV / -j1) | verdicts agree |");
    }
    println!();
    println!("|{}", "---|".repeat(6 + threads.len() + if nusmv.is_some() { 3 } else { 0 }));
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
        let mut cpu_j1 = None;
        for &j in &threads {
            // The pool outlives the measurement so that its threads' CPU time can be read.
            let pool = rayon::ThreadPoolBuilder::new().num_threads(j).build().expect("start the thread pool");
            let traces = !args.iter().any(|a| a == "--no-trace");
            let options = CheckOptions { threads: 0, traces, witnesses: traces };
            let (t1, c1) = (Instant::now(), process_cpu_seconds());
            let report = pool.install(|| check_ctl(&k, &model.specs, &[], &options));
            let secs = t1.elapsed().as_secs_f64();
            if j == 1 {
                cpu_j1 = Some(process_cpu_seconds() - c1);
            }
            drop(pool);
            best = best.min(secs);
            distinct = report.distinct_subformulas;
            verdicts = report.verdicts.iter().map(|v| v.holds).collect::<Vec<_>>();
            cells.push(format!(" {secs:.3} |"));
        }
        cells.push(cpu_j1.map_or(" – |".to_string(), |c| format!(" {c:.3} |")));
        print!("| {n} | {} | {specs} | {distinct} | {build:.3} |{}", k.succ.edge_count(), cells.concat());
        if let Some(bin) = &nusmv {
            match run_nusmv(bin, &model.to_smv()) {
                Ok((secs, theirs)) => {
                    let agree = theirs == verdicts;
                    let ours = cpu_j1.unwrap_or(best).max(1e-3) + build;
                    print!(" {secs:.2} | {:.0}× | {} |", secs / ours, if agree { "yes" } else { "NO" });
                }
                Err(e) => print!(" failed: {e} | | |"),
            }
        }
        println!();
    }
}

/// CPU time of the live threads of this process, in seconds, from /proc/self/task/*/schedstat
/// (nanosecond resolution; the pool's threads are alive while it is read).
fn process_cpu_seconds() -> f64 {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else { return 0.0 };
    let ns: u64 = tasks
        .filter_map(|t| t.ok())
        .filter_map(|t| std::fs::read_to_string(t.path().join("schedstat")).ok())
        .filter_map(|s| s.split_whitespace().next().and_then(|v| v.parse::<u64>().ok()))
        .sum();
    ns as f64 / 1e9
}

/// Runs NuSMV without counterexamples under /usr/bin/time; returns its CPU time (user + system)
/// and the CTL verdicts in order.
fn run_nusmv(bin: &str, smv: &str) -> Result<(f64, Vec<bool>), String> {
    let path = std::env::temp_dir().join(format!("xmv-bench-{}.smv", std::process::id()));
    std::fs::write(&path, smv).map_err(|e| e.to_string())?;
    let out = std::process::Command::new("/usr/bin/time").args(["-f", "XMV_CPU %U %S", bin, "-dcx"]).arg(&path).output().map_err(|e| e.to_string())?;
    let _ = std::fs::remove_file(&path);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let cpu = stderr.lines().filter_map(|l| l.strip_prefix("XMV_CPU ")).next_back().ok_or("no CPU time from /usr/bin/time")?;
    let secs: f64 = cpu.split_whitespace().filter_map(|v| v.parse::<f64>().ok()).sum();
    let text = String::from_utf8_lossy(&out.stdout);
    let verdicts: Vec<bool> = text.lines().filter(|l| l.starts_with("-- specification")).map(|l| l.trim_end().ends_with("is true")).collect();
    Ok((secs, verdicts))
}
