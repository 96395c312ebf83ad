//! The checked formula as a hash-consed DAG over the core operators
//! `⊤ p ¬ ∨ ∧ EX EG EU` (Finis 2012 §2.3, with native `∧`), children before parents; the
//! rewriting of the other operators is [`crate::check::rewrite`]'s.
//!
//! For every node `f` it also computes `deps(f)`: the nodes of `f`'s sub-DAG whose value in the
//! return location a call context must record. These are the `EG`/`EU` nodes (their `ω` label
//! reads their own value after the return) and the children of `EX` nodes (`EX ψ` at an exit
//! reads `ψ` after the return). Assumptions about every other node are never read, so they are
//! dropped from contexts (thesis §5.4, "drop context assumptions for atomic propositions" and
//! "infer the assumption of non-temporal operators"). `deps(f)` is sorted by node id; if `f` is
//! `EG`/`EU`, `f` is its last element (its "top").

use crate::check::rewrite::{self, CoreBuilder};
use crate::ctl::Ctl;
use crate::explicit::rks::PropId;
use rustc_hash::FxHashMap;

pub type FId = u32;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    True,
    Prop(PropId),
    Not(FId),
    Or(FId, FId),
    And(FId, FId),
    EX(FId),
    EG(FId),
    EU(FId, FId),
}

impl Op {
    /// The direct subformulas (ψ before χ).
    pub fn children(self) -> Vec<FId> {
        match self {
            Op::True | Op::Prop(_) => vec![],
            Op::Not(a) | Op::EX(a) | Op::EG(a) => vec![a],
            Op::Or(a, b) | Op::And(a, b) | Op::EU(a, b) => vec![a, b],
        }
    }
    /// `EG`/`EU`: the only operators solved by a fixpoint, whose value depends on the context top.
    pub fn is_fixpoint(self) -> bool {
        matches!(self, Op::EG(_) | Op::EU(..))
    }
    /// `⊤` and atoms: values read straight off the labels, never stored.
    pub fn is_leaf(self) -> bool {
        matches!(self, Op::True | Op::Prop(_))
    }
}

#[derive(Clone, Debug)]
pub struct Formula {
    pub nodes: Vec<Op>,
    pub root: FId,
    /// `deps[f]`, see the module documentation.
    pub deps: Vec<Vec<FId>>,
    /// `proj[(f, g)]`: positions in `deps[f]` of the elements of `deps[g]`, for every `g` in
    /// `deps[f]` or child of `f`.
    proj: FxHashMap<(FId, FId), Vec<u32>>,
}

impl Formula {
    pub fn from_ctl(ctl: &Ctl<PropId>) -> Formula {
        Formula::from_ctls(&[ctl]).0
    }

    /// One DAG for several formulas (identical subformulas shared); returns their roots.
    /// [`Formula::root`] is the first one.
    pub fn from_ctls(ctls: &[&Ctl<PropId>]) -> (Formula, Vec<FId>) {
        Formula::build(ctls, DagBuilder::default())
    }

    /// [`Formula::from_ctls`] with constants folded: an atom for which `never` holds (it labels
    /// no location of the model, so it is false in every configuration and in the termination
    /// state) becomes `false`, and constants propagate through the operators (`EF false ≡
    /// false`, `AG (false → φ) ≡ true`, `φ ∨ true ≡ true`, …). Equivalent on every model on
    /// which `never` is right.
    pub fn from_ctls_folded(ctls: &[&Ctl<PropId>], never: &dyn Fn(PropId) -> bool) -> (Formula, Vec<FId>) {
        Formula::build(ctls, DagBuilder { fold: Some(never), ..DagBuilder::default() })
    }

