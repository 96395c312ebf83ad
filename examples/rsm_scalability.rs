//! The scalability grid of Dubslaff et al. 2024 (Fig. 8 journal / Fig. 3 conference) on random
//! RSMs from `tools/random_rsm.rs`, timed per engine (incremental, global, eager, lazy, summary).
//!
//! `cargo run --release --example rsm_scalability -- grid [--imax 50] [--jmax 50] [--step 1]
//!     [--seed 1] [--timeout 5] [--stop-after SECS] [--out target/scalability.csv]
//!     [--engines incremental,global,eager,lazy,summary]`
//!
//! The CSV is appended to one (engine, instance) row at a time; rows already complete in it are
//! not run again, so an interrupted grid continues where it stopped (use the same `--step`,
//! `--seed` and `--timeout`). `--stop-after` starts no new row after that many seconds.
//!
//! Each (engine, instance) row runs in a child process (`row` mode) that prints one line per
//! formula after building the instance (not timed). Cells are timed in **CPU seconds of the
//! process** (all threads), so that the grid means the same on a shared, loaded machine: when a
//! cell has used `--timeout` CPU seconds the child reports it and exits (a wall-clock limit of
//! 50 × that + 60 s only catches a hung child), the cell is recorded as `timeout`, and the cells
//! of the same row with an equal or deeper formula are recorded as `skipped` (never run, never
//! given a value). Verdicts of all engines are compared
//! per cell; disagreements are printed with the seed and counted.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use xmv_rs::check::rks::{self, RksEngine, RksOptions};
use xmv_rs::check::ternary::{self, TernaryEngine};

#[path = "../tools/random_rsm.rs"]
mod random_rsm;
use random_rsm::{INITIAL, RsmParams, random_formula, random_rks};

// The allocator of the `xmv-rs` binary, so that cell times are those of the CLI.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const ENGINES: [&str; 5] = ["incremental", "global", "eager", "lazy", "summary"];

/// Runs one engine on formula `j` of instance `rks`; returns the verdict. The summary engine
/// checks through `prepared`, the instance's [`rks::PreparedModel`] kept for the whole row, so
/// that its index of the model is built once per instance (by the first cells that reach each
/// component, inside their time), as when the CLI checks all specs of one model.
fn run_engine(engine: &str, rks: &xmv_rs::explicit::rks::RecursiveKripkeStructure, prepared: &rks::PreparedModel, j: usize, seed: u64) -> bool {
    let f = random_formula(j, seed);
    match engine {
        "incremental" => rks::check(rks, INITIAL, &f, &RksOptions { engine: RksEngine::Incremental, want_trace: false }).holds,
        "global" => rks::check(rks, INITIAL, &f, &RksOptions { engine: RksEngine::Global, want_trace: false }).holds,
        "summary" => prepared.check(INITIAL, &f, &RksOptions { engine: RksEngine::Summary, want_trace: false }).holds,
        "eager" => ternary::check(rks, INITIAL, &f, TernaryEngine::Eager, false).holds,
        "lazy" => ternary::check(rks, INITIAL, &f, TernaryEngine::Lazy, false).holds,
        other => panic!("unknown engine {other}"),
    }
}

/// Child mode: `row ENGINE I SEED LIMIT J...`: prints `j holds cpu_seconds` per formula, or
/// `j timeout` (and exits) when a formula has used `LIMIT` seconds of CPU time (all threads). Cells are timed in CPU time so that the grid means the same on a loaded machine.
fn row(args: &[String]) {
    let engine = args[0].as_str();
    let i: usize = args[1].parse().expect("instance");
    let seed: u64 = args[2].parse().expect("seed");
    let limit: f64 = args[3].parse().expect("CPU limit");
    let (rks, _) = random_rks(&RsmParams::instance(i), seed.wrapping_add(i as u64));
    let prepared = rks::PreparedModel::new(&rks);
    // Building the instance is not part of any cell's time: tell the parent when it is done.
    let cell = std::sync::Arc::new(CellClock::new());
    {
        let cell = cell.clone();
        std::thread::spawn(move || cell.watch(limit));
    }
    let mut out = std::io::stdout();
    let _ = writeln!(out, "ready");
    let _ = out.flush();
    for j in &args[4..] {
        let j: usize = j.parse().expect("formula index");
        cell.start(j);
        let holds = run_engine(engine, &rks, &prepared, j, seed);
        let secs = cell.now() - cell.started();
        let mut out = out.lock();
        cell.stop();
        let _ = writeln!(out, "{j} {holds} {secs:.6}");
        let _ = out.flush();
    }
}

