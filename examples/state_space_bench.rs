//! State-space construction time of `.smv` files (what `check --stats` reports as "state
//! space"): each file is loaded once by the front end, then its procedure modules
//! (`build_rks`) and its flat model (`build_flat`) are built `--reps` times (default 10); prints
//! the best wall and CPU time of each, and the time to drop the built model. CPU time stays
//! meaningful on a loaded machine.
//!
//! `cargo run --release --example state_space_bench -- [--reps N] FILE.smv ...`

use std::time::Instant;
use xmv_rs::explicit::build_flat::{BuildLimits, build_flat};
use xmv_rs::explicit::build_rks::build_rks;
use xmv_rs::source::SourceFile;

/// The command-line tool's allocator, so that the times are the tool's.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "../tools/bench_args.rs"]
mod bench_args;
use bench_args::take_option;
#[path = "../tools/cpu_time.rs"]
mod cpu_time;
use cpu_time::cpu_seconds;

/// Best [wall, CPU] seconds of `build` and of dropping its result, over `reps` runs.
fn best_of<T>(reps: usize, mut build: impl FnMut() -> T) -> ([f64; 2], [f64; 2]) {
    let mut best = [[f64::MAX; 2]; 2];
    for _ in 0..reps {
        let (t, c) = (Instant::now(), cpu_seconds());
        let built = build();
        let made = [t.elapsed().as_secs_f64(), cpu_seconds() - c];
        let (t, c) = (Instant::now(), cpu_seconds());
        drop(built);
        let dropped = [t.elapsed().as_secs_f64(), cpu_seconds() - c];
        for (b, x) in best.iter_mut().zip([made, dropped]) {
            *b = [b[0].min(x[0]), b[1].min(x[1])];
        }
    }
    (best[0], best[1])
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let reps = take_option(&mut args, "--reps", 10).max(1);
    let cell = |[wall, cpu]: [f64; 2]| format!("{:.2} / {:.2} ms", wall * 1e3, cpu * 1e3);
    println!("| model | build_rks | drop | build_flat | drop |");
    println!("|---|---|---|---|---|");
    for path in &args {
        let file = match SourceFile::read(std::path::Path::new(path)) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("{e}");
                continue;
            }
        };
        let (Some(program), _) = xmv_rs::frontend::load(&file, None) else {
            eprintln!("{path}: the front end reported errors");
            continue;
        };
        let limits = BuildLimits::default();
        let mut cells = vec![];
        if program.systems.iter().any(|s| s.is_procedure) {
            let (b, d) = best_of(reps, || build_rks(&program, &limits));
            cells.extend([cell(b), cell(d)]);
        } else {
            cells.extend(["-".to_string(), "-".to_string()]);
        }
        if program.flat.is_some() {
            let (b, d) = best_of(reps, || build_flat(&program, &limits));
            cells.extend([cell(b), cell(d)]);
        } else {
            cells.extend(["-".to_string(), "-".to_string()]);
        }
        println!("| {path} | {} |", cells.join(" | "));
    }
    println!("\nEach cell: wall / CPU time (user + system, all threads), best of {reps} runs.");
}
