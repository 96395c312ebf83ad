//! Checking one context pair locally (Finis 2012 Alg. 3.3/4.4/4.5) and the shared fixpoint
//! (Alg. 3.4 with a back-pointer worklist, thesis §5.4, and Alg. 3.6).
//!
//! [`Core`] owns the knowledge base of one check and knows how to
//! * look values up under a context (join rule for `M` tops, `M` for inner `M`s),
//! * compute the context of a call ([`Core::cc`], digest §3.9 with the disjunction rule of
//!   §4.9 for calls with several continuations, one assumption vector per exit),
//! * label a pair locally: `⊤ p ¬ ∨ ∧` pointwise, `EX` by one-step look-ahead (an exit reads the
//!   child's assumption), `EG`/`EU` by the incremental `deduceLabels` on the associated Kripke
//!   structure (locations, calls labelled by the callee's entry value, one `ω` per exit labelled
//!   by the context top): `T` where a certain witness exists, `F` where not even an uncertain one.
//!
//! Writes under an `M`-topped context go to every `T`/`F` completion where still `M` (FIX-1).

use super::RksStats;
use super::context::{completions, has_inner_maybe, top_positions};
use super::formula::{FId, Formula, Op};
use super::kb::{Kb, PairId};
use super::tern::Tern;
use crate::explicit::rks::{Component, ComponentId, NodeId, PropId, RecursiveKripkeStructure};
use fixedbitset::FixedBitSet;
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::VecDeque;

/// How to read a node's values under one context.
pub enum View {
    True,
    Prop(PropId),
    /// The stored completions (all exist); values are joined.
    Pairs(Vec<PairId>),
    Unknown,
}

pub struct Core<'a> {
    pub rks: &'a RecursiveKripkeStructure,
    pub fm: &'a Formula,
    pub kb: Kb,
    pub stats: RksStats,
    /// Per component: `exit_of[n]` = exit index of node `n` or `u32::MAX`.
    exit_of: Vec<Vec<u32>>,
    /// Callee pairs read by the current local check (back-pointers of the fixpoint).
    reads: Vec<PairId>,
}

#[derive(Clone, Copy, Default)]
pub struct Change {
    pub any: bool,
    pub entry: bool,
}

