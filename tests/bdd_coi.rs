//! Cones of influence in the BDD engine (`symbolic::cone`, `check::bdd::cone`): on random flat
//! models made of loosely coupled variables (assignments reading a few others, inputs, frozen
//! variables, `INIT`/`INVAR`/`TRANS` constraints that can remove states or cause deadlocks,
//! `FAIRNESS`), whose specs each read one or two variables, the engine with cones
//! (`check::bdd::Symbolic`) must give the outcomes of the engine without them
//! (`check::bdd::SymbolicWholeModel`): the same verdicts, and the same traces (traces are built
//! on the whole model in both). The verdict output must also be the explicit engine's.
//! LTL specs (two per model, past operators included) are decided on their cones too, with the
//! whole model's traces.
//! `XMV_TEST_CASES=N` sets the number of random models (default 150).

#[allow(clippy::duplicate_mod)]
#[path = "../tools/cfg_model.rs"]
mod cfg_model;
mod support;

use cfg_model::ctl_text;
use support::ltl_lasso::formula as ltl_formula;
use support::ltl_smv::ltl_text;
use support::random::{Rng, cases, formula};
use xmv_rs::check::Checker;
use xmv_rs::check::bdd::{Symbolic, SymbolicWholeModel};
use xmv_rs::check::engine::RunOptions;
use xmv_rs::driver::{CheckOptions, Engine, run_check, stages::Stages};
use xmv_rs::source::SourceFile;
use xmv_rs::symbolic::SymbolicModel;

const VARS: usize = 6;

fn atom(rng: &mut Rng, vars: &[usize]) -> String {
    let v = vars[rng.below(vars.len())];
    match rng.below(3) {
        0 => format!("v{v} = {}", rng.below(3)),
        1 => format!("v{v} < {}", 1 + rng.below(2)),
        _ => format!("v{v} != {}", rng.below(3)),
    }
}

/// A random model of `VARS` variables `v0 … v5 : 0..2`, loosely coupled.
fn random_model(rng: &mut Rng) -> String {
    let mut s = String::from("MODULE main\nVAR\n");
    let frozen = if rng.chance(20) { Some(rng.below(VARS)) } else { None };
    for v in 0..VARS {
        if Some(v) == frozen {
            s.push_str(&format!("FROZENVAR v{v} : 0..2;\nVAR\n"));
        } else {
            s.push_str(&format!("  v{v} : 0..2;\n"));
        }
    }
    let inputs = rng.chance(50);
    if inputs {
        s.push_str("IVAR\n  i : boolean;\n");
    }
    s.push_str("ASSIGN\n");
    for v in 0..VARS {
        if rng.chance(70) {
            let init = if rng.chance(30) { format!("{{{}, {}}}", rng.below(3), rng.below(3)) } else { rng.below(3).to_string() };
            s.push_str(&format!("  init(v{v}) := {init};\n"));
        }
        if Some(v) == frozen || rng.chance(15) {
            continue;
        }
        // Reads itself and, mostly, one neighbour: chains of dependencies, not a clique.
        let other = if rng.chance(70) { (v + 1) % VARS } else { rng.below(VARS) };
        let guard = match rng.below(4) {
            0 if inputs => "i".to_string(),
            1 => format!("v{other} = {}", rng.below(3)),
            2 => format!("v{v} < v{other}"),
            _ => format!("v{v} = {}", rng.below(3)),
        };
        let value = match rng.below(4) {
            0 => format!("(v{v} + 1) mod 3"),
            1 => format!("{{{}, {}}}", rng.below(3), rng.below(3)),
            2 => format!("v{other}"),
            _ => rng.below(3).to_string(),
        };
        s.push_str(&format!("  next(v{v}) := case {guard} : {value}; TRUE : v{v}; esac;\n"));
    }
    let var = |rng: &mut Rng| rng.below(VARS);
    if rng.chance(20) {
        let v = var(rng);
        s.push_str(&format!("INIT v{v} != {}\n", rng.below(3)));
    }
    if rng.chance(25) {
        // May remove reachable states: their predecessors can deadlock.
        let v = var(rng);
        s.push_str(&format!("INVAR v{v} != {}\n", rng.below(3)));
    }
    if rng.chance(25) {
        let v = var(rng);
        s.push_str(&format!("TRANS v{v} = {} -> next(v{v}) != {}\n", rng.below(3), rng.below(3)));
    }
    for _ in 0..[0, 0, 1, 2][rng.below(4)] {
        let v = var(rng);
        s.push_str(&format!("FAIRNESS v{v} = {}\n", rng.below(3)));
    }
    for _ in 0..4 {
        // Each spec reads one or two variables.
        let vars: Vec<usize> = (0..1 + rng.below(2)).map(|_| var(rng)).collect();
        let atoms: Vec<String> = (0..3).map(|_| atom(rng, &vars)).collect();
        let mut text = ctl_text(&formula(rng, 3));
        for (p, a) in atoms.iter().enumerate() {
            text = text.replace(&format!("p{p}"), &format!("({a})"));
        }
        s.push_str(&format!("SPEC {text}\n"));
    }
    for _ in 0..2 {
        let vars: Vec<usize> = (0..1 + rng.below(2)).map(|_| var(rng)).collect();
        let atoms: Vec<String> = (0..3).map(|_| atom(rng, &vars)).collect();
        let mut text = ltl_text(&ltl_formula(rng, 3, true));
        for (p, a) in atoms.iter().enumerate() {
            text = text.replace(&format!("p{p}"), &format!("({a})"));
        }
        s.push_str(&format!("LTLSPEC {text}\n"));
    }
    let vars = [var(rng)];
    s.push_str(&format!("INVARSPEC {}\n", atom(rng, &vars)));
    s
}

