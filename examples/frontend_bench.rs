//! Front-end throughput per stage (parse, check, lower, and dropping the three results, as
//! `frontend::load` does), best of `--reps` runs (default 5). Without files: generated
//! control-flow-graph models (the thesis's typical input: one `state` variable over CFG nodes, a
//! `case` over it for `next`, labels as DEFINEs); with files: those files only.
//! Prints a table: size, wall and CPU time per stage, MB/s. CPU time stays meaningful on a
//! loaded machine, where wall time measures the other processes too.
//!
//! `cargo run --release --example frontend_bench [-- [--reps N] FILE.smv ...]`

use std::time::Instant;
use xmv_rs::source::SourceFile;

fn cfg_model(nodes: usize, labels: usize) -> String {
    let mut s = String::from("MODULE main\nVAR\n  state : {");
    s.push_str(&(0..nodes).map(|i| format!("n{i}")).collect::<Vec<_>>().join(", "));
    s.push_str("};\n  x : 0..7;\nASSIGN\n  init(state) := n0;\n  next(state) := case\n");
    for i in 0..nodes {
        let (a, b) = ((i * 7 + 1) % nodes, (i * 13 + 5) % nodes);
        s.push_str(&format!("    state = n{i} : {{n{a}, n{b}}};\n"));
    }
    s.push_str("  esac;\n  init(x) := 0;\n  next(x) := case state in {n0, n1, n2} : (x + 1) mod 8; TRUE : x; esac;\nDEFINE\n");
    for l in 0..labels {
        let members: Vec<String> = (0..nodes).filter(|i| i % (l + 2) == 0).map(|i| format!("n{i}")).collect();
        s.push_str(&format!("  l{l} := state in {{{}}};\n", members.join(", ")));
    }
    for l in 0..labels {
        s.push_str(&format!("SPEC AG (l{l} -> EF l{})\n", (l + 1) % labels));
    }
    s
}

/// The command-line tool's allocator, so that the times are the tool's.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "../tools/bench_args.rs"]
mod bench_args;
use bench_args::take_option;
#[path = "../tools/cpu_time.rs"]
mod cpu_time;
use cpu_time::cpu_seconds;

/// Wall and CPU seconds since it was started.
struct Clock(Instant, f64);

impl Clock {
    fn start() -> Clock {
        Clock(Instant::now(), cpu_seconds())
    }
    fn read(&self) -> [f64; 2] {
        [self.0.elapsed().as_secs_f64(), cpu_seconds() - self.1]
    }
}

/// Best-of-`reps` [wall, CPU] seconds for parse, check, lower, drop.
fn stages(file: &SourceFile, reps: usize) -> ([[f64; 2]; 4], bool) {
    let mut best = [[f64::MAX; 2]; 4];
    let mut ok = false;
    for _ in 0..reps {
        let t = Clock::start();
        let (program, syntax) = xmv_rs::syntax::parse(file);
        let parsed = t.read();
        let t = Clock::start();
        let (checked, sem) = xmv_rs::semantics::check(&program);
        let checked_in = t.read();
        let t = Clock::start();
        let (lowered, low) = xmv_rs::lowering::lower(&checked);
        let lowered_in = t.read();
        ok = syntax.iter().chain(&sem).chain(&low).all(|d| !d.is_error());
        let t = Clock::start();
        drop((program, checked, lowered));
        let dropped_in = t.read();
        for (b, x) in best.iter_mut().zip([parsed, checked_in, lowered_in, dropped_in]) {
            b[0] = b[0].min(x[0]);
            b[1] = b[1].min(x[1]);
        }
    }
    (best, ok)
}

/// Best-of-`reps` [wall, CPU] seconds of `frontend::load`, what `check --stats` reports as
/// "front end" (the parse tree and checked program are freed on a background thread there).
fn load(file: &SourceFile, reps: usize) -> [f64; 2] {
    let mut best = [f64::MAX; 2];
    for _ in 0..reps {
        let t = Clock::start();
        let lowered = xmv_rs::frontend::load(file, None);
        let x = t.read();
        drop(lowered);
        // Let the background drop finish before the next run.
        std::thread::sleep(std::time::Duration::from_millis(100));
        best = [best[0].min(x[0]), best[1].min(x[1])];
    }
    best
}

fn measure(name: &str, file: &SourceFile, reps: usize) {
    let (times, ok) = stages(file, reps);
    let load = load(file, reps);
    let cell = |[wall, cpu]: [f64; 2]| format!("{:.1} / {:.1} ms", wall * 1e3, cpu * 1e3);
    let total = [times.iter().map(|t| t[0]).sum::<f64>(), times.iter().map(|t| t[1]).sum::<f64>()];
    let mb = file.text.len() as f64 / 1e6;
    println!(
        "| {name} | {mb:.2} MB | {} ({:.1} MB/s) | {} | {} | {} | {} | {} | {:.1} MB/s | {} |",
        cell(times[0]),
        mb / times[0][0],
        cell(times[1]),
        cell(times[2]),
        cell(times[3]),
        cell(total),
        cell(load),
        mb / load[0],
        if ok { "ok" } else { "errors" }
    );
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let reps = take_option(&mut args, "--reps", 5).max(1);
    println!("| model | size | parse | check | lower | drop | sum of stages | frontend::load | throughput (load) | result |");
    println!("|---|---|---|---|---|---|---|---|---|---|");
    if args.is_empty() {
        for (nodes, labels) in [(1_000, 20), (10_000, 50), (50_000, 100)] {
            let text = cfg_model(nodes, labels);
            measure(&format!("cfg {nodes} nodes, {labels} labels"), &SourceFile::new("cfg.smv", text), reps);
        }
    }
    for path in &args {
        match SourceFile::read(std::path::Path::new(path)) {
            Ok(f) => measure(path, &f, reps),
            Err(e) => eprintln!("{e}"),
        }
    }
    println!("\nEach cell: wall / CPU time (user + system, all threads), best of {reps} runs per stage.");
}
