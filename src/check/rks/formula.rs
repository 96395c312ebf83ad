//! The checked formula for the RKS engines: the shared hash-consed DAG of
//! [`crate::check::formula`] over the core operators `⊤ p ¬ ∨ ∧ EX EG EU` (Finis 2012 §2.3,
//! with native `∧`), children before parents, and beside it each node's context dependencies.
//!
//! For every node `f` it also computes `deps(f)`: the nodes of `f`'s sub-DAG whose value in the
//! return location a call context must record. These are the `EG`/`EU` nodes (their `ω` label
//! reads their own value after the return) and the children of `EX` nodes (`EX ψ` at an exit
//! reads `ψ` after the return). Assumptions about every other node are never read, so they are
//! dropped from contexts (thesis §5.4, "drop context assumptions for atomic propositions" and
//! "infer the assumption of non-temporal operators"). `deps(f)` is sorted by node id; if `f` is
//! `EG`/`EU`, `f` is its last element (its "top").

use crate::check::formula::{Dag, DagBuilder, IffShape};
use crate::ctl::Ctl;
use crate::ir::PropId;

use crate::ir::id::IdVec;
use rustc_hash::FxHashMap;

pub(crate) use crate::check::formula::{FormulaId as FId, Op};

/// The shared DAG ([`Dag`], reached through `Deref`) with each node's context dependencies.
#[derive(Clone, Debug)]
pub struct Formula {
    pub dag: Dag,
    pub root: FId,
    /// `deps[f]`, see the module documentation.
    pub deps: IdVec<FId, Vec<FId>>,
    /// `proj[(f, g)]`: positions in `deps[f]` of the elements of `deps[g]`, for every `g` in
    /// `deps[f]` or child of `f`.
    proj: FxHashMap<(FId, FId), Vec<u32>>,
}

impl std::ops::Deref for Formula {
    type Target = Dag;
    fn deref(&self) -> &Dag {
        &self.dag
    }
}

/// `↔` as `(¬a ∨ b) ∧ (¬b ∨ a)`, the shape the RKS witness walker explains.
const IFF: IffShape = IffShape::Implications;

impl Formula {
    pub fn from_ctl(ctl: &Ctl<PropId>) -> Formula {
        Formula::from_ctls(&[ctl]).0
    }

    /// One DAG for several formulas (identical subformulas shared); returns their roots.
    /// [`Formula::root`] is the first one.
    pub(crate) fn from_ctls(ctls: &[&Ctl<PropId>]) -> (Formula, Vec<FId>) {
        Formula::build(ctls, DagBuilder::new(IFF))
    }

    /// [`Formula::from_ctls`] with constants folded ([`DagBuilder::folding`]): an atom for which
    /// `never` holds (it labels no location of the model, so it is false in every configuration
    /// and in the termination state) becomes `false`, and constants propagate through the
    /// operators.
    pub(crate) fn from_ctls_folded(ctls: &[&Ctl<PropId>], never: &dyn Fn(PropId) -> bool) -> (Formula, Vec<FId>) {
        Formula::build(ctls, DagBuilder::folding(IFF, never))
    }

    fn build(ctls: &[&Ctl<PropId>], mut b: DagBuilder) -> (Formula, Vec<FId>) {
        let roots: Vec<FId> = ctls.iter().map(|c| b.lower(c)).collect();
        let root = roots.first().copied().unwrap_or_else(|| b.mk(Op::True));
        let dag = b.finish();
        let (deps, _) = dependencies(&dag, u64::MAX).expect("no budget");
        let mut proj = FxHashMap::default();
        for f in deps.indices() {
            let df = &deps[f];
            for g in projected(&dag, &deps, f) {
                let pos = deps[g].iter().map(|x| df.binary_search(x).expect("deps(g) ⊆ deps(f)") as u32).collect();
                proj.insert((f, g), pos);
            }
        }
        (Formula { dag, root, deps, proj }, roots)
    }

    pub(crate) fn width(&self, f: FId) -> usize {
        self.deps[f].len()
    }

    /// True if no temporal operator is below `f` (`deps(f)` is empty): its value in a
    /// location depends on the location's labels only, never on a context.
    pub(crate) fn is_static(&self, f: FId) -> bool {
        self.deps[f].is_empty()
    }

    /// Positions in `deps(f)` of the elements of `deps(g)`, for `g` a child of `f` or in
    /// `deps(f)` (`g ≠ f`, `g` not static).
    pub(crate) fn projection(&self, f: FId, g: FId) -> &[u32] {
        &self.proj[&(f, g)]
    }

    /// Value of `f` in a state that loops forever with the labels `has(p)` (the termination
    /// state `l_term` with no labels, or an exit under the loop rule): `ica` of thesis §3.3.3.
    pub(crate) fn value_in_loop(&self, f: FId, has: &dyn Fn(PropId) -> bool) -> bool {
        self.dag.values_in_loop(f, has)[f]
    }
}

/// `deps(f)` for every node of `dag` (module documentation) and the sum of their lengths, or
/// `None` once that sum passes `budget`.
fn dependencies(dag: &Dag, budget: u64) -> Option<(IdVec<FId, Vec<FId>>, u64)> {
    let mut deps: IdVec<FId, Vec<FId>> = IdVec::from_elem(Vec::new(), dag.len());
    let mut entries = 0u64;
    for f in deps.indices() {
        let op = dag.nodes[f];
        let mut d: Vec<FId> = Vec::new();
        for c in op.children() {
            d.extend_from_slice(&deps[c]);
        }
        if let Op::EX(a) = op {
            d.push(a);
        }
        if op.is_fixpoint() {
            d.push(f);
        }
        d.sort_unstable();
        d.dedup();
        entries += d.len() as u64;
        if entries > budget {
            return None;
        }
        deps[f] = d;
    }
    Some((deps, entries))
}

