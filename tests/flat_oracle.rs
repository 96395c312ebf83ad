//! The flat checker against the independent path-semantics oracle (tests/support/oracle.rs) on
//! random Kripke structures with deadlocks and optional fairness, and on hand-made models whose
//! NuSMV 2.5.4 verdicts are known. `XMV_TEST_CASES=N` runs N random structures (default 300).

mod support;

use support::oracle::Model;
use support::random::{Rng, cases, formula, model, propositional, rtctl_formula, to_kripke, transition_sets};
use xmv_rs::check::flat::{CheckOptions, Fairness, check_ctl, check_ctl_fair, check_invariants, fair_states, has_existential_top, satisfying_states};
use xmv_rs::check::trace::{SpecOutcome, Trace, TraceKind};
use xmv_rs::ctl::Ctl;
use xmv_rs::ir::PropId;

const FORMULAS_PER_MODEL: usize = 25;

fn states(outcome: &SpecOutcome) -> Vec<u32> {
    outcome.trace.as_ref().expect("a trace").steps.iter().map(|s| s.state).collect()
}

fn fairness_ids(m: &Model) -> Vec<PropId> {
    m.fairness.iter().map(|&p| PropId::new(p)).collect()
}

fn bits(set: &fixedbitset::FixedBitSet, n: usize) -> Vec<bool> {
    (0..n).map(|s| set.contains(s)).collect()
}

#[test]
fn per_state_labels_match_the_oracle() {
    let mut rng = Rng::new(0x5eed_f1a7);
    let mut compared = 0;
    for case in 0..cases(300) {
        let m = model(&mut rng, 7);
        let k = to_kripke(&m);
        let (ids, edges) = (fairness_ids(&m), transition_sets(&m));
        let fairness = Fairness { states: &ids, transitions: &edges };
        assert_eq!(bits(&fair_states(&k, &fairness), m.n()), m.fair(), "fair states, case {case}: {m:?}");
        for _ in 0..FORMULAS_PER_MODEL {
            let f = formula(&mut rng, 4);
            let ours = bits(&satisfying_states(&k, &f, &fairness), m.n());
            assert_eq!(ours, m.eval(&f), "case {case}: {f:?} on {m:?}");
            compared += 1;
        }
    }
    eprintln!("per-state labels: {compared} formulas agree with the oracle");
}

#[test]
fn batched_verdicts_match_the_oracle_for_any_thread_count() {
    let mut rng = Rng::new(0x0ba7_c4ed);
    let (mut agree, mut vacuous) = (0, 0);
    for case in 0..cases(300) {
        let m = model(&mut rng, 7);
        let k = to_kripke(&m);
        let (ids, edges) = (fairness_ids(&m), transition_sets(&m));
        let fairness = Fairness { states: &ids, transitions: &edges };
        // Repeat some formulas so that sharing across specs is exercised.
        let mut specs: Vec<Ctl<PropId>> = (0..FORMULAS_PER_MODEL).map(|_| formula(&mut rng, 4)).collect();
        specs.extend(specs.clone().into_iter().take(5));
        let one = check_ctl_fair(&k, &specs, &fairness, &CheckOptions { threads: 1, traces: true, witnesses: true });
        let two = check_ctl_fair(&k, &specs, &fairness, &CheckOptions { threads: 2, traces: true, witnesses: true });
        assert_eq!(one.verdicts, two.verdicts, "thread count changed results, case {case}");
        let fair = m.fair();
        assert_eq!(one.fair_states_empty, !fair.iter().any(|&f| f));
        assert_eq!(one.no_fair_initial_state, !m.init.iter().any(|&s| fair[s]));
        if one.no_fair_initial_state {
            vacuous += 1;
        }
        for (spec, verdict) in specs.iter().zip(&one.verdicts) {
            assert_eq!(verdict.holds, m.holds(spec), "case {case}: {spec:?} on {m:?}");
            check_trace(&m, spec, verdict.holds, verdict.trace.as_ref());
            agree += 1;
        }
    }
    eprintln!("verdicts: {agree} specs agree with the oracle ({vacuous} models without fair initial states)");
}

