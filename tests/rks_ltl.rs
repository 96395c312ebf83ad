//! LTL on recursive Kripke structures (`check::ltl::rks`), against independent oracles:
//!
//! * non-recursive RKSs: the verdict equals the flat LTL engine's (`check::ltl::check_ltl`) on
//!   the unfolded semantic Kripke structure K(R) (`rks_support::oracle::Unfolding`, exact here);
//! * recursive RKSs: a bounded-stack exhaustive lasso oracle written here: every run of K(R) of at
//!   most `MAX_LEN` configurations with at most `MAX_DEPTH` pending calls that closes into a lasso,
//!   either on an equal configuration (bounded depth) or on the same location with the stack
//!   grown by frames the loop never pops (an infinite descent), evaluated by the test-only LTL
//!   semantics of `support::ltl_lasso`. A true verdict must have no violating lasso there;
//! * every counterexample is replayed on K(R) (steps are successors, the loop closes with its
//!   `loop_push` frames inserted, a pushing loop never pops below its start) and its word must
//!   violate the spec.
//!
//! Also: the pinned semantics of `X` across calls and returns, and the LTL worked examples of the
//! Chau 2019 digest §5 (here as RKS texts, and as `tests/ltl_rks/*.smv` with golden outputs of
//! `xmv-rs check`; `UPDATE_GOLDEN=1` rewrites those).
//!
//! `XMV_TEST_CASES=n` changes the number of models.

// Both trust layers are used; each includes tools/splitmix.rs as its own private module.
#![allow(clippy::duplicate_mod)]

mod rks_support;
mod support;

use rks_support::model::Model;
use rks_support::oracle::{Config, Unfolding, successors};
use rks_support::random::{self as rks_random, GenParams};
use support::ltl_lasso::{formula, holds_on_lasso};
use support::random::{NUM_LABELS, Rng, cases};
use xmv_rs::check::ltl::check_ltl;
use xmv_rs::check::ltl::rks::check as check_rks;
use xmv_rs::check::trace::{CallFrame, Trace, TraceStep};
use xmv_rs::explicit::csr::Csr;
use xmv_rs::explicit::kripke::{KripkeStructure, StateId};
use xmv_rs::explicit::rks::RecursiveKripkeStructure;
use xmv_rs::explicit::rks::{ComponentId, NodeId};
use xmv_rs::ir::PropId;
use xmv_rs::ltl::{Ltl, LtlOp};

const MAX_LEN: usize = 9;
const MAX_DEPTH: usize = 3;

fn labels(rks: &RecursiveKripkeStructure, c: &Config) -> Vec<bool> {
    (0..NUM_LABELS as u32)
        .map(|p| match c {
            Config::Term => false,
            Config::At { comp, node, .. } => rks.components[*comp as usize].props.holds(PropId::from_u32(p), NodeId::from_u32(*node)),
        })
        .collect()
}

/// Whether the word of `prefix · cycle^ω` (configurations) satisfies `f`.
fn word_holds(rks: &RecursiveKripkeStructure, f: &Ltl<PropId>, prefix: &[Config], cycle: &[Config]) -> bool {
    let all: Vec<Vec<bool>> = prefix.iter().chain(cycle).map(|c| labels(rks, c)).collect();
    let props = (0..NUM_LABELS).map(|p| all.iter().map(|l| l[p]).collect()).collect();
    let word = support::oracle::Model { succ: vec![], init: vec![], props, fairness: vec![], edge_fairness: vec![] };
    let idx: Vec<usize> = (0..all.len()).collect();
    holds_on_lasso(&word, f, &idx[..prefix.len()], &idx[prefix.len()..])
}

fn initial(rks: &RecursiveKripkeStructure) -> Config {
    Unfolding::new(rks, 0, 0, 16).expect("the initial configuration").configs[0].clone()
}

fn config(step: &TraceStep) -> Config {
    if step.terminated {
        Config::Term
    } else {
        Config::At { stack: step.stack.iter().map(|f| (f.component, f.call)).collect(), comp: step.component, node: step.state }
    }
}

