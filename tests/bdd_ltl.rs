//! `LTLSPEC` on the BDD engine (`check::bdd`, symbolic tableau) against the explicit LTL engine
//! (`check::ltl`, GPVW automaton and Couvreur's search):
//! - on the random Kripke structures of `tests/ltl_oracle.rs` (deadlocks, `FAIRNESS` sets),
//!   written as SMV models over one state variable, with random LTL formulas over every operator
//!   (past ones included): equal verdicts, and every BDD counterexample replayed by the same
//!   trace checker as the explicit engine's (a fair lasso of the structure from an initial state
//!   whose word violates the spec, `tests/support/ltl_lasso.rs`);
//! - on random SMV models (a counter, booleans, `TRANS` deadlocks, `FAIRNESS`, `NAME`d specs, CTL
//!   and `INVARSPEC` next to LTL): the same stdout verdict lines and exit code through the
//!   driver, and every BDD counterexample a lasso of the explicit state graph;
//! - `--engine auto` past the explicit budget checks LTL with BDDs;
//! - future operators below past ones (`O (F p)`, `Y (p U q)`, BDD engine only): on the random
//!   Kripke structures, every spec called true has no violating fair lasso of up to 9 states
//!   (brute-force enumeration with the independent lasso semantics), every counterexample
//!   replays; the explicit engine refuses those specs and `auto` takes them to BDDs.
//!
//! `XMV_TEST_CASES=N` sets the number of random models (default 150 and 60).

mod support;

use support::ltl_lasso::{find_violation, formula, holds_on_lasso, is_fair_lasso, mixed_formula};
use support::ltl_smv::{kripke_smv, model as smv_model};
use support::oracle::Model;
use support::random::{Rng, cases, model, to_kripke};
use xmv_rs::check::Checker;
use xmv_rs::check::bdd::Symbolic;
use xmv_rs::check::engine::RunOptions;
use xmv_rs::check::ltl::check_ltl;
use xmv_rs::check::trace::SpecOutcome;
use xmv_rs::driver::{CheckOptions, Engine, run_check, stages::Stages};
use xmv_rs::explicit::build_flat::{BuildLimits, build_flat};
use xmv_rs::explicit::kripke::StateId;
use xmv_rs::ir::PropId;
use xmv_rs::ltl::Ltl;
use xmv_rs::source::SourceFile;
use xmv_rs::symbolic::SymbolicModel;

const FORMULAS_PER_MODEL: usize = 10;

/// The BDD engine's outcomes for the specs of `text`, in file order.
fn bdd_outcomes(text: &str) -> Vec<SpecOutcome> {
    let file = SourceFile::new("random.smv", text);
    let (program, diags) = xmv_rs::frontend::load(&file, None);
    let program = program.unwrap_or_else(|| panic!("the model loads:\n{text}\n{}", diags.render(&file)));
    let symbolic = SymbolicModel::build(&program, None, 1).unwrap_or_else(|d| panic!("BDD build:\n{text}\n{}", d.render(&file)));
    let options = RunOptions { traces: true, witnesses: false, threads: 1 };
    Symbolic.check(&symbolic, &symbolic.specs, &options).expect("BDD check").outcomes
}

#[test]
fn bdd_ltl_agrees_with_explicit_ltl_and_its_counterexamples_replay() {
    let mut rng = Rng::new(0xbdd_171);
    let (mut agree, mut replayed, mut with_fairness, mut with_deadlocks) = (0, 0, 0, 0);
    for case in 0..cases(150) {
        let mut m: Model = model(&mut rng, 6);
        m.edge_fairness.clear();
        let specs: Vec<Ltl<PropId>> = (0..FORMULAS_PER_MODEL).map(|_| formula(&mut rng, 3, true)).collect();
        let text = kripke_smv(&m, &specs);
        let fairness: Vec<PropId> = m.fairness.iter().map(|&p| PropId::new(p)).collect();
        let refs: Vec<&Ltl<PropId>> = specs.iter().collect();
        let explicit = check_ltl(&to_kripke(&m), &refs, &fairness, false).expect("explicit LTL");
        let bdd = bdd_outcomes(&text);
        assert_eq!(bdd.len(), specs.len());
        for ((f, e), b) in specs.iter().zip(&explicit).zip(&bdd) {
            assert_eq!(b.holds, e.outcome.holds, "case {case}: {f:?}: bdd says {}, explicit {}:\n{text}", b.holds, e.outcome.holds);
            agree += 1;
            if b.holds {
                assert!(b.trace.is_none());
                continue;
            }
            replay(&m, f, b, &format!("case {case}:\n{text}"));
            replayed += 1;
        }
        with_fairness += !m.fairness.is_empty() as usize;
        with_deadlocks += m.succ.iter().any(|s| s.is_empty()) as usize;
    }
    eprintln!(
        "bdd vs explicit LTL: {agree} verdicts agree, {replayed} BDD counterexamples replayed ({with_fairness} models with fairness, {with_deadlocks} with deadlocks)"
    );
    assert!(replayed > 0 && agree > replayed);
}

