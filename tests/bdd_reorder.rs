//! Dynamic reordering (`symbolic::reorder`, `xmv-rs check --reorder`, NuSMV's `-dynamic`) does not
//! change the BDD engine's output: on random Boolean networks (genes declared in a scrambled
//! order, some ranges and input variables, `FAIRNESS`, CTL over every operator, `LTLSPEC`,
//! `INVARSPEC`), checked with traces and witnesses, the output with reordering forced at every
//! safe point where the live nodes have doubled (first threshold 1 node) is exactly the output
//! without reordering, traces included, and has the explicit engine's verdicts. The test checks
//! that reorderings happened.
//! `XMV_TEST_CASES=N` sets the number of random models (default 40).
//!
//! The reordering setting is process-wide, so every run of this file goes through one lock.

#[allow(clippy::duplicate_mod)]
#[path = "../tools/cfg_model.rs"]
mod cfg_model;
mod support;

use cfg_model::ctl_text;
use std::sync::Mutex;
use support::random::{Rng, cases, formula};
use xmv_rs::driver::{CheckOptions, Engine, run_check, stages::Stages};
use xmv_rs::source::SourceFile;
use xmv_rs::symbolic::reorder::set_dynamic_reordering;

static SETTING: Mutex<()> = Mutex::new(());

/// A `--stats` counter of `stderr` (0 when absent).
fn counter(stderr: &str, name: &str) -> u64 {
    stderr.lines().find(|l| l.contains(name)).and_then(|l| l.rsplit(' ').next()).and_then(|n| n.parse().ok()).unwrap_or(0)
}

/// (exit code, stdout, stderr) of one run; `reorder`: the first threshold.
fn run(text: &str, engine: Engine, reorder: Option<usize>) -> (i32, String, String) {
    let _guard = SETTING.lock().unwrap_or_else(|e| e.into_inner());
    set_dynamic_reordering(reorder);
    let file = SourceFile::new("network.smv", text);
    let options = CheckOptions { engine, traces: true, witnesses: true, reachable: true, stats: true, threads: 1, ..Default::default() };
    let out = run_check(&file, &options, &Stages::linked());
    set_dynamic_reordering(None);
    (out.exit_code, out.stdout, out.stderr)
}

/// A random network of 6–11 genes (declared in a scrambled order), a counter and maybe an input.
fn network(rng: &mut Rng) -> String {
    let genes = 6 + rng.below(6);
    let mut order: Vec<usize> = (0..genes).collect();
    for i in (1..genes).rev() {
        order.swap(i, rng.below(i + 1));
    }
    let mut s = String::from("MODULE main\nVAR\n");
    for &g in &order {
        s.push_str(&format!("  g{g} : boolean;\n"));
    }
    s.push_str("  k : 0..5;\n");
    let input = rng.chance(40);
    if input {
        s.push_str("IVAR\n  i : boolean;\n");
    }
    let literal = |rng: &mut Rng| {
        let g = rng.below(genes);
        if rng.chance(40) { format!("!g{g}") } else { format!("g{g}") }
    };
    s.push_str("ASSIGN\n  init(k) := 0;\n");
    if rng.chance(50) {
        s.push_str(&format!("  init(g{}) := FALSE;\n", rng.below(genes)));
    }
    for g in 0..genes {
        let update = match rng.below(4) {
            0 => format!("{} & {}", literal(rng), literal(rng)),
            1 => format!("{} | ({} & {})", literal(rng), literal(rng), literal(rng)),
            2 => format!("{} xor {}", literal(rng), literal(rng)),
            _ => format!("case {} : {{TRUE, FALSE}}; TRUE : {}; esac", literal(rng), literal(rng)),
        };
        let update = if input && rng.chance(25) { format!("({update}) & i") } else { update };
        s.push_str(&format!("  next(g{g}) := {update};\n"));
    }
    s.push_str(&format!("  next(k) := case {} : (k + 1) mod 6; TRUE : k; esac;\n", literal(rng)));
    if rng.chance(30) {
        s.push_str(&format!("TRANS !({} & k = 5) | next(k) = 0\n", literal(rng)));
    }
    s.push_str("DEFINE\n");
    s.push_str(&format!("  p0 := {} & {};\n", literal(rng), literal(rng)));
    s.push_str(&format!("  p1 := {} | k = {};\n", literal(rng), rng.below(6)));
    s.push_str(&format!("  p2 := {};\n", literal(rng)));
    if rng.chance(40) {
        s.push_str(&format!("FAIRNESS p{}\n", rng.below(3)));
    }
    for _ in 0..6 {
        s.push_str(&format!("SPEC {}\n", ctl_text(&formula(rng, 3))));
    }
    s.push_str(&format!("LTLSPEC G F p{}\nLTLSPEC F G !p{}\nLTLSPEC G (p0 -> X p1)\n", rng.below(3), rng.below(3)));
    s.push_str(&format!("INVARSPEC !(p{} & k = 4)\n", rng.below(3)));
    s
}

