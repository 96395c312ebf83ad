//! `RefineTernary` (journal Alg. 1, digest §2.8): refines the interpretation of one formula over
//! all nodes of all live copies, given its operands, with an optimistic and a pessimistic run
//! for ∃G and ∃U over `→₊` (local edges and call → callee entry; never exit → return).
//!
//! Known values are never recomputed (they may come from cycle resolution). Exits take their
//! context, or what φ₁/φ₂ at the exit already decide (digest §2.7 note). A node without `→₊`
//! successors (a deadlock) satisfies no ∃X and no ∃G: paths are maximal and the fixpoint
//! semantics of CTL applies. A call node's values equal those of its callee copy's entry.

use super::formula::{FormulaId, Op};
use super::model::{CopyId, Model, NONE};
use crate::check::graph::{self, Graph, NodeSet, Preds};
use crate::check::kleene::Kleene;
use crate::explicit::rks::NodeId;
use crate::ir::id::IdVec;

/// Global numbering of the extended nodes of live copies for one refinement pass.
struct Index {
    offset: IdVec<CopyId, u32>,
    owner: Vec<(CopyId, u32)>,
}

impl Index {
    fn new(m: &Model) -> Index {
        let mut offset = IdVec::from_elem(NONE, m.copies.len());
        let mut owner = Vec::new();
        for &x in &m.live {
            offset[x] = owner.len() as u32;
            for v in 0..m.base_of(x).ext {
                owner.push((x, v));
            }
        }
        Index { offset, owner }
    }
    fn id(&self, x: CopyId, v: u32) -> usize {
        (self.offset[x] + v) as usize
    }
}

/// The `→₊` graph of the live copies, numbered by an [`Index`], for the shared kernels.
struct Plus<'i, 'm, 'a> {
    m: &'m Model<'a>,
    idx: &'i Index,
}

/// A node of [`Plus`]: its number in the [`Index`] and its copy and extended node, so that the
/// kernels' predicates read the model without looking the number up.
#[derive(Clone, Copy)]
struct PlusNode {
    g: u32,
    x: CopyId,
    v: u32,
}

impl Graph for Plus<'_, '_, '_> {
    #[inline]
    fn node(&self, g: usize) -> PlusNode {
        let (x, v) = self.idx.owner[g];
        PlusNode { g: g as u32, x, v }
    }
    #[inline]
    fn for_each_succ(&self, n: PlusNode, mut f: impl FnMut(PlusNode)) {
        self.m.for_each_succ(n.x, n.v, |x, v| f(PlusNode { g: self.idx.id(x, v) as u32, x, v }));
    }
}

impl Preds for Plus<'_, '_, '_> {
    type Node = PlusNode;
    #[inline]
    fn number(n: PlusNode) -> usize {
        n.g as usize
    }
    #[inline]
    fn for_each_pred(&self, n: PlusNode, mut f: impl FnMut(PlusNode)) {
        self.m.for_each_pred(n.x, n.v, |x, v| f(PlusNode { g: self.idx.id(x, v) as u32, x, v }));
    }
}

/// The nodes of `idx` where `seed` holds.
fn seeded(m: &Model, idx: &Index, seed: impl Fn(&Model, CopyId, u32) -> bool) -> Vec<bool> {
    idx.owner.iter().map(|&(x, v)| seed(m, x, v)).collect()
}

/// Refines `∂(·, f)`; returns the number of node values that became known.
pub(crate) fn refine(m: &mut Model, f: FormulaId) -> u64 {
    m.stats.refine_runs += 1;
    let op = m.phi.op(f);
    let before = unknown_count(m, f);
    if before == 0 {
        return 0;
    }
    match op {
        Op::True | Op::Prop(_) | Op::Not(_) | Op::And(..) | Op::Or(..) => pointwise(m, f, op),
        Op::EX(a) => next(m, f, a),
        Op::EG(a) => {
            exits(m, f, op);
            globally(m, f, a);
        }
        Op::EU(a, b) => {
            exits(m, f, op);
            until(m, f, a, b);
        }
    }
    before - unknown_count(m, f)
}

fn unknown_count(m: &Model, f: FormulaId) -> u64 {
    let mut n = 0;
    for &x in &m.live {
        for v in 0..m.base_of(x).ext {
            n += (m.val(x, v, f) == Kleene::Unknown) as u64;
        }
    }
    n
}

fn pointwise(m: &mut Model, f: FormulaId, op: Op) {
    for xi in 0..m.live.len() {
        let x = m.live[xi];
        let base = m.copies[x].base.index();
        for v in 0..m.base_of(x).ext {
            if m.val(x, v, f).is_known() {
                continue;
            }
            let t = match op {
                Op::True => Kleene::True,
                Op::Prop(p) => Kleene::from_bool(m.bases[base].labels[p.index()].contains(v as usize)),
                Op::Not(a) => m.val(x, v, a).negate(),
                Op::And(a, b) => m.val(x, v, a).min(m.val(x, v, b)),
                Op::Or(a, b) => m.val(x, v, a).max(m.val(x, v, b)),
                _ => unreachable!("pointwise called on an existential formula"),
            };
            m.set_val(x, v, f, t);
        }
    }
}

/// ∃X: exits take their context; call nodes the callee entry's value (C-semantics); other
/// nodes the max over their local successors.
fn next(m: &mut Model, f: FormulaId, a: FormulaId) {
    for xi in 0..m.live.len() {
        let x = m.live[xi];
        for v in 0..m.base_of(x).ext {
            if m.val(x, v, f).is_known() || m.is_call(x, v) {
                continue;
            }
            let b = m.base_of(x);
            let t = if b.is_exit(v) {
                m.ctx(x, b.exit_of[v as usize], f)
            } else {
                m.local_succ(x, v).iter().map(|&w| m.val(x, w.as_u32(), a)).max().unwrap_or(Kleene::False)
            };
            m.set_val(x, v, f, t);
        }
    }
    for xi in 0..m.live.len() {
        let x = m.live[xi];
        for v in 0..m.base_of(x).n {
            if m.is_call(x, v) && !m.val(x, v, f).is_known() {
                let t = m.val(m.callee(x, NodeId::from_u32(v)), 0, f);
                m.set_val(x, v, f, t);
            }
        }
    }
}

