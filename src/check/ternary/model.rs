//! The contextualised RSM: copies of components, each with a context (exit × Subf∃(Φ) → Kleene), a
//! box mapping and a ternary interpretation over its *extended nodes*.
//!
//! Extended nodes of a copy of component `C` with `n` nodes and `R` return rows: `0..n` are
//! `C`'s nodes (locations, exits and call nodes), `n + r` is the return node of return row `r`
//! (call `i`, callee exit `k`, row `return_offsets[i] + k`). A call node stands for the RSM call
//! node `(b, en)`; its value is by construction the value of the callee copy's entry (the
//! C-semantics of the digest §2.3, which is exactly the transparent-call semantics of the RKS).
//! The only `→₊` edges are: location → its successors; call → entry of the callee copy; return
//! node → the call's continuations for that exit. Exits have no `→₊` successors.
//!
//! Also here: `Initialize` (the fully specified initial copy A₀, with the termination rule),
//! `Contextualize` (reuse a copy with the same base and an equal context, else copy), removal of
//! unreachable copies, and cycle-resolution writes (which also update an exit's context and its
//! lookup key, so later lookups cannot reuse a copy whose exits were resolved under callers that
//! no longer match).

use super::TernaryStats;
use super::formula::{Formula, FormulaId, NO_SLOT, Op};
use crate::check::kleene::Kleene;
use crate::explicit::csr::Csr;
use crate::explicit::rks::{ComponentId, NO_CALL, NodeId, RecursiveKripkeStructure};
use crate::ir::TerminationRule;
use crate::ir::id::IdVec;
use fixedbitset::FixedBitSet;
use rustc_hash::FxHashMap;

crate::index_type! {
    /// A copy of a component under one exit context ([`Model::copies`]). The first copies are
    /// one per component, numbered as the components (`CopyId::from_u32(component)`).
    pub(crate) struct CopyId;
}
pub(crate) const NONE: u32 = u32::MAX;

/// Per component: the extended-node view shared by all its copies.
pub(crate) struct Base {
    pub n: u32,
    pub ext: u32,
    /// Exit index of each node, [`NONE`] if not an exit.
    pub exit_of: Vec<u32>,
    /// Local node → the return rows that continue at it.
    pub ret_pred: Csr<NodeId, u32>,
    /// `labels[p]` over extended nodes: calls carry the callee entry's labels, return nodes the
    /// callee exit's labels.
    pub labels: Vec<FixedBitSet>,
}

pub(crate) struct Copy {
    pub base: ComponentId,
    /// `ctx[k * existentials + slot]`.
    pub ctx: Vec<Kleene>,
    /// Callee copy per call index.
    pub box_map: Vec<CopyId>,
    /// `vals[f * ext + v]`.
    pub vals: Vec<Kleene>,
    pub alive: bool,
}

pub(crate) struct Model<'a> {
    pub rks: &'a RecursiveKripkeStructure,
    pub phi: Formula,
    pub bases: Vec<Base>,
    pub copies: IdVec<CopyId, Copy>,
    lookup: FxHashMap<(ComponentId, Vec<Kleene>), CopyId>,
    /// A₀, the fully specified copy of the initial component.
    pub initial: CopyId,
    /// Live copies in id order.
    pub live: Vec<CopyId>,
    /// Per copy: the live (caller copy, call node) pairs whose box maps to it.
    pub callers: IdVec<CopyId, Vec<(CopyId, NodeId)>>,
    pub stats: TernaryStats,
}

impl Base {
    fn new(rks: &RecursiveKripkeStructure, c: ComponentId) -> Base {
        let comp = &rks.components[c.index()];
        let n = comp.num_nodes;
        let rows = comp.returns.len() as u32;
        let mut exit_of = vec![NONE; n as usize];
        for (k, &e) in comp.exits.iter().enumerate() {
            exit_of[e.index()] = k as u32;
        }
        let mut row_call = vec![NodeId::ENTRY; rows as usize];
        let mut row_exit = vec![0; rows as usize];
        for (i, &call) in comp.calls.iter().enumerate() {
            let callee = &rks.components[comp.call_target[call.index()].index()];
            for k in 0..callee.exits.len() {
                let r = (comp.return_offsets[i] + k as u32) as usize;
                row_call[r] = call;
                row_exit[r] = k as u32;
            }
        }
        let ret_pred = comp.returns.transpose_into(n as usize);
        let ext = n + rows;
        let labels = (0..rks.prop_names.len())
            .map(|p| {
                let mut set = FixedBitSet::with_capacity(ext as usize);
                for v in 0..n {
                    let t = comp.call_target[v as usize];
                    let has = if t == NO_CALL { comp.props[p].contains(v as usize) } else { rks.components[t.index()].props[p].contains(0) };
                    set.set(v as usize, has);
                }
                for r in 0..rows {
                    let t = comp.call_target[row_call[r as usize].index()];
                    let callee = &rks.components[t.index()];
                    let ex = callee.exits[row_exit[r as usize] as usize];
                    set.set((n + r) as usize, callee.props[p].contains(ex.index()));
                }
                set
            })
            .collect();
        Base { n, ext, exit_of, ret_pred, labels }
    }