/// RTCTL's bounded operators, unfolded into the core DAG (`check::rewrite`), against the oracle's
/// walks through fair states: labels at fair states (the only ones a verdict reads; at unfair
/// states NuSMV's own values are not the path semantics either), verdicts, and the traces.
#[test]
fn bounded_operators_match_the_path_semantics() {
    let mut rng = Rng::new(0x07c7_1b0d);
    let (mut labels, mut verdicts) = (0, 0);
    for case in 0..cases(300) {
        let m = model(&mut rng, 7);
        let k = to_kripke(&m);
        let (ids, edges) = (fairness_ids(&m), transition_sets(&m));
        let fairness = Fairness { states: &ids, transitions: &edges };
        let fair = m.fair();
        let specs: Vec<Ctl<PropId>> = (0..FORMULAS_PER_MODEL).map(|_| rtctl_formula(&mut rng, 3)).collect();
        for f in &specs {
            let ours = bits(&satisfying_states(&k, f, &fairness), m.n());
            let theirs = m.eval(f);
            for s in (0..m.n()).filter(|&s| fair[s]) {
                assert_eq!(ours[s], theirs[s], "case {case}, state {s}: {f:?} on {m:?}");
            }
            labels += 1;
        }
        let out = check_ctl_fair(&k, &specs, &fairness, &CheckOptions { threads: 1, traces: true, witnesses: true });
        for (spec, verdict) in specs.iter().zip(&out.verdicts) {
            assert_eq!(verdict.holds, m.holds(spec), "case {case}: {spec:?} on {m:?}");
            check_trace(&m, spec, verdict.holds, verdict.trace.as_ref());
            verdicts += 1;
        }
    }
    eprintln!("RTCTL: {labels} formulas' labels and {verdicts} verdicts agree with the oracle");
}

/// INVARSPEC: holds iff every reachable state satisfies the (propositional) formula, whatever the
/// fairness constraints; a counterexample is a shortest path to a violating state.
#[test]
fn invariants_match_reachability() {
    let mut rng = Rng::new(0x1a7a);
    let mut compared = 0;
    for case in 0..cases(300) {
        let m = model(&mut rng, 7);
        let k = to_kripke(&m);
        let dist = m.distances();
        let invariants: Vec<Ctl<PropId>> = (0..5).map(|_| propositional(&mut rng, 3)).collect();
        let got = check_invariants(&k, &invariants, true);
        for (inv, outcome) in invariants.iter().zip(&got) {
            let value = m.eval(inv);
            let shortest = (0..m.n()).filter(|&s| !value[s]).filter_map(|s| dist[s]).min();
            assert_eq!(outcome.holds, shortest.is_none(), "case {case}: {inv:?} on {m:?}");
            if let Some(d) = shortest {
                let s = states(outcome);
                assert_eq!(s.len(), d + 1, "counterexample is not shortest");
                assert!(m.init.contains(&(s[0] as usize)) && !value[*s.last().unwrap() as usize]);
                assert!(s.windows(2).all(|w| m.succ[w[0] as usize].contains(&(w[1] as usize))));
            }
            compared += 1;
        }
    }
    eprintln!("invariants: {compared} agree with reachability");
}

