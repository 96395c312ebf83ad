//! Front-end throughput on generated control-flow-graph models (the thesis's typical input: one
//! `state` variable over CFG nodes, a `case` over it for `next`, labels as DEFINEs), plus any
//! files given on the command line. Prints a table: size, time, MB/s.
//!
//! `cargo run --release --example frontend_bench [-- FILE.smv ...]`

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

/// Best-of-3 seconds for parse, check, lower.
fn stages(file: &SourceFile) -> ([f64; 3], bool) {
    let mut best = [f64::MAX; 3];
    let mut ok = false;
    for _ in 0..3 {
        let t = Instant::now();
        let (program, syntax) = xmv_rs::syntax::parse(file);
        let parsed = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let (checked, sem) = xmv_rs::semantics::check(&program);
        let checked_in = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let (_lowered, low) = xmv_rs::lowering::lower(&checked);
        let lowered_in = t.elapsed().as_secs_f64();
        for (b, x) in best.iter_mut().zip([parsed, checked_in, lowered_in]) {
            *b = b.min(x);
        }
        ok = syntax.iter().chain(&sem).chain(&low).all(|d| !d.is_error());
    }
    (best, ok)
}

fn measure(name: &str, file: &SourceFile) {
    let ([p, c, l], ok) = stages(file);
    let total = p + c + l;
    let mb = file.text.len() as f64 / 1e6;
    println!(
        "| {name} | {mb:.2} MB | {:.1} ms | {:.1} ms | {:.1} ms | {:.1} ms | {:.1} MB/s | {} |",
        p * 1e3,
        c * 1e3,
        l * 1e3,
        total * 1e3,
        mb / total,
        if ok { "ok" } else { "errors" }
    );
}

fn main() {
    println!("| model | size | parse | check | lower | total (best of 3) | throughput | result |");
    println!("|---|---|---|---|---|---|---|---|");
    for (nodes, labels) in [(1_000, 20), (10_000, 50), (50_000, 100)] {
        let text = cfg_model(nodes, labels);
        measure(&format!("cfg {nodes} nodes, {labels} labels"), &SourceFile::new("cfg.smv", text));
    }
    for path in std::env::args().skip(1) {
        match SourceFile::read(std::path::Path::new(&path)) {
            Ok(f) => measure(&path, &f),
            Err(e) => eprintln!("{e}"),
        }
    }
}