    fn build(ctls: &[&Ctl<PropId>], mut b: DagBuilder) -> (Formula, Vec<FId>) {
        let roots: Vec<FId> = ctls.iter().map(|c| b.lower(c)).collect();
        let root = roots.first().copied().unwrap_or_else(|| b.mk(Op::True));
        let n = b.nodes.len();
        let mut deps: Vec<Vec<FId>> = vec![Vec::new(); n];
        for f in 0..n {
            let op = b.nodes[f];
            let mut d: Vec<FId> = Vec::new();
            for c in op.children() {
                d.extend_from_slice(&deps[c as usize]);
            }
            if let Op::EX(a) = op {
                d.push(a);
            }
            if op.is_fixpoint() {
                d.push(f as FId);
            }
            d.sort_unstable();
            d.dedup();
            deps[f] = d;
        }
        let mut proj = FxHashMap::default();
        for f in 0..n {
            let df = &deps[f];
            let mut gs: Vec<FId> = df.clone();
            gs.extend(b.nodes[f].children());
            for g in gs {
                let pos = deps[g as usize].iter().map(|x| df.binary_search(x).expect("deps(g) ⊆ deps(f)") as u32).collect();
                proj.insert((f as FId, g), pos);
            }
        }
        (Formula { nodes: b.nodes, root, deps, proj }, roots)
    }

    /// The nodes of `root`'s sub-DAG, children before parents.
    pub fn sub_dag(&self, root: FId) -> Vec<FId> {
        let mut keep = vec![false; root as usize + 1];
        keep[root as usize] = true;
        for f in (0..=root as usize).rev() {
            if keep[f] {
                for c in self.nodes[f].children() {
                    keep[c as usize] = true;
                }
            }
        }
        (0..=root).filter(|&f| keep[f as usize]).collect()
    }

    pub fn op(&self, f: FId) -> Op {
        self.nodes[f as usize]
    }
    pub fn width(&self, f: FId) -> usize {
        self.deps[f as usize].len()
    }

    /// True if no temporal operator is below `f` (`deps(f)` is empty): its value in a
    /// location depends on the location's labels only, never on a context.
    pub fn is_static(&self, f: FId) -> bool {
        self.deps[f as usize].is_empty()
    }

    /// Positions in `deps(f)` of the elements of `deps(g)`, for `g` a child of `f` or in
    /// `deps(f)` (`g ≠ f`, `g` not static).
    pub fn projection(&self, f: FId, g: FId) -> &[u32] {
        &self.proj[&(f, g)]
    }

    /// Value of `f` in a state that loops forever with the labels `has(p)` (the termination
    /// state `l_term` with no labels, or an exit under the loop rule): `ica` of thesis §3.3.3.
    pub fn value_in_loop(&self, f: FId, has: &dyn Fn(PropId) -> bool) -> bool {
        let mut v = vec![false; f as usize + 1];
        for g in 0..=f as usize {
            v[g] = match self.nodes[g] {
                Op::True => true,
                Op::Prop(p) => has(p),
                Op::Not(a) => !v[a as usize],
                Op::Or(a, b) => v[a as usize] || v[b as usize],
                Op::And(a, b) => v[a as usize] && v[b as usize],
                Op::EX(a) | Op::EG(a) => v[a as usize],
                Op::EU(_, b) => v[b as usize],
            };
        }
        v[f as usize]
    }
}

#[derive(Default)]
struct DagBuilder<'a> {
    nodes: Vec<Op>,
    index: FxHashMap<Op, FId>,
    /// With constant folding: the atoms that are false everywhere.
    fold: Option<&'a dyn Fn(PropId) -> bool>,
}

impl DagBuilder<'_> {
    fn is_true(&self, f: FId) -> bool {
        self.nodes[f as usize] == Op::True
    }
    fn is_false(&self, f: FId) -> bool {
        matches!(self.nodes[f as usize], Op::Not(a) if self.is_true(a))
    }

    /// `op`, or an equivalent smaller node when folding constants.
    fn fold(&mut self, op: Op) -> Option<FId> {
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

    fn mk(&mut self, op: Op) -> FId {
        if let Some(f) = self.fold(op) {
            return f;
        }
        if let Op::Not(a) = op
            && let Op::Not(b) = self.nodes[a as usize]
        {
            return b;
        }
        if let Some(&id) = self.index.get(&op) {
            return id;
        }
        self.nodes.push(op);
        let id = (self.nodes.len() - 1) as FId;
        self.index.insert(op, id);
        id
    }
    fn lower(&mut self, c: &Ctl<PropId>) -> FId {
        rewrite::lower(self, c)
    }
}