/// A trace is a path from a fair initial state along transitions (closing its loop if any), and
/// for the basic spec shapes it shows what it should.
fn check_trace(m: &Model, spec: &Ctl<PropId>, holds: bool, trace: Option<&Trace>) {
    let fair = m.fair();
    let Some(t) = trace else {
        let fair_init = m.init.iter().any(|&s| fair[s]);
        assert!(holds, "false spec without counterexample: {spec:?}");
        assert!(!fair_init || !has_existential_top(spec), "true existential spec without witness: {spec:?} on {m:?}");
        return;
    };
    let mut s: Vec<usize> = t.steps.iter().map(|x| x.state as usize).collect();
    assert!(!s.is_empty());
    assert!(m.init.contains(&s[0]) && fair[s[0]], "trace must start in a fair initial state");
    if let Some(i) = t.loop_start {
        assert!(i < s.len(), "loop start out of range");
    }
    for w in s.windows(2) {
        assert!(m.succ[w[0]].contains(&w[1]), "trace step {w:?} is not a transition: {spec:?} {m:?}");
    }
    let raw = s.clone();
    let looped = |t: &Trace| {
        let start = t.loop_start.expect("lasso expected");
        assert!(m.succ[*raw.last().unwrap()].contains(&raw[start]), "loop does not close");
        let cycle = &raw[start..];
        for &f in &m.fairness {
            assert!(cycle.iter().any(|&x| m.props[f][x]), "loop misses a fairness set: {spec:?} {m:?} {t:?}");
        }
        // The loop's transitions, including the one closing it.
        let mut loop_edges: Vec<(usize, usize)> = cycle.windows(2).map(|w| (w[0], w[1])).collect();
        loop_edges.push((*raw.last().unwrap(), raw[start]));
        for edges in &m.edge_fairness {
            assert!(loop_edges.iter().any(|e| edges.contains(e)), "loop misses a transition set: {spec:?} {m:?} {t:?}");
        }
    };
    assert_eq!(t.kind, if holds { TraceKind::Witness } else { TraceKind::Counterexample });
    // From here on `s` is the lasso unrolled once: the loop's first state follows the last state.
    if let Some(i) = t.loop_start {
        s.push(s[i]);
    }
    // The explanation of the top operator is a prefix ending at index `i`; explanations of nested
    // existential subformulas may continue after it.
    let reaches =
        |goal: &dyn Fn(usize) -> bool, through: &dyn Fn(usize) -> bool| (0..s.len()).any(|i| goal(s[i]) && fair[s[i]] && s[..i].iter().all(|&x| through(x)));
    match (spec, holds) {
        (Ctl::AG(a), false) => {
            let a = m.eval(a);
            assert!(reaches(&|x| !a[x], &|_| true));
        }
        (Ctl::EF(a), true) => {
            let a = m.eval(a);
            assert!(reaches(&|x| a[x], &|_| true));
        }
        (Ctl::AX(a), false) => assert!(s.len() >= 2 && !m.eval(a)[s[1]] && fair[s[1]]),
        (Ctl::EX(a), true) => assert!(s.len() >= 2 && m.eval(a)[s[1]] && fair[s[1]]),
        (Ctl::AF(a), false) => {
            let a = m.eval(a);
            assert!(s.iter().all(|&x| !a[x]));
            looped(t);
        }
        (Ctl::EG(a), true) => {
            let a = m.eval(a);
            assert!(s.iter().all(|&x| a[x]), "EG witness leaves the set: {spec:?} {m:?} {t:?}");
            looped(t);
        }
        (Ctl::EU(a, b), true) => {
            let (a, b) = (m.eval(a), m.eval(b));
            assert!(reaches(&|x| b[x], &|x| a[x]));
        }
        (Ctl::AU(a, b), false) => {
            let (a, b) = (m.eval(a), m.eval(b));
            if reaches(&|x| !a[x] && !b[x], &|x| !b[x]) {
                return;
            }
            assert!(s.iter().all(|&x| !b[x]), "A[U] counterexample: {spec:?} {m:?} {t:?}");
            looped(t);
        }
        // RTCTL: the states at steps `lo..=hi` (a lasso goes round its loop again) show it.
        // Constants can fold the unfolded steps away (`A[a BU 1..1 FALSE]` is `a ∧ AX FALSE`,
        // false at every fair state: nothing is left to explain), so formulas that fold to
        // constants somewhere are not held to a full path.
        (Ctl::EBF(a, k) | Ctl::ABF(a, k) | Ctl::EBG(a, k) | Ctl::ABG(a, k) | Ctl::EBU(_, a, k) | Ctl::ABU(_, a, k), _) if !may_fold(spec) => {
            let at = |i: usize| -> Option<usize> {
                match t.loop_start {
                    _ if i < raw.len() => Some(raw[i]),
                    Some(l) => Some(raw[l + (i - raw.len()) % (raw.len() - l)]),
                    None => None,
                }
            };
            let goal = m.eval(a);
            let guard = match spec {
                Ctl::EBU(g, ..) | Ctl::ABU(g, ..) => m.eval(g),
                _ => vec![true; m.n()],
            };
            let (lo, hi) = (k.lo as usize, k.hi as usize);
            // `b` at some step of lo..=hi with the guard before it, on this path.
            let meets = |goal: &dyn Fn(usize) -> bool| (lo..=hi).any(|i| at(i).is_some_and(goal) && (0..i).all(|j| at(j).is_some_and(|x| guard[x])));
            match (spec, holds) {
                (Ctl::EBF(..) | Ctl::EBU(..), true) => assert!(meets(&|x| goal[x] && fair[x]), "RTCTL witness: {spec:?} {m:?} {t:?}"),
                (Ctl::EBG(..), true) => {
                    assert!((0..=hi).all(|i| at(i).is_some()) && (lo..=hi).all(|i| at(i).is_some_and(|x| goal[x])), "EBG witness: {spec:?} {m:?} {t:?}")
                }
                (Ctl::ABF(..), false) => {
                    assert!((0..=hi).all(|i| at(i).is_some()) && (lo..=hi).all(|i| at(i).is_some_and(|x| !goal[x])), "ABF counterexample: {spec:?} {m:?} {t:?}")
                }
                (Ctl::ABG(..), false) => assert!((lo..=hi).any(|i| at(i).is_some_and(|x| !goal[x] && fair[x])), "ABG counterexample: {spec:?} {m:?} {t:?}"),
                (Ctl::ABU(a, b, _), false) => {
                    // No step of lo..=hi meets b after a, and the path either runs to step hi,
                    // leaves a (after which no later step can meet b), or ends at a state where
                    // the rest of the spec (the bound shifted by its length) fails, as NuSMV's
                    // explanations of `A [ BU ]` do.
                    assert!(!meets(&|x| goal[x]), "ABU counterexample meets b: {spec:?} {m:?} {t:?}");
                    let seen = (0..=hi).take_while(|&i| at(i).is_some()).count();
                    let rest_fails = || {
                        let j = seen - 1;
                        let rest = xmv_rs::ctl::Bound::new(lo.saturating_sub(j) as i64, (hi - j) as i64).expect("a shifted bound");
                        at(j).is_some_and(|x| !m.eval(&Ctl::ABU(a.clone(), b.clone(), rest))[x])
                    };
                    assert!(
                        seen > hi || (0..seen).any(|j| at(j).is_some_and(|x| !guard[x])) || rest_fails(),
                        "ABU counterexample too short: {spec:?} {m:?} {t:?}"
                    );
                }
                _ => {}
            }
        }
        _ => {}
    }
}

