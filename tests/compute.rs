//! `COMPUTE MIN [a, b]` / `COMPUTE MAX [a, b]` (NuSMV 2.5.4's `minu`/`maxu`) end to end: on random
//! control-flow models (tools/cfg_model.rs: deadlocks, `FAIRNESS`, unreachable locations) with
//! random operands (labels, negations, nested CTL), the results `xmv-rs check` prints with the
//! explicit engine (graph searches) and with the BDD engine (NuSMV's layer iterations) must equal
//! an oracle that shares no code with either: all-pairs shortest paths for `MIN`, a memoised
//! depth-first search for the longest path before the target for `MAX`, over the reachable fair
//! states of the structure built directly from the model. With `NUSMV` set, NuSMV's result lines
//! must equal ours too. `XMV_TEST_CASES=N` sets the number of models (default 150).

#[allow(clippy::duplicate_mod)]
#[path = "../tools/cfg_model.rs"]
mod cfg_model;
mod support;

use cfg_model::{CfgModel, CfgParams, ctl_text};
use fixedbitset::FixedBitSet;
use support::nusmv::run;
use support::random::{Rng, cases, formula};
use xmv_rs::check::flat::{Fairness, fair_states, satisfying_states};
use xmv_rs::ctl::Ctl;
use xmv_rs::explicit::kripke::{KripkeStructure, StateId};
use xmv_rs::ir::PropId;

const INFINITY: usize = usize::MAX;

/// One random `COMPUTE`: `MIN` or `MAX`, and its two formulas.
struct Query {
    max: bool,
    from: Ctl<PropId>,
    to: Ctl<PropId>,
}

impl Query {
    fn text(&self) -> String {
        format!("COMPUTE {} [ {} , {} ]", if self.max { "MAX" } else { "MIN" }, ctl_text(&self.from), ctl_text(&self.to))
    }
}

fn operand(rng: &mut Rng) -> Ctl<PropId> {
    match rng.below(6) {
        0..=2 => Ctl::Atom(PropId::new(rng.below(support::random::NUM_LABELS))),
        3 => Ctl::Not(Box::new(Ctl::Atom(PropId::new(rng.below(support::random::NUM_LABELS))))),
        _ => formula(rng, 2),
    }
}

fn reachable(k: &KripkeStructure) -> FixedBitSet {
    let mut seen = FixedBitSet::with_capacity(k.num_states as usize);
    let mut stack: Vec<StateId> = k.initial.clone();
    stack.iter().for_each(|s| seen.insert(s.index()));
    while let Some(s) = stack.pop() {
        for &t in k.succ.neighbours(s) {
            if !seen.put(t.index()) {
                stack.push(t);
            }
        }
    }
    seen
}

/// `MIN`: the shortest path from a fair `a` state to a fair `b` state through fair states, by
/// Floyd–Warshall over the reachable fair states.
fn oracle_min(k: &KripkeStructure, good: &FixedBitSet, a: &FixedBitSet, b: &FixedBitSet) -> usize {
    let n = k.num_states as usize;
    let mut d = vec![vec![INFINITY; n]; n];
    for s in good.ones() {
        d[s][s] = 0;
        for t in k.succ.neighbours(StateId::new(s)) {
            if good.contains(t.index()) && t.index() != s {
                d[s][t.index()] = 1;
            }
        }
    }
    for m in 0..n {
        for s in 0..n {
            for t in 0..n {
                if d[s][m] != INFINITY && d[m][t] != INFINITY {
                    d[s][t] = d[s][t].min(d[s][m] + d[m][t]);
                }
            }
        }
    }
    let mut best = INFINITY;
    for s in a.ones().filter(|&s| good.contains(s)) {
        for t in b.ones().filter(|&t| good.contains(t)) {
            best = best.min(d[s][t]);
        }
    }
    best
}

/// `MAX` over `inside` (the reachable fair states outside `b`): `None` when an `a` state in it
/// starts an infinite path inside it, else one more than the longest path inside it from an `a`
/// state (0 without one), by depth-first search with memoised lengths and cycle detection.
fn oracle_max(k: &KripkeStructure, inside: &FixedBitSet, a: &FixedBitSet) -> Option<usize> {
    fn longest(k: &KripkeStructure, inside: &FixedBitSet, s: usize, memo: &mut Vec<Option<Option<usize>>>, on_stack: &mut FixedBitSet) -> Option<usize> {
        if let Some(known) = memo[s] {
            return known;
        }
        if on_stack.contains(s) {
            return None;
        }
        on_stack.insert(s);
        let mut best = Some(0);
        for t in k.succ.neighbours(StateId::new(s)).iter().map(|t| t.index()).filter(|&t| inside.contains(t)) {
            best = match (best, longest(k, inside, t, memo, on_stack)) {
                (Some(x), Some(y)) => Some(x.max(y + 1)),
                _ => None,
            };
        }
        on_stack.set(s, false);
        memo[s] = Some(best);
        best
    }
    let n = k.num_states as usize;
    let mut memo = vec![None; n];
    let mut on_stack = FixedBitSet::with_capacity(n);
    let mut result = 0;
    for s in a.ones().filter(|&s| inside.contains(s)) {
        result = result.max(longest(k, inside, s, &mut memo, &mut on_stack)? + 1);
    }
    Some(result)
}