/// The running cell of a `row` child, read by its watchdog thread: the formula and the
/// process CPU time at its start.
struct CellClock {
    /// Formula index and start time ([`process_cpu_secs`]); `None` between cells.
    running: std::sync::Mutex<Option<(usize, f64)>>,
}

impl CellClock {
    fn new() -> CellClock {
        CellClock { running: std::sync::Mutex::new(None) }
    }
    fn now(&self) -> f64 {
        process_cpu_secs()
    }
    fn start(&self, j: usize) {
        *self.running.lock().expect("cell clock") = Some((j, self.now()));
    }
    fn started(&self) -> f64 {
        self.running.lock().expect("cell clock").map_or(0.0, |(_, t)| t)
    }
    fn stop(&self) {
        *self.running.lock().expect("cell clock") = None;
    }
    /// Every 10 ms: if the running cell has used more than `limit` CPU seconds, prints
    /// `j timeout` and ends the process (holding stdout, so no result line follows).
    fn watch(&self, limit: f64) {
        loop {
            std::thread::sleep(Duration::from_millis(10));
            let out = std::io::stdout();
            let mut out = out.lock();
            if let Some((j, t)) = *self.running.lock().expect("cell clock")
                && self.now() - t > limit
            {
                let _ = writeln!(out, "{j} timeout");
                let _ = out.flush();
                std::process::exit(0);
            }
        }
    }
}

struct Cell {
    status: &'static str,
    holds: Option<bool>,
    secs: Option<f64>,
}