impl<'a> Core<'a> {
    pub fn new(rks: &'a RecursiveKripkeStructure, fm: &'a Formula) -> Core<'a> {
        let exit_of = rks
            .components
            .iter()
            .map(|c| {
                let mut v = vec![u32::MAX; c.num_nodes as usize];
                for (k, &x) in c.exits.iter().enumerate() {
                    v[x as usize] = k as u32;
                }
                v
            })
            .collect();
        Core { rks, fm, kb: Kb::new(fm), stats: RksStats::default(), exit_of, reads: Vec::new() }
    }

    pub fn comp(&self, s: ComponentId) -> &'a Component {
        &self.rks.components[s as usize]
    }
    pub fn exits(&self, s: ComponentId) -> usize {
        self.rks.components[s as usize].exits.len()
    }
    pub fn exit_index(&self, s: ComponentId, n: NodeId) -> Option<usize> {
        let k = self.exit_of[s as usize][n as usize];
        (k != u32::MAX).then_some(k as usize)
    }

    pub fn resolve(&self, g: FId, s: ComponentId, ctx: &[Tern]) -> View {
        match self.fm.op(g) {
            Op::True => View::True,
            Op::Prop(p) => View::Prop(p),
            _ => {
                let e = self.exits(s);
                if has_inner_maybe(self.fm, g, ctx, e) {
                    return View::Unknown;
                }
                let mut ps = Vec::new();
                if top_positions(self.fm, g, e).any(|i| ctx[i] == Tern::M) {
                    for c in completions(self.fm, g, ctx, e) {
                        match self.kb.find(g, s, &c) {
                            Some(p) => ps.push(p),
                            None => return View::Unknown,
                        }
                    }
                } else {
                    match self.kb.find(g, s, ctx) {
                        Some(p) => ps.push(p),
                        None => return View::Unknown,
                    }
                }
                View::Pairs(ps)
            }
        }
    }

    pub fn val(&self, v: &View, s: ComponentId, l: NodeId) -> Tern {
        match v {
            View::True => Tern::T,
            View::Prop(p) => Tern::from_bool(self.comp(s).props.get(*p as usize).is_some_and(|b| b.contains(l as usize))),
            View::Pairs(ps) => {
                let mut it = ps.iter().map(|&p| self.kb.pairs[p as usize].vals[l as usize]);
                let first = it.next().unwrap_or(Tern::M);
                it.fold(first, Tern::join)
            }
            View::Unknown => Tern::M,
        }
    }

    pub fn get(&self, g: FId, s: ComponentId, ctx: &[Tern], l: NodeId) -> Tern {
        self.val(&self.resolve(g, s, ctx), s, l)
    }

    /// The context of `f` under which call `c` of component `s` (itself under `ctx`) calls its
    /// target: per exit `k` of the target and per node `g` of `deps(f)`, the disjunction over the
    /// continuations of exit `k` of `g`'s value there (an empty continuation set gives `F`).
    pub fn cc(&self, s: ComponentId, c: NodeId, f: FId, ctx: &[Tern]) -> Vec<Tern> {
        let comp = self.comp(s);
        let t = comp.call_target[c as usize];
        let (et, es) = (self.exits(t), self.exits(s));
        let d = &self.fm.deps[f as usize];
        let w = d.len();
        let mut out = vec![Tern::F; et * w];
        for (i, &g) in d.iter().enumerate() {
            let sub = self.fm.restrict(f, g, ctx, es);
            let view = self.resolve(g, s, &sub);
            for k in 0..et {
                let mut v = Tern::F;
                for &r in comp.returns(c, k) {
                    v = v.or(self.val(&view, s, r));
                    if v == Tern::T {
                        break;
                    }
                }
                out[k * w + i] = v;
            }
        }
        out
    }

    /// Value of `f` at the entry of the target of call `c`, recording the callee pairs read.
    fn call_value(&mut self, s: ComponentId, c: NodeId, f: FId, ctx: &[Tern]) -> Tern {
        let t = self.comp(s).call_target[c as usize];
        let cctx = self.cc(s, c, f, ctx);
        let view = self.resolve(f, t, &cctx);
        if let View::Pairs(ps) = &view {
            self.reads.extend_from_slice(ps);
        }
        self.val(&view, t, 0)
    }

    pub fn is_labeled(&self, f: FId, s: ComponentId, ctx: &[Tern], fully: bool) -> bool {
        let view = self.resolve(f, s, ctx);
        match view {
            View::True | View::Prop(_) => true,
            View::Unknown => false,
            View::Pairs(_) => {
                let comp = self.comp(s);
                if !fully {
                    return self.val(&view, s, 0).is_known();
                }
                (0..comp.num_nodes).all(|l| comp.is_call(l) || self.val(&view, s, l).is_known())
            }
        }
    }

    /// The stored completions of `ctx`, created if new. Empty for leaves.
    pub fn pairs_of(&mut self, f: FId, s: ComponentId, ctx: &[Tern]) -> Vec<PairId> {
        if self.fm.op(f).is_leaf() {
            return Vec::new();
        }
        let e = self.exits(s);
        let n = self.comp(s).num_nodes as usize;
        completions(self.fm, f, ctx, e).iter().map(|c| self.kb.find_or_create(f, s, c, n)).collect()
    }

    /// One local labelling pass of `f` in component `s` under `ctx` (Alg. 4.4). Contexts with
    /// an inner `M` are not labelled (FIX-3).
    pub fn label_local(&mut self, f: FId, s: ComponentId, ctx: &[Tern]) -> Change {
        let e = self.exits(s);
        if self.fm.op(f).is_leaf() || has_inner_maybe(self.fm, f, ctx, e) {
            return Change::default();
        }
        let targets = self.pairs_of(f, s, ctx);
        self.stats.local_checks += 1;
        for &p in &targets {
            if !self.kb.checked[p as usize] {
                self.kb.checked[p as usize] = true;
                self.stats.context_pairs_checked += 1;
            }
        }
        let comp = self.comp(s);
        let n = comp.num_nodes as usize;
        let fm = self.fm;
        let new: Vec<Tern> = match fm.op(f) {
            Op::Not(a) => {
                let v = self.resolve(a, s, &fm.restrict(f, a, ctx, e));
                (0..n).map(|l| self.val(&v, s, l as NodeId).negate()).collect()
            }
            Op::Or(a, b) | Op::And(a, b) => {
                let va = self.resolve(a, s, &fm.restrict(f, a, ctx, e));
                let vb = self.resolve(b, s, &fm.restrict(f, b, ctx, e));
                let is_or = matches!(fm.op(f), Op::Or(..));
                (0..n)
                    .map(|l| {
                        let (x, y) = (self.val(&va, s, l as NodeId), self.val(&vb, s, l as NodeId));
                        if is_or { x.or(y) } else { x.and(y) }
                    })
                    .collect()
            }
            Op::EX(a) => self.label_ex(f, a, s, ctx),
            Op::EG(_) | Op::EU(..) => self.deduce(f, s, ctx, &targets),
            Op::True | Op::Prop(_) => unreachable!("leaves are never stored"),
        };
        let mut ch = Change::default();
        for &p in &targets {
            let vals = &mut self.kb.pairs[p as usize].vals;
            for l in 0..n {
                if new[l].is_known() && vals[l] == Tern::M && !comp.is_call(l as NodeId) {
                    vals[l] = new[l];
                    ch.any = true;
                    ch.entry |= l == 0;
                }
            }
        }
        ch
    }

    fn label_ex(&mut self, f: FId, a: FId, s: ComponentId, ctx: &[Tern]) -> Vec<Tern> {
        let comp = self.comp(s);
        let e = self.exits(s);
        let w = self.fm.width(f);
        let pos = self.fm.deps[f as usize].binary_search(&a).expect("the child of EX is in its deps");
        let sub = self.fm.restrict(f, a, ctx, e);
        let va = self.resolve(a, s, &sub);
        let mut out = vec![Tern::M; comp.num_nodes as usize];
        for l in 0..comp.num_nodes {
            if comp.is_call(l) {
                continue;
            }
            if let Some(k) = self.exit_index(s, l) {
                out[l as usize] = ctx[k * w + pos];
                continue;
            }
            let mut v = Tern::F;
            for &x in comp.succ.neighbours(l) {
                let y = if comp.is_call(x) {
                    let t = comp.call_target[x as usize];
                    let cctx = self.cc(s, x, a, &sub);
                    self.get(a, t, &cctx, 0)
                } else {
                    self.val(&va, s, x)
                };
                v = v.or(y);
                if v == Tern::T {
                    break;
                }
            }
            out[l as usize] = v;
        }
        out
    }

    /// Incremental `deduceLabels` (Alg. 4.5) for `EG ψ` / `E[ψ U χ]`.
    fn deduce(&mut self, f: FId, s: ComponentId, ctx: &[Tern], targets: &[PairId]) -> Vec<Tern> {
        let fm = self.fm;
        let comp = self.comp(s);
        let n = comp.num_nodes as usize;
        let e = self.exits(s);
        let w = fm.width(f);
        let (psi, chi) = match fm.op(f) {
            Op::EG(a) => (a, None),
            Op::EU(a, b) => (a, Some(b)),
            _ => unreachable!(),
        };
        let vpsi = self.resolve(psi, s, &fm.restrict(f, psi, ctx, e));
        let vchi = chi.map(|b| self.resolve(b, s, &fm.restrict(f, b, ctx, e)));
        let cur = View::Pairs(targets.to_vec());
        let mut psi_t = FixedBitSet::with_capacity(n);
        let mut psi_tm = FixedBitSet::with_capacity(n);
        let mut seed_t = FixedBitSet::with_capacity(n);
        let mut seed_tm = FixedBitSet::with_capacity(n);
        let mut known_t = FixedBitSet::with_capacity(n);
        let mut known_f = FixedBitSet::with_capacity(n);
        for l in 0..n as NodeId {
            if comp.is_call(l) {
                continue;
            }
            let c = self.val(&cur, s, l);
            known_t.set(l as usize, c == Tern::T);
            known_f.set(l as usize, c == Tern::F);
            let p = self.val(&vpsi, s, l);
            psi_t.set(l as usize, p == Tern::T);
            psi_tm.set(l as usize, p != Tern::F && c != Tern::F);
            if let Some(vc) = &vchi {
                let x = self.val(vc, s, l);
                seed_t.set(l as usize, x == Tern::T || c == Tern::T);
                seed_tm.set(l as usize, (x != Tern::F || c == Tern::T) && c != Tern::F);
            }
        }
        // Anchors: locations with a successor call or ω (exit) labelled ⌈φ⌉ resp. ⌈φ⌉/⌈φ?⌉.
        let mut call_val = vec![Tern::F; n];
        for &c in &comp.calls {
            call_val[c as usize] = self.call_value(s, c, f, ctx);
        }
        let mut anchor_t = FixedBitSet::with_capacity(n);
        let mut anchor_tm = FixedBitSet::with_capacity(n);
        for l in 0..n as NodeId {
            if comp.is_call(l) {
                continue;
            }
            let mut best = Tern::F;
            if let Some(k) = self.exit_index(s, l) {
                best = ctx[k * w + w - 1];
            }
            for &x in comp.succ.neighbours(l) {
                if comp.is_call(x) {
                    best = match (best, call_val[x as usize]) {
                        (Tern::T, _) | (_, Tern::T) => Tern::T,
                        (Tern::M, _) | (_, Tern::M) => Tern::M,
                        _ => Tern::F,
                    };
                }
            }
            anchor_t.set(l as usize, best == Tern::T);
            anchor_tm.set(l as usize, best != Tern::F);
        }
        let (sure, possible) = if chi.is_some() {
            (
                until_set(comp, &seed_t, &psi_t, &anchor_t),
                until_set(comp, &seed_tm, &psi_tm, &anchor_tm),
            )
        } else {
            let mut cand_t = psi_t.clone();
            cand_t.union_with(&known_t);
            let mut cand_tm = psi_tm;
            cand_tm.difference_with(&known_f);
            (globally_set(comp, cand_t, &anchor_t, &known_t), globally_set(comp, cand_tm, &anchor_tm, &FixedBitSet::with_capacity(n)))
        };
        (0..n)
            .map(|l| {
                if sure.contains(l) {
                    Tern::T
                } else if !possible.contains(l) {
                    Tern::F
                } else {
                    Tern::M
                }
            })
            .collect()
    }

    /// `labelByFixpoint` (Alg. 3.4) on the pairs `xi` of the fixpoint operator `f`, with a
    /// worklist and callers' back-pointers, then `decideRemainingMaybes` (Alg. 3.6).
    pub fn label_by_fixpoint(&mut self, f: FId, xi: &[PairId]) {
        assert!(self.fm.op(f).is_fixpoint(), "labelByFixpoint only on EG/EU pairs");
        self.stats.fixpoint_rounds += 1;
        let mut queue: VecDeque<usize> = (0..xi.len()).collect();
        let mut queued = vec![true; xi.len()];
        let mut dependents: FxHashMap<PairId, Vec<usize>> = FxHashMap::default();
        let mut known_dep: FxHashSet<(PairId, usize)> = FxHashSet::default();
        while let Some(i) = queue.pop_front() {
            queued[i] = false;
            let p = xi[i];
            let (s, ctx) = (self.kb.pairs[p as usize].comp, self.kb.ctx_of(p).to_vec());
            self.reads.clear();
            let ch = self.label_local(f, s, &ctx);
            for r in std::mem::take(&mut self.reads) {
                if known_dep.insert((r, i)) {
                    dependents.entry(r).or_default().push(i);
                }
            }
            let mut wake = Vec::new();
            if ch.any && !self.comp(s).calls.is_empty() {
                wake.push(i); // its call contexts read its own return locations
            }
            if ch.entry
                && let Some(ds) = dependents.get(&p)
            {
                wake.extend_from_slice(ds);
            }
            for j in wake {
                if !queued[j] {
                    queued[j] = true;
                    queue.push_back(j);
                }
            }
        }
        let v = if matches!(self.fm.op(f), Op::EG(_)) { Tern::T } else { Tern::F };
        for &p in xi {
            let s = self.kb.pairs[p as usize].comp;
            let comp = self.comp(s);
            for (l, x) in self.kb.pairs[p as usize].vals.iter_mut().enumerate() {
                if *x == Tern::M && !comp.is_call(l as NodeId) {
                    *x = v;
                }
            }
        }
    }

    pub fn finish_stats(&mut self) -> RksStats {
        let mut st = self.stats.clone();
        st.context_pairs_created = self.kb.pairs.len() as u64;
        st
    }
}