impl CoreBuilder for DagBuilder<'_> {
    type Node = FId;
    type Atom = PropId;

    fn tt(&mut self) -> FId {
        self.mk(Op::True)
    }
    fn atom(&mut self, p: PropId) -> FId {
        self.mk(Op::Prop(p))
    }
    fn not(&mut self, a: FId) -> FId {
        self.mk(Op::Not(a))
    }
    fn and(&mut self, a: FId, b: FId) -> FId {
        self.mk(Op::And(a, b))
    }
    fn or(&mut self, a: FId, b: FId) -> FId {
        self.mk(Op::Or(a, b))
    }
    fn ex(&mut self, a: FId) -> FId {
        self.mk(Op::EX(a))
    }
    fn eu(&mut self, a: FId, b: FId) -> FId {
        self.mk(Op::EU(a, b))
    }
    fn eg(&mut self, a: FId) -> FId {
        self.mk(Op::EG(a))
    }
    /// `(¬a ∨ b) ∧ (¬b ∨ a)`.
    fn iff(&mut self, a: FId, b: FId) -> FId {
        let (na, nb) = (self.not(a), self.not(b));
        let (l, r) = (self.or(na, b), self.or(nb, a));
        self.and(l, r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    fn atom(p: u32) -> Box<Ctl<PropId>> {
        Box::new(Ctl::Atom(p))
    }

    #[test]
    fn deps_keep_fixpoints_and_ex_children_only() {
        // E[EX q U EX p]
        let f = Formula::from_ctl(&Ctl::EU(Box::new(Ctl::EX(atom(1))), Box::new(Ctl::EX(atom(0)))));
        let names: Vec<Op> = f.deps[f.root as usize].iter().map(|&g| f.op(g)).collect();
        assert_eq!(names, vec![Op::Prop(1), Op::Prop(0), f.op(f.root)]);
        // EG (p ∨ q): only the EG node itself
        let g = Formula::from_ctl(&Ctl::EG(Box::new(Ctl::Or(atom(0), atom(1)))));
        assert_eq!(g.deps[g.root as usize], vec![g.root]);
        // AG p = ¬E[⊤ U ¬p]: shares nodes, double negation removed
        let h = Formula::from_ctl(&Ctl::Not(Box::new(Ctl::Not(Box::new(Ctl::AG(atom(0)))))));
        assert!(matches!(h.op(h.root), Op::Not(_)));
    }

    #[test]
    fn folding_removes_atoms_that_never_hold() {
        // AG (p -> EF q): with q never, EF q is false and the spec is AG ¬p; with p never too,
        // it is true; without folding it keeps both fixpoints.
        let spec = Ctl::AG(Box::new(Ctl::Implies(atom(0), Box::new(Ctl::EF(atom(1))))));
        let plain = Formula::from_ctl(&spec);
        assert_eq!(plain.nodes.iter().filter(|o| o.is_fixpoint()).count(), 2);
        let (q_never, _) = Formula::from_ctls_folded(&[&spec], &|p| p == 1);
        assert_eq!(q_never.nodes[..=q_never.root as usize].iter().filter(|o| o.is_fixpoint()).count(), 1);
        assert!(!q_never.is_static(q_never.root));
        let (both, _) = Formula::from_ctls_folded(&[&spec], &|_| true);
        assert_eq!(both.op(both.root), Op::True);
        // E[p U false], EG false, EX false are false; E[false U p] is p.
        let eu = Ctl::EU(atom(0), atom(1));
        let (f, _) = Formula::from_ctls_folded(&[&eu], &|p| p == 1);
        assert!(matches!(f.op(f.root), Op::Not(t) if f.op(t) == Op::True));
        let (g, _) = Formula::from_ctls_folded(&[&eu], &|p| p == 0);
        assert_eq!(g.op(g.root), Op::Prop(1));
    }

    #[test]
    fn loop_values_match_ica() {
        let f = Formula::from_ctl(&Ctl::EU(Box::new(Ctl::True), atom(0)));
        assert!(!f.value_in_loop(f.root, &|_| false));
        assert!(f.value_in_loop(f.root, &|p| p == 0));
        let g = Formula::from_ctl(&Ctl::AG(Box::new(Ctl::Not(atom(0)))));
        assert!(g.value_in_loop(g.root, &|_| false));
    }
}
