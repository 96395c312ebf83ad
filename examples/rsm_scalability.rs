//! The scalability grid of Dubslaff et al. 2024 (Fig. 8 journal / Fig. 3 conference) on random
//! RSMs from `tools/random_rsm.rs`, timed per engine (incremental, global, eager, lazy, summary).
//!
//! `cargo run --release --example rsm_scalability -- grid [--imax 50] [--jmax 50] [--step 1]
//!     [--seed 1] [--timeout 5] [--stop-after SECS] [--out target/scalability.csv]`
//!
//! The CSV is appended to one (engine, instance) row at a time; rows already complete in it are
//! not run again, so an interrupted grid continues where it stopped (use the same `--step`,
//! `--seed` and `--timeout`). `--stop-after` starts no new row after that many seconds.
//!
//! Each (engine, instance) row runs in a child process (`row` mode) that prints one line per
//! formula after building the instance (not timed); when no line arrives within the per-cell limit the child is killed, the cell is
//! recorded as `timeout`, and the cells of the same row with an equal or deeper formula are
//! recorded as `skipped` (never run, never given a value). Verdicts of all engines are compared
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

const ENGINES: [&str; 5] = ["incremental", "global", "eager", "lazy", "summary"];

/// Runs one engine on formula `j` of instance `rks`; returns the verdict.
fn run_engine(engine: &str, rks: &xmv_rs::explicit::rks::RecursiveKripkeStructure, j: usize, seed: u64) -> bool {
    let f = random_formula(j, seed);
    match engine {
        "incremental" => rks::check(rks, INITIAL, &f, &RksOptions { engine: RksEngine::Incremental, want_trace: false }).holds,
        "global" => rks::check(rks, INITIAL, &f, &RksOptions { engine: RksEngine::Global, want_trace: false }).holds,
        "summary" => rks::check(rks, INITIAL, &f, &RksOptions { engine: RksEngine::Summary, want_trace: false }).holds,
        "eager" => ternary::check(rks, INITIAL, &f, TernaryEngine::Eager, false).holds,
        "lazy" => ternary::check(rks, INITIAL, &f, TernaryEngine::Lazy, false).holds,
        other => panic!("unknown engine {other}"),
    }
}

/// Child mode: `row ENGINE I SEED J...`: prints `j holds seconds` per formula.
fn row(args: &[String]) {
    let engine = args[0].as_str();
    let i: usize = args[1].parse().expect("instance");
    let seed: u64 = args[2].parse().expect("seed");
    let (rks, _) = random_rks(&RsmParams::instance(i), seed.wrapping_add(i as u64));
    let mut out = std::io::stdout();
    // Building the instance is not part of any cell's time: tell the parent when it is done.
    let _ = writeln!(out, "ready");
    let _ = out.flush();
    for j in &args[3..] {
        let j: usize = j.parse().expect("formula index");
        let t = Instant::now();
        let holds = run_engine(engine, &rks, j, seed);
        let secs = t.elapsed().as_secs_f64();
        let _ = writeln!(out, "{j} {holds} {secs:.6}");
        let _ = out.flush();
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
        let limit = Duration::from_secs_f64(timeout);
        let mut done = 0;
        loop {
            match rx.recv_timeout(limit) {
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
                    let depth = todo[done] / 9;
                    cells.push(Cell { status: "timeout", holds: None, secs: None });
                    done += 1;
                    // Skip rule: equal or deeper formulas of this row are not run.
                    while done < todo.len() && todo[done] / 9 >= depth {
                        cells.push(Cell { status: "skipped", holds: None, secs: None });
                        done += 1;
                    }
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
        let todo: Vec<&str> = ENGINES.iter().copied().filter(|e| rows_done.get(&(i, e.to_string())) != Some(&js.len())).collect();
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
    summarize(&out, &is, &js, seed, timeout);
    if stopped {
        println!("stopped after {stop_after} s (--stop-after); run the same command again to continue");
    }
}

/// Compares the verdicts of all engines per cell over the whole CSV (resumed rows included).
fn summarize(out: &str, is: &[usize], js: &[usize], seed: u64, timeout: f64) {
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
        } else if v.len() == ENGINES.len() {
            agree += 1;
        } else {
            incomplete += 1;
        }
    }
    println!("grid {}x{} (seed {seed}, timeout {timeout} s): {cells} of {} engine cells in {out}", is.len(), js.len(), is.len() * js.len() * ENGINES.len());
    println!("all engines agree: {agree}; disagreements: {disagree}; cells where some engine timed out (the rest agree): {incomplete}");
}

/// `stats ENGINE I SEED J`: runs one cell of a ternary engine (eager or lazy) and prints its
/// verdict, time and [`ternary::TernaryStats`] (for profiling a slow cell).
fn stats(args: &[String]) {
    let engine = match args[0].as_str() {
        "eager" => TernaryEngine::Eager,
        "lazy" => TernaryEngine::Lazy,
        other => panic!("stats: engine must be eager or lazy, not {other}"),
    };
    let i: usize = args[1].parse().expect("instance");
    let seed: u64 = args[2].parse().expect("seed");
    let j: usize = args[3].parse().expect("formula index");
    let (rks, _) = random_rks(&RsmParams::instance(i), seed.wrapping_add(i as u64));
    let t = Instant::now();
    let r = ternary::check(&rks, INITIAL, &random_formula(j, seed), engine, false);
    println!("holds {} seconds {:.6}\n{:#?}", r.holds, t.elapsed().as_secs_f64(), r.stats);
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