fn run_row(engine: &str, i: usize, seed: u64, js: &[usize], timeout: f64) -> Vec<Cell> {
    let exe = std::env::current_exe().expect("own executable");
    let mut cells: Vec<Cell> = Vec::new();
    let mut todo: Vec<usize> = js.to_vec();
    while !todo.is_empty() {
        let mut child = Command::new(&exe)
            .arg("row")
            .arg(engine)
            .arg(i.to_string())
            .arg(seed.to_string())
            .arg(timeout.to_string())
            .args(todo.iter().map(|j| j.to_string()))
            .stdout(Stdio::piped())
            .spawn()
            .expect("spawn child");
        let stdout = child.stdout.take().expect("child stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        // Generating and building the instance is not timed as a cell (generous limit).
        if rx.recv_timeout(Duration::from_secs(600)).ok().as_deref() != Some("ready") {
            panic!("instance {i} was not built within 600 s");
        }
        // The child enforces the CPU-time limit; this wall-clock limit only catches a hung child.
        let limit = Duration::from_secs_f64(timeout * 50.0 + 60.0);
        let mut done = 0;
        loop {
            match rx.recv_timeout(limit) {
                Ok(line) if line.ends_with(" timeout") => {
                    done = time_out(&mut cells, &todo, done);
                    break;
                }
                Ok(line) => {
                    let w: Vec<&str> = line.split_whitespace().collect();
                    cells.push(Cell { status: "ok", holds: Some(w[1] == "true"), secs: w[2].parse().ok() });
                    done += 1;
                    if done == todo.len() {
                        break;
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    let _ = child.kill();
                    done = time_out(&mut cells, &todo, done);
                    break;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    cells.push(Cell { status: "crash", holds: None, secs: None });
                    done += 1;
                    break;
                }
            }
        }
        let _ = child.wait();
        todo.drain(..done);
    }
    cells
}

/// Records formula `todo[done]` as timed out and, by the skip rule, the following formulas of
/// equal or greater depth as skipped (never run); returns how many of `todo` are now done.
fn time_out(cells: &mut Vec<Cell>, todo: &[usize], mut done: usize) -> usize {
    let depth = todo[done] / 9;
    cells.push(Cell { status: "timeout", holds: None, secs: None });
    done += 1;
    while done < todo.len() && todo[done] / 9 >= depth {
        cells.push(Cell { status: "skipped", holds: None, secs: None });
        done += 1;
    }
    done
}

const HEADER: &str = "i,j,depth,engine,status,holds,seconds,rks_components,rks_nodes,rsm_nodes,rsm_boxes";

/// The rows of an existing grid CSV (header dropped), or none if the file does not exist.
fn existing_rows(path: &str) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut lines = text.lines();
    match lines.next() {
        Some(h) if h == HEADER => lines.map(str::to_string).collect(),
        Some(h) => panic!("{path} does not start with the grid header (found {h:?}); move it away"),
        None => Vec::new(),
    }
}

fn grid(args: &[String]) {
    let opt =
        |name: &str, default: &str| -> String { args.iter().position(|a| a == name).and_then(|p| args.get(p + 1)).cloned().unwrap_or(default.to_string()) };
    let imax: usize = opt("--imax", "50").parse().expect("--imax");
    let jmax: usize = opt("--jmax", "50").parse().expect("--jmax");
    let step: usize = opt("--step", "1").parse().expect("--step");
    let seed: u64 = opt("--seed", "1").parse().expect("--seed");
    let timeout: f64 = opt("--timeout", "5").parse().expect("--timeout");
    let stop_after: f64 = opt("--stop-after", "inf").parse().expect("--stop-after");
    let out = opt("--out", "target/scalability.csv");
    let engines: Vec<String> = opt("--engines", &ENGINES.join(",")).split(',').map(str::to_string).collect();
    assert!(engines.iter().all(|e| ENGINES.contains(&e.as_str())), "--engines: a comma-separated subset of {ENGINES:?}");
    let is: Vec<usize> = (step..=imax).step_by(step).collect();
    let js: Vec<usize> = (step..=jmax).step_by(step).collect();
    if let Some(dir) = std::path::Path::new(&out).parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    // Resuming: an (engine, instance) row already in the CSV with all its cells is not run again.
    let mut rows_done: std::collections::HashMap<(usize, String), usize> = Default::default();
    for line in existing_rows(&out) {
        let w: Vec<&str> = line.split(',').collect();
        if let (Ok(i), Ok(j)) = (w[0].parse::<usize>(), w[1].parse::<usize>())
            && js.contains(&j)
        {
            *rows_done.entry((i, w[3].to_string())).or_default() += 1;
        }
    }
    let fresh = !std::path::Path::new(&out).exists() || existing_rows(&out).is_empty();
    let mut file = std::fs::OpenOptions::new().create(true).append(true).open(&out).expect("open CSV");
    if fresh {
        writeln!(file, "{HEADER}").expect("write CSV");
    }
    let start = Instant::now();
    let mut stopped = false;
    'instances: for &i in &is {
        let todo: Vec<&str> = engines.iter().map(String::as_str).filter(|e| rows_done.get(&(i, e.to_string())) != Some(&js.len())).collect();
        if todo.is_empty() {
            continue;
        }
        let (_, size) = random_rks(&RsmParams::instance(i), seed.wrapping_add(i as u64));
        for e in todo {
            if start.elapsed().as_secs_f64() > stop_after {
                stopped = true;
                break 'instances;
            }
            let cells = run_row(e, i, seed, &js, timeout);
            let mut text = String::new();
            for (c, &j) in cells.iter().zip(&js) {
                text += &format!(
                    "{i},{j},{},{e},{},{},{},{},{},{},{}\n",
                    j / 9,
                    c.status,
                    c.holds.map(|h| h.to_string()).unwrap_or_default(),
                    c.secs.map(|s| format!("{s:.6}")).unwrap_or_default(),
                    size.rks_components,
                    size.rks_nodes,
                    size.rsm_nodes,
                    size.rsm_boxes
                );
            }
            // One write per finished row, so an interrupted run loses at most the running row.
            file.write_all(text.as_bytes()).expect("write CSV");
            file.flush().expect("flush CSV");
        }
        eprintln!("instance {i:>2} done ({} copies, {} nodes) at {:.0} s", size.rks_components, size.rks_nodes, start.elapsed().as_secs_f64());
    }
    summarize(&out, &is, &js, seed, timeout, engines.len());
    if stopped {
        println!("stopped after {stop_after} s (--stop-after); run the same command again to continue");
    }
}

