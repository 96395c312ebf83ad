//! The BDD engine's static variable order (`symbolic::order`) does not change its output: on a
//! model whose variables are declared far from the ones they depend on (a chain of genes in
//! bit-reversed order, so that FORCE moves them), the BDD engine prints exactly what the explicit
//! engine prints, traces included (the states picked from BDDs are the least in the declaration
//! order, whatever the levels), and `--stats` says the order moved variables. A model without
//! such scattering keeps the declaration order. Also: an `INIT TRUE` model (every state initial,
//! pyboolnet's shape) has diameter 1 without computing an image.

use xmv_rs::driver::{CheckOptions, Engine, run_check, stages::Stages};
use xmv_rs::source::SourceFile;

fn run(text: &str, engine: Engine, stats: bool) -> (i32, String, String) {
    let file = SourceFile::new("order.smv", text);
    let options = CheckOptions { engine, traces: true, reachable: true, stats, threads: 1, ..Default::default() };
    let out = run_check(&file, &options, &Stages::linked());
    (out.exit_code, out.stdout, out.stderr)
}

/// Sixteen genes `g0 → g1 → … → g15` declared in bit-reversed order.
fn scattered_chain() -> String {
    let mut s = String::from("MODULE main\nVAR\n");
    for i in 0..16u32 {
        s.push_str(&format!("  g{} : boolean;\n", i.reverse_bits() >> 28));
    }
    s.push_str("ASSIGN\n  next(g0) := {TRUE, FALSE};\n");
    for i in 1..16 {
        let op = if i % 3 == 0 { "&" } else { "|" };
        if i % 2 == 1 {
            s.push_str(&format!("  next(g{i}) := g{} {op} g{i};\n", i - 1));
        } else {
            s.push_str(&format!("  next(g{i}) := g{};\n", i - 1));
        }
    }
    s.push_str(
        "DEFINE\n  all := g0 & g5 & g10 & g15;\n\
         SPEC AG !all\nSPEC EF all\nSPEC AG (g0 -> AF g4)\nSPEC EG !g5\n\
         INVARSPEC !(g3 & g9 & g14)\nLTLSPEC G F g2\n",
    );
    s
}

fn moved(stderr: &str) -> u64 {
    let line = stderr.lines().find(|l| l.contains("variables moved by the static order")).unwrap_or_else(|| panic!("no order counter in:\n{stderr}"));
    line.rsplit(' ').next().and_then(|n| n.parse().ok()).unwrap_or_else(|| panic!("bad counter line {line}"))
}

#[test]
fn reordered_variables_give_the_explicit_engines_output() {
    let text = scattered_chain();
    let (code, bdd, stderr) = run(&text, Engine::Bdd, true);
    assert_eq!(moved(&stderr), 14, "FORCE should move the chain's genes");
    let (code_explicit, explicit, _) = run(&text, Engine::Explicit, false);
    assert_eq!(code, code_explicit);
    assert_eq!(bdd, explicit, "BDD output differs from the explicit engine's");
    assert_eq!(bdd.matches("-> State:").count(), 12, "traces:\n{bdd}");
}

#[test]
fn declaration_order_is_kept_when_it_is_good() {
    let text = "MODULE main\nVAR\n  a : boolean;\n  b : boolean;\n  c : 0..3;\n\
                ASSIGN\n  next(a) := b;\n  next(b) := c = 2;\n  next(c) := case a : 0; TRUE : (c + 1) mod 4; esac;\n\
                SPEC AG EF c = 0\n";
    let (_, bdd, stderr) = run(text, Engine::Bdd, true);
    assert_eq!(moved(&stderr), 0);
    assert_eq!(bdd, run(text, Engine::Explicit, false).1);
}

#[test]
fn init_true_models_reach_everything_in_one_ring() {
    let text = "MODULE main\nVAR\n  x : boolean;\n  y : boolean;\n  n : 0..5;\n\
                ASSIGN\n  next(x) := y;\n  next(y) := !x;\n  next(n) := (n + 1) mod 6;\n\
                INIT TRUE\nSPEC EF (x & y)\n";
    let (code, bdd, _) = run(text, Engine::Bdd, false);
    assert_eq!(code, 0, "{bdd}");
    assert!(bdd.contains("reachable states: 24 (2^4.58496) out of 24 (2^4.58496)"), "{bdd}");
    assert!(bdd.contains("system diameter: 1"), "{bdd}");
    assert_eq!(bdd, run(text, Engine::Explicit, false).1);
}