fn stack(c: &Config) -> &[(u32, u32)] {
    match c {
        Config::At { stack, .. } => stack,
        Config::Term => &[],
    }
}

/// Replays a counterexample on K(R); `Err` says what is wrong.
fn replay(rks: &RecursiveKripkeStructure, f: &Ltl<PropId>, t: &Trace) -> Result<(), String> {
    let confs: Vec<Config> = t.steps.iter().map(config).collect();
    let ls = t.loop_start.ok_or("a counterexample without a loop")?;
    if confs.first() != Some(&initial(rks)) {
        return Err(format!("does not start at the initial configuration: {:?}", confs.first()));
    }
    for (i, w) in confs.windows(2).enumerate() {
        if !successors(rks, &w[0]).contains(&w[1]) {
            return Err(format!("step {i} → {}: {:?} is not a successor of {:?}", i + 1, w[1], w[0]));
        }
    }
    let d = stack(&confs[ls]).len();
    let back = match &confs[ls] {
        Config::At { stack, comp, node } => {
            let mut s = stack[..d].to_vec();
            s.extend(t.loop_push.iter().map(|f| (f.component, f.call)));
            Config::At { stack: s, comp: *comp, node: *node }
        }
        Config::Term => Config::Term,
    };
    let last = confs.last().ok_or("empty trace")?;
    if !successors(rks, last).contains(&back) {
        return Err(format!("the loop does not close: {back:?} is not a successor of {last:?}"));
    }
    if !t.loop_push.is_empty() && confs[ls..].iter().any(|c| stack(c).len() < d || stack(c)[..d] != stack(&confs[ls])[..d]) {
        return Err("a loop that pushes frames pops below its start".into());
    }
    if word_holds(rks, f, &confs[..ls], &confs[ls..]) {
        return Err("the counterexample's word satisfies the spec".into());
    }
    Ok(())
}

/// Some lasso of K(R) of at most `MAX_LEN` configurations, at most `MAX_DEPTH` pending calls,
/// whose word violates `f` (bounded depth or an infinite descent).
fn bounded_violation(rks: &RecursiveKripkeStructure, f: &Ltl<PropId>) -> Option<(Vec<Config>, usize)> {
    fn extend(rks: &RecursiveKripkeStructure, f: &Ltl<PropId>, path: &mut Vec<Config>) -> Option<(Vec<Config>, usize)> {
        let last = path.last()?.clone();
        let next = successors(rks, &last);
        for j in 0..path.len() {
            let (base, at) = match &path[j] {
                Config::At { stack, comp, node } => (stack.clone(), Some((*comp, *node))),
                Config::Term => (vec![], None),
            };
            let closes = next.iter().any(|t| {
                *t == path[j]
                    || matches!((t, at), (Config::At { stack, comp, node }, Some(a)) if (*comp, *node) == a && stack.len() > base.len() && stack[..base.len()] == base[..]
                        && path[j..].iter().all(|c| stack_has_prefix(c, &base)))
            });
            if closes && !word_holds(rks, f, &path[..j], &path[j..]) {
                return Some((path.clone(), j));
            }
        }
        if path.len() == MAX_LEN {
            return None;
        }
        for t in next {
            if stack(&t).len() > MAX_DEPTH {
                continue;
            }
            path.push(t);
            if let Some(found) = extend(rks, f, path) {
                return Some(found);
            }
            path.pop();
        }
        None
    }
    extend(rks, f, &mut vec![initial(rks)])
}

fn stack_has_prefix(c: &Config, base: &[(u32, u32)]) -> bool {
    matches!(c, Config::At { stack, .. } if stack.len() >= base.len() && stack[..base.len()] == base[..])
}

