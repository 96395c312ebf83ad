//! Bottom-up labelling of the shared formula DAG: every operator node gets the bitset of states
//! satisfying it, computed at most once per model (a node whose operator and operand sets
//! repeat another's takes that set, as an unfolded RTCTL chain's steps do past its fixpoint).
//!
//! Fair CTL as NuSMV 2.5.4 defines it (`mcMc.c`): the fair states are `E_f G true`; `EX a`
//! holds where some successor is in `a ∧ fair`; `E[a U b]` is reachability through `a` into
//! `b ∧ fair`; `EG a` needs an infinite path in `a` visiting every fairness constraint infinitely
//! often. With no constraints the fair states are those with an infinite path, so deadlock states
//! (and states that can only reach deadlocks) are not fair — the source of NuSMV's vacuous
//! verdicts on deadlocked models, which we reproduce.
//!
//! `E[true U b]` (`EF`, `AG`) uses the condensation of the graph, built at the second such query.
//! Nodes are grouped by DAG level; the nodes of one level only read lower levels, so each level is
//! computed in parallel with rayon and stored in id order (results do not depend on the number of
//! threads).

use super::Fairness;
use super::condense::Reachability;
use super::fixpoint::{Constraint, always, num_states, predecessors, until};
use super::formula::{Arena, CoreNodeId, Lit, Node};
use crate::explicit::kripke::{KripkeStructure, StateId};
use crate::ir::id::IdVec;
use fixedbitset::FixedBitSet;
use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHasher};
use std::hash::{Hash, Hasher};

const NOT_STORED: u32 = u32::MAX;

/// A set an operand denotes: all states, an atom's, or one of the pool.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum SetRef {
    All,
    Atom(u32),
    Pool(u32),
}

/// An operator and its operands' sets (negated or not): equal keys, equal satisfaction sets.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum OperandsKey {
    And((SetRef, bool), (SetRef, bool)),
    EX((SetRef, bool)),
    EU((SetRef, bool), (SetRef, bool)),
    EG((SetRef, bool)),
}

pub(crate) struct Labelling<'k> {
    kripke: &'k KripkeStructure,
    arena: Arena,
    constraints: Vec<Constraint<'k>>,
    all: FixedBitSet,
    fair: FixedBitSet,
    /// Satisfaction sets of operator nodes as indices into `pool` (`NOT_STORED` for `True` and
    /// atoms, which are borrowed). Equal sets are stored once: in spec-heavy models most
    /// subformulas denote one of a few sets (all states, none, …).
    sets: IdVec<CoreNodeId, u32>,
    pool: Vec<FixedBitSet>,
    pool_index: FxHashMap<u64, Vec<u32>>,
    /// The pool index of each operator applied to operand sets already computed: a node whose
    /// operator and operand sets repeat another's has its set. Unfolded RTCTL chains
    /// (`check::rewrite`) reach a fixpoint after a few steps; from there each step is a lookup,
    /// as NuSMV's iteration stops at the fixpoint.
    by_operands: FxHashMap<OperandsKey, u32>,
    condensation: Reachability,
    out_degree: Vec<u32>,
}