/// Replays the BDD engine's counterexample of the false spec `f`: a fair lasso of `m` whose word
/// violates `f` (`context` names the case in failures).
fn replay(m: &Model, f: &Ltl<PropId>, outcome: &SpecOutcome, context: &str) {
    let trace = outcome.trace.as_ref().unwrap_or_else(|| panic!("no counterexample for {f:?}, {context}"));
    let states: Vec<usize> = trace.steps.iter().map(|s| s.values[0] as usize).collect();
    let l = trace.loop_start.expect("an LTL counterexample is a lasso");
    let (prefix, cycle) = states.split_at(l);
    assert!(is_fair_lasso(m, prefix, cycle), "{f:?}: {prefix:?} {cycle:?} is no fair lasso, {context}");
    assert!(!holds_on_lasso(m, f, prefix, cycle), "{f:?} holds on its counterexample {prefix:?} {cycle:?}, {context}");
}

fn run(text: &str, engine: Engine) -> (i32, String, String) {
    let file = SourceFile::new("random.smv", text);
    let options = CheckOptions { engine, traces: true, ..Default::default() };
    let out = run_check(&file, &options, &Stages::linked());
    (out.exit_code, out.stdout, out.stderr)
}

fn verdict_lines(text: &str) -> Vec<&str> {
    text.lines().filter(|l| l.starts_with("-- specification") || l.starts_with("-- invariant")).collect()
}

/// Every counterexample of the BDD engine's LTL specs is a lasso of the explicit state graph
/// from an initial state; returns how many were checked.
fn lassos_are_paths(text: &str) -> usize {
    let file = SourceFile::new("random.smv", text);
    let (program, _) = xmv_rs::frontend::load(&file, None);
    let program = program.expect("the random model loads");
    let explicit = build_flat(&program, &BuildLimits::default()).expect("explicit build");
    let k = &explicit.kripke;
    let symbolic = SymbolicModel::build(&program, None, 1).expect("BDD build");
    let outcomes = bdd_outcomes(text);
    let mut checked = 0;
    for (spec, outcome) in symbolic.specs.iter().zip(&outcomes) {
        let (Some(_), Some(trace)) = (&spec.ltl, &outcome.trace) else { continue };
        let id = |values: &[u32]| {
            (0..k.num_states).map(StateId::from_u32).find(|&s| k.state_values(s) == values).unwrap_or_else(|| panic!("unreachable trace state:\n{text}"))
        };
        let ids: Vec<StateId> = trace.steps.iter().map(|s| id(&s.values)).collect();
        assert!(k.initial.contains(&ids[0]), "the counterexample does not start in an initial state:\n{text}");
        for w in ids.windows(2) {
            assert!(k.succ.neighbours(w[0]).contains(&w[1]), "a counterexample step is no transition:\n{text}");
        }
        let l = trace.loop_start.expect("a lasso");
        assert!(k.succ.neighbours(ids[ids.len() - 1]).contains(&ids[l]), "the loop does not close:\n{text}");
        checked += 1;
    }
    checked
}

#[test]
fn bdd_and_explicit_print_the_same_ltl_verdicts_on_random_smv_models() {
    let mut rng = Rng::new(0x5e_bdd);
    let (mut lines, mut lassos) = (0, 0);
    for case in 0..cases(60) {
        let text = smv_model(&mut rng, 6);
        let (code_e, out_e, err_e) = run(&text, Engine::Explicit);
        let (code_b, out_b, err_b) = run(&text, Engine::Bdd);
        assert_ne!(code_e, 2, "case {case}: explicit rejects:\n{text}\n{err_e}");
        assert_eq!(code_e, code_b, "case {case}: exit codes differ:\n{text}\n{err_b}");
        assert_eq!(verdict_lines(&out_e), verdict_lines(&out_b), "case {case}: verdicts differ:\n{text}");
        lines += verdict_lines(&out_e).len();
        lassos += lassos_are_paths(&text);
    }
    eprintln!("bdd vs explicit on SMV models: {lines} verdict lines agree, {lassos} BDD LTL lassos are paths of the explicit graph");
}

