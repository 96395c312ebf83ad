//! The BDD engine (`--engine bdd`) against the explicit engine on random flat models: the
//! control-flow models of tools/cfg_model.rs (deadlocks, `FAIRNESS`, `INVARSPEC`) and random
//! multi-variable models (booleans, ranges, enums, input variables, set-valued `case` branches,
//! `TRANS`, `INVAR`, `FAIRNESS`, deadlocks) with random CTL over every operator. Verdict output
//! and `-r` figures must be identical; every BDD trace must be a path of the explicit state
//! graph from an initial state (lassos closing with an edge), and an invariant's counterexample
//! must end in a violating state. With `NUSMV` set, the BDD engine's verdicts are also compared
//! with NuSMV 2.5.4 on small models of its example collection. `XMV_TEST_CASES=N` sets the number
//! of random models (default 120).

#[allow(clippy::duplicate_mod)]
#[path = "../tools/cfg_model.rs"]
mod cfg_model;
mod support;

use cfg_model::{CfgModel, CfgParams, ctl_text};
use support::random::{Rng, cases, formula, rtctl_formula};
use xmv_rs::check::Checker;
use xmv_rs::check::bdd::Symbolic;
use xmv_rs::check::engine::RunOptions;
use xmv_rs::check::trace::{Trace, TraceKind};
use xmv_rs::driver::{CheckOptions, Engine, run_check, stages::Stages};
use xmv_rs::explicit::build_flat::{BuildLimits, build_flat};
use xmv_rs::explicit::kripke::StateId;
use xmv_rs::source::SourceFile;
use xmv_rs::symbolic::SymbolicModel;

fn run(text: &str, engine: Engine, traces: bool) -> (i32, String, String) {
    let file = SourceFile::new("random.smv", text);
    let options = CheckOptions { engine, traces, reachable: true, ..Default::default() };
    let out = run_check(&file, &options, &Stages::linked());
    (out.exit_code, out.stdout, out.stderr)
}

/// A random model over a few variables of several kinds.
fn random_model(rng: &mut Rng) -> String {
    random_model_with(rng, formula)
}

/// [`random_model`] with its eight CTL specs drawn by `spec`.
fn random_model_with(rng: &mut Rng, spec: fn(&mut Rng, usize) -> xmv_rs::ctl::Ctl<xmv_rs::ir::PropId>) -> String {
    let mut s = String::from("MODULE main\nVAR\n  a : boolean;\n  n : 0..4;\n  c : {red, green, blue};\n");
    let inputs = rng.chance(50);
    if inputs {
        s.push_str("IVAR\n  i : boolean;\n");
    }
    let cond = |rng: &mut Rng| -> String {
        let base = match rng.below(5) {
            0 => "a".to_string(),
            1 => format!("n = {}", rng.below(5)),
            2 => format!("n < {}", 1 + rng.below(4)),
            3 => format!("c = {}", ["red", "green", "blue"][rng.below(3)]),
            _ => "!a".to_string(),
        };
        if inputs && rng.chance(30) { format!("{base} & i") } else { base }
    };
    s.push_str("ASSIGN\n  init(n) := 0;\n");
    if rng.chance(50) {
        s.push_str("  init(a) := FALSE;\n");
    }
    s.push_str("  next(n) := case\n");
    for _ in 0..1 + rng.below(3) {
        let value = match rng.below(4) {
            0 => "(n + 1) mod 5".to_string(),
            1 => format!("{{{}, {}}}", rng.below(5), rng.below(5)),
            2 => "n".to_string(),
            _ => format!("{}", rng.below(5)),
        };
        s.push_str(&format!("    {} : {value};\n", cond(rng)));
    }
    s.push_str("    TRUE : n;\n  esac;\n");
    if rng.chance(70) {
        s.push_str(&format!("  next(a) := case {} : !a; TRUE : {{TRUE, FALSE}}; esac;\n", cond(rng)));
    }
    if rng.chance(70) {
        s.push_str(&format!("  next(c) := case {} : green; c = green : blue; TRUE : {{red, c}}; esac;\n", cond(rng)));
    }
    if rng.chance(30) {
        s.push_str(&format!("TRANS !({}) | next(n) != 3\n", cond(rng)));
    }
    if rng.chance(20) {
        // A deadlock: no successor from some states.
        s.push_str(&format!("TRANS !({} & n = 4)\n", cond(rng)));
    }
    if rng.chance(30) {
        s.push_str("INVAR !(c = blue & n = 2)\n");
    }
    s.push_str("DEFINE\n");
    for k in 0..3 {
        s.push_str(&format!("  p{k} := {};\n", cond(&mut Rng::new(rng.next_u64())).replace(" & i", "")));
    }
    for _ in 0..rng.below(3) {
        s.push_str(&format!("FAIRNESS p{}\n", rng.below(3)));
    }
    for _ in 0..8 {
        s.push_str(&format!("SPEC {}\n", ctl_text(&spec(rng, 3))));
    }
    s.push_str(&format!("INVARSPEC !p{}\nINVARSPEC n < 4\n", rng.below(3)));
    s
}

