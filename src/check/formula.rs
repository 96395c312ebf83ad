//! The one formula DAG every CTL engine reads: a spec (or a batch of specs) lowered by
//! [`crate::check::rewrite`] to existential normal form — `⊤`, atoms, `¬`, `∧`, `∨`, `EX`,
//! `EG`, `EU` — and hash-consed, so identical subformulas within one spec or across specs are
//! one node. Nodes are numbered children first: every operand has a smaller id than its
//! operator, so `0..len` is a bottom-up order of the subformulas.
//!
//! What the engines keep beside it is their own: the flat engine's and-inverter view with levels
//! (`flat::formula::Arena`, built from this DAG), the RKS engines' context dependencies
//! (`rks::formula::Formula`), the ternary engines' context slots (`ternary::formula::Formula`).
//!
//! Building ([`DagBuilder`]) always removes double negations; on request it folds constants
//! (atoms known to hold nowhere) and chooses the shape of `↔` (the engines' witness walkers
//! explain the shape they were given, so each keeps the one its traces were written for).

use crate::check::rewrite::{self, CoreBuilder};
use crate::ctl::Ctl;
use crate::ir::PropId;
use crate::ir::id::IdVec;
use rustc_hash::FxHashMap;

crate::index_type! {
    /// A node of a [`Dag`].
    pub struct FormulaId;
}

/// A core operator over earlier nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    True,
    Prop(PropId),
    Not(FormulaId),
    Or(FormulaId, FormulaId),
    And(FormulaId, FormulaId),
    EX(FormulaId),
    EG(FormulaId),
    /// `E[a U b]`
    EU(FormulaId, FormulaId),
}

impl Op {
    /// The direct subformulas, left operand first.
    pub(crate) fn children(self) -> impl Iterator<Item = FormulaId> {
        let (a, b) = match self {
            Op::True | Op::Prop(_) => (None, None),
            Op::Not(a) | Op::EX(a) | Op::EG(a) => (Some(a), None),
            Op::Or(a, b) | Op::And(a, b) | Op::EU(a, b) => (Some(a), Some(b)),
        };
        a.into_iter().chain(b)
    }
    /// `EX`, `EG`, `EU`.
    pub(crate) fn is_existential(self) -> bool {
        matches!(self, Op::EX(_) | Op::EG(_) | Op::EU(..))
    }
    /// `EG`/`EU`: the operators solved by a fixpoint.
    pub(crate) fn is_fixpoint(self) -> bool {
        matches!(self, Op::EG(_) | Op::EU(..))
    }
}

/// The hash-consed DAG, children before parents.
#[derive(Clone, Debug, Default)]
pub struct Dag {
    pub nodes: IdVec<FormulaId, Op>,
    /// (conjunction or disjunction, its operand that is the step of an unfolded RTCTL
    /// operator): `rewrite::CoreBuilder::mark_step`, which the flat witness walkers follow.
    pub(crate) steps: Vec<(FormulaId, FormulaId)>,
}

// `len` without `is_empty`: nothing asks whether it is empty (an `is_empty` would be dead code
// once the type is `pub(crate)`, tools/visibility/sweep.sh).
#[allow(clippy::len_without_is_empty)]
impl Dag {
    pub(crate) fn len(&self) -> usize {
        self.nodes.len()
    }
    pub(crate) fn op(&self, f: FormulaId) -> Op {
        self.nodes[f]
    }
    /// The direct operands of `f`, left first (the tests' view).
    #[cfg(test)]
    pub fn operands(&self, f: FormulaId) -> impl Iterator<Item = FormulaId> {
        self.op(f).children()
    }

    /// The nodes of `root`'s sub-DAG, children before parents.
    pub(crate) fn sub_dag(&self, root: FormulaId) -> Vec<FormulaId> {
        let mut keep: IdVec<FormulaId, bool> = IdVec::from_elem(false, root.index() + 1);
        keep[root] = true;
        for f in keep.indices().rev() {
            if keep[f] {
                for c in self.nodes[f].children() {
                    keep[c] = true;
                }
            }
        }
        keep.iter_enumerated().filter(|&(_, &k)| k).map(|(f, _)| f).collect()
    }

