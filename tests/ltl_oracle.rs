//! The flat LTL engine (`check::ltl`) against independent semantics on random small Kripke
//! structures (deadlocks and fairness sets included):
//! - a brute-force enumerator of fair lassos (tests/support/ltl_lasso.rs): a spec the engine
//!   calls true has no violating fair lasso of up to `MAX_LASSO` states;
//! - every counterexample is replayed: a path from an initial state, a closing loop through every
//!   fairness set, and a word that violates the spec;
//! - on the LTL∩CTL fragment (`G p` = `AG p`, `F p` = `AF p`, `p U q` = `A[p U q]`, `X` = `AX`,
//!   `¬p ∨ φ`, `∧`) the verdicts equal the explicit fair CTL engine's;
//! - results do not depend on the thread count.
//!
//! `XMV_TEST_CASES=N` runs N random structures (default 300).

mod support;

use support::ltl_lasso::{find_violation, formula, holds_on_lasso, is_fair_lasso};
use support::oracle::Model;
use support::random::{NUM_LABELS, Rng, cases, model, to_kripke};
use xmv_rs::check::flat::{CheckOptions, check_ctl};
use xmv_rs::check::ltl::check_ltl;
use xmv_rs::check::trace::Trace;
use xmv_rs::ctl::Ctl;
use xmv_rs::ir::PropId;
use xmv_rs::ltl::{Ltl, LtlOp};

const MAX_LASSO: usize = 9;
const FORMULAS_PER_MODEL: usize = 12;

/// A random model with state fairness only (the LTL engine reads `FAIRNESS` as state sets).
fn state_fair_model(rng: &mut Rng, max_states: usize) -> Model {
    let mut m = model(rng, max_states);
    m.edge_fairness.clear();
    m
}

/// The replayed counterexample: prefix and cycle of model states.
fn split(trace: &Trace) -> (Vec<usize>, Vec<usize>) {
    let states: Vec<usize> = trace.steps.iter().map(|s| s.state as usize).collect();
    let l = trace.loop_start.expect("an LTL counterexample is a lasso");
    (states[..l].to_vec(), states[l..].to_vec())
}

#[test]
fn verdicts_match_the_lasso_oracle_and_counterexamples_replay() {
    let mut rng = Rng::new(0x17_1a55);
    let (mut true_checked, mut false_replayed, mut oracle_found) = (0, 0, 0);
    for case in 0..cases(300) {
        let m = state_fair_model(&mut rng, 5);
        let k = to_kripke(&m);
        let fairness: Vec<PropId> = m.fairness.iter().map(|&p| PropId::new(p)).collect();
        let specs: Vec<Ltl<PropId>> = (0..FORMULAS_PER_MODEL).map(|_| formula(&mut rng, 3, true)).collect();
        let refs: Vec<&Ltl<PropId>> = specs.iter().collect();
        let ours = check_ltl(&k, &refs, &fairness, true).expect("translation");
        for (f, o) in specs.iter().zip(&ours) {
            let violation = find_violation(&m, f, MAX_LASSO);
            if o.outcome.holds {
                assert!(violation.is_none(), "case {case}: {f:?} called true but {violation:?} violates it on {m:?}");
                assert!(o.outcome.trace.is_none());
                true_checked += 1;
            } else {
                let (prefix, cycle) = split(o.outcome.trace.as_ref().expect("a counterexample"));
                assert!(is_fair_lasso(&m, &prefix, &cycle), "case {case}: {f:?}: {prefix:?} {cycle:?} is no fair lasso of {m:?}");
                assert!(!holds_on_lasso(&m, f, &prefix, &cycle), "case {case}: {f:?} holds on its counterexample {prefix:?} {cycle:?} of {m:?}");
                false_replayed += 1;
                oracle_found += violation.is_some() as usize;
            }
        }
    }
    eprintln!(
        "LTL oracle: {true_checked} true specs without violating lasso, {false_replayed} counterexamples replayed ({oracle_found} also found by enumeration)"
    );
    assert!(true_checked > 0 && false_replayed > 0);
}