    pub(crate) fn is_exit(&self, v: u32) -> bool {
        v < self.n && self.exit_of[v as usize] != NONE
    }
}

impl<'a> Model<'a> {
    /// `Initialize` (journal Alg. 3): one all-`??` copy per component, plus the initial copy A₀
    /// whose exits get the values of the bottom-of-stack termination rule.
    pub(crate) fn initialize(rks: &'a RecursiveKripkeStructure, initial: ComponentId, phi: Formula) -> Model<'a> {
        let bases: Vec<Base> = (0..rks.components.len()).map(|c| Base::new(rks, ComponentId::new(c))).collect();
        let nf = phi.len();
        let nex = phi.existentials.len();
        let mut copies: IdVec<CopyId, Copy> = (0..rks.components.len())
            .map(|c| {
                let comp = &rks.components[c];
                let box_map = comp.calls.iter().map(|&call| CopyId::new(comp.call_target[call.index()].index())).collect();
                Copy {
                    base: ComponentId::new(c),
                    ctx: vec![Kleene::Unknown; comp.exits.len() * nex],
                    box_map,
                    vals: vec![Kleene::Unknown; nf * bases[c].ext as usize],
                    alive: true,
                }
            })
            .collect();
        let mut lookup = FxHashMap::default();
        for (c, copy) in copies.iter_enumerated() {
            lookup.insert((copy.base, copy.ctx.clone()), c);
        }
        let a0 = initial_copy(rks, &bases[initial.index()], &copies[CopyId::new(initial.index())], &phi);
        lookup.insert((initial, a0.ctx.clone()), copies.next_id());
        let initial_id = copies.push(a0);
        let mut m = Model {
            rks,
            phi,
            bases,
            copies,
            lookup,
            initial: initial_id,
            live: Vec::new(),
            callers: IdVec::new(),
            stats: TernaryStats { contexts_created: 1, ..TernaryStats::default() },
        };
        m.remove_unreachable();
        m
    }

    pub(crate) fn base_of(&self, x: CopyId) -> &Base {
        &self.bases[self.copies[x].base.index()]
    }
    #[inline]
    pub(crate) fn val(&self, x: CopyId, v: u32, f: FormulaId) -> Kleene {
        let c = &self.copies[x];
        let ext = self.bases[c.base.index()].ext as usize;
        c.vals[f.index() * ext + v as usize]
    }
    #[inline]
    pub(crate) fn set_val(&mut self, x: CopyId, v: u32, f: FormulaId, t: Kleene) {
        let c = &mut self.copies[x];
        let ext = self.bases[c.base.index()].ext as usize;
        c.vals[f.index() * ext + v as usize] = t;
    }
    pub(crate) fn ctx(&self, x: CopyId, k: u32, f: FormulaId) -> Kleene {
        let nex = self.phi.existentials.len();
        self.copies[x].ctx[k as usize * nex + self.phi.slot[f] as usize]
    }
    /// Call index of call node `c` in copy `x`'s component.
    pub(crate) fn call_index(&self, x: CopyId, c: NodeId) -> u32 {
        self.rks.components[self.copies[x].base.index()].call_index[c.index()]
    }
    pub(crate) fn callee(&self, x: CopyId, c: NodeId) -> CopyId {
        self.copies[x].box_map[self.call_index(x, c) as usize]
    }
    pub(crate) fn is_call(&self, x: CopyId, v: u32) -> bool {
        let b = self.base_of(x);
        v < b.n && self.rks.components[self.copies[x].base.index()].is_call(NodeId::from_u32(v))
    }
    /// Extended node of the return node for call node `c` of copy `x` and callee exit `k`.
    pub(crate) fn return_node(&self, x: CopyId, c: NodeId, k: u32) -> u32 {
        let comp = &self.rks.components[self.copies[x].base.index()];
        let i = comp.call_index[c.index()] as usize;
        self.base_of(x).n + comp.return_offsets[i] + k
    }

    /// The local `→₊` successors of extended node `v` (not the call → entry edge, which leaves
    /// the copy; see [`Model::callee`]).
    pub(crate) fn local_succ(&self, x: CopyId, v: u32) -> &[NodeId] {
        let base = self.copies[x].base.index();
        let comp = &self.rks.components[base];
        let b = &self.bases[base];
        if v >= b.n {
            comp.returns.neighbours(v - b.n)
        } else if comp.is_call(NodeId::from_u32(v)) || b.exit_of[v as usize] != NONE {
            &[]
        } else {
            comp.succ.neighbours(NodeId::from_u32(v))
        }
    }

    /// Calls `f(copy, node)` for every `→₊` successor of `(x, v)`.
    pub(crate) fn for_each_succ(&self, x: CopyId, v: u32, mut f: impl FnMut(CopyId, u32)) {
        if self.is_call(x, v) {
            f(self.callee(x, NodeId::from_u32(v)), 0);
        } else {
            for &w in self.local_succ(x, v) {
                f(x, w.as_u32());
            }
        }
    }

    /// Calls `f(copy, node)` for every `→₊` predecessor of `(x, v)` among live copies: its local
    /// predecessors, its return rows' calls, and for an entry the calling copies' call nodes.
    /// Three loops calling `f`: measured against one chained iterator (session 24's form) with
    /// `tools/engine_cells.py`, the chain's per-element state checks cost eager and lazy 5-6 %
    /// on the grid cells.
    pub(crate) fn for_each_pred(&self, x: CopyId, v: u32, mut f: impl FnMut(CopyId, u32)) {
        let base = self.copies[x].base.index();
        let b = &self.bases[base];
        if v >= b.n {
            return;
        }
        for &p in self.rks.components[base].pred.neighbours(NodeId::from_u32(v)) {
            f(x, p.as_u32());
        }
        for &r in b.ret_pred.neighbours(NodeId::from_u32(v)) {
            f(x, b.n + r);
        }
        if v == 0 {
            for &(y, c) in &self.callers[x] {
                f(y, c.as_u32());
            }
        }
    }

    /// Keeps only copies reachable from A₀ through box mappings; rebuilds `live` and `callers`.
    pub(crate) fn remove_unreachable(&mut self) {
        let mut seen: IdVec<CopyId, bool> = IdVec::from_elem(false, self.copies.len());
        let mut stack = vec![self.initial];
        seen[self.initial] = true;
        while let Some(x) = stack.pop() {
            for &y in &self.copies[x].box_map {
                if !seen[y] {
                    seen[y] = true;
                    stack.push(y);
                }
            }
        }
        for (x, copy) in self.copies.indices().zip(self.copies.iter_mut()) {
            if copy.alive && !seen[x] {
                copy.alive = false;
                copy.vals = Vec::new();
                let key = (copy.base, std::mem::take(&mut copy.ctx));
                if self.lookup.get(&key) == Some(&x) {
                    self.lookup.remove(&key);
                }
            }
        }
        self.live = self.copies.indices().filter(|&x| seen[x]).collect();
        self.callers = IdVec::from_elem(Vec::new(), self.copies.len());
        for &y in &self.live {
            let comp = &self.rks.components[self.copies[y].base.index()];
            for (i, &c) in comp.calls.iter().enumerate() {
                let x = self.copies[y].box_map[i];
                self.callers[x].push((y, c));
            }
        }
    }

    /// The context a box induces: `γ_b(ex_k, φ) = ∂((b, ex_k), φ)` for existential `φ`.
    pub(crate) fn induced_context(&self, y: CopyId, c: NodeId) -> Vec<Kleene> {
        let callee = &self.rks.components[(self.rks.components[self.copies[y].base.index()].call_target[c.index()]).index()];
        let nex = self.phi.existentials.len();
        let mut ctx = vec![Kleene::Unknown; callee.exits.len() * nex];
        for k in 0..callee.exits.len() as u32 {
            let r = self.return_node(y, c, k);
            for (s, &f) in self.phi.existentials.iter().enumerate() {
                ctx[k as usize * nex + s] = self.val(y, r, f);
            }
        }
        ctx
    }

    /// `Contextualize` (journal Alg. 2) for the box of call node `c` in copy `y`: maps it to a
    /// copy with the same base and an equal context, creating one if needed. Returns true if the
    /// mapping changed. Unreachable copies are removed by the caller ([`Model::remove_unreachable`]).
    pub(crate) fn contextualize(&mut self, y: CopyId, c: NodeId) -> bool {
        let ctx = self.induced_context(y, c);
        let i = self.call_index(y, c) as usize;
        let current = self.copies[y].box_map[i];
        if self.copies[current].ctx == ctx {
            return false;
        }
        let base = self.copies[current].base;
        let target = match self.lookup.get(&(base, ctx.clone())) {
            Some(&x) if self.copies[x].alive => x,
            _ => {
                let src = &self.copies[current];
                let mut copy = Copy { base, ctx: ctx.clone(), box_map: src.box_map.clone(), vals: src.vals.clone(), alive: true };
                let b = &self.bases[base.index()];
                let comp = &self.rks.components[base.index()];
                let nex = self.phi.existentials.len();
                for (k, &ex) in comp.exits.iter().enumerate() {
                    for (s, &f) in self.phi.existentials.iter().enumerate() {
                        let t = ctx[k * nex + s];
                        if t.is_known() {
                            copy.vals[f.index() * b.ext as usize + ex.index()] = t;
                        }
                    }
                }
                let x = self.copies.push(copy);
                self.callers.push(Vec::new());
                self.lookup.insert((base, ctx), x);
                self.stats.contexts_created += 1;
                x
            }
        };
        if target == current {
            return false;
        }
        self.copies[y].box_map[i] = target;
        true
    }

    /// Cycle resolution write: `∂(x, v, f) := t`; at an exit also `γ(v, f) := t`, re-keying the
    /// copy in the lookup table.
    pub(crate) fn resolve(&mut self, x: CopyId, v: u32, f: FormulaId, t: Kleene) {
        self.set_val(x, v, f, t);
        let b = self.base_of(x);
        if !b.is_exit(v) || self.phi.slot[f] == NO_SLOT {
            return;
        }
        let k = b.exit_of[v as usize] as usize;
        let nex = self.phi.existentials.len();
        let copy = &mut self.copies[x];
        let old_key = (copy.base, copy.ctx.clone());
        copy.ctx[k * nex + self.phi.slot[f] as usize] = t;
        let new_key = (copy.base, copy.ctx.clone());
        if self.lookup.get(&old_key) == Some(&x) {
            self.lookup.remove(&old_key);
        }
        self.lookup.entry(new_key).or_insert(x);
    }

    /// Global resolution of `f`: every `??` of a live node becomes `value`.
    pub(crate) fn resolve_all_unknown(&mut self, f: FormulaId, value: Kleene) {
        for xi in 0..self.live.len() {
            let x = self.live[xi];
            for v in 0..self.base_of(x).ext {
                if self.val(x, v, f) == Kleene::Unknown {
                    self.resolve(x, v, f, value);
                }
            }
        }
    }

    pub(crate) fn root_value(&self) -> Kleene {
        self.val(self.initial, 0, self.phi.root)
    }
}

/// A₀: a copy of the initial component whose exits are fully specified by the termination rule
/// (the configuration (ε, ex) either loops with its labels, or steps to a label-free trap state).
fn initial_copy(rks: &RecursiveKripkeStructure, base: &Base, template: &Copy, phi: &Formula) -> Copy {
    let trap = trap_values(phi);
    let nf = phi.len();
    let nex = phi.existentials.len();
    let mut copy = Copy {
        base: template.base,
        ctx: vec![Kleene::Unknown; template.ctx.len()],
        box_map: template.box_map.clone(),
        vals: vec![Kleene::Unknown; nf * base.ext as usize],
        alive: true,
    };
    let comp = &rks.components[template.base.index()];
    let loops = rks.termination == TerminationRule::Loop;
    for (k, &ex) in comp.exits.iter().enumerate() {
        let mut at: IdVec<FormulaId, bool> = IdVec::from_elem(false, nf);
        for f in phi.nodes.indices() {
            let value = |g: FormulaId| at[g];
            at[f] = match phi.nodes[f] {
                Op::True => true,
                Op::Prop(p) => base.labels[p.index()].contains(ex.index()),
                Op::Not(a) => !value(a),
                Op::And(a, b) => value(a) && value(b),
                Op::Or(a, b) => value(a) || value(b),
                Op::EX(a) => {
                    if loops {
                        value(a)
                    } else {
                        trap[a]
                    }
                }
                Op::EG(a) => value(a) && (loops || trap[a]),
                Op::EU(a, b) => value(b) || (!loops && value(a) && trap[b]),
            };
            copy.vals[f.index() * base.ext as usize + ex.index()] = Kleene::from_bool(at[f]);
            if phi.slot[f] != NO_SLOT {
                copy.ctx[k * nex + phi.slot[f] as usize] = Kleene::from_bool(at[f]);
            }
        }
    }
    copy
}

/// Truth of each subformula in the label-free self-looping trap state.
pub(crate) fn trap_values(phi: &Formula) -> IdVec<FormulaId, bool> {
    match phi.len().checked_sub(1) {
        Some(top) => phi.values_in_loop(FormulaId::new(top), &|_| false),
        None => IdVec::new(),
    }
}