    /// The truth of nodes `0..=upto` in a state that loops forever with the labels `has(p)`
    /// and nothing else: `EX a`, `EG a` are `a`, `E[a U b]` is `b` (the termination state
    /// `l_term` with no labels, or an exit under the loop rule; `ica` of Finis' thesis §3.3.3).
    pub(crate) fn values_in_loop(&self, upto: FormulaId, has: &dyn Fn(PropId) -> bool) -> IdVec<FormulaId, bool> {
        let mut v = IdVec::from_elem(false, upto.index() + 1);
        for g in v.indices() {
            v[g] = match self.nodes[g] {
                Op::True => true,
                Op::Prop(p) => has(p),
                Op::Not(a) => !v[a],
                Op::Or(a, b) => v[a] || v[b],
                Op::And(a, b) => v[a] && v[b],
                Op::EX(a) | Op::EG(a) => v[a],
                Op::EU(_, b) => v[b],
            };
        }
        v
    }
}

/// How [`DagBuilder`] writes `a ↔ b`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum IffShape {
    /// `¬((a ∧ ¬b) ∨ (¬a ∧ b))`, the negated `xor` ([`CoreBuilder`]'s default).
    #[default]
    NotXor,
    /// `(¬a ∨ b) ∧ (¬b ∨ a)`.
    Implications,
}

/// Lowers CTL formulas into one [`Dag`].
#[derive(Default)]
pub(crate) struct DagBuilder<'a> {
    nodes: IdVec<FormulaId, Op>,
    index: FxHashMap<Op, FormulaId>,
    /// With constant folding: the atoms that are false everywhere.
    fold: Option<&'a dyn Fn(PropId) -> bool>,
    iff: IffShape,
    steps: Vec<(FormulaId, FormulaId)>,
}

impl<'a> DagBuilder<'a> {
    pub(crate) fn new(iff: IffShape) -> DagBuilder<'a> {
        DagBuilder { iff, ..DagBuilder::default() }
    }

    /// A builder that folds constants: an atom for which `never` holds (it labels no state or
    /// location of the model, so it is false everywhere, the termination state included)
    /// becomes `false`, and constants propagate through the operators (`EF false ≡ false`,
    /// `AG (false → φ) ≡ true`, `φ ∨ true ≡ true`, …). Equivalent on every model on which
    /// `never` is right.
    pub(crate) fn folding(iff: IffShape, never: &'a dyn Fn(PropId) -> bool) -> DagBuilder<'a> {
        DagBuilder { iff, fold: Some(never), ..DagBuilder::default() }
    }

    /// Lowers `formula` ([`crate::check::rewrite`]) and returns its node.
    pub(crate) fn lower(&mut self, formula: &Ctl<PropId>) -> FormulaId {
        rewrite::lower(self, formula)
    }

    /// The nodes made so far, children before parents (the tests' view).
    #[cfg(test)]
    pub(crate) fn nodes(&self) -> &IdVec<FormulaId, Op> {
        &self.nodes
    }

    pub(crate) fn finish(self) -> Dag {
        Dag { nodes: self.nodes, steps: self.steps }
    }

    fn is_true(&self, f: FormulaId) -> bool {
        self.nodes[f] == Op::True
    }
    fn is_false(&self, f: FormulaId) -> bool {
        matches!(self.nodes[f], Op::Not(a) if self.is_true(a))
    }

    /// `op`, or an equivalent smaller node when folding constants.
    fn fold(&mut self, op: Op) -> Option<FormulaId> {
        let never = self.fold?;
        let fls = |b: &mut Self| {
            let t = b.mk(Op::True);
            b.mk(Op::Not(t))
        };
        match op {
            Op::Prop(p) if never(p) => Some(fls(self)),
            Op::Or(a, b) if self.is_true(a) || self.is_false(b) => Some(a),
            Op::Or(a, b) if self.is_true(b) || self.is_false(a) => Some(b),
            Op::And(a, b) if self.is_false(a) || self.is_true(b) => Some(a),
            Op::And(a, b) if self.is_false(b) || self.is_true(a) => Some(b),
            Op::EX(a) | Op::EG(a) if self.is_false(a) => Some(a),
            Op::EU(_, b) if self.is_false(b) || self.is_true(b) => Some(b),
            Op::EU(a, b) if self.is_false(a) => Some(b),
            _ => None,
        }
    }

    /// The node of `op`: folded, `¬¬a = a`, or an existing equal node, else a new one.
    pub(crate) fn mk(&mut self, op: Op) -> FormulaId {
        if let Some(f) = self.fold(op) {
            return f;
        }
        if let Op::Not(a) = op
            && let Op::Not(b) = self.nodes[a]
        {
            return b;
        }
        if let Some(&id) = self.index.get(&op) {
            return id;
        }
        let id = self.nodes.push(op);
        self.index.insert(op, id);
        id
    }
}