fn run(text: &str, engine: Engine) -> (i32, String) {
    let file = SourceFile::new("random.smv", text);
    let options = CheckOptions { engine, traces: false, ..Default::default() };
    let out = run_check(&file, &options, &Stages::linked());
    (out.exit_code, out.stdout)
}

#[test]
fn cones_keep_verdicts_and_traces_of_the_whole_model() {
    let mut rng = Rng::new(0xc0e1);
    let (mut models, mut specs, mut on_cones, mut ltl_on_cones, mut traces) = (0, 0, 0u64, 0u64, 0);
    for case in 0..cases(150) {
        let text = random_model(&mut rng);
        let (code_e, out_e) = run(&text, Engine::Explicit);
        let (code_b, out_b) = run(&text, Engine::Bdd);
        assert_eq!((code_e, &out_e), (code_b, &out_b), "case {case}, explicit vs bdd with cones:\n{text}");
        if code_b == 2 {
            continue;
        }
        let file = SourceFile::new("random.smv", text.as_str());
        let program = xmv_rs::frontend::load(&file, None).0.expect("the random model loads");
        let model = SymbolicModel::build(&program, None, 1).expect("BDD build");
        for witnesses in [false, true] {
            let options = RunOptions { traces: true, witnesses, threads: 1 };
            let cones = Symbolic.check(&model, &model.specs, &options).expect("check with cones");
            let whole = SymbolicWholeModel.check(&model, &model.specs, &options).expect("check without cones");
            assert_eq!(cones.warnings, whole.warnings, "case {case}:\n{text}");
            for (k, (a, b)) in cones.outcomes.iter().zip(&whole.outcomes).enumerate() {
                assert_eq!(a.holds, b.holds, "case {case}, spec {k}: verdict with cones differs\n{text}");
                assert_eq!(a.trace, b.trace, "case {case}, spec {k}: trace with cones differs\n{text}");
                traces += usize::from(a.trace.is_some());
            }
            if !witnesses {
                specs += cones.outcomes.len();
                let counter = |name: &str| cones.stats.counters.iter().find(|(n, _)| *n == name).map_or(0, |c| c.1);
                on_cones += counter("specs decided on a cone");
                ltl_on_cones += counter("LTL specs decided on a cone");
            }
        }
        models += 1;
    }
    eprintln!("cones vs whole model: {models} models, {specs} specs, {on_cones} CTL and {ltl_on_cones} LTL specs decided on a cone, {traces} traces identical");
    assert!(ltl_on_cones > 0, "some LTL specs should be decided on their cones");
    assert!(on_cones * 4 >= specs as u64, "the random specs should mostly have proper cones ({on_cones} of {specs})");
}

/// A model whose specs read a counter that a deadlocking constraint elsewhere would cut off: the
/// constraint's variables join every cone, so the vacuous verdicts of the whole model stay.
#[test]
fn constraints_outside_the_spec_keep_deadlocks_and_fairness() {
    let text = "MODULE main\nVAR\n  x : 0..3;\n  y : 0..3;\n  z : boolean;\n  w : boolean;\nASSIGN\n  init(x) := 0;\n  next(x) := (x + 1) mod 4;\n  \
                init(y) := 0;\n  next(y) := case y < 3 : y + 1; TRUE : 3; esac;\n  next(z) := !z;\n  next(w) := !w;\n\
                INVAR y != 3\nFAIRNESS z\nSPEC AG x < 3\nSPEC EF x = 3\nSPEC AG (x = 0 -> AX x = 1)\n";
    let file = SourceFile::new("deadlock.smv", text);
    let options = CheckOptions { engine: Engine::Bdd, stats: true, traces: true, ..Default::default() };
    let bdd = run_check(&file, &options, &Stages::linked());
    let explicit = run_check(&file, &CheckOptions { engine: Engine::Explicit, ..options.clone() }, &Stages::linked());
    // y reaches 3 never: `INVAR y != 3` makes y = 2 a deadlock, so no path is infinite and
    // every CTL spec holds vacuously — on the whole model and on x's cone (which holds y and z,
    // not w).
    assert!(bdd.stdout.contains("-- specification AG x < 3  is true"), "{}", bdd.stdout);
    assert!(bdd.stdout.contains("-- specification EF x = 3  is true"), "{}", bdd.stdout);
    assert_eq!(bdd.stdout, explicit.stdout);
    assert!(bdd.stderr.contains("specs decided on a cone: 3"), "{}", bdd.stderr);
    assert!(bdd.stderr.contains("cones of influence: 1"), "{}", bdd.stderr);
}
