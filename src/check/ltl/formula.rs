//! Future LTL in negation normal form, hash-consed, with simplification on construction.
//!
//! [`Arena::negation_of`] turns a user formula `φ` into NNF of `¬φ` over the core operators
//! `X U R` (`F a = ⊤ U a`, `G a = ⊥ R a`, `V` is `R`), pushing negations to literals. Maximal
//! pure-past subformulas (`Y Z H O S T` over past/boolean operands only) become literals of
//! monitor bits ([`super::past::PastMonitor`]); a past operator over a future formula is refused,
//! unless the monitor accepts future operands (the BDD engine's): each such operand is then
//! translated here too, both ways (its NNF and its negation's), for the tableau to evaluate.
//!
//! Simplification (applied by the smart constructors, so every node is already simplified):
//! constants through every operator, idempotence (`a ∧ a`, `a U a`), complementary literals
//! (`p ∧ ¬p = ⊥`), `X ⊤ = ⊤`, `a U ⊥ = ⊥`, `⊥ U b = b`, `a R ⊤ = ⊤`, `⊤ R b = b`, `F F a = F a`,
//! `G G a = G a`, `F G F a = G F a`, `G F G a = F G a`. Operands of `∧`/`∨` are ordered so that
//! equal formulas get equal ids.

pub(crate) use super::NnfId;
use super::past::PastMonitor;
use crate::ir::PropId;
use crate::ir::id::IdVec;

use crate::ltl::{Ltl, LtlOp};
use rustc_hash::FxHashMap;

/// What a literal reads: a proposition of the Kripke structure or a past-monitor bit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Atom {
    Prop(PropId),
    Past(u32),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Node {
    True,
    False,
    /// `Lit(a, true)` is `a`, `Lit(a, false)` is `¬a`.
    Lit(Atom, bool),
    And(NnfId, NnfId),
    Or(NnfId, NnfId),
    X(NnfId),
    U(NnfId, NnfId),
    /// Release (NuSMV's `V`): `a R b = ¬(¬a U ¬b)`.
    R(NnfId, NnfId),
}

/// Hash-consed NNF formulas.
#[derive(Default)]
pub(crate) struct Arena {
    nodes: IdVec<NnfId, Node>,
    index: FxHashMap<Node, NnfId>,
}

const TRUE: NnfId = NnfId::from_u32(0);
const FALSE: NnfId = NnfId::from_u32(1);

impl Arena {
    pub(crate) fn new() -> Arena {
        let mut a = Arena::default();
        a.intern(Node::True);
        a.intern(Node::False);
        a
    }

    pub(crate) fn node(&self, id: NnfId) -> Node {
        self.nodes[id]
    }

    fn intern(&mut self, n: Node) -> NnfId {
        if let Some(&id) = self.index.get(&n) {
            return id;
        }
        let id = self.nodes.push(n);
        self.index.insert(n, id);
        id
    }

    pub(crate) fn lit(&mut self, a: Atom, positive: bool) -> NnfId {
        self.intern(Node::Lit(a, positive))
    }

    fn complementary(&self, a: NnfId, b: NnfId) -> bool {
        matches!((self.node(a), self.node(b)), (Node::Lit(x, p), Node::Lit(y, q)) if x == y && p != q)
    }

    pub(crate) fn and(&mut self, a: NnfId, b: NnfId) -> NnfId {
        match (a, b) {
            (FALSE, _) | (_, FALSE) => FALSE,
            (TRUE, x) | (x, TRUE) => x,
            _ if a == b => a,
            _ if self.complementary(a, b) => FALSE,
            _ => self.intern(Node::And(a.min(b), a.max(b))),
        }
    }

    pub(crate) fn or(&mut self, a: NnfId, b: NnfId) -> NnfId {
        match (a, b) {
            (TRUE, _) | (_, TRUE) => TRUE,
            (FALSE, x) | (x, FALSE) => x,
            _ if a == b => a,
            _ if self.complementary(a, b) => TRUE,
            _ => self.intern(Node::Or(a.min(b), a.max(b))),
        }
    }

    pub(crate) fn next(&mut self, a: NnfId) -> NnfId {
        match a {
            TRUE | FALSE => a,
            _ => self.intern(Node::X(a)),
        }
    }

    pub(crate) fn until(&mut self, a: NnfId, b: NnfId) -> NnfId {
        match (self.node(a), self.node(b)) {
            (_, Node::True | Node::False) => b,
            (Node::False, _) => b,
            _ if a == b => b,
            // F F x = F x
            (Node::True, Node::U(TRUE, _)) => b,
            // F G F x = G F x
            (Node::True, Node::R(FALSE, inner)) if matches!(self.node(inner), Node::U(TRUE, _)) => b,
            _ => self.intern(Node::U(a, b)),
        }
    }

    pub(crate) fn release(&mut self, a: NnfId, b: NnfId) -> NnfId {
        match (self.node(a), self.node(b)) {
            (_, Node::True | Node::False) => b,
            (Node::True, _) => b,
            _ if a == b => b,
            // G G x = G x
            (Node::False, Node::R(FALSE, _)) => b,
            // G F G x = F G x
            (Node::False, Node::U(TRUE, inner)) if matches!(self.node(inner), Node::R(FALSE, _)) => b,
            _ => self.intern(Node::R(a, b)),
        }
    }