/// Exit values of ∃G/∃U: the context if known, else what the operands at the exit decide.
fn exits(m: &mut Model, f: FormulaId, op: Op) {
    for xi in 0..m.live.len() {
        let x = m.live[xi];
        let comp = &m.rks.components[m.copies[x].base.index()];
        for (k, &ex) in comp.exits.iter().enumerate() {
            if m.val(x, ex.as_u32(), f).is_known() {
                continue;
            }
            let g = m.ctx(x, k as u32, f);
            let t = if g.is_known() {
                g
            } else {
                match op {
                    Op::EG(a) if m.val(x, ex.as_u32(), a) == Kleene::False => Kleene::False,
                    Op::EU(a, b) => {
                        let (va, vb) = (m.val(x, ex.as_u32(), a), m.val(x, ex.as_u32(), b));
                        if vb == Kleene::True {
                            Kleene::True
                        } else if vb == Kleene::False && va == Kleene::False {
                            Kleene::False
                        } else {
                            Kleene::Unknown
                        }
                    }
                    _ => Kleene::Unknown,
                }
            };
            m.set_val(x, ex.as_u32(), f, t);
        }
    }
}

fn is_exit(m: &Model, x: CopyId, v: u32) -> bool {
    m.base_of(x).is_exit(v)
}

/// ∃G: greatest fixpoints. Pessimistic set: nodes where φ₁ is tt (exits: where ∃G is tt),
/// shrunk by removing nodes without a successor in the set; optimistic: same with "not ff".
fn globally(m: &mut Model, f: FormulaId, a: FormulaId) {
    let idx = Index::new(m);
    let seed = |m: &Model, x, v, pessimistic: bool| {
        let own = m.val(x, v, f);
        if own.is_known() {
            return own == Kleene::True;
        }
        let t = if is_exit(m, x, v) { own } else { m.val(x, v, a) };
        if pessimistic { t == Kleene::True } else { t != Kleene::False }
    };
    let pes = shrink(m, f, &idx, |m, x, v| seed(m, x, v, true));
    let opt = shrink(m, f, &idx, |m, x, v| seed(m, x, v, false));
    assign(m, f, &idx, &pes, &opt);
}

/// The largest subset of the seed in which every non-exit node not yet known tt has a `→₊`
/// successor in the subset.
fn shrink(m: &Model, f: FormulaId, idx: &Index, seed: impl Fn(&Model, CopyId, u32) -> bool) -> Vec<bool> {
    let mut inside = seeded(m, idx, seed);
    let mut count = vec![0u32; idx.owner.len()];
    let keep = |n: PlusNode| is_exit(m, n.x, n.v) || m.val(n.x, n.v, f) == Kleene::True;
    graph::greatest_fixpoint(&Plus { m, idx }, &mut inside, &mut count, keep);
    inside
}

/// ∃U: least fixpoints. Pessimistic: φ₂ tt (exits: ∃U tt), closed backwards over non-exit
/// nodes with φ₁ tt; optimistic: the same with "not ff".
fn until(m: &mut Model, f: FormulaId, a: FormulaId, b: FormulaId) {
    let idx = Index::new(m);
    let seed = |m: &Model, x, v, pessimistic: bool| {
        let own = m.val(x, v, f);
        if own.is_known() {
            return own == Kleene::True;
        }
        let t = if is_exit(m, x, v) { own } else { m.val(x, v, b) };
        if pessimistic { t == Kleene::True } else { t != Kleene::False }
    };
    let step = |m: &Model, x, v, pessimistic: bool| {
        let own = m.val(x, v, f);
        if own.is_known() || is_exit(m, x, v) {
            return false;
        }
        let t = m.val(x, v, a);
        if pessimistic { t == Kleene::True } else { t != Kleene::False }
    };
    let pes = grow(m, &idx, |m, x, v| seed(m, x, v, true), |m, x, v| step(m, x, v, true));
    let opt = grow(m, &idx, |m, x, v| seed(m, x, v, false), |m, x, v| step(m, x, v, false));
    assign(m, f, &idx, &pes, &opt);
}

/// The seed closed under adding `→₊` predecessors that may step.
fn grow(m: &Model, idx: &Index, seed: impl Fn(&Model, CopyId, u32) -> bool, may_step: impl Fn(&Model, CopyId, u32) -> bool) -> Vec<bool> {
    let mut inside = seeded(m, idx, seed);
    let plus = Plus { m, idx };
    let work: Vec<PlusNode> = inside.members().map(|g| plus.node(g)).collect();
    graph::backward_closure(&plus, &mut inside, work, |n| may_step(m, n.x, n.v));
    inside
}

fn assign(m: &mut Model, f: FormulaId, idx: &Index, pes: &[bool], opt: &[bool]) {
    for (g, &(x, v)) in idx.owner.iter().enumerate() {
        let old = m.val(x, v, f);
        let new = if pes[g] {
            Kleene::True
        } else if !opt[g] {
            Kleene::False
        } else {
            Kleene::Unknown
        };
        debug_assert!(!old.is_known() || !new.is_known() || old == new, "RefineTernary contradicts a known value");
        if !old.is_known() {
            m.set_val(x, v, f, new);
        }
    }
}
