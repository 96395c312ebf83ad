//! Deterministic monitors for the pure-past subformulas of an LTL spec.
//!
//! A pure-past formula (`Y Z H O S T` and boolean connectives over propositions) has, at every
//! position of a path, a truth value determined by the prefix up to that position. The monitor
//! keeps the value of every node of those formulas at the current position as one bit of a
//! `u64`; the next position's bits follow from the previous bits and the new state
//! ([`PastMonitor::step`]). The product of the checker carries these bits in its states, so the
//! tableau treats each past formula as a literal (`Atom::Past(bit)`). At most 64 nodes.
//!
//! A past operator over a future formula (`O (F p)`) has no deterministic monitor: only a
//! monitor made with [`PastMonitor::with_future_operands`] (the BDD engine's symbolic tableau,
//! `check::bdd::tableau`) accepts one, as a [`PastNode::Future`] node whose value the tableau
//! supplies; [`PastMonitor::default`] (the explicit engines) refuses it.
//!
//! Semantics (NuSMV's, finite past from the first state): `Y a` is false and `Z a` true at the
//! first position; `H a`, `O a`, `a S b`, `a T b` with the usual recursions
//! (`a S b = b ∨ (a ∧ Y (a S b))`, `a T b = b ∧ (a ∨ Z (a T b))`).

use super::NnfId;
use crate::explicit::kripke::{KripkeStructure, StateId};
use crate::ir::PropId;
use crate::ltl::{Ltl, LtlOp};
use rustc_hash::FxHashMap;

/// Largest number of monitored nodes (bits of the monitor state).
pub(crate) const MAX_PAST_NODES: usize = 64;

/// A node of a pure-past formula; operands are indices of earlier nodes (bits of the monitor).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum PastNode {
    Const(bool),
    Prop(PropId),
    Not(u32),
    And(u32, u32),
    Or(u32, u32),
    /// `Y a` (`weak = false`) and `Z a` (`weak = true`): the operand's previous value, `weak`
    /// at the first position.
    Prev(u32, bool),
    /// `a S b` (`weak = false`; `O b` is `⊤ S b`) and `a T b` (`weak = true`; `H a` is `⊥ T a`).
    Since(u32, u32, bool),
    /// A future formula below a past operator: slot `i` of [`PastMonitor::futures`], whose
    /// value is that of its NNF nodes in the formula arena (symbolic tableau only).
    Future(u32),
}

/// A future operand of a past operator: the formula, and the ids of its NNF and of its
/// negation's NNF in the arena once [`crate::check::ltl::formula::Arena::nnf`] has translated it.
#[derive(Clone, Debug)]
pub(crate) struct FutureOperand {
    pub formula: Ltl<PropId>,
    pub ids: Option<(NnfId, NnfId)>,
}

/// The monitored nodes, children before parents.
#[derive(Clone, Debug, Default)]
pub(crate) struct PastMonitor {
    nodes: Vec<PastNode>,
    index: FxHashMap<PastNode, u32>,
    /// Whether future operands are accepted (as [`PastNode::Future`]).
    allow_future: bool,
    futures: Vec<FutureOperand>,
    /// Slots of `futures` not yet translated by the arena.
    pending: Vec<u32>,
}

impl PastMonitor {
    /// A monitor that accepts future formulas below past operators, for a tableau that gives
    /// them values ([`PastNode::Future`]); the explicit engines use [`PastMonitor::default`].
    pub(crate) fn with_future_operands() -> PastMonitor {
        PastMonitor { allow_future: true, ..PastMonitor::default() }
    }

    /// The future operands of past operators (empty for a monitor that refuses them).
    pub(crate) fn futures(&self) -> &[FutureOperand] {
        &self.futures
    }

    /// The next future operand the arena has to translate (slot and formula).
    pub(crate) fn take_pending(&mut self) -> Option<(u32, Ltl<PropId>)> {
        let slot = self.pending.pop()?;
        Some((slot, self.futures[slot as usize].formula.clone()))
    }

    /// Records the arena ids of a future operand's NNF and of its negation's.
    pub(crate) fn resolve(&mut self, slot: u32, positive: NnfId, negative: NnfId) {
        self.futures[slot as usize].ids = Some((positive, negative));
    }

    /// No past operator in the spec: the monitor state is always 0.
    pub(crate) fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The monitored nodes, children before parents (node `i` is bit `i`).
    pub(crate) fn nodes(&self) -> &[PastNode] {
        &self.nodes
    }