/// K(R) (complete: the model has no reachable recursion) as a flat Kripke structure.
fn unfolded(rks: &RecursiveKripkeStructure) -> KripkeStructure {
    let u = Unfolding::new(rks, 0, 64, 200_000).expect("small unfolding");
    assert!(u.is_complete());
    let n = u.configs.len();
    let edges: Vec<(StateId, StateId)> =
        u.succ.iter().enumerate().flat_map(|(s, ts)| ts.iter().map(move |&t| (StateId::new(s), StateId::from_u32(t)))).collect();
    let succ = Csr::from_edges(n, &edges);
    let props = (0..NUM_LABELS)
        .map(|p| {
            let mut set = fixedbitset::FixedBitSet::with_capacity(n);
            for (s, c) in u.configs.iter().enumerate() {
                set.set(s, labels(rks, c)[p]);
            }
            set
        })
        .collect();
    KripkeStructure {
        num_states: n as u32,
        initial: vec![StateId::new(0)],
        pred: Default::default(),
        succ,
        props,
        prop_names: (0..NUM_LABELS).map(|p| format!("p{p}")).collect(),
        values: xmv_rs::explicit::state_values::StateValues::from_rows(1, &(0..n as u32).collect::<Vec<_>>()),
        num_vars: 1,
    }
}

fn random_model(rng: &mut rks_random::Rng, recursive: bool) -> Model {
    rks_random::model(rng, &GenParams { recursive, max_comps: 4, max_nodes: 5 })
}

#[test]
fn non_recursive_models_agree_with_the_flat_engine_on_the_unfolding() {
    let (mut rng, mut frng) = (rks_random::Rng::new(0x171), Rng::new(0x172));
    let (mut verdicts, mut replayed) = (0, 0);
    for case in 0..cases(1000) {
        let m = random_model(&mut rng, false);
        let rks = m.build();
        let kripke = unfolded(&rks);
        for _ in 0..4 {
            let past = frng.chance(30);
            let f = formula(&mut frng, 3, past);
            let flat = check_ltl(&kripke, &[&f], &[], false).expect("flat LTL")[0].outcome.holds;
            let r = check_rks(&rks, ComponentId::new(0), &f, true).expect("RKS LTL");
            assert_eq!(r.holds, flat, "case {case}: {f:?}\n{}", m.to_text());
            verdicts += 1;
            if let Some(t) = &r.trace {
                replay(&rks, &f, t).unwrap_or_else(|e| panic!("case {case}: {f:?}: {e}\n{t:?}\n{}", m.to_text()));
                replayed += 1;
            }
            assert_eq!(r.trace.is_some(), !r.holds, "a false verdict has a counterexample");
        }
    }
    println!("non-recursive: {verdicts} verdicts equal the flat engine's, {replayed} counterexamples replayed");
}

#[test]
fn recursive_models_against_the_bounded_stack_lasso_oracle() {
    let (mut rng, mut frng) = (rks_random::Rng::new(0x173), Rng::new(0x174));
    let (mut checked, mut replayed, mut confirmed, mut descents) = (0, 0, 0, 0);
    for case in 0..cases(600) {
        let m = random_model(&mut rng, true);
        let rks = m.build();
        for _ in 0..3 {
            let past = frng.chance(20);
            let f = formula(&mut frng, 3, past);
            let r = check_rks(&rks, ComponentId::new(0), &f, true).expect("RKS LTL");
            let oracle = bounded_violation(&rks, &f);
            checked += 1;
            if r.holds {
                assert!(oracle.is_none(), "case {case}: {f:?} is true but the oracle has a violating lasso {oracle:?}\n{}", m.to_text());
            } else {
                let t = r.trace.as_ref().expect("a counterexample");
                replay(&rks, &f, t).unwrap_or_else(|e| panic!("case {case}: {f:?}: {e}\n{t:?}\n{}", m.to_text()));
                replayed += 1;
                descents += !t.loop_push.is_empty() as usize;
                confirmed += oracle.is_some() as usize;
            }
        }
    }
    println!(
        "recursive: {checked} verdicts, {replayed} counterexamples replayed ({descents} infinite descents), {confirmed} false verdicts also found by the bounded oracle"
    );
}