fn cfg_model(rng: &mut Rng) -> String {
    let states = 3 + rng.below(40);
    let mut p = CfgParams::new(states, 12, rng.next_u64());
    p.labels = 3 + rng.below(4);
    p.label_size = (states / 5).max(1);
    p.deadlock_percent = [0, 0, 10, 30][rng.below(4)];
    p.fairness = [0, 0, 1, 2][rng.below(4)];
    p.invariants = 3;
    p.depth = 1 + rng.below(3);
    CfgModel::generate(&p).to_smv()
}

/// Every BDD trace is a path of the explicit graph; invariant counterexamples end in a bad state.
fn validate_traces(text: &str) -> usize {
    let file = SourceFile::new("random.smv", text);
    let (program, _) = xmv_rs::frontend::load(&file, None);
    let program = program.expect("the random model loads");
    let explicit = build_flat(&program, &BuildLimits::default()).expect("explicit build");
    let symbolic = SymbolicModel::build(&program, None, 1).expect("BDD build");
    let options = RunOptions { traces: true, witnesses: true, threads: 1 };
    let checked = Symbolic.check(&symbolic, &symbolic.specs, &options).expect("BDD check");
    let k = &explicit.kripke;
    let id_of = |values: &[u32]| (0..k.num_states).map(StateId::from_u32).find(|&s| k.state_values(s) == values);
    let mut traces = 0;
    for (spec, outcome) in symbolic.specs.iter().zip(&checked.outcomes) {
        let Some(Trace { steps, loop_start, kind, .. }) = &outcome.trace else { continue };
        assert_eq!(*kind == TraceKind::Counterexample, !outcome.holds, "{text}");
        let ids: Vec<StateId> = steps.iter().map(|s| id_of(&s.values).unwrap_or_else(|| panic!("a trace state is not reachable:\n{text}"))).collect();
        assert!(k.initial.contains(&ids[0]), "trace does not start in an initial state:\n{text}");
        for w in ids.windows(2) {
            assert!(k.succ.neighbours(w[0]).contains(&w[1]), "trace step {} -> {} is not a transition:\n{text}", w[0], w[1]);
        }
        if let Some(l) = loop_start {
            let last = ids[ids.len() - 1];
            assert!(k.succ.neighbours(last).contains(&ids[*l]), "the loop does not close:\n{text}");
        }
        if spec.invariant {
            let e = explicit.specs.iter().find(|s| s.spec == spec.spec).expect("same specs");
            let xmv_rs::ctl::Ctl::Atom(p) = e.formula else { continue };
            assert!(!k.props[p.index()].contains(ids[ids.len() - 1].index()), "the invariant holds at the end of its counterexample:\n{text}");
        }
        traces += 1;
    }
    traces
}