impl CoreBuilder for DagBuilder<'_> {
    type Node = FormulaId;
    type Atom = PropId;

    fn tt(&mut self) -> FormulaId {
        self.mk(Op::True)
    }
    fn atom(&mut self, p: PropId) -> FormulaId {
        self.mk(Op::Prop(p))
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
    fn mark_step(&mut self, node: FormulaId, step: FormulaId) {
        self.steps.push((node, step));
    }
    fn iff(&mut self, a: FormulaId, b: FormulaId) -> FormulaId {
        match self.iff {
            IffShape::NotXor => {
                let x = self.xor(a, b);
                self.not(x)
            }
            IffShape::Implications => {
                let (na, nb) = (self.not(a), self.not(b));
                let (l, r) = (self.or(na, b), self.or(nb, a));
                self.and(l, r)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn atom(p: u32) -> Box<Ctl<PropId>> {
        Box::new(Ctl::Atom(PropId::from_u32(p)))
    }

    #[test]
    fn shares_subformulas_and_orders_bottom_up() {
        let mut b = DagBuilder::default();
        let f = Ctl::Or(Box::new(Ctl::EX(atom(0))), Box::new(Ctl::Not(Box::new(Ctl::EX(atom(0))))));
        let root = b.lower(&f);
        let again = b.lower(&f);
        let dag = b.finish();
        assert_eq!(root, again);
        assert_eq!(dag.len(), 4); // p, EX p, ¬EX p, ∨
        for i in dag.nodes.indices() {
            assert!(dag.operands(i).all(|o| o < i));
        }
        assert_eq!(dag.sub_dag(FormulaId::new(1)), vec![FormulaId::new(0), FormulaId::new(1)]);
    }

    #[test]
    fn double_negation_is_removed() {
        let mut b = DagBuilder::default();
        let root = b.lower(&Ctl::Not(Box::new(Ctl::Not(Box::new(Ctl::AG(atom(0)))))));
        let dag = b.finish();
        // AG p = ¬E[⊤ U ¬p]
        assert!(matches!(dag.op(root), Op::Not(e) if matches!(dag.op(e), Op::EU(..))));
    }

    #[test]
    fn iff_shapes() {
        let iff = Ctl::Iff(atom(0), atom(1));
        let mut x = DagBuilder::new(IffShape::NotXor);
        let rx = x.lower(&iff);
        assert!(matches!(x.nodes()[rx], Op::Not(o) if matches!(x.nodes()[o], Op::Or(..))));
        let mut i = DagBuilder::new(IffShape::Implications);
        let ri = i.lower(&iff);
        assert!(matches!(i.nodes()[ri], Op::And(..)));
    }

    #[test]
    fn folding_removes_atoms_that_never_hold() {
        let spec = Ctl::AG(Box::new(Ctl::Implies(atom(0), Box::new(Ctl::EF(atom(1))))));
        let never = |p: PropId| p == PropId::new(1);
        let mut b = DagBuilder::folding(IffShape::NotXor, &never);
        let root = b.lower(&spec);
        let dag = b.finish();
        assert_eq!(dag.sub_dag(root).iter().filter(|&&f| dag.op(f).is_fixpoint()).count(), 1);
        let all = |_: PropId| true;
        let mut b = DagBuilder::folding(IffShape::NotXor, &all);
        let root = b.lower(&spec);
        assert_eq!(b.nodes()[root], Op::True);
    }

    #[test]
    fn loop_values() {
        let mut b = DagBuilder::default();
        let ef = b.lower(&Ctl::EF(atom(0)));
        let ag = b.lower(&Ctl::AG(Box::new(Ctl::Not(atom(0)))));
        let dag = b.finish();
        let top = FormulaId::new(dag.len() - 1);
        let none = dag.values_in_loop(top, &|_| false);
        assert!(!none[ef] && none[ag]);
        let p = dag.values_in_loop(top, &|p| p == PropId::new(0));
        assert!(p[ef] && !p[ag]);
    }
}
