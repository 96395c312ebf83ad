//! Random control-flow-style SMV models for benchmarks and differential tests (shared by
//! `examples/gen_cfg_model.rs`, `examples/bench_flat.rs` and tests through `#[path]`).
//!
//! One enum variable `state` with values `s0 … s(N-1)`; each location falls through to the next
//! one and, with some probability, also branches to a random location (loops and jumps), the last
//! location loops back; labels are DEFINEs `pK := state in {…}` over random locations; specs are
//! random CTL formulas with nesting, mostly in the shapes static analysis asks
//! (`AG (p -> AF q)`, `EF p`, `AG (p -> EF q)`, `E [p U q]`, …). The same model is available as
//! SMV text and as a `KripkeStructure` built directly (state `sI` = id `I`, label `pK` =
//! proposition `K`), so the checker can be timed without the front end.

#![allow(dead_code)]

#[path = "splitmix.rs"]
mod splitmix;
use splitmix::SplitMix64;
use xmv_rs::ir::PropId;

use fixedbitset::FixedBitSet;
use xmv_rs::ctl::Ctl;
use xmv_rs::explicit::csr::Csr;
use xmv_rs::explicit::kripke::{KripkeStructure, StateId};

#[derive(Clone, Debug)]
pub struct CfgParams {
    pub states: usize,
    pub specs: usize,
    pub labels: usize,
    /// Locations per label (on average).
    pub label_size: usize,
    /// Percent of locations with an extra branch.
    pub branch_percent: usize,
    /// Maximal nesting depth of random subformulas inside the spec templates.
    pub depth: usize,
    /// Percent of locations with no successor at all (0 for CFG-like models).
    pub deadlock_percent: usize,
    /// Number of `FAIRNESS` constraints (random labels).
    pub fairness: usize,
    /// Number of `INVARSPEC !pK` invariants (random labels).
    pub invariants: usize,
    pub seed: u64,
}

impl CfgParams {
    /// The thesis's headline configuration scaled to `states`/`specs`.
    pub fn new(states: usize, specs: usize, seed: u64) -> CfgParams {
        CfgParams {
            states,
            specs,
            labels: 100.min(states.max(2)),
            label_size: (states / 50).max(1),
            branch_percent: 40,
            depth: 2,
            deadlock_percent: 0,
            fairness: 0,
            invariants: 0,
            seed,
        }
    }
}

pub struct CfgModel {
    pub succ: Vec<Vec<u32>>,
    /// `labels[k]` = sorted locations where `pK` holds.
    pub labels: Vec<Vec<u32>>,
    pub specs: Vec<Ctl<PropId>>,
    /// Labels used as `FAIRNESS` constraints.
    pub fairness: Vec<PropId>,
    /// Labels `pK` checked as `INVARSPEC !pK` (the invariant is the label's complement).
    pub invariants: Vec<u32>,
}