fn x(f: Ltl<PropId>) -> Ltl<PropId> {
    Ltl::Unary(LtlOp::X, Box::new(f))
}
fn atom(p: u32) -> Ltl<PropId> {
    Ltl::Atom(PropId::from_u32(p))
}
fn holds(m: &str, f: &Ltl<PropId>) -> bool {
    let rks = Model::parse(m).build();
    let r = check_rks(&rks, ComponentId::new(0), f, true).expect("RKS LTL");
    if let Some(t) = &r.trace {
        replay(&rks, f, t).expect("the counterexample replays");
    }
    r.holds
}

/// `X` across a call and a return (transparent calls, README "Language: recursive procedure
/// modules"): the position after the calling location is the callee's entry, the position after
/// the exit is the call's continuation. Chau digest §5 T9.
#[test]
fn next_crosses_calls_and_returns_in_one_step() {
    let m = "termination trap
props a b c d
component M
  loc m0 a
  call k B
  loc r d
  edge m0 k
  ret k 0 r
  edge r r
component B exits x
  loc e b
  loc x c
  edge e x
";
    assert!(holds(m, &atom(0)));
    assert!(holds(m, &x(atom(1))), "X b at the calling location: the callee's entry");
    assert!(!holds(m, &x(atom(0))));
    assert!(holds(m, &x(x(atom(2)))), "X X c: the exit");
    assert!(holds(m, &x(x(x(atom(3))))), "X X X d: the return location right after the exit");
    let y = |f| Ltl::Unary(LtlOp::Y, Box::new(f));
    assert!(holds(m, &x(y(atom(0)))), "Y a at the callee's entry: the caller's location before the call");
    assert!(holds(m, &x(x(x(y(atom(2)))))), "Y c at the return location: the exit");
}

/// Chau digest §5 T6: a self-recursive module that never returns; the only run is an infinite
/// descent, so `F q` is false with a counterexample whose loop pushes the call again.
#[test]
fn infinite_recursion_is_a_run() {
    let m = "termination trap
props p q
component P exits x
  loc e p
  call c P
  loc x q
  edge e c
  ret c 0 x
";
    let f = Ltl::Unary(LtlOp::F, Box::new(atom(1)));
    let rks = Model::parse(m).build();
    let r = check_rks(&rks, ComponentId::new(0), &f, true).unwrap();
    assert!(!r.holds);
    let t = r.trace.unwrap();
    assert_eq!(t.loop_push, vec![CallFrame { component: 0, call: 1 }], "each repetition calls P again from its call node");
    replay(&rks, &f, &t).unwrap();
    assert!(holds(m, &Ltl::Unary(LtlOp::G, Box::new(atom(0)))), "G p: every position of the descent is the entry");
}

/// Chau digest §5 T7: summaries are per exit. After exit x1 (c1) comes ¬p, after x2 (c2) comes
/// p, so `F ((c1 & X p) | (c2 & X !p))` is false; a union over exits would make it true.
#[test]
fn obligations_follow_their_own_exit() {
    let m = "termination trap
props p c1 c2
component M
  loc m0
  call k C
  loc r1
  loc r2 p
  edge m0 k
  ret k 0 r1
  ret k 1 r2
  edge r1 r1
  edge r2 r2
component C exits x1 x2
  loc e
  loc x1 c1
  loc x2 c2
  edge e x1 x2
";
    let and = |a, b| Ltl::And(Box::new(a), Box::new(b));
    let not = |a| Ltl::Not(Box::new(a));
    let f = Ltl::Unary(LtlOp::F, Box::new(Ltl::Or(Box::new(and(atom(1), x(atom(0)))), Box::new(and(atom(2), x(not(atom(0))))))));
    assert!(!holds(m, &f));
    let g = Ltl::Unary(LtlOp::F, Box::new(Ltl::Or(Box::new(and(atom(1), x(not(atom(0))))), Box::new(and(atom(2), x(atom(0)))))));
    assert!(holds(m, &g));
}