#[test]
fn bdd_engine_agrees_with_explicit_on_random_models() {
    let mut rng = Rng::new(0xbdd0);
    let (mut models, mut traces) = (0, 0);
    for case in 0..cases(120) {
        let text = if case % 2 == 0 { cfg_model(&mut rng) } else { random_model(&mut rng) };
        let (code_e, out_e, err_e) = run(&text, Engine::Explicit, false);
        let (code_b, out_b, err_b) = run(&text, Engine::Bdd, false);
        assert_eq!(err_e.contains("error"), err_b.contains("error"), "case {case}:\n{text}\n{err_e}\n{err_b}");
        assert_eq!((code_e, &out_e), (code_b, &out_b), "case {case}, explicit vs bdd:\n{text}\n{err_e}{err_b}");
        assert_eq!(err_e.contains("deadlock"), err_b.contains("deadlock"), "case {case}: deadlock warnings differ\n{text}");
        if code_e != 2 {
            traces += validate_traces(&text);
        }
        models += 1;
    }
    eprintln!("explicit vs bdd: {models} models agree, {traces} BDD traces validated");
}

/// RTCTL specs (unfolded into `EX` chains): the same verdict output from both engines, and every
/// BDD counterexample and witness a path of the explicit graph.
#[test]
fn bdd_engine_agrees_with_explicit_on_rtctl() {
    let mut rng = Rng::new(0xbdd7);
    let (mut models, mut traces) = (0, 0);
    for case in 0..cases(120) / 2 {
        let text = random_model_with(&mut rng, rtctl_formula);
        let (code_e, out_e, err_e) = run(&text, Engine::Explicit, false);
        let (code_b, out_b, err_b) = run(&text, Engine::Bdd, false);
        assert_eq!((code_e, &out_e), (code_b, &out_b), "case {case}, explicit vs bdd:\n{text}\n{err_e}{err_b}");
        if code_e != 2 {
            traces += validate_traces(&text);
        }
        models += 1;
    }
    eprintln!("RTCTL explicit vs bdd: {models} models agree, {traces} BDD traces validated");
}

/// `COMPUTE MIN`/`MAX` over the random models (inputs, `TRANS`, `INVAR`, deadlocks, fairness):
/// the same result lines from the explicit engine's graph searches and the BDD engine's layers.
#[test]
fn bdd_engine_agrees_with_explicit_on_compute() {
    let mut rng = Rng::new(0xbdd9);
    let mut results = 0;
    for case in 0..cases(120) / 2 {
        let mut text = random_model(&mut rng);
        for _ in 0..6 {
            let operand = |rng: &mut Rng| if rng.chance(70) { format!("p{}", rng.below(3)) } else { ctl_text(&formula(rng, 2)) };
            let (from, to) = (operand(&mut rng), operand(&mut rng));
            text.push_str(&format!("COMPUTE {} [ {from} , {to} ]\n", if rng.chance(50) { "MIN" } else { "MAX" }));
        }
        let (code_e, out_e, err_e) = run(&text, Engine::Explicit, false);
        let (code_b, out_b, err_b) = run(&text, Engine::Bdd, false);
        assert_eq!((code_e, &out_e), (code_b, &out_b), "case {case}, explicit vs bdd:\n{text}\n{err_e}{err_b}");
        results += out_e.lines().filter(|l| l.starts_with("-- the result of")).count();
    }
    eprintln!("COMPUTE explicit vs bdd: {results} results agree");
}

#[test]
fn verify_runs_both_engines() {
    let mut rng = Rng::new(7);
    let text = random_model(&mut rng);
    let file = SourceFile::new("random.smv", text.as_str());
    let options = CheckOptions { engine: Engine::Bdd, verify: true, stats: true, ..Default::default() };
    let out = run_check(&file, &options, &Stages::linked());
    assert_ne!(out.exit_code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("flat verified by engine explicit"), "{}", out.stderr);
    assert!(out.stderr.contains("flat engine: bdd"), "{}", out.stderr);
}