/// Least fixpoint `μZ. seed ∨ (allowed ∧ (anchor ∨ EX Z))` over the locations of `comp`.
fn until_set(comp: &Component, seed: &FixedBitSet, allowed: &FixedBitSet, anchor: &FixedBitSet) -> FixedBitSet {
    let mut set = seed.clone();
    let mut a = allowed.clone();
    a.intersect_with(anchor);
    set.union_with(&a);
    let mut stack: Vec<NodeId> = set.ones().map(|x| x as NodeId).collect();
    while let Some(l) = stack.pop() {
        for &p in comp.pred.neighbours(l) {
            if !set.contains(p as usize) && allowed.contains(p as usize) && !comp.is_call(p) {
                set.insert(p as usize);
                stack.push(p);
            }
        }
    }
    set
}

/// Greatest fixpoint `νZ. cand ∧ (anchor ∨ keep ∨ EX Z)` over the locations of `comp`.
fn globally_set(comp: &Component, mut cand: FixedBitSet, anchor: &FixedBitSet, keep: &FixedBitSet) -> FixedBitSet {
    let n = comp.num_nodes as usize;
    let mut count = vec![0u32; n];
    let mut stack = Vec::new();
    for l in cand.ones().collect::<Vec<_>>() {
        count[l] = comp.succ.neighbours(l as NodeId).iter().filter(|&&x| cand.contains(x as usize)).count() as u32;
        if count[l] == 0 && !anchor.contains(l) && !keep.contains(l) {
            stack.push(l as NodeId);
        }
    }
    for &l in &stack {
        cand.set(l as usize, false);
    }
    while let Some(l) = stack.pop() {
        for &p in comp.pred.neighbours(l) {
            let p = p as usize;
            if cand.contains(p) {
                count[p] -= 1;
                if count[p] == 0 && !anchor.contains(p) && !keep.contains(p) {
                    cand.set(p, false);
                    stack.push(p as NodeId);
                }
            }
        }
    }
    cand
}
