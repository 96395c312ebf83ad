//! Seeded randomness for property tests: SplitMix64, random small Kripke structures (with
//! deadlocks and optional fairness) and random CTL formulas over all operators.

#[path = "../../tools/splitmix.rs"]
mod splitmix;
use splitmix::SplitMix64;
use xmv_rs::ir::PropId;

use super::oracle::Model;
use fixedbitset::FixedBitSet;
use xmv_rs::ctl::Ctl;
use xmv_rs::explicit::csr::Csr;
use xmv_rs::explicit::kripke::{KripkeStructure, StateId};

pub struct Rng(SplitMix64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(SplitMix64(seed))
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

/// Number of random cases: `XMV_TEST_CASES` or the default.
pub fn cases(default: usize) -> usize {
    std::env::var("XMV_TEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

pub const NUM_LABELS: usize = 3;

/// A random structure of 1..=max_states states: out-degree 0..=3 (about 1 in 8 states is a
/// deadlock), 1–2 initial states, `NUM_LABELS` random labels, and with probability 1/2 one or
/// two fairness sets (extra propositions after the labels).
pub fn model(rng: &mut Rng, max_states: usize) -> Model {
    let n = 1 + rng.below(max_states);
    let succ: Vec<Vec<usize>> = (0..n)
        .map(|_| {
            let degree = if rng.chance(12) { 0 } else { 1 + rng.below(3) };
            let mut out: Vec<usize> = (0..degree).map(|_| rng.below(n)).collect();
            out.sort();
            out.dedup();
            out
        })
        .collect();
    let mut init: Vec<usize> = (0..1 + rng.below(2)).map(|_| rng.below(n)).collect();
    init.sort();
    init.dedup();
    let fairness_count = if rng.chance(50) { 0 } else { 1 + rng.below(2) };
    let props = (0..NUM_LABELS + fairness_count).map(|_| (0..n).map(|_| rng.chance(50)).collect()).collect();
    // With probability 1/4, one set of transitions (each with probability 1/2) must be taken
    // infinitely often, like `FAIRNESS running` of a process.
    let edge_fairness = if rng.chance(25) {
        let edges: Vec<(usize, usize)> = (0..n).flat_map(|s| succ_of(&succ, s)).filter(|_| rng.chance(50)).collect();
        vec![edges]
    } else {
        vec![]
    };
    Model { succ, init, props, fairness: (NUM_LABELS..NUM_LABELS + fairness_count).collect(), edge_fairness }
}

fn succ_of(succ: &[Vec<usize>], s: usize) -> Vec<(usize, usize)> {
    succ[s].iter().map(|&t| (s, t)).collect()
}

/// The transition fairness sets of `m` as bitsets over `to_kripke(m).succ.targets` positions.
pub fn transition_sets(m: &Model) -> Vec<FixedBitSet> {
    let positions: Vec<(usize, usize)> = (0..m.n()).flat_map(|s| succ_of(&m.succ, s)).collect();
    m.edge_fairness
        .iter()
        .map(|edges| {
            let mut set = FixedBitSet::with_capacity(positions.len());
            for (i, e) in positions.iter().enumerate() {
                set.set(i, edges.contains(e));
            }
            set
        })
        .collect()
}

pub fn to_kripke(m: &Model) -> KripkeStructure {
    let n = m.n();
    let edges: Vec<(StateId, StateId)> = m.succ.iter().enumerate().flat_map(|(s, ts)| ts.iter().map(move |&t| (StateId::new(s), StateId::new(t)))).collect();
    let succ = Csr::from_edges(n, &edges);
    let props = m
        .props
        .iter()
        .map(|p| {
            let mut set = FixedBitSet::with_capacity(n);
            for (s, &b) in p.iter().enumerate() {
                set.set(s, b);
            }
            set
        })
        .collect();
    KripkeStructure {
        num_states: n as u32,
        initial: m.init.iter().map(|&s| StateId::new(s)).collect(),
        succ,
        pred: Default::default(),
        props,
        prop_names: (0..m.props.len()).map(|p| format!("p{p}")).collect(),
        values: xmv_rs::explicit::state_values::StateValues::from_rows(1, &(0..n as u32).collect::<Vec<_>>()),
        num_vars: 1,
    }
}

/// A random formula of depth ≤ `depth` over atoms `0..NUM_LABELS`, using every operator.
pub fn formula(rng: &mut Rng, depth: usize) -> Ctl<PropId> {
    let b = |rng: &mut Rng| Box::new(formula(rng, depth - 1));
    if depth == 0 || rng.chance(20) {
        return match rng.below(12) {
            0 => Ctl::True,
            1 => Ctl::False,
            _ => Ctl::Atom(PropId::new(rng.below(NUM_LABELS))),
        };
    }
    match rng.below(17) {
        0 => Ctl::Not(b(rng)),
        1 => Ctl::And(b(rng), b(rng)),
        2 => Ctl::Or(b(rng), b(rng)),
        3 => Ctl::Xor(b(rng), b(rng)),
        4 => Ctl::Xnor(b(rng), b(rng)),
        5 => Ctl::Implies(b(rng), b(rng)),
        6 => Ctl::Iff(b(rng), b(rng)),
        7 => Ctl::EX(b(rng)),
        8 => Ctl::AX(b(rng)),
        9 => Ctl::EF(b(rng)),
        10 => Ctl::AF(b(rng)),
        11 => Ctl::EG(b(rng)),
        12 => Ctl::AG(b(rng)),
        13 => Ctl::EU(b(rng), b(rng)),
        14 => Ctl::AU(b(rng), b(rng)),
        15 => Ctl::AG(Box::new(Ctl::Implies(b(rng), Box::new(Ctl::AF(b(rng)))))),
        _ => Ctl::EF(Box::new(Ctl::And(b(rng), Box::new(Ctl::EG(b(rng)))))),
    }
}

/// A random formula with RTCTL's bounded operators (bounds within `0..=4`) at about half of its
/// operators; the others are [`formula`]'s.
pub fn rtctl_formula(rng: &mut Rng, depth: usize) -> Ctl<PropId> {
    if depth == 0 || rng.chance(20) {
        return formula(rng, 0);
    }
    let b = |rng: &mut Rng| Box::new(if rng.chance(60) { rtctl_formula(rng, depth - 1) } else { formula(rng, depth - 1) });
    let lo = rng.below(3);
    let hi = lo + rng.below(3);
    let k = xmv_rs::ctl::Bound::new(lo as i64, hi as i64).expect("a small bound");
    match rng.below(10) {
        0 => Ctl::EBF(b(rng), k),
        1 => Ctl::ABF(b(rng), k),
        2 => Ctl::EBG(b(rng), k),
        3 => Ctl::ABG(b(rng), k),
        4 => Ctl::EBU(b(rng), b(rng), k),
        5 => Ctl::ABU(b(rng), b(rng), k),
        6 => Ctl::Not(b(rng)),
        7 => Ctl::And(b(rng), b(rng)),
        8 => Ctl::AG(b(rng)),
        _ => Ctl::EX(b(rng)),
    }
}

/// A random propositional formula (no temporal operators) of depth ≤ `depth`.
pub fn propositional(rng: &mut Rng, depth: usize) -> Ctl<PropId> {
    if depth == 0 || rng.chance(30) {
        return Ctl::Atom(PropId::new(rng.below(NUM_LABELS)));
    }
    let x = Box::new(propositional(rng, depth - 1));
    let y = Box::new(propositional(rng, depth - 1));
    match rng.below(4) {
        0 => Ctl::Not(x),
        1 => Ctl::And(x, y),
        2 => Ctl::Or(x, y),
        _ => Ctl::Implies(x, y),
    }
}