#[test]
fn auto_switches_to_bdds_past_the_state_budget() {
    // 2^20 states: past a budget of 1000, so auto decides with BDDs; same verdicts as bdd.
    let mut text = String::from("MODULE main\nVAR\n");
    for i in 0..20 {
        text.push_str(&format!("  b{i} : boolean;\n"));
    }
    text.push_str("SPEC AG EF b0\nSPEC AG b1\nINVARSPEC b2 | !b2\n");
    let file = SourceFile::new("wide.smv", text.as_str());
    let options = |engine| CheckOptions { engine, max_states: Some(1000), stats: true, reachable: true, ..Default::default() };
    let auto = run_check(&file, &options(Engine::Auto), &Stages::linked());
    let bdd = run_check(&file, &options(Engine::Bdd), &Stages::linked());
    let explicit = run_check(&file, &options(Engine::Explicit), &Stages::linked());
    assert_eq!(explicit.exit_code, 2, "explicit stops at the budget");
    assert!(explicit.stderr.contains("E0505"));
    assert_eq!(auto.stdout, bdd.stdout);
    assert_eq!(auto.exit_code, 1);
    assert!(auto.stdout.contains("reachable states: 1048576 (2^20)"), "{}", auto.stdout);
    assert!(auto.stderr.contains("flat engine: bdd"), "{}", auto.stderr);
    assert!(!auto.stderr.contains("E0505"), "{}", auto.stderr);
}

#[test]
fn bdd_reports_errors_in_reachable_states_only() {
    let text = "MODULE main\nVAR x : 0..3;\nASSIGN init(x) := 0;\nnext(x) := case x < 2 : x + 1; x = 3 : 0; esac;\nSPEC AG x < 3\n";
    let (code, _, err) = run(text, Engine::Bdd, false);
    assert_eq!(code, 2);
    assert!(err.contains("E0501"), "{err}");
    assert!(err.contains("x = 2"), "{err}");
    // The same case, unreachable: no error.
    let text = "MODULE main\nVAR x : 0..3;\nASSIGN init(x) := 0;\nnext(x) := case x < 2 : x + 1; x = 3 : 0; TRUE : 0; esac;\nSPEC AG x < 3\n";
    let (code, out, _) = run(text, Engine::Bdd, false);
    assert_eq!(code, 0, "{out}");
}

/// With `NUSMV` set: the BDD engine's verdict lines equal NuSMV's on small flat models of its
/// example collection (next to the binary: `../examples`).
#[test]
fn bdd_verdicts_agree_with_nusmv_examples() {
    let Some(bin) = support::nusmv::binary("the BDD-vs-NuSMV test") else { return };
    let Some(examples) = bin.parent().map(|d| d.join("examples")).filter(|d| d.is_dir()) else {
        eprintln!("skipping: no examples directory next to NUSMV");
        return;
    };
    let xmv = env!("CARGO_BIN_EXE_xmv-rs");
    let verdicts = |out: &str| -> Vec<String> {
        let mut v = support::nusmv::verdict_lines(out, "-- specification");
        v.extend(support::nusmv::verdict_lines(out, "-- invariant"));
        v.sort();
        v
    };
    let mut compared = 0;
    for f in ["smv-dist/syncarb10.smv", "smv-dist/mutex.smv", "smv-dist/counter.smv", "example_cmu/mutex.smv", "example_cmu/counter.smv", "smv-dist/dme1.smv"] {
        let path = examples.join(f);
        if !path.is_file() {
            continue;
        }
        let (_, theirs) = support::nusmv::run(&bin, &["-dcx"], &path);
        let (_, ours) = support::nusmv::run(std::path::Path::new(xmv), &["check", "--no-trace", "--engine", "bdd"], &path);
        assert_eq!(verdicts(&ours), verdicts(&theirs), "{f}");
        compared += 1;
    }
    eprintln!("bdd vs NuSMV: {compared} example files agree");
}