impl<'k> Labelling<'k> {
    /// Computes the fair states under the `FAIRNESS`/`JUSTICE` constraints.
    pub(crate) fn new(kripke: &'k KripkeStructure, arena: Arena, fairness: &Fairness<'k>) -> Labelling<'k> {
        let n = num_states(kripke);
        let mut all = FixedBitSet::with_capacity(n);
        all.insert_range(..);
        let constraints: Vec<Constraint<'k>> = (fairness.states.iter())
            .map(|&p| Constraint::States(&kripke.props[p.index()]))
            .chain(fairness.transitions.iter().map(Constraint::Transitions))
            .collect();
        let out_degree: Vec<u32> = (0..n as u32).map(|v| kripke.succ.neighbours(StateId::from_u32(v)).len() as u32).collect();
        let fair = always(kripke, &all, &constraints, &out_degree);
        let condensation = Reachability::default();
        Labelling {
            kripke,
            arena,
            constraints,
            all,
            fair,
            sets: IdVec::new(),
            pool: Vec::new(),
            pool_index: FxHashMap::default(),
            by_operands: FxHashMap::default(),
            condensation,
            out_degree,
        }
    }

    pub(crate) fn kripke(&self) -> &'k KripkeStructure {
        self.kripke
    }
    pub(crate) fn arena(&self) -> &Arena {
        &self.arena
    }
    pub(crate) fn fair(&self) -> &FixedBitSet {
        &self.fair
    }
    pub(crate) fn constraints(&self) -> &[Constraint<'k>] {
        &self.constraints
    }

    /// Labels every node of the arena, level by level, on the current rayon pool.
    pub(crate) fn compute_all(&mut self) {
        let mut by_level: Vec<Vec<CoreNodeId>> = vec![Vec::new(); self.arena.max_level() as usize + 1];
        for id in self.arena.ids() {
            by_level[self.arena.level(id) as usize].push(id);
        }
        self.sets = IdVec::from_elem(NOT_STORED, self.arena.len());
        for level in by_level.iter().skip(1) {
            crate::deadline::poll();
            let mut missing = Vec::with_capacity(level.len());
            for &id in level {
                match self.by_operands.get(&self.operands_key(id)) {
                    Some(&index) => self.sets[id] = index,
                    None => missing.push(id),
                }
            }
            let computed: Vec<FixedBitSet> = missing.par_iter().map(|&id| self.compute(id)).collect();
            for (&id, set) in missing.iter().zip(computed) {
                let index = self.intern(set);
                self.sets[id] = index;
                self.by_operands.insert(self.operands_key(id), index);
            }
        }
    }

    /// What the set of operator node `id` depends on: its operator and its operands' sets.
    fn operands_key(&self, id: CoreNodeId) -> OperandsKey {
        let set_of = |lit: Lit| {
            let set = match self.arena.node(lit.node()) {
                Node::True => SetRef::All,
                Node::Atom(p) => SetRef::Atom(p.as_u32()),
                _ => SetRef::Pool(self.sets[lit.node()]),
            };
            (set, lit.is_negated())
        };
        match self.arena.node(id) {
            Node::And(a, b) => OperandsKey::And(set_of(a), set_of(b)),
            Node::EX(a) => OperandsKey::EX(set_of(a)),
            Node::EU(a, b) => OperandsKey::EU(set_of(a), set_of(b)),
            Node::EG(a) => OperandsKey::EG(set_of(a)),
            Node::True | Node::Atom(_) => unreachable!("level 0 holds the constants and atoms, which are not computed"),
        }
    }

    /// Stores `set` in the pool unless an equal set is there already; returns its pool index.
    fn intern(&mut self, set: FixedBitSet) -> u32 {
        let mut hasher = FxHasher::default();
        set.as_slice().hash(&mut hasher);
        let candidates = self.pool_index.entry(hasher.finish()).or_default();
        if let Some(&same) = candidates.iter().find(|&&i| self.pool[i as usize] == set) {
            return same;
        }
        let index = self.pool.len() as u32;
        candidates.push(index);
        self.pool.push(set);
        index
    }

    fn compute(&self, id: CoreNodeId) -> FixedBitSet {
        match self.arena.node(id) {
            Node::True | Node::Atom(_) => self.node_set(id).clone(),
            Node::And(a, b) => {
                let mut result = self.lit_set(a);
                if b.is_negated() {
                    result.difference_with(self.node_set(b.node()));
                } else {
                    result.intersect_with(self.node_set(b.node()));
                }
                result
            }
            Node::EX(a) => predecessors(self.kripke, &self.fair_part(a), &self.out_degree),
            Node::EU(Lit::TRUE, b) => self.condensation.can_reach(&self.kripke.succ, || self.kripke.pred(), &self.fair_part(b)),
            Node::EU(a, b) => until(self.kripke, &self.lit_set(a), self.fair_part(b)),
            Node::EG(a) => always(self.kripke, &self.fair_part(a), &self.constraints, &self.out_degree),
        }
    }

    /// The states of `lit` that are fair.
    fn fair_part(&self, lit: Lit) -> FixedBitSet {
        let mut set = self.lit_set(lit);
        set.intersect_with(&self.fair);
        set
    }

    /// The satisfaction set of a node (it must have been computed).
    pub(crate) fn node_set(&self, id: CoreNodeId) -> &FixedBitSet {
        match self.arena.node(id) {
            Node::True => &self.all,
            Node::Atom(p) => &self.kripke.props[p.index()],
            _ => {
                let index = self.sets[id];
                assert!(index != NOT_STORED, "nodes are labelled bottom-up before use");
                &self.pool[index as usize]
            }
        }
    }

    /// The satisfaction set of a literal, as a fresh set over all states.
    pub(crate) fn lit_set(&self, lit: Lit) -> FixedBitSet {
        let mut set = self.node_set(lit.node()).clone();
        set.grow(num_states(self.kripke));
        if lit.is_negated() {
            set.toggle_range(..);
        }
        set
    }

    pub(crate) fn holds_at(&self, lit: Lit, s: StateId) -> bool {
        self.node_set(lit.node()).contains(s.index()) != lit.is_negated()
    }

    pub(crate) fn is_fair(&self, s: StateId) -> bool {
        self.fair.contains(s.index())
    }
}