#[test]
fn reordering_changes_no_output_on_random_networks() {
    let mut rng = Rng::new(0x5eed_50f7);
    let (mut models, mut reorderings, mut traces) = (0u64, 0u64, 0usize);
    for case in 0..cases(40) {
        let text = network(&mut rng);
        let (code, plain, stats) = run(&text, Engine::Bdd, None);
        assert!(!stats.contains("dynamic reorderings"), "reordering ran while off");
        let (code_r, sifted, stats) = run(&text, Engine::Bdd, Some(1));
        let runs = counter(&stats, "dynamic reorderings");
        assert_eq!((code, &plain), (code_r, &sifted), "case {case}: output changed by reordering:\n{text}");
        // The explicit engine's lassos may differ (both valid, checked in tests/bdd_differential.rs):
        // its verdicts and `-r` figures must not.
        let (code_e, explicit, _) = run(&text, Engine::Explicit, None);
        let verdicts =
            |out: &str| out.lines().filter(|l| l.contains(" is ") || l.starts_with("system") || l.starts_with("reachable")).collect::<Vec<_>>().join("\n");
        assert_eq!((code, verdicts(&plain)), (code_e, verdicts(&explicit)), "case {case}: BDD verdicts differ from the explicit engine's:\n{text}");
        models += 1;
        reorderings += runs;
        traces += plain.matches("Trace Description").count();
    }
    assert!(reorderings >= models, "only {reorderings} reorderings in {models} models");
    assert!(traces as u64 > models, "only {traces} traces in {models} models");
    eprintln!("{models} networks, {reorderings} reorderings, {traces} traces: identical output");
}

/// `--reorder`'s threshold (CUDD's first one, 4,004 live nodes) is reached by a comparator whose
/// two words are declared apart and not related by any transition part (so the static order
/// keeps them apart, where the comparator has 3·2^11 nodes), and sifting interleaves them.
#[test]
fn reordering_shrinks_a_comparator_declared_apart() {
    let bits = 11;
    let mut s = String::from("MODULE main\nVAR\n");
    for w in ["x", "y"] {
        for b in 0..bits {
            s.push_str(&format!("  {w}{b} : boolean;\n"));
        }
    }
    s.push_str("ASSIGN\n");
    for b in 0..bits {
        s.push_str(&format!("  next(x{b}) := !x{b};\n  next(y{b}) := {{TRUE, FALSE}};\n"));
    }
    let equal: Vec<String> = (0..bits).map(|b| format!("x{b} = y{b}")).collect();
    s.push_str(&format!("DEFINE eq := {};\nSPEC AG EF eq\nSPEC AG eq\n", equal.join(" & ")));
    let (code, plain, _) = run(&s, Engine::Bdd, None);
    let (code_r, sifted, stats) = run(&s, Engine::Bdd, Some(xmv_rs::symbolic::reorder::FIRST_REORDER));
    assert_eq!((code, &plain), (code_r, &sifted));
    assert!(counter(&stats, "dynamic reorderings") >= 1, "no reordering:\n{stats}");
    assert!(counter(&stats, "live bdd nodes after the last reordering") < 1000, "{stats}");
    assert!(plain.contains("AG (EF eq)  is true") || plain.contains("is true"), "{plain}");
}