/// A random formula of the LTL∩ACTL fragment and its CTL twin.
fn fragment(rng: &mut Rng, depth: usize) -> (Ltl<PropId>, Ctl<PropId>) {
    let p = |rng: &mut Rng| PropId::new(rng.below(NUM_LABELS));
    if depth == 0 || rng.chance(15) {
        let a = p(rng);
        return (Ltl::Atom(a), Ctl::Atom(a));
    }
    let b = |x: Ltl<PropId>| Box::new(x);
    let c = |x: Ctl<PropId>| Box::new(x);
    match rng.below(7) {
        0 => {
            let ((l1, c1), (l2, c2)) = (fragment(rng, depth - 1), fragment(rng, depth - 1));
            (Ltl::And(b(l1), b(l2)), Ctl::And(c(c1), c(c2)))
        }
        1 => {
            let a = p(rng);
            let (l, k) = fragment(rng, depth - 1);
            (Ltl::Or(b(Ltl::Not(b(Ltl::Atom(a)))), b(l)), Ctl::Or(c(Ctl::Not(c(Ctl::Atom(a)))), c(k)))
        }
        2 => {
            let (l, k) = fragment(rng, depth - 1);
            (Ltl::Unary(LtlOp::X, b(l)), Ctl::AX(c(k)))
        }
        3 => {
            let (l, k) = fragment(rng, depth - 1);
            (Ltl::Unary(LtlOp::G, b(l)), Ctl::AG(c(k)))
        }
        4 => {
            let a = p(rng);
            (Ltl::Unary(LtlOp::F, b(Ltl::Atom(a))), Ctl::AF(c(Ctl::Atom(a))))
        }
        5 => {
            let (x, y) = (p(rng), p(rng));
            (Ltl::Binary(LtlOp::U, b(Ltl::Atom(x)), b(Ltl::Atom(y))), Ctl::AU(c(Ctl::Atom(x)), c(Ctl::Atom(y))))
        }
        _ => {
            // G (p -> F q) = AG (p -> AF q)
            let (x, y) = (p(rng), p(rng));
            let ltl = Ltl::Unary(LtlOp::G, b(Ltl::Implies(b(Ltl::Atom(x)), b(Ltl::Unary(LtlOp::F, b(Ltl::Atom(y)))))));
            (ltl, Ctl::AG(c(Ctl::Implies(c(Ctl::Atom(x)), c(Ctl::AF(c(Ctl::Atom(y))))))))
        }
    }
}

#[test]
fn ltl_and_ctl_agree_on_their_common_fragment() {
    let mut rng = Rng::new(0xac71);
    let mut agree = 0;
    for case in 0..cases(300) {
        let m = state_fair_model(&mut rng, 7);
        let k = to_kripke(&m);
        let fairness: Vec<PropId> = m.fairness.iter().map(|&p| PropId::new(p)).collect();
        let (ltl, ctl): (Vec<Ltl<PropId>>, Vec<Ctl<PropId>>) = (0..FORMULAS_PER_MODEL).map(|_| fragment(&mut rng, 3)).unzip();
        let refs: Vec<&Ltl<PropId>> = ltl.iter().collect();
        let ours = check_ltl(&k, &refs, &fairness, false).expect("translation");
        let theirs = check_ctl(&k, &ctl, &fairness, &CheckOptions { threads: 1, traces: false, witnesses: false });
        for ((l, c), (o, t)) in ltl.iter().zip(&ctl).zip(ours.iter().zip(&theirs.verdicts)) {
            assert_eq!(o.outcome.holds, t.holds, "case {case}: LTL {l:?} vs CTL {c:?} on {m:?}");
            agree += 1;
        }
    }
    eprintln!("LTL∩CTL: {agree} verdicts agree with the CTL engine");
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let mut rng = Rng::new(0x7ead);
    for _ in 0..cases(300) / 10 {
        let m = state_fair_model(&mut rng, 7);
        let k = to_kripke(&m);
        let fairness: Vec<PropId> = m.fairness.iter().map(|&p| PropId::new(p)).collect();
        let specs: Vec<Ltl<PropId>> = (0..FORMULAS_PER_MODEL).map(|_| formula(&mut rng, 4, true)).collect();
        let refs: Vec<&Ltl<PropId>> = specs.iter().collect();
        let run = |threads| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("pool");
            pool.install(|| check_ltl(&k, &refs, &fairness, true).expect("translation")).into_iter().map(|o| (o.outcome, o.product_states)).collect::<Vec<_>>()
        };
        assert_eq!(run(1), run(2));
    }
}