    /// NNF of `¬f` (`negated = true`) or of `f`. Pure-past subformulas become monitor literals
    /// registered in `past`; `Err` names a past operator applied to a future formula.
    pub(crate) fn nnf(&mut self, f: &Ltl<PropId>, negated: bool, past: &mut PastMonitor) -> Result<NnfId, String> {
        use Ltl::*;
        Ok(match f {
            True => self.constant(!negated),
            False => self.constant(negated),
            Atom(p) => self.lit(self::Atom::Prop(*p), !negated),
            Not(a) => self.nnf(a, !negated, past)?,
            And(a, b) | Or(a, b) => {
                let (x, y) = (self.nnf(a, negated, past)?, self.nnf(b, negated, past)?);
                if matches!(f, And(..)) != negated { self.and(x, y) } else { self.or(x, y) }
            }
            Implies(a, b) => {
                // a -> b = ¬a ∨ b; ¬(a -> b) = a ∧ ¬b
                let (x, y) = (self.nnf(a, !negated, past)?, self.nnf(b, negated, past)?);
                if negated { self.and(x, y) } else { self.or(x, y) }
            }
            Iff(a, b) | Xnor(a, b) | Xor(a, b) => {
                // iff: (a ∧ b) ∨ (¬a ∧ ¬b); its negation (xor): (a ∧ ¬b) ∨ (¬a ∧ b)
                let equal = matches!(f, Iff(..) | Xnor(..)) != negated;
                let (pa, na) = (self.nnf(a, false, past)?, self.nnf(a, true, past)?);
                let (pb, nb) = (self.nnf(b, false, past)?, self.nnf(b, true, past)?);
                let (l, r) = if equal { (self.and(pa, pb), self.and(na, nb)) } else { (self.and(pa, nb), self.and(na, pb)) };
                self.or(l, r)
            }
            Unary(op, _) | Binary(op, ..) if op.is_past() => {
                let bit = past.add(f)?;
                while let Some((slot, operand)) = past.take_pending() {
                    let (positive, negative) = (self.nnf(&operand, false, past)?, self.nnf(&operand, true, past)?);
                    past.resolve(slot, positive, negative);
                }
                self.lit(self::Atom::Past(bit), !negated)
            }
            Unary(LtlOp::X, a) => {
                let x = self.nnf(a, negated, past)?;
                self.next(x)
            }
            Unary(op @ (LtlOp::G | LtlOp::F), a) => {
                let x = self.nnf(a, negated, past)?;
                // G a = ⊥ R a, F a = ⊤ U a; negation swaps them.
                if (*op == LtlOp::G) != negated { self.release(FALSE, x) } else { self.until(TRUE, x) }
            }
            Binary(op @ (LtlOp::U | LtlOp::V), a, b) => {
                let (x, y) = (self.nnf(a, negated, past)?, self.nnf(b, negated, past)?);
                if (*op == LtlOp::U) != negated { self.until(x, y) } else { self.release(x, y) }
            }
            Unary(op, _) | Binary(op, ..) => return Err(format!("internal: LTL operator {op:?} with the wrong number of operands")),
        })
    }

    fn constant(&mut self, value: bool) -> NnfId {
        if value { TRUE } else { FALSE }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(i: u32) -> Ltl<PropId> {
        Ltl::Atom(PropId::from_u32(i))
    }
    fn un(op: LtlOp, a: Ltl<PropId>) -> Ltl<PropId> {
        Ltl::Unary(op, Box::new(a))
    }

    #[test]
    fn simplification_rules() {
        let mut arena = Arena::new();
        let mut past = PastMonitor::default();
        let gfg = un(LtlOp::G, un(LtlOp::F, un(LtlOp::G, p(0))));
        let fg = un(LtlOp::F, un(LtlOp::G, p(0)));
        assert_eq!(arena.nnf(&gfg, false, &mut past), arena.nnf(&fg, false, &mut past));
        let ff = un(LtlOp::F, un(LtlOp::F, p(1)));
        assert_eq!(arena.nnf(&ff, false, &mut past), arena.nnf(&un(LtlOp::F, p(1)), false, &mut past));
        // ¬G p = F ¬p = ⊤ U ¬p
        let id = arena.nnf(&un(LtlOp::G, p(2)), true, &mut past).unwrap();
        let neg = arena.lit(Atom::Prop(PropId::new(2)), false);
        assert_eq!(arena.node(id), Node::U(TRUE, neg));
        // p ∧ ¬p = ⊥, X ⊤ = ⊤
        let contradiction = Ltl::And(Box::new(p(3)), Box::new(Ltl::Not(Box::new(p(3)))));
        assert_eq!(arena.nnf(&contradiction, false, &mut past), Ok(FALSE));
        assert_eq!(arena.nnf(&un(LtlOp::X, Ltl::True), false, &mut past), Ok(TRUE));
    }
}