    /// Registers the pure-past formula `f` and returns the bit holding its value.
    pub(crate) fn add(&mut self, f: &Ltl<PropId>) -> Result<u32, String> {
        use Ltl::*;
        let node = match f {
            True => PastNode::Const(true),
            False => PastNode::Const(false),
            Atom(p) => PastNode::Prop(*p),
            Not(a) => PastNode::Not(self.add(a)?),
            And(a, b) => PastNode::And(self.add(a)?, self.add(b)?),
            Or(a, b) => PastNode::Or(self.add(a)?, self.add(b)?),
            Implies(a, b) => {
                let na = Not(a.clone());
                return self.add(&Or(Box::new(na), b.clone()));
            }
            Iff(a, b) | Xnor(a, b) | Xor(a, b) => {
                let both = And(a.clone(), b.clone());
                let neither = And(Box::new(Not(a.clone())), Box::new(Not(b.clone())));
                let equal = Or(Box::new(both), Box::new(neither));
                return self.add(&if matches!(f, Xor(..)) { Not(Box::new(equal)) } else { equal });
            }
            Unary(LtlOp::Y, a) => PastNode::Prev(self.add(a)?, false),
            Unary(LtlOp::Z, a) => PastNode::Prev(self.add(a)?, true),
            Unary(LtlOp::O, a) => {
                let t = self.intern(PastNode::Const(true))?;
                PastNode::Since(t, self.add(a)?, false)
            }
            Unary(LtlOp::H, a) => {
                let t = self.intern(PastNode::Const(false))?;
                PastNode::Since(t, self.add(a)?, true)
            }
            Binary(LtlOp::S, a, b) => PastNode::Since(self.add(a)?, self.add(b)?, false),
            Binary(LtlOp::T, a, b) => PastNode::Since(self.add(a)?, self.add(b)?, true),
            Unary(..) | Binary(..) if self.allow_future => {
                let slot = match self.futures.iter().position(|o| &o.formula == f) {
                    Some(i) => i as u32,
                    None => {
                        self.futures.push(FutureOperand { formula: f.clone(), ids: None });
                        self.pending.push(self.futures.len() as u32 - 1);
                        self.futures.len() as u32 - 1
                    }
                };
                PastNode::Future(slot)
            }
            Unary(op, _) | Binary(op, ..) => {
                return Err(format!(
                    "the future operator `{op:?}` below a past operator is checked by the BDD engine only (`--engine bdd`; `auto` picks it for such specs): the explicit engines' past monitors read past and propositional operands"
                ));
            }
        };
        self.intern(node)
    }

    fn intern(&mut self, node: PastNode) -> Result<u32, String> {
        if let Some(&i) = self.index.get(&node) {
            return Ok(i);
        }
        if self.nodes.len() == MAX_PAST_NODES {
            return Err(format!("the past operators of the spec need more than {MAX_PAST_NODES} monitor bits"));
        }
        let i = self.nodes.len() as u32;
        self.nodes.push(node);
        self.index.insert(node, i);
        Ok(i)
    }

    /// The bits whose previous values the next position reads (operands of `Y`/`Z`, the `S`/`T`
    /// nodes themselves), and their values "before the first position" (`Y`, `S`: false; `Z`,
    /// `T`: true), or `None` when an operand is read by both a strong and a weak operator. Two
    /// positions of a path with equal model states and equal carried bits have equal futures of
    /// the monitor: NuSMV's tableau state for past operators.
    pub(crate) fn carried(&self) -> (u64, Option<u64>) {
        let (mut mask, mut before, mut conflict) = (0u64, 0u64, false);
        let mut carry = |bit: u32, weak: bool| {
            if mask >> bit & 1 == 1 && (before >> bit & 1 == 1) != weak {
                conflict = true;
            }
            mask |= 1 << bit;
            before |= (weak as u64) << bit;
        };
        for (i, node) in self.nodes.iter().enumerate() {
            match *node {
                PastNode::Prev(a, weak) => carry(a, weak),
                PastNode::Since(_, _, weak) => carry(i as u32, weak),
                _ => {}
            }
        }
        (mask, (!conflict).then_some(before))
    }

    /// The bits at a position in `state`, given the bits of the previous position (`None` at the
    /// first position).
    pub(crate) fn step(&self, previous: Option<u64>, kripke: &KripkeStructure, state: StateId) -> u64 {
        self.step_by(previous, |p| kripke.props[p.index()].contains(state.index()))
    }

    /// [`PastMonitor::step`] at a position whose propositions `holds` gives (any structure).
    pub(crate) fn step_by(&self, previous: Option<u64>, holds: impl Fn(PropId) -> bool) -> u64 {
        let mut bits = 0u64;
        let was = |i: u32, first: bool| previous.map_or(first, |p| p >> i & 1 == 1);
        for (i, node) in self.nodes.iter().enumerate() {
            let now = |j: u32| bits >> j & 1 == 1;
            let value = match *node {
                PastNode::Const(v) => v,
                PastNode::Prop(p) => holds(p),
                PastNode::Not(a) => !now(a),
                PastNode::And(a, b) => now(a) && now(b),
                PastNode::Or(a, b) => now(a) || now(b),
                PastNode::Prev(a, weak) => was(a, weak),
                // S: b ∨ (a ∧ previous); T: b ∧ (a ∨ previous), previous = weak at the start.
                PastNode::Since(a, b, false) => now(b) || (now(a) && was(i as u32, false)),
                PastNode::Since(a, b, true) => now(b) && (now(a) || was(i as u32, true)),
                // Only monitors made `with_future_operands` hold these, and no explicit engine
                // steps one (the symbolic tableau computes their values).
                PastNode::Future(_) => false,
            };
            bits |= (value as u64) << i;
        }
        bits
    }
}
