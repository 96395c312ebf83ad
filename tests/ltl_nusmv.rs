//! `LTLSPEC` against NuSMV 2.5.4: random small SMV models (a counter, booleans, a free input-like
//! state variable, optional `FAIRNESS`, optional deadlocks through `TRANS`) with random LTL specs
//! over every operator NuSMV 2.5.4 accepts; `xmv-rs check` must print the same verdict lines
//! (formula text included, in NuSMV's order: CTL, LTL, invariants) as `NuSMV -dcx`, with the
//! explicit engine and with the BDD engine (`--engine bdd`). Every
//! counterexample xmv-rs prints is a lasso (`-- Loop starts here`).
//!
//! Past operators over future operands (`O (F p)`) are compared on the BDD engine only (the
//! explicit engine refuses them).
//!
//! Runs only when `NUSMV=/path/to/NuSMV` points to an executable; otherwise it prints why it was
//! skipped and passes. `XMV_TEST_CASES=N` sets the number of models (default 60).

mod support;

use std::path::{Path, PathBuf};
use support::ltl_smv::{mixed, model, model_with};
use support::nusmv::run;
use support::random::{Rng, cases};

fn nusmv() -> Option<PathBuf> {
    support::nusmv::binary("the NuSMV LTL test")
}

fn verdict_lines(text: &str) -> Vec<String> {
    text.lines().filter(|l| l.starts_with("-- specification") || l.starts_with("-- invariant")).map(str::to_string).collect()
}

#[test]
fn ltl_verdict_lines_agree_with_nusmv_on_generated_models() {
    let Some(nusmv_bin) = nusmv() else { return };
    let xmv = Path::new(env!("CARGO_BIN_EXE_xmv-rs"));
    let mut rng = Rng::new(0x171_5e5);
    let (mut agreed, mut falses) = (0, 0);
    for case in 0..cases(60) {
        let smv = model(&mut rng, 8);
        let file = std::env::temp_dir().join(format!("xmv-ltl-{}-{case}.smv", std::process::id()));
        std::fs::write(&file, &smv).expect("write temporary model");
        let (_, theirs) = run(&nusmv_bin, &["-dcx"], &file);
        let (code, ours) = run(xmv, &["check"], &file);
        let (bdd_code, bdd) = run(xmv, &["check", "--engine", "bdd"], &file);
        let _ = std::fs::remove_file(&file);
        let expected = verdict_lines(&theirs);
        assert!(!expected.is_empty(), "NuSMV checked nothing in:\n{smv}\n{theirs}");
        let mut false_ltl = 0;
        for (engine, code, ours) in [("explicit", code, &ours), ("bdd", bdd_code, &bdd)] {
            assert_ne!(code, Some(2), "xmv-rs ({engine}) rejects:\n{smv}\n{ours}");
            assert_eq!(verdict_lines(ours), expected, "verdict lines of the {engine} engine differ on:\n{smv}");
            // Each false LTL spec is followed by a lasso counterexample.
            let ltl_traces = ours.matches("Trace Description: LTL Counterexample").count();
            false_ltl = ours.lines().filter(|l| l.starts_with("-- specification") && l.ends_with("is false") && !l.contains("AG (EF")).count();
            assert_eq!(ltl_traces, false_ltl, "one LTL counterexample per false LTL spec ({engine}):\n{ours}");
            for trace in ours.split("Trace Description: LTL Counterexample").skip(1) {
                let trace = trace.split("-- specification").next().unwrap_or("");
                assert!(trace.contains("-- Loop starts here"), "an LTL counterexample without a loop ({engine}):\n{ours}");
            }
        }
        agreed += expected.len();
        falses += false_ltl;
    }
    eprintln!("NuSMV LTL agreement (explicit and bdd engines): {agreed} verdict lines ({falses} false LTL specs with lasso counterexamples)");
}

#[test]
fn future_below_past_agrees_with_nusmv_on_the_bdd_engine() {
    let Some(nusmv_bin) = nusmv() else { return };
    let xmv = Path::new(env!("CARGO_BIN_EXE_xmv-rs"));
    let mut rng = Rng::new(0xf0_b10);
    let mut agreed = 0;
    for case in 0..cases(60) {
        let smv = model_with(&mut rng, 8, |rng, depth| mixed(rng, depth + 1));
        let file = std::env::temp_dir().join(format!("xmv-ltl-mixed-{}-{case}.smv", std::process::id()));
        std::fs::write(&file, &smv).expect("write temporary model");
        let (_, theirs) = run(&nusmv_bin, &["-dcx"], &file);
        let (code, ours) = run(xmv, &["check"], &file);
        let _ = std::fs::remove_file(&file);
        let expected = verdict_lines(&theirs);
        assert!(!expected.is_empty(), "NuSMV checked nothing in:\n{smv}\n{theirs}");
        assert_ne!(code, Some(2), "xmv-rs rejects:\n{smv}\n{ours}");
        assert_eq!(verdict_lines(&ours), expected, "verdict lines differ on:\n{smv}");
        agreed += expected.len();
    }
    eprintln!("NuSMV agreement with future operators below past ones (auto: bdd): {agreed} verdict lines");
}