/// Compares the verdicts of all engines per cell over the whole CSV (resumed rows included).
fn summarize(out: &str, is: &[usize], js: &[usize], seed: u64, timeout: f64, engines: usize) {
    let mut verdicts: std::collections::BTreeMap<(usize, usize), Vec<(String, bool)>> = Default::default();
    let mut cells = 0;
    for line in existing_rows(out) {
        let w: Vec<&str> = line.split(',').collect();
        let (i, j): (usize, usize) = (w[0].parse().expect("i"), w[1].parse().expect("j"));
        if !is.contains(&i) || !js.contains(&j) {
            continue;
        }
        cells += 1;
        let v = verdicts.entry((i, j)).or_default();
        if w[4] == "ok" {
            v.push((w[3].to_string(), w[5] == "true"));
        }
    }
    let (mut agree, mut disagree, mut incomplete) = (0, 0, 0);
    for ((i, j), v) in &verdicts {
        if v.windows(2).any(|w| w[0].1 != w[1].1) {
            disagree += 1;
            eprintln!("DISAGREEMENT seed {seed} instance {i} formula {j}: {v:?}");
        } else if v.len() == engines {
            agree += 1;
        } else {
            incomplete += 1;
        }
    }
    println!("grid {}x{} (seed {seed}, timeout {timeout} s): {cells} of {} engine cells in {out}", is.len(), js.len(), is.len() * js.len() * engines);
    println!("all engines agree: {agree}; disagreements: {disagree}; cells where some engine timed out (the rest agree): {incomplete}");
}

/// `stats ENGINE I SEED J`: runs one cell of a ternary engine (eager or lazy) and prints its
/// verdict, time and [`ternary::TernaryStats`] (for profiling a slow cell).
fn stats(args: &[String]) {
    let i: usize = args[1].parse().expect("instance");
    let seed: u64 = args[2].parse().expect("seed");
    let j: usize = args[3].parse().expect("formula index");
    let (rks, _) = random_rks(&RsmParams::instance(i), seed.wrapping_add(i as u64));
    let (t, cpu) = (Instant::now(), process_cpu_secs());
    let f = random_formula(j, seed);
    let (holds, stats) = match args[0].as_str() {
        "eager" | "lazy" => {
            let engine = if args[0] == "eager" { TernaryEngine::Eager } else { TernaryEngine::Lazy };
            let r = ternary::check(&rks, INITIAL, &f, engine, false);
            (r.holds, format!("{:#?}", r.stats))
        }
        "summary" => {
            let r = rks::check(&rks, INITIAL, &f, &RksOptions { engine: RksEngine::Summary, want_trace: false });
            (r.holds, format!("{:#?}", r.stats))
        }
        other => panic!("stats: engine must be eager, lazy or summary, not {other}"),
    };
    println!("holds {holds} seconds {:.6} cpu {:.6}\n{stats}", t.elapsed().as_secs_f64(), process_cpu_secs() - cpu);
}

/// CPU time of the process, all threads (the engines may run a spec on a rayon worker), so
/// that cell times do not depend on the machine's load.
fn process_cpu_secs() -> f64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid out-pointer; CLOCK_PROCESS_CPUTIME_ID is always available on Linux.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("row") => row(&args[1..]),
        Some("stats") => stats(&args[1..]),
        Some("grid") => grid(&args[1..]),
        _ => {
            eprintln!("usage: rsm_scalability grid [--imax N] [--jmax N] [--step S] [--seed S] [--timeout SECS] [--stop-after SECS] [--out CSV]");
            eprintln!("       rsm_scalability row ENGINE I SEED J... | stats eager|lazy I SEED J");
            std::process::exit(2);
        }
    }
}