/// Whether building `f`'s DAG may fold part of it to a constant: it mentions `TRUE`/`FALSE`,
/// or a binary operator has two equal operands (`p xor p` is `FALSE`).
fn may_fold(f: &Ctl<PropId>) -> bool {
    use Ctl::*;
    match f {
        True | False => true,
        Atom(_) => false,
        Not(a) | EX(a) | AX(a) | EF(a) | AF(a) | EG(a) | AG(a) | EBF(a, _) | ABF(a, _) | EBG(a, _) | ABG(a, _) => may_fold(a),
        And(a, b) | Or(a, b) | Xor(a, b) | Xnor(a, b) | Implies(a, b) | Iff(a, b) | EU(a, b) | AU(a, b) | EBU(a, b, _) | ABU(a, b, _) => {
            a == b || may_fold(a) || may_fold(b)
        }
    }
}

/// Chain 0 → 1 → 2 → 3 with 3 a deadlock (NuSMV's `c : 0..3`, `next(c) := c + 1` model):
/// NuSMV 2.5.4 warns that the fair states are empty and reports `AG c < 2` true.
#[test]
fn deadlocked_counter_is_vacuously_true_like_nusmv() {
    let m = Model {
        succ: vec![vec![1], vec![2], vec![3], vec![]],
        init: vec![0],
        props: vec![vec![true, true, false, false], vec![false, false, false, true]],
        fairness: vec![],
        edge_fairness: vec![],
    };
    let k = to_kripke(&m);
    let specs = vec![
        Ctl::AG(Box::new(Ctl::Atom(PropId::new(0)))),
        Ctl::EF(Box::new(Ctl::Atom(PropId::new(1)))),
        Ctl::Not(Box::new(Ctl::EF(Box::new(Ctl::Atom(PropId::new(1)))))),
        Ctl::EX(Box::new(Ctl::True)),
    ];
    let r = check_ctl(&k, &specs, &[], &CheckOptions::default());
    assert!(r.fair_states_empty && r.no_fair_initial_state);
    assert!(r.verdicts.iter().all(|v| v.holds && v.trace.is_none()));
}