/// The nodes `g` with a projection `proj[(f, g)]`: `deps(f)` and the children of `f`.
fn projected<'d>(dag: &Dag, deps: &'d IdVec<FId, Vec<FId>>, f: FId) -> impl Iterator<Item = FId> + 'd {
    deps[f].iter().copied().chain(dag.nodes[f].children())
}

/// The most entries the context tables of one spec (`deps` and the projections between them) may
/// have for the context engines (`summary`, `incremental`, `global`). A chain of `h` nested `EX`
/// (RTCTL's bounded operators unfolded: `ABF 1..h p`) needs about `h²` of `deps` and `h³` of
/// projections, and each call context records `h` values: `ABF 1..400 p` on a recursive procedure
/// took 0.56 s and 119 MB, `1..800` 4.3 s and 0.8 GB, `1..10000` did not fit in 24 GB. 2^25
/// entries allow `ABF 1..h` up to `h` ≈ 470 (0.9 s, 160 MB) and `A [ a BU 1..h b ]` up to
/// `h` ≈ 320; the ternary engines, whose contexts are per existential subformula, check
/// `1..10000` in 0.02 s (`lazy`) to 3.4 s (`eager`).
pub(crate) const MAX_CONTEXT_ENTRIES: u64 = 1 << 25;

/// Whether the context engines can check `ctl` within [`MAX_CONTEXT_ENTRIES`] (counted on its
/// DAG with a distinct atom per occurrence, stopping at the budget).
pub(crate) fn fits_context_engines<A>(ctl: &Ctl<A>) -> bool {
    let mut atoms = 0u32;
    let ctl = ctl.map_atoms(&mut |_| {
        atoms += 1;
        PropId::from_u32(atoms - 1)
    });
    let mut b = DagBuilder::new(IFF);
    b.lower(&ctl);
    let dag = b.finish();
    let Some((deps, mut entries)) = dependencies(&dag, MAX_CONTEXT_ENTRIES) else { return false };
    for f in deps.indices() {
        entries += projected(&dag, &deps, f).map(|g| deps[g].len() as u64).sum::<u64>();
        if entries > MAX_CONTEXT_ENTRIES {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    fn atom(p: u32) -> Box<Ctl<PropId>> {
        Box::new(Ctl::Atom(PropId::from_u32(p)))
    }

    #[test]
    fn deps_keep_fixpoints_and_ex_children_only() {
        // E[EX q U EX p]
        let f = Formula::from_ctl(&Ctl::EU(Box::new(Ctl::EX(atom(1))), Box::new(Ctl::EX(atom(0)))));
        let names: Vec<Op> = f.deps[f.root].iter().map(|&g| f.op(g)).collect();
        assert_eq!(names, vec![Op::Prop(PropId::new(1)), Op::Prop(PropId::new(0)), f.op(f.root)]);
        // EG (p ∨ q): only the EG node itself
        let g = Formula::from_ctl(&Ctl::EG(Box::new(Ctl::Or(atom(0), atom(1)))));
        assert_eq!(g.deps[g.root], vec![g.root]);
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
        let (q_never, _) = Formula::from_ctls_folded(&[&spec], &|p| p == PropId::new(1));
        assert_eq!(q_never.nodes.raw()[..=q_never.root.index()].iter().filter(|o| o.is_fixpoint()).count(), 1);
        assert!(!q_never.is_static(q_never.root));
        let (both, _) = Formula::from_ctls_folded(&[&spec], &|_| true);
        assert_eq!(both.op(both.root), Op::True);
        // E[p U false], EG false, EX false are false; E[false U p] is p.
        let eu = Ctl::EU(atom(0), atom(1));
        let (f, _) = Formula::from_ctls_folded(&[&eu], &|p| p == PropId::new(1));
        assert!(matches!(f.op(f.root), Op::Not(t) if f.op(t) == Op::True));
        let (g, _) = Formula::from_ctls_folded(&[&eu], &|p| p == PropId::new(0));
        assert_eq!(g.op(g.root), Op::Prop(PropId::new(1)));
    }

    #[test]
    fn loop_values_match_ica() {
        let f = Formula::from_ctl(&Ctl::EU(Box::new(Ctl::True), atom(0)));
        assert!(!f.value_in_loop(f.root, &|_| false));
        assert!(f.value_in_loop(f.root, &|p| p == PropId::new(0)));
        let g = Formula::from_ctl(&Ctl::AG(Box::new(Ctl::Not(atom(0)))));
        assert!(g.value_in_loop(g.root, &|_| false));
    }

    #[test]
    fn the_context_budget_admits_hundreds_of_steps_and_refuses_thousands() {
        use crate::ctl::Bound;
        let abf = |hi| Ctl::ABF(atom(0), Bound { lo: 1, hi });
        assert!(fits_context_engines(&abf(300)));
        assert!(!fits_context_engines(&abf(1000)));
        assert!(!fits_context_engines(&Ctl::AG(Box::new(Ctl::Implies(atom(1), Box::new(abf(10_000)))))));
        // A spec as the bundled models write them, and unbounded operators of any depth of
        // nesting that stays in the tens.
        let mut deep = Ctl::EF(atom(0));
        for i in 0..40 {
            deep = if i % 2 == 0 { Ctl::AG(Box::new(Ctl::Or(atom(i), Box::new(deep)))) } else { Ctl::EX(Box::new(deep)) };
        }
        assert!(fits_context_engines(&deep));
    }
}
