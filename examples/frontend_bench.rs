//! Front-end throughput per stage (parse, check, lower, and dropping the three results, as
//! `frontend::load` does), best of `--reps` runs (default 5). Without files: generated
//! control-flow-graph models (the thesis's typical input: one `state` variable over CFG nodes, a
//! `case` over it for `next`, labels as DEFINEs); with files: those files only.
//! Prints a table: size, time per stage, MB/s.
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

/// Best-of-`reps` seconds for parse, check, lower, drop.
fn stages(file: &SourceFile, reps: usize) -> ([f64; 4], bool) {
    let mut best = [f64::MAX; 4];
    let mut ok = false;
    for _ in 0..reps {
        let t = Instant::now();
        let (program, syntax) = xmv_rs::syntax::parse(file);
        let parsed = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let (checked, sem) = xmv_rs::semantics::check(&program);
        let checked_in = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let (lowered, low) = xmv_rs::lowering::lower(&checked);
        let lowered_in = t.elapsed().as_secs_f64();
        ok = syntax.iter().chain(&sem).chain(&low).all(|d| !d.is_error());
        let t = Instant::now();
        drop((program, checked, lowered));
        let dropped_in = t.elapsed().as_secs_f64();
        for (b, x) in best.iter_mut().zip([parsed, checked_in, lowered_in, dropped_in]) {
            *b = b.min(x);
        }
    }
    (best, ok)
}

fn measure(name: &str, file: &SourceFile, reps: usize) {
    let ([p, c, l, d], ok) = stages(file, reps);
    let total = p + c + l + d;
    let mb = file.text.len() as f64 / 1e6;
    println!(
        "| {name} | {mb:.2} MB | {:.1} ms ({:.1} MB/s) | {:.1} ms | {:.1} ms | {:.1} ms | {:.1} ms | {:.1} MB/s | {} |",
        p * 1e3,
        mb / p,
        c * 1e3,
        l * 1e3,
        d * 1e3,
        total * 1e3,
        mb / total,
        if ok { "ok" } else { "errors" }
    );
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut reps = 5;
    if let Some(i) = args.iter().position(|a| a == "--reps") {
        reps = args.get(i + 1).and_then(|s| s.parse().ok()).unwrap_or(reps).max(1);
        args.drain(i..(i + 2).min(args.len()));
    }
    println!("| model | size | parse | check | lower | drop | total (best of {reps} per stage) | throughput | result |");
    println!("|---|---|---|---|---|---|---|---|---|");
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
}