/// Termination rules at the bottom of the stack: `trap` moves to a label-free state, `loop`
/// repeats the exit location (Chau digest §5 T10).
#[test]
fn termination_rules() {
    let body = "props p done
component M exits x
  loc a p
  loc x done
  edge a x
";
    let fg = |f| Ltl::Unary(LtlOp::F, Box::new(Ltl::Unary(LtlOp::G, Box::new(f))));
    let gf = |f| Ltl::Unary(LtlOp::G, Box::new(Ltl::Unary(LtlOp::F, Box::new(f))));
    assert!(!holds(&format!("termination trap\n{body}"), &fg(atom(1))));
    assert!(holds(&format!("termination trap\n{body}"), &fg(Ltl::Not(Box::new(atom(1))))));
    assert!(holds(&format!("termination loop\n{body}"), &fg(atom(1))));
    assert!(holds(&format!("termination loop\n{body}"), &gf(atom(1))));
}

/// Chau digest §5 T5: the RSM of Alur, Etessami and Yannakakis (thesis Fig. 2.8), one module per
/// (component, entry) as the importers do, started at A1.u2. A2 entered at v1 only recurses, so
/// from u2 a run either returns through u4 (then terminates) or descends at v1 forever.
#[test]
fn aey_sample_rsm() {
    let m = "termination trap
props at_u4 at_v3 at_v1
component A1u2 exits u4
  loc u2
  loc u3
  call b2 A3
  loc u4 at_u4
  edge u2 u3
  edge u3 b2
  ret b2 0 u4
component A3 exits w2
  loc w1
  call d A1u1
  loc w2
  edge w1 d w2
  ret d 0 w2
component A1u1 exits u4b
  loc u1
  call b1 A2v1
  loc u4b at_u4
  edge u1 b1
  ret b1 0 u4b
  ret b1 1 u4b
component A2v1 exits v3 v4
  loc v1 at_v1
  call c1 A2v1
  loc v3 at_v3
  loc v4
  edge v1 c1
  ret c1 0 v4
  ret c1 1 v3
";
    let f = |a| Ltl::Unary(LtlOp::F, Box::new(a));
    let g = |a| Ltl::Unary(LtlOp::G, Box::new(a));
    let not = |a| Ltl::Not(Box::new(a));
    assert!(!holds(m, &f(atom(0))), "F at_u4: the descent at v1 never reaches u4");
    assert!(holds(m, &g(not(atom(1)))), "G !at_v3: A2 is entered at v1 only");
    assert!(holds(m, &Ltl::Or(Box::new(f(atom(0))), Box::new(f(g(atom(2)))))), "every run returns through u4 or descends at v1 forever");
    assert!(!holds(m, &f(g(atom(2)))));
}

/// The worked examples as `.smv` files: `xmv-rs check FILE` prints `FILE.out` exactly.
#[test]
fn worked_examples_print_their_golden_output() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ltl_rks");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == "smv")).collect();
    files.sort();
    assert!(files.len() >= 7);
    for file in files {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_xmv-rs")).arg("check").arg(&file).output().unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        let golden = file.with_extension("out");
        if std::env::var_os("UPDATE_GOLDEN").is_some() {
            std::fs::write(&golden, &text).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&golden).unwrap_or_else(|_| panic!("{} is missing (UPDATE_GOLDEN=1 writes it)", golden.display()));
        assert_eq!(text, want, "{}", file.display());
        // The verdicts the file's comments expect, in the order printed (CTL first).
        let source = std::fs::read_to_string(&file).unwrap();
        let mut expected: Vec<&str> = source.lines().filter_map(|l| l.strip_prefix("-- expect: ")).collect();
        expected.sort_by_key(|e| !e.contains(" SPEC "));
        let printed: Vec<&str> = text.lines().filter(|l| l.starts_with("-- specification")).collect();
        assert_eq!(printed.len(), expected.len(), "{}", file.display());
        for (p, e) in printed.iter().zip(&expected) {
            let verdict = e.split_whitespace().next().unwrap();
            assert!(p.ends_with(&format!("is {verdict}")), "{}: {p} (expected {e})", file.display());
        }
    }
}