/// FAQ #007: two initial states, one of which reaches `b`; `EF b` and `!EF b` are both false.
#[test]
fn ef_and_not_ef_both_false_with_two_initial_states() {
    let m =
        Model { succ: vec![vec![0, 2], vec![1], vec![2]], init: vec![0, 1], props: vec![vec![false, false, true]], fairness: vec![], edge_fairness: vec![] };
    let k = to_kripke(&m);
    let ef = Ctl::EF(Box::new(Ctl::Atom(PropId::new(0))));
    let specs = vec![ef.clone(), Ctl::Not(Box::new(ef))];
    let r = check_ctl(&k, &specs, &[], &CheckOptions::default());
    assert!(!r.verdicts[0].holds && !r.verdicts[1].holds);
    // The counterexample to EF b is the initial state that cannot reach b.
    assert_eq!(states(&r.verdicts[0]), vec![1]);
    assert_eq!(states(&r.verdicts[1]), vec![0, 2]);
}

/// A deadlock reachable from a live initial state: the deadlock is unfair, so `AX false` holds
/// there and `AG p` ignores it, while the live part is checked normally.
#[test]
fn partial_deadlock_only_hides_the_dead_branch() {
    // 0 -> 0, 0 -> 1 (deadlock); p holds in 0 only
    let m = Model { succ: vec![vec![0, 1], vec![]], init: vec![0], props: vec![vec![true, false]], fairness: vec![], edge_fairness: vec![] };
    let k = to_kripke(&m);
    let p = || Box::new(Ctl::Atom(PropId::new(0)));
    let specs = vec![Ctl::AG(p()), Ctl::AX(p()), Ctl::EF(Box::new(Ctl::Not(p()))), Ctl::EG(p())];
    let r = check_ctl(&k, &specs, &[], &CheckOptions::default());
    let got: Vec<bool> = r.verdicts.iter().map(|v| v.holds).collect();
    assert_eq!(got, vec![true, true, false, true]);
    assert!(!r.fair_states_empty);
    assert_eq!((states(&r.verdicts[3]), r.verdicts[3].trace.as_ref().unwrap().loop_start), (vec![0], Some(0)));
}