/// The result NuSMV prints for `q` on the directly built structure.
fn oracle(k: &KripkeStructure, fairness: &[PropId], q: &Query) -> String {
    let fairness = Fairness { states: fairness, transitions: &[] };
    let reach = reachable(k);
    let mut fair = fair_states(k, &fairness);
    fair.intersect_with(&reach);
    let mut a = satisfying_states(k, &q.from, &fairness);
    let mut b = satisfying_states(k, &q.to, &fairness);
    a.intersect_with(&reach);
    b.intersect_with(&reach);
    if !q.max {
        return match oracle_min(k, &fair, &a, &b) {
            INFINITY => "infinity".into(),
            d => d.to_string(),
        };
    }
    let empty = |s: &FixedBitSet| if fair.is_clear() { s.is_clear() } else { s.is_disjoint(&fair) };
    if empty(&a) || empty(&b) {
        return "undefined".into();
    }
    let mut inside = fair.clone();
    inside.difference_with(&b);
    oracle_max(k, &inside, &a).map_or_else(|| "infinity".into(), |d| d.to_string())
}

/// The results of the `-- the result of … is R` lines, in order.
fn results(stdout: &str) -> Vec<String> {
    stdout.lines().filter(|l| l.starts_with("-- the result of")).filter_map(|l| l.rsplit_once(" is ").map(|(_, r)| r.to_string())).collect()
}

#[test]
fn engines_agree_with_the_path_oracle_and_nusmv() {
    let xmv = std::path::Path::new(env!("CARGO_BIN_EXE_xmv-rs"));
    let nusmv = support::nusmv::binary("the COMPUTE comparison with NuSMV");
    let mut rng = Rng::new(0xc0ff);
    let (mut models, mut results_agreed, mut with_nusmv) = (0, 0, 0);
    let mut kinds = [0usize; 3];
    for case in 0..cases(150) {
        let states = 2 + rng.below(25);
        let mut p = CfgParams::new(states, 0, rng.next_u64());
        p.labels = support::random::NUM_LABELS;
        p.label_size = (states / 3).max(1);
        p.deadlock_percent = [0, 0, 10, 30][rng.below(4)];
        p.fairness = [0, 0, 1, 2][rng.below(4)];
        let mut model = CfgModel::generate(&p);
        model.specs.clear();
        model.invariants.clear();
        let queries: Vec<Query> = (0..8).map(|_| Query { max: rng.chance(50), from: operand(&mut rng), to: operand(&mut rng) }).collect();
        let mut smv = model.to_smv();
        for q in &queries {
            smv.push_str(&q.text());
            smv.push('\n');
        }
        let k = model.to_kripke();
        let expected: Vec<String> = queries.iter().map(|q| oracle(&k, &model.fairness, q)).collect();
        for r in &expected {
            kinds[match r.as_str() {
                "infinity" => 1,
                "undefined" => 2,
                _ => 0,
            }] += 1;
        }
        let file = support::nusmv::temp_model("compute", &case.to_string(), &smv);
        for engine in ["explicit", "bdd"] {
            let (code, ours) = run(xmv, &["check", "--no-trace", "--engine", engine], &file);
            assert_eq!(code, Some(0), "{engine} engine, case {case}:\n{smv}\n{ours}");
            assert_eq!(results(&ours), expected, "{engine} engine against the oracle, case {case}:\n{smv}");
        }
        if let Some(bin) = &nusmv {
            let (_, theirs) = run(bin, &["-dcx"], &file);
            let (_, ours) = run(xmv, &["check", "--no-trace"], &file);
            let lines = |t: &str| t.lines().filter(|l| l.starts_with("-- the result of")).map(str::to_string).collect::<Vec<_>>();
            assert_eq!(lines(&ours), lines(&theirs), "NuSMV, case {case}:\n{smv}");
            with_nusmv += 1;
        }
        results_agreed += expected.len();
        models += 1;
        let _ = std::fs::remove_file(&file);
    }
    // The models exercise every kind of result.
    assert!(models < 20 || kinds.iter().all(|&n| n > 0), "results by kind (finite, infinity, undefined): {kinds:?}");
    eprintln!(
        "COMPUTE: {results_agreed} results on {models} models agree with the oracle (explicit and BDD engines; {} finite, {} infinity, {} undefined); {with_nusmv} models also with NuSMV",
        kinds[0], kinds[1], kinds[2]
    );
}
