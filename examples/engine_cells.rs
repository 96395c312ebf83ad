//! Cells of the scalability grid timed in one process, for comparing revisions of the engines:
//! `engine_cells ENGINES I SEED REPEAT J...` builds grid instance `I` (not timed), then for each
//! formula `J` and each engine of the comma-separated `ENGINES` (incremental, global, eager, lazy)
//! runs the check `REPEAT` times and prints `engine I J holds wall cpu` with the medians of the
//! wall-clock and process-CPU seconds (all threads).
//!
//! It uses only library calls and helpers that have not changed since the engines were split
//! (`rks::check`, `ternary::check`, `tools/random_rsm.rs`, `tools/cpu_time.rs`: user + system
//! CPU of all threads), so `tools/engine_cells.py` copies this file into a checkout of an older
//! revision and builds it there: both sides of a before/after table are then timed by the same
//! code, the same allocator and the same allocator options.

use xmv_rs::check::rks::{self, RksEngine, RksOptions};
use xmv_rs::check::ternary::{self, TernaryEngine};

#[path = "../tools/cpu_time.rs"]
mod cpu_time;
#[path = "../tools/random_rsm.rs"]
mod random_rsm;
use cpu_time::cpu_seconds;
use random_rsm::{INITIAL, RsmParams, random_formula, random_rks};

// The allocator of the `xmv-rs` binary (which keeps freed memory: run with
// `MIMALLOC_PURGE_DELAY=-1`, as `tools/engine_cells.py` does).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 5 {
        eprintln!("usage: engine_cells ENGINES I SEED REPEAT J...");
        std::process::exit(2);
    }
    let engines: Vec<&str> = args[0].split(',').collect();
    let i: usize = args[1].parse().expect("instance");
    let seed: u64 = args[2].parse().expect("seed");
    let repeat: usize = args[3].parse::<usize>().expect("repeat").max(1);
    let (model, _) = random_rks(&RsmParams::instance(i), seed.wrapping_add(i as u64));
    for j in &args[4..] {
        let j: usize = j.parse().expect("formula index");
        let f = random_formula(j, seed);
        for &engine in &engines {
            let (mut walls, mut cpus, mut holds) = (Vec::new(), Vec::new(), false);
            for _ in 0..repeat {
                let (wall, cpu) = (std::time::Instant::now(), cpu_seconds());
                holds = match engine {
                    "incremental" => rks::check(&model, INITIAL, &f, &RksOptions { engine: RksEngine::Incremental, want_trace: false }).holds,
                    "global" => rks::check(&model, INITIAL, &f, &RksOptions { engine: RksEngine::Global, want_trace: false }).holds,
                    "eager" => ternary::check(&model, INITIAL, &f, TernaryEngine::Eager, false).holds,
                    "lazy" => ternary::check(&model, INITIAL, &f, TernaryEngine::Lazy, false).holds,
                    other => panic!("unknown engine {other}"),
                };
                walls.push(wall.elapsed().as_secs_f64());
                cpus.push(cpu_seconds() - cpu);
            }
            println!("{engine} {i} {j} {holds} {:.4} {:.4}", median(walls), median(cpus));
        }
    }
}