/// A model whose only run deadlocks after two steps satisfies every LTL spec, even `FALSE`
/// (NuSMV 2.5.4: finite paths are not paths); a partial deadlock only hides its own branch.
#[test]
fn deadlocks_are_not_paths() {
    // 0 → 1 → 2 (dead); p0 nowhere.
    let dead = Model { succ: vec![vec![1], vec![2], vec![]], init: vec![0], props: vec![vec![false; 3]; NUM_LABELS], fairness: vec![], edge_fairness: vec![] };
    let k = to_kripke(&dead);
    let specs = [Ltl::False, Ltl::Atom(PropId::new(0)), Ltl::Unary(LtlOp::F, Box::new(Ltl::Atom(PropId::new(0))))];
    let refs: Vec<&Ltl<PropId>> = specs.iter().collect();
    assert!(check_ltl(&k, &refs, &[], true).expect("translation").iter().all(|o| o.outcome.holds));
    // 0 → {1 (dead), 2 ⟲}, p0 only at 2: F p0 holds (the branch to 1 is finite).
    let mut props = vec![vec![false; 3]; NUM_LABELS];
    props[0][2] = true;
    let partial = Model { succ: vec![vec![1, 2], vec![], vec![2]], init: vec![0], props, fairness: vec![], edge_fairness: vec![] };
    let f = Ltl::Unary(LtlOp::F, Box::new(Ltl::Atom(PropId::new(0))));
    let out = check_ltl(&to_kripke(&partial), &[&f], &[], true).expect("translation");
    assert!(out[0].outcome.holds);
}

/// Fairness rules out the unfair loop: 0 ⟲ and 0 → 1 ⟲ with the fairness set {1}: `F p0`
/// (p0 at 1) is false without fairness (stay at 0 forever) and true with it.
#[test]
fn fairness_restricts_the_paths() {
    let mut props = vec![vec![false, true]; NUM_LABELS + 1];
    props[0] = vec![false, true];
    let m = Model { succ: vec![vec![0, 1], vec![1]], init: vec![0], props, fairness: vec![NUM_LABELS], edge_fairness: vec![] };
    let k = to_kripke(&m);
    let f = Ltl::Unary(LtlOp::F, Box::new(Ltl::Atom(PropId::new(0))));
    let unfair = check_ltl(&k, &[&f], &[], true).expect("translation");
    assert!(!unfair[0].outcome.holds);
    let trace = unfair[0].outcome.trace.as_ref().expect("counterexample");
    assert_eq!((trace.steps.len(), trace.loop_start), (1, Some(0)));
    let fair = check_ltl(&k, &[&f], &[PropId::new(NUM_LABELS)], true).expect("translation");
    assert!(fair[0].outcome.holds);
}

/// Past operators: `Y` is false and `Z` true at the first position; `G (p0 -> O p1)` on a
/// path where p1 comes after p0 is false.
#[test]
fn past_operators_at_the_start_of_the_path() {
    // 0 → 1 → 1 ⟲; p0 at 0, p1 at 1.
    let mut props = vec![vec![false, false]; NUM_LABELS];
    props[0] = vec![true, false];
    props[1] = vec![false, true];
    let m = Model { succ: vec![vec![1], vec![1]], init: vec![0], props, fairness: vec![], edge_fairness: vec![] };
    let k = to_kripke(&m);
    let y = |f: Ltl<PropId>| Ltl::Unary(LtlOp::Y, Box::new(f));
    let z = |f: Ltl<PropId>| Ltl::Unary(LtlOp::Z, Box::new(f));
    let specs = [
        y(Ltl::True),                                                 // false
        z(Ltl::False),                                                // true
        Ltl::Unary(LtlOp::X, Box::new(y(Ltl::Atom(PropId::new(0))))), // true
        Ltl::Unary(LtlOp::G, Box::new(Ltl::Implies(Box::new(Ltl::Atom(PropId::new(0))), Box::new(Ltl::Unary(LtlOp::O, Box::new(Ltl::Atom(PropId::new(1)))))))), // false
        Ltl::Unary(LtlOp::G, Box::new(Ltl::Implies(Box::new(Ltl::Atom(PropId::new(1))), Box::new(Ltl::Unary(LtlOp::O, Box::new(Ltl::Atom(PropId::new(0)))))))), // true
    ];
    let refs: Vec<&Ltl<PropId>> = specs.iter().collect();
    let verdicts: Vec<bool> = check_ltl(&k, &refs, &[], false).expect("translation").iter().map(|o| o.outcome.holds).collect();
    assert_eq!(verdicts, [false, true, true, false, true]);
}