#[test]
fn auto_checks_ltl_with_bdds_past_the_state_budget() {
    // 2^16 · 4 states, past a budget of 1000: auto decides with BDDs.
    let mut text = String::from("MODULE main\nVAR\n  c : 0..3;\n");
    for i in 0..16 {
        text.push_str(&format!("  b{i} : boolean;\n"));
    }
    text.push_str("ASSIGN\n  init(c) := 0;\n  next(c) := (c + 1) mod 4;\n");
    text.push_str("LTLSPEC G F c = 0\nLTLSPEC G (c = 1 -> X c = 2)\nLTLSPEC F G b0\nLTLSPEC G (c = 2 -> Y c = 1)\n");
    let file = SourceFile::new("wide.smv", text.as_str());
    let options = |engine| CheckOptions { engine, max_states: Some(1000), stats: true, traces: true, ..Default::default() };
    let auto = run_check(&file, &options(Engine::Auto), &Stages::linked());
    let bdd = run_check(&file, &options(Engine::Bdd), &Stages::linked());
    assert_eq!(auto.stdout, bdd.stdout);
    assert_eq!(auto.exit_code, 1);
    assert!(auto.stderr.contains("flat engine: bdd"), "{}", auto.stderr);
    assert!(auto.stderr.contains("LTL tableau variables"), "{}", auto.stderr);
    assert_eq!(
        verdict_lines(&auto.stdout),
        [
            "-- specification  G ( F c = 0)  is true",
            "-- specification  G (c = 1 ->  X c = 2)  is true",
            "-- specification  F ( G b0)  is false",
            "-- specification  G (c = 2 ->  Y c = 1)  is true"
        ]
    );
    assert!(auto.stdout.contains("-- Loop starts here"), "{}", auto.stdout);
}

#[test]
fn future_below_past_matches_the_lasso_oracle() {
    let mut rng = Rng::new(0x0f_b10);
    let (mut true_checked, mut replayed, mut mixed) = (0, 0, 0);
    for case in 0..cases(150) {
        let mut m: Model = model(&mut rng, 5);
        m.edge_fairness.clear();
        let specs: Vec<Ltl<PropId>> = (0..FORMULAS_PER_MODEL).map(|_| mixed_formula(&mut rng, 4)).collect();
        let text = kripke_smv(&m, &specs);
        let bdd = bdd_outcomes(&text);
        assert_eq!(bdd.len(), specs.len());
        for (f, b) in specs.iter().zip(&bdd) {
            mixed += f.has_future_below_past() as usize;
            if b.holds {
                let violation = find_violation(&m, f, 9);
                assert!(violation.is_none(), "case {case}: {f:?} called true but {violation:?} violates it:\n{text}");
                true_checked += 1;
                continue;
            }
            replay(&m, f, b, &format!("case {case}:\n{text}"));
            replayed += 1;
        }
    }
    eprintln!(
        "future below past (bdd): {true_checked} true specs without violating lasso, {replayed} counterexamples replayed, {mixed} specs with a future operator below a past one"
    );
    assert!(true_checked > 0 && replayed > 0 && mixed * 4 > true_checked + replayed);
}

#[test]
fn future_below_past_is_the_bdd_engines_and_autos() {
    let text = "MODULE main\nVAR req : boolean; ack : boolean;\nASSIGN init(req) := TRUE; next(req) := !req; next(ack) := req;\n\
                LTLSPEC G (ack -> O (req & X ack))\nLTLSPEC G (ack -> Y (req U ack))\nLTLSPEC G (X req -> H (F ack))\n";
    let (code, out, err) = run(text, Engine::Bdd);
    assert_eq!(code, 1, "{err}");
    // NuSMV 2.5.4's verdicts on this model.
    let verdicts = [
        "-- specification  G (ack ->  O (req &  X ack))  is true",
        "-- specification  G (ack ->  Y (req U ack))  is false",
        "-- specification  G ( X req ->  H ( F ack))  is true",
    ];
    assert_eq!(verdict_lines(&out), verdicts);
    let (auto_code, auto_out, _) = run(text, Engine::Auto);
    assert_eq!((auto_code, auto_out.as_str()), (code, out.as_str()));
    let file = SourceFile::new("mixed.smv", text);
    let verified = run_check(&file, &CheckOptions { verify: true, stats: true, ..Default::default() }, &Stages::linked());
    assert_eq!(verified.exit_code, 1, "{}", verified.stderr);
    assert!(verified.stderr.contains("flat verified by engine explicit: not run"), "{}", verified.stderr);
    let (code, _, err) = run(text, Engine::Explicit);
    assert_eq!(code, 2);
    assert!(err.contains("error[E0221]: a future operator below a past one is not checked by the explicit engine"), "{err}");
    assert!(err.contains("check it with `--engine bdd`"), "{err}");
}
