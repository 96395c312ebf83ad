//! Deterministic monitors for the pure-past subformulas of an LTL spec.
//!
//! A pure-past formula (`Y Z H O S T` and boolean connectives over propositions) has, at every
//! position of a path, a truth value determined by the prefix up to that position. The monitor
//! keeps the value of every node of those formulas at the current position as one bit of a
//! `u64`; the next position's bits follow from the previous bits and the new state
//! ([`PastMonitor::step`]). The product of the checker carries these bits in its states, so the
//! tableau treats each past formula as a literal (`Atom::Past(bit)`). At most 64 nodes.
//!
//! Semantics (NuSMV's, finite past from the first state): `Y a` is false and `Z a` true at the
//! first position; `H a`, `O a`, `a S b`, `a T b` with the usual recursions
//! (`a S b = b ∨ (a ∧ Y (a S b))`, `a T b = b ∧ (a ∨ Z (a T b))`).

use crate::explicit::kripke::{KripkeStructure, PropId, StateId};
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
}

/// The monitored nodes, children before parents.
#[derive(Clone, Debug, Default)]
pub(crate) struct PastMonitor {
    nodes: Vec<PastNode>,
    index: FxHashMap<PastNode, u32>,
}

impl PastMonitor {
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
            Unary(op, _) | Binary(op, ..) => {
                return Err(format!(
                    "a past operator applied to a formula with the future operator `{op:?}` is not supported (past operands must be past or propositional)"
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
        self.step_by(previous, |p| kripke.props[p as usize].contains(state as usize))
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
            };
            bits |= (value as u64) << i;
        }
        bits
    }
}