struct Rng(SplitMix64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

impl CfgModel {
    /// Proposition ids of the invariants in [`CfgModel::to_kripke`].
    pub fn invariant_props(&self) -> Vec<PropId> {
        (0..self.invariants.len()).map(|i| PropId::new(self.labels.len() + i)).collect()
    }

    pub fn generate(p: &CfgParams) -> CfgModel {
        let mut rng = Rng(SplitMix64(p.seed));
        let n = p.states.max(1);
        let succ = (0..n)
            .map(|i| {
                if rng.chance(p.deadlock_percent) {
                    return Vec::new();
                }
                let mut out = vec![((i + 1) % n) as u32];
                if rng.chance(p.branch_percent) {
                    out.push(rng.below(n) as u32);
                }
                if rng.chance(p.branch_percent / 4) {
                    out.push(rng.below(n) as u32);
                }
                out.sort();
                out.dedup();
                out
            })
            .collect();
        let labels = (0..p.labels.max(1))
            .map(|_| {
                let size = 1 + rng.below(2 * p.label_size);
                let mut locs: Vec<u32> = (0..size).map(|_| rng.below(n) as u32).collect();
                locs.sort();
                locs.dedup();
                locs
            })
            .collect();
        let num_labels = p.labels.max(1);
        let specs = (0..p.specs).map(|_| spec(&mut rng, num_labels, p.depth)).collect();
        let fairness = (0..p.fairness).map(|_| PropId::new(rng.below(num_labels))).collect();
        let invariants = (0..p.invariants).map(|_| rng.below(num_labels) as u32).collect();
        CfgModel { succ, labels, specs, fairness, invariants }
    }

    /// The structure over all locations (unreachable ones included: they do not change verdicts),
    /// with propositions `0..labels` for `pK` followed by one `!pK` per invariant.
    pub fn to_kripke(&self) -> KripkeStructure {
        let n = self.succ.len();
        let edges: Vec<(StateId, StateId)> =
            self.succ.iter().enumerate().flat_map(|(s, ts)| ts.iter().map(move |&t| (StateId::new(s), StateId::from_u32(t)))).collect();
        let succ = Csr::from_edges(n, &edges);
        let mut props: Vec<FixedBitSet> = self
            .labels
            .iter()
            .map(|locs| {
                let mut set = FixedBitSet::with_capacity(n);
                for &l in locs {
                    set.insert(l as usize);
                }
                set
            })
            .collect();
        for &k in &self.invariants {
            let mut complement = props[k as usize].clone();
            complement.toggle_range(..);
            props.push(complement);
        }
        KripkeStructure {
            num_states: n as u32,
            initial: vec![StateId::new(0)],
            succ,
            pred: Default::default(),
            props,
            prop_names: (0..self.labels.len()).map(|k| format!("p{k}")).chain(self.invariants.iter().map(|k| format!("!p{k}"))).collect(),
            values: xmv_rs::explicit::state_values::StateValues::from_rows(1, &(0..n as u32).collect::<Vec<_>>()),
            num_vars: 1,
        }
    }

    pub fn to_smv(&self) -> String {
        let mut out = String::with_capacity(64 * (self.succ.len() + self.specs.len()));
        out.push_str("MODULE main\nVAR\n  state : {");
        out.push_str(&join((0..self.succ.len()).map(|i| format!("s{i}"))));
        out.push_str("};\nASSIGN\n  init(state) := s0;\n  next(state) := case\n");
        for (i, ts) in self.succ.iter().enumerate() {
            if ts.is_empty() {
                continue;
            }
            let targets = join(ts.iter().map(|t| format!("s{t}")));
            if ts.len() == 1 {
                out.push_str(&format!("    state = s{i} : {targets};\n"));
            } else {
                out.push_str(&format!("    state = s{i} : {{{targets}}};\n"));
            }
        }
        // Locations without successors: NuSMV needs an exhaustive case; `FALSE` would be a type
        // error, so deadlocks are modelled with TRANS below instead.
        out.push_str("    TRUE : state;\n  esac;\n");
        let dead: Vec<usize> = (0..self.succ.len()).filter(|&i| self.succ[i].is_empty()).collect();
        if !dead.is_empty() {
            out.push_str(&format!("TRANS !(state in {{{}}})\n", join(dead.iter().map(|i| format!("s{i}")))));
        }
        out.push_str("DEFINE\n");
        for (k, locs) in self.labels.iter().enumerate() {
            out.push_str(&format!("  p{k} := state in {{{}}};\n", join(locs.iter().map(|l| format!("s{l}")))));
        }
        for k in &self.fairness {
            out.push_str(&format!("FAIRNESS p{k}\n"));
        }
        for f in &self.specs {
            out.push_str("SPEC ");
            out.push_str(&ctl_text(f));
            out.push('\n');
        }
        for k in &self.invariants {
            out.push_str(&format!("INVARSPEC !p{k}\n"));
        }
        out
    }
}

fn join(items: impl Iterator<Item = String>) -> String {
    items.collect::<Vec<_>>().join(", ")
}

fn atom(rng: &mut Rng, labels: usize) -> Box<Ctl<PropId>> {
    Box::new(Ctl::Atom(PropId::new(rng.below(labels))))
}

fn sub(rng: &mut Rng, labels: usize, depth: usize) -> Box<Ctl<PropId>> {
    if depth == 0 || rng.chance(50) {
        return if rng.chance(20) { Box::new(Ctl::Not(atom(rng, labels))) } else { atom(rng, labels) };
    }
    let d = depth - 1;
    Box::new(match rng.below(10) {
        0 => Ctl::EX(sub(rng, labels, d)),
        1 => Ctl::AX(sub(rng, labels, d)),
        2 => Ctl::EF(sub(rng, labels, d)),
        3 => Ctl::AF(sub(rng, labels, d)),
        4 => Ctl::EG(sub(rng, labels, d)),
        5 => Ctl::AG(sub(rng, labels, d)),
        6 => Ctl::EU(sub(rng, labels, d), sub(rng, labels, d)),
        7 => Ctl::AU(sub(rng, labels, d), sub(rng, labels, d)),
        8 => Ctl::And(sub(rng, labels, d), sub(rng, labels, d)),
        _ => Ctl::Or(sub(rng, labels, d), sub(rng, labels, d)),
    })
}

/// A spec from the templates static analysers use, with random nested operands.
fn spec(rng: &mut Rng, labels: usize, depth: usize) -> Ctl<PropId> {
    let (l, d) = (labels, depth);
    match rng.below(9) {
        0 => Ctl::AG(Box::new(Ctl::Implies(sub(rng, l, d), Box::new(Ctl::AF(sub(rng, l, d)))))),
        1 => Ctl::EF(sub(rng, l, d)),
        2 => Ctl::AG(Box::new(Ctl::Implies(sub(rng, l, d), Box::new(Ctl::EF(sub(rng, l, d)))))),
        3 => Ctl::EU(sub(rng, l, d), sub(rng, l, d)),
        4 => Ctl::AU(sub(rng, l, d), sub(rng, l, d)),
        5 => Ctl::AG(Box::new(Ctl::EF(sub(rng, l, d)))),
        6 => Ctl::AG(Box::new(Ctl::Implies(sub(rng, l, d), Box::new(Ctl::AX(sub(rng, l, d)))))),
        7 => Ctl::EF(Box::new(Ctl::And(sub(rng, l, d), Box::new(Ctl::EG(sub(rng, l, d)))))),
        _ => Ctl::AF(sub(rng, l, d)),
    }
}

/// Fully parenthesised SMV text of a formula over labels `pK`.
pub fn ctl_text(f: &Ctl<PropId>) -> String {
    let t = |g: &Ctl<PropId>| ctl_text(g);
    match f {
        Ctl::True => "TRUE".into(),
        Ctl::False => "FALSE".into(),
        Ctl::Atom(p) => format!("p{p}"),
        Ctl::Not(a) => format!("!({})", t(a)),
        Ctl::And(a, b) => format!("({} & {})", t(a), t(b)),
        Ctl::Or(a, b) => format!("({} | {})", t(a), t(b)),
        Ctl::Xor(a, b) => format!("({} xor {})", t(a), t(b)),
        Ctl::Xnor(a, b) => format!("({} xnor {})", t(a), t(b)),
        Ctl::Implies(a, b) => format!("({} -> {})", t(a), t(b)),
        Ctl::Iff(a, b) => format!("({} <-> {})", t(a), t(b)),
        Ctl::EX(a) => format!("EX ({})", t(a)),
        Ctl::AX(a) => format!("AX ({})", t(a)),
        Ctl::EF(a) => format!("EF ({})", t(a)),
        Ctl::AF(a) => format!("AF ({})", t(a)),
        Ctl::EG(a) => format!("EG ({})", t(a)),
        Ctl::AG(a) => format!("AG ({})", t(a)),
        Ctl::EU(a, b) => format!("E [ {} U {} ]", t(a), t(b)),
        Ctl::AU(a, b) => format!("A [ {} U {} ]", t(a), t(b)),
        Ctl::EBF(a, k) => format!("EBF {}..{} ({})", k.lo, k.hi, t(a)),
        Ctl::ABF(a, k) => format!("ABF {}..{} ({})", k.lo, k.hi, t(a)),
        Ctl::EBG(a, k) => format!("EBG {}..{} ({})", k.lo, k.hi, t(a)),
        Ctl::ABG(a, k) => format!("ABG {}..{} ({})", k.lo, k.hi, t(a)),
        Ctl::EBU(a, b, k) => format!("E [ {} BU {}..{} {} ]", t(a), k.lo, k.hi, t(b)),
        Ctl::ABU(a, b, k) => format!("A [ {} BU {}..{} {} ]", t(a), k.lo, k.hi, t(b)),
    }
}
