//! The checked formula for the ternary engines: the shared hash-consed DAG of
//! [`crate::check::formula`] in existential normal form (ENF: tt, atoms, ¬, ∧, ∨, ∃X, ∃G, ∃U),
//! numbered bottom-up: every operand has a smaller index than its operator, so
//! `0..len` is an order "[Subf(Φ)]" in which subformulas come first. Existential subformulas get
//! a dense slot number used to index contexts (exit × Subf∃(Φ)).
//!
//! Rewrites: [`crate::check::rewrite`]'s (`AX a = ¬EX ¬a`, `AG a = ¬E[tt U ¬a]`, …), shared
//! with the other engines; `¬¬a = a`; `a ↔ b = ¬(a xor b)`.

use crate::check::formula::{Dag, DagBuilder, IffShape};
use crate::ctl::Ctl;
use crate::ir::PropId;

use crate::ir::id::IdVec;

pub(crate) use crate::check::formula::{FormulaId, Op};

pub(crate) const NO_SLOT: u32 = u32::MAX;

/// The shared DAG ([`Dag`], reached through `Deref`) with the context slots of its existential
/// subformulas.
#[derive(Clone, Debug)]
pub(crate) struct Formula {
    pub dag: Dag,
    /// Context slot of each existential subformula, [`NO_SLOT`] for the others.
    pub slot: IdVec<FormulaId, u32>,
    /// The existential subformulas in slot order.
    pub existentials: Vec<FormulaId>,
    pub root: FormulaId,
}

impl std::ops::Deref for Formula {
    type Target = Dag;
    fn deref(&self) -> &Dag {
        &self.dag
    }
}

impl Formula {
    pub(crate) fn from_ctl(ctl: &Ctl<PropId>) -> Formula {
        let mut b = DagBuilder::new(IffShape::NotXor);
        let root = b.lower(ctl);
        let dag = b.finish();
        let mut slot = IdVec::from_elem(NO_SLOT, dag.len());
        let mut existentials = Vec::new();
        for (i, op) in dag.nodes.iter_enumerated() {
            if op.is_existential() {
                slot[i] = existentials.len() as u32;
                existentials.push(i);
            }
        }
        Formula { dag, slot, existentials, root }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_subformulas_and_orders_bottom_up() {
        let p = || Box::new(Ctl::Atom(PropId::new(0)));
        let f = Formula::from_ctl(&Ctl::Or(Box::new(Ctl::EX(p())), Box::new(Ctl::Not(Box::new(Ctl::EX(p()))))));
        assert_eq!(f.len(), 4); // p, EX p, ¬EX p, ∨
        assert_eq!(f.existentials.len(), 1);
        for i in f.nodes.indices() {
            assert!(f.operands(i).all(|o| o < i));
        }
    }
}
