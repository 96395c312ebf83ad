//! The checked formula as a hash-consed DAG in existential normal form (ENF: tt, atoms, ¬, ∧,
//! ∨, ∃X, ∃G, ∃U), numbered bottom-up: every operand has a smaller index than its operator, so
//! `0..len` is an order "[Subf(Φ)]" in which subformulas come first. Existential subformulas get
//! a dense slot number used to index contexts (exit × Subf∃(Φ)).
//!
//! Rewrites: [`crate::check::rewrite`]'s (`AX a = ¬EX ¬a`, `AG a = ¬E[tt U ¬a]`, …), shared
//! with the other engines; `¬¬a = a` here.

use crate::check::rewrite::{self, CoreBuilder};
use crate::ctl::Ctl;
use crate::explicit::rks::PropId;
use rustc_hash::FxHashMap;

pub type FormulaId = u32;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    True,
    Atom(PropId),
    Not(FormulaId),
    And(FormulaId, FormulaId),
    Or(FormulaId, FormulaId),
    EX(FormulaId),
    EG(FormulaId),
    /// `E[a U b]`
    EU(FormulaId, FormulaId),
}

impl Op {
    pub fn is_existential(self) -> bool {
        matches!(self, Op::EX(_) | Op::EG(_) | Op::EU(..))
    }
}

pub const NO_SLOT: u32 = u32::MAX;

#[derive(Clone, Debug)]
pub struct Formula {
    pub ops: Vec<Op>,
    /// Context slot of each existential subformula, [`NO_SLOT`] for the others.
    pub slot: Vec<u32>,
    /// The existential subformulas in slot order.
    pub existentials: Vec<FormulaId>,
    pub root: FormulaId,
}

impl Formula {
    pub fn from_ctl(ctl: &Ctl<PropId>) -> Formula {
        let mut b = Builder::default();
        let root = rewrite::lower(&mut b, ctl);
        let slot_of = |(i, op): (usize, &Op)| (op.is_existential(), i);
        let mut slot = vec![NO_SLOT; b.ops.len()];
        let mut existentials = Vec::new();
        for (is_ex, i) in b.ops.iter().enumerate().map(slot_of) {
            if is_ex {
                slot[i] = existentials.len() as u32;
                existentials.push(i as FormulaId);
            }
        }
        Formula { ops: b.ops, slot, existentials, root }
    }

    pub fn len(&self) -> usize {
        self.ops.len()
    }
    pub fn is_empty(&self) -> bool {
        self.ops.is_empty()
    }
    pub fn op(&self, f: FormulaId) -> Op {
        self.ops[f as usize]
    }
    /// The direct operands of `f`.
    pub fn operands(&self, f: FormulaId) -> impl Iterator<Item = FormulaId> {
        let (a, b) = match self.op(f) {
            Op::True | Op::Atom(_) => (None, None),
            Op::Not(a) | Op::EX(a) | Op::EG(a) => (Some(a), None),
            Op::And(a, b) | Op::Or(a, b) | Op::EU(a, b) => (Some(a), Some(b)),
        };
        a.into_iter().chain(b)
    }
}

#[derive(Default)]
struct Builder {
    ops: Vec<Op>,
    index: FxHashMap<Op, FormulaId>,
}

impl Builder {
    fn mk(&mut self, op: Op) -> FormulaId {
        if let Op::Not(a) = op
            && let Op::Not(inner) = self.ops[a as usize]
        {
            return inner;
        }
        if let Some(&id) = self.index.get(&op) {
            return id;
        }
        let id = self.ops.len() as FormulaId;
        self.ops.push(op);
        self.index.insert(op, id);
        id
    }
}

impl CoreBuilder for Builder {
    type Node = FormulaId;
    type Atom = PropId;

    fn tt(&mut self) -> FormulaId {
        self.mk(Op::True)
    }
    fn atom(&mut self, p: PropId) -> FormulaId {
        self.mk(Op::Atom(p))
    }
    fn not(&mut self, a: FormulaId) -> FormulaId {
        self.mk(Op::Not(a))
    }
    fn and(&mut self, a: FormulaId, b: FormulaId) -> FormulaId {
        self.mk(Op::And(a, b))
    }
    fn or(&mut self, a: FormulaId, b: FormulaId) -> FormulaId {
        self.mk(Op::Or(a, b))
    }
    fn ex(&mut self, a: FormulaId) -> FormulaId {
        self.mk(Op::EX(a))
    }
    fn eu(&mut self, a: FormulaId, b: FormulaId) -> FormulaId {
        self.mk(Op::EU(a, b))
    }
    fn eg(&mut self, a: FormulaId) -> FormulaId {
        self.mk(Op::EG(a))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_subformulas_and_orders_bottom_up() {
        let p = || Box::new(Ctl::Atom(0));
        let f = Formula::from_ctl(&Ctl::Or(Box::new(Ctl::EX(p())), Box::new(Ctl::Not(Box::new(Ctl::EX(p()))))));
        assert_eq!(f.len(), 4); // p, EX p, ¬EX p, ∨
        assert_eq!(f.existentials.len(), 1);
        for i in 0..f.len() as FormulaId {
            assert!(f.operands(i).all(|o| o < i));
        }
    }
}
