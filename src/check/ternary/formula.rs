//! The checked formula as a hash-consed DAG in existential normal form (ENF: tt, atoms, ¬, ∧,
//! ∨, ∃X, ∃G, ∃U), numbered bottom-up: every operand has a smaller index than its operator, so
//! `0..len` is an order "[Subf(Φ)]" in which subformulas come first. Existential subformulas get
//! a dense slot number used to index contexts (exit × Subf∃(Φ)).
//!
//! Rewrites: `ff = ¬tt`, `a → b = ¬a ∨ b`, xor/xnor/iff via ∧ ∨ ¬, `EF a = E[tt U a]`,
//! `AX a = ¬EX ¬a`, `AF a = ¬EG ¬a`, `AG a = ¬E[tt U ¬a]`,
//! `A[a U b] = ¬(E[¬b U (¬a ∧ ¬b)] ∨ EG ¬b)`; `¬¬a = a`.

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
        let root = b.translate(ctl);
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
    fn not(&mut self, a: FormulaId) -> FormulaId {
        self.mk(Op::Not(a))
    }
    fn or(&mut self, a: FormulaId, b: FormulaId) -> FormulaId {
        self.mk(Op::Or(a, b))
    }
    fn and(&mut self, a: FormulaId, b: FormulaId) -> FormulaId {
        self.mk(Op::And(a, b))
    }
    fn xor(&mut self, a: FormulaId, b: FormulaId) -> FormulaId {
        let (na, nb) = (self.not(a), self.not(b));
        let l = self.and(a, nb);
        let r = self.and(na, b);
        self.or(l, r)
    }

    fn translate(&mut self, c: &Ctl<PropId>) -> FormulaId {
        use Ctl::*;
        match c {
            True => self.mk(Op::True),
            False => {
                let t = self.mk(Op::True);
                self.not(t)
            }
            Atom(p) => self.mk(Op::Atom(*p)),
            Not(a) => {
                let a = self.translate(a);
                self.not(a)
            }
            And(a, b) => {
                let (a, b) = (self.translate(a), self.translate(b));
                self.and(a, b)
            }
            Or(a, b) => {
                let (a, b) = (self.translate(a), self.translate(b));
                self.or(a, b)
            }
            Xor(a, b) => {
                let (a, b) = (self.translate(a), self.translate(b));
                self.xor(a, b)
            }
            Xnor(a, b) | Iff(a, b) => {
                let (a, b) = (self.translate(a), self.translate(b));
                let x = self.xor(a, b);
                self.not(x)
            }
            Implies(a, b) => {
                let (a, b) = (self.translate(a), self.translate(b));
                let na = self.not(a);
                self.or(na, b)
            }
            EX(a) => {
                let a = self.translate(a);
                self.mk(Op::EX(a))
            }
            EG(a) => {
                let a = self.translate(a);
                self.mk(Op::EG(a))
            }
            EU(a, b) => {
                let (a, b) = (self.translate(a), self.translate(b));
                self.mk(Op::EU(a, b))
            }
            EF(a) => {
                let t = self.mk(Op::True);
                let a = self.translate(a);
                self.mk(Op::EU(t, a))
            }
            AX(a) => {
                let a = self.translate(a);
                let na = self.not(a);
                let ex = self.mk(Op::EX(na));
                self.not(ex)
            }
            AF(a) => {
                let a = self.translate(a);
                let na = self.not(a);
                let eg = self.mk(Op::EG(na));
                self.not(eg)
            }
            AG(a) => {
                let t = self.mk(Op::True);
                let a = self.translate(a);
                let na = self.not(a);
                let eu = self.mk(Op::EU(t, na));
                self.not(eu)
            }
            AU(a, b) => {
                let (a, b) = (self.translate(a), self.translate(b));
                let (na, nb) = (self.not(a), self.not(b));
                let both = self.and(na, nb);
                let eu = self.mk(Op::EU(nb, both));
                let eg = self.mk(Op::EG(nb));
                let either = self.or(eu, eg);
                self.not(either)
            }
        }
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