/// Fairness: with `FAIRNESS q` the path that stays in `¬q` forever is not fair, so `AF q` holds.
#[test]
fn fairness_rules_out_unfair_loops() {
    // 0 -> 0, 0 -> 1, 1 -> 1; q holds in 1
    let m =
        Model { succ: vec![vec![0, 1], vec![1]], init: vec![0], props: vec![vec![false, true], vec![false, true]], fairness: vec![1], edge_fairness: vec![] };
    let k = to_kripke(&m);
    let af = Ctl::AF(Box::new(Ctl::Atom(PropId::new(0))));
    assert!(!check_ctl(&k, std::slice::from_ref(&af), &[], &CheckOptions::default()).verdicts[0].holds);
    assert!(check_ctl(&k, &[af], &[PropId::new(1)], &CheckOptions::default()).verdicts[0].holds);
}

/// No states at all (e.g. contradictory INIT): every spec is vacuously true, with the warning flags.
#[test]
fn empty_structure_makes_everything_vacuously_true() {
    let m = Model { succ: vec![], init: vec![], props: vec![vec![]], fairness: vec![0], edge_fairness: vec![] };
    let k = to_kripke(&m);
    let specs = vec![Ctl::EF(Box::new(Ctl::Atom(PropId::new(0)))), Ctl::AG(Box::new(Ctl::False))];
    let r = check_ctl(&k, &specs, &[PropId::new(0)], &CheckOptions::default());
    assert!(r.fair_states_empty && r.no_fair_initial_state);
    assert!(r.verdicts.iter().all(|v| v.holds && v.trace.is_none()));
    assert!(check_invariants(&k, &[Ctl::False], true)[0].holds);
}

/// Witnesses continue into nested existential subformulas: `EF (p & EG q)` gives a path to a
/// `p` state from which a `q`-lasso starts, like NuSMV's `explain`.
#[test]
fn nested_witness_continues_into_eg() {
    // 0 -> 1 -> 2 -> 3 -> 2; p at 1 and 2, q at 2 and 3 (and 1 has no q-loop: 1 is not q)
    let m = Model {
        succ: vec![vec![1], vec![2], vec![3], vec![2]],
        init: vec![0],
        props: vec![vec![false, true, true, false], vec![false, false, true, true]],
        fairness: vec![],
        edge_fairness: vec![],
    };
    let k = to_kripke(&m);
    let spec = Ctl::EF(Box::new(Ctl::And(Box::new(Ctl::Atom(PropId::new(0))), Box::new(Ctl::EG(Box::new(Ctl::Atom(PropId::new(1))))))));
    let r = check_ctl(&k, &[spec], &[], &CheckOptions::default());
    assert!(r.verdicts[0].holds);
    let trace = r.verdicts[0].trace.as_ref().unwrap();
    assert_eq!(trace.kind, TraceKind::Witness);
    assert_eq!((states(&r.verdicts[0]), trace.loop_start), (vec![0, 1, 2, 3], Some(2)));
}

/// Transition fairness (`FAIRNESS running` of a process): a path must take a constraint
/// transition infinitely often, so the idle self-loop alone is not fair.
#[test]
fn transition_fairness_like_fairness_running() {
    // 0 -> 0 (another process runs), 0 -> 1 (this process runs), 1 -> 0; `crit` holds in 1
    let m =
        Model { succ: vec![vec![0, 1], vec![0]], init: vec![0], props: vec![vec![false, true]], fairness: vec![], edge_fairness: vec![vec![(0, 1), (1, 0)]] };
    let k = to_kripke(&m);
    let af = Ctl::AF(Box::new(Ctl::Atom(PropId::new(0))));
    assert!(!check_ctl(&k, std::slice::from_ref(&af), &[], &CheckOptions::default()).verdicts[0].holds);
    let edges = transition_sets(&m);
    let fair = Fairness { states: &[], transitions: &edges };
    assert!(check_ctl_fair(&k, &[af], &fair, &CheckOptions::default()).verdicts[0].holds);
    let eg = Ctl::EG(Box::new(Ctl::True));
    let r = check_ctl_fair(&k, &[eg], &fair, &CheckOptions::default());
    let t = r.verdicts[0].trace.as_ref().unwrap();
    assert_eq!((states(&r.verdicts[0]), t.loop_start), (vec![0, 1], Some(0)));
}
