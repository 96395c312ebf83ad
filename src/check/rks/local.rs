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
use super::context::{Ctx, completions, count_top_maybes, each_completion, has_inner_maybe, restrict};
use super::formula::{FId, Formula, Op};
use super::kb::{Kb, PairId, PairList};
use crate::check::graph::{self, CsrGraph};
use crate::check::kleene::Kleene;
use crate::explicit::rks::{Component, ComponentId, NodeId, PropId, RecursiveKripkeStructure};
use fixedbitset::FixedBitSet;
use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};
use smallvec::SmallVec;
use std::cell::RefCell;

/// How to read a node's values under one context.
pub enum View {
    True,
    Prop(PropId),
    /// A propositional node (no temporal operator below it): its values per component are
    /// computed once, see [`Core::statics`].
    Static(FId),
    /// The stored completions (all exist); values are joined.
    Pairs(PairList),
    Unknown,
}

pub struct Core<'a> {
    pub rks: &'a RecursiveKripkeStructure,
    pub fm: &'a Formula,
    pub kb: Kb,
    pub stats: RksStats,
    /// `statics[g][s]`: where the propositional node `g` (not `⊤`, not an atom) holds in
    /// component `s`; empty for the other nodes.
    statics: Vec<Vec<FixedBitSet>>,
    /// Per component: `exit_of[n]` = exit index of node `n` or `u32::MAX`.
    exit_of: Vec<Vec<u32>>,
    /// Per component: the locations some call returns to (the only own locations a pair's
    /// call contexts read).
    return_locs: Vec<FixedBitSet>,
    /// Per caller pair, per call: the last exact callee pair used (see
    /// [`MAX_ENUMERATED_MAYBES`]), whose known values a refined callee context inherits.
    links: Vec<SmallVec<[(NodeId, PairId); 2]>>,
    /// Contexts with more `M` tops than this are stored as they are ([`MAX_ENUMERATED_MAYBES`]
    /// by default; tests lower it to exercise ternary contexts on small models).
    pub max_enumerated_maybes: usize,
}

/// Contexts with at most this many `M` tops stand for their `T`/`F` completions (the thesis'
/// twins, FIX-1). Contexts with more (components with many exits) are stored as they are,
/// ternary, like Dubslaff et al.'s contexts: their values hold for every completion, and a
/// call whose context gets refined during a fixpoint moves to the refined pair, which inherits
/// the known values of the coarser one.
pub const MAX_ENUMERATED_MAYBES: usize = 4;

/// Fixpoint rounds with at least this many pairs compute their passes in parallel.
pub const PARALLEL_ROUND: usize = 64;

/// Values per location of one component, inline for small components.
pub type Vals = SmallVec<[Kleene; 64]>;

/// What one local pass deduced (not yet written).
#[derive(Default)]
pub struct LocalPass {
    /// The deduced value per location (`M`: nothing deduced).
    pub new: Vals,
    /// Callee pairs read at the calls (back-pointers of the fixpoint).
    pub reads: SmallVec<[PairId; 8]>,
    /// Per call, the exact callee pair it read.
    pub links: SmallVec<[(NodeId, PairId); 4]>,
    /// Some call's callee context (with no inner `M`) has no pairs yet.
    pub missing: bool,
}

#[derive(Clone, Copy, Default)]
pub struct Change {
    pub any: bool,
    pub entry: bool,
    /// A location some call returns to changed (the pair's call contexts may have changed).
    pub returns: bool,
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
        let statics = static_labels(rks, fm);
        let return_locs = rks
            .components
            .iter()
            .map(|c| {
                let mut b = FixedBitSet::with_capacity(c.num_nodes as usize);
                for &x in &c.calls {
                    let t = c.call_target[x as usize] as usize;
                    for k in 0..rks.components[t].exits.len() {
                        b.extend(c.returns(x, k).iter().map(|&r| r as usize));
                    }
                }
                b
            })
            .collect();
        Core {
            rks,
            fm,
            kb: Kb::new(fm),
            stats: RksStats::default(),
            statics,
            exit_of,
            return_locs,
            links: Vec::new(),
            max_enumerated_maybes: MAX_ENUMERATED_MAYBES,
        }
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

    pub fn resolve(&self, g: FId, s: ComponentId, ctx: &[Kleene]) -> View {
        match self.fm.op(g) {
            Op::True => View::True,
            Op::Prop(p) => View::Prop(p),
            _ if self.fm.is_static(g) => View::Static(g),
            _ => {
                let e = self.exits(s);
                if has_inner_maybe(self.fm, g, ctx, e) {
                    return View::Unknown;
                }
                let maybes = count_top_maybes(self.fm, g, ctx, e);
                if maybes == 0 || maybes > self.max_enumerated_maybes {
                    return match self.kb.find(g, s, ctx) {
                        Some(p) => View::Pairs(PairList::from_slice(&[p])),
                        None => View::Unknown,
                    };
                }
                let mut ps = PairList::new();
                let all = each_completion(self.fm, g, ctx, e, |c| match self.kb.find(g, s, c) {
                    Some(p) => {
                        ps.push(p);
                        true
                    }
                    None => false,
                });
                if all { View::Pairs(ps) } else { View::Unknown }
            }
        }
    }

    /// Number of `M`s at `g`'s own top positions in `ctx`.
    pub fn top_maybes(&self, g: FId, s: ComponentId, ctx: &[Kleene]) -> usize {
        count_top_maybes(self.fm, g, ctx, self.exits(s))
    }

    /// True if `ctx` is stored as it is (more `M` tops than are enumerated).
    pub fn is_exact_ternary(&self, g: FId, s: ComponentId, ctx: &[Kleene]) -> bool {
        self.top_maybes(g, s, ctx) > self.max_enumerated_maybes
    }

    pub fn val(&self, v: &View, s: ComponentId, l: NodeId) -> Kleene {
        match v {
            View::True => Kleene::True,
            View::Prop(p) => Kleene::from_bool(self.comp(s).props.get(*p as usize).is_some_and(|b| b.contains(l as usize))),
            View::Static(g) => Kleene::from_bool(self.statics[*g as usize][s as usize].contains(l as usize)),
            View::Pairs(ps) => {
                let mut it = ps.iter().map(|&p| self.kb.pairs[p as usize].vals[l as usize]);
                let first = it.next().unwrap_or(Kleene::Unknown);
                it.fold(first, Kleene::join)
            }
            View::Unknown => Kleene::Unknown,
        }
    }

    pub fn get(&self, g: FId, s: ComponentId, ctx: &[Kleene], l: NodeId) -> Kleene {
        self.val(&self.resolve(g, s, ctx), s, l)
    }

    /// The context of `f` under which call `c` of component `s` (itself under `ctx`) calls its
    /// target: per exit `k` of the target and per node `g` of `deps(f)`, the disjunction over the
    /// continuations of exit `k` of `g`'s value there (an empty continuation set gives `F`).
    pub fn cc(&self, s: ComponentId, c: NodeId, f: FId, ctx: &[Kleene]) -> Ctx {
        let views = self.dep_views(f, s, ctx, None);
        self.cc_from(&views, s, c, f)
    }

    /// How to read each node of `deps(f)` in component `s` under `f`'s context `ctx` (the same
    /// for every call of `s`); `own`: the pairs of `(f, s, ctx)` when already known.
    fn dep_views(&self, f: FId, s: ComponentId, ctx: &[Kleene], own: Option<&[PairId]>) -> SmallVec<[View; 4]> {
        let es = self.exits(s);
        self.fm.deps[f as usize]
            .iter()
            .map(|&g| match own {
                Some(ps) if g == f => View::Pairs(PairList::from_slice(ps)),
                _ => self.resolve(g, s, &restrict(self.fm, f, g, ctx, es)),
            })
            .collect()
    }

    /// [`Core::cc`] from the views of `deps(f)` in the caller.
    fn cc_from(&self, views: &[View], s: ComponentId, c: NodeId, f: FId) -> Ctx {
        let comp = self.comp(s);
        let et = self.exits(comp.call_target[c as usize]);
        let w = self.fm.width(f);
        let mut out: Ctx = smallvec::smallvec![Kleene::False; et * w];
        for (i, view) in views.iter().enumerate() {
            for k in 0..et {
                let mut v = Kleene::False;
                for &r in comp.returns(c, k) {
                    v = v.or(self.val(view, s, r));
                    if v == Kleene::True {
                        break;
                    }
                }
                out[k * w + i] = v;
            }
        }
        out
    }

    /// The last exact callee pair read by call `c` of `caller`.
    fn link(&self, caller: PairId, c: NodeId) -> Option<PairId> {
        self.links.get(caller as usize)?.iter().find(|&&(x, _)| x == c).map(|&(_, q)| q)
    }

    fn set_links(&mut self, caller: PairId, links: &[(NodeId, PairId)]) {
        if links.is_empty() {
            return;
        }
        if self.links.len() <= caller as usize {
            self.links.resize_with(self.kb.pairs.len().max(caller as usize + 1), SmallVec::new);
        }
        let mine = &mut self.links[caller as usize];
        for &(c, q) in links {
            match mine.iter_mut().find(|(x, _)| *x == c) {
                Some(slot) => slot.1 = q,
                None => mine.push((c, q)),
            }
        }
    }

    /// Gives every call of pair `caller` (of `f` in `s` under `ctx`) whose callee context has no
    /// pairs yet (a context refined during a fixpoint) its pair(s), which start from what the
    /// previous callee pair of this call knew when that one is coarser.
    fn create_refined_callees(&mut self, caller: PairId, s: ComponentId, f: FId, ctx: &[Kleene], targets: &[PairId]) {
        let comp = self.comp(s);
        let views = self.dep_views(f, s, ctx, Some(targets));
        for &c in &comp.calls {
            let t = comp.call_target[c as usize];
            let cctx = self.cc_from(&views, s, c, f);
            if !matches!(self.resolve(f, t, &cctx), View::Unknown) || has_inner_maybe(self.fm, f, &cctx, self.exits(t)) {
                continue;
            }
            let src = self.link(caller, c);
            let e = self.exits(t);
            let ctxs = if self.is_exact_ternary(f, t, &cctx) { vec![cctx.clone()] } else { completions(self.fm, f, &cctx, e) };
            for x in ctxs {
                self.pair_inheriting(f, t, &x, src);
            }
        }
    }

    /// The pair of a stored context `ctx`, created if new; if `source`'s context is coarser
    /// (equal wherever it is not `M`), its known values are copied where this pair has `M`.
    pub fn pair_inheriting(&mut self, f: FId, t: ComponentId, ctx: &[Kleene], source: Option<PairId>) -> PairId {
        let n = self.comp(t).num_nodes as usize;
        let q = self.kb.find_or_create(f, t, ctx, n);
        if let Some(src) = source
            && src != q
            && self.kb.pairs[src as usize].comp == t
            && self.kb.pairs[src as usize].node == f
        {
            let coarser = self.kb.ctx_of(src).iter().zip(ctx).all(|(&a, &b)| a == b || a == Kleene::Unknown);
            if coarser {
                let (a, b) = if src < q {
                    let (x, y) = self.kb.pairs.split_at_mut(q as usize);
                    (&x[src as usize], &mut y[0])
                } else {
                    let (x, y) = self.kb.pairs.split_at_mut(src as usize);
                    (&y[0], &mut x[q as usize])
                };
                for (to, &from) in b.vals.iter_mut().zip(&a.vals) {
                    if *to == Kleene::Unknown {
                        *to = from;
                    }
                }
            }
        }
        q
    }

    pub fn is_labeled(&self, f: FId, s: ComponentId, ctx: &[Kleene], fully: bool) -> bool {
        let view = self.resolve(f, s, ctx);
        match view {
            View::True | View::Prop(_) | View::Static(_) => true,
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

    /// The stored completions of `ctx`, created if new. Empty for propositional nodes.
    pub fn pairs_of(&mut self, f: FId, s: ComponentId, ctx: &[Kleene]) -> PairList {
        let mut out = PairList::new();
        if self.fm.is_static(f) {
            return out;
        }
        let e = self.exits(s);
        let n = self.comp(s).num_nodes as usize;
        if self.is_exact_ternary(f, s, ctx) {
            out.push(self.kb.find_or_create(f, s, ctx, n));
            return out;
        }
        let (fm, kb) = (self.fm, &mut self.kb);
        each_completion(fm, f, ctx, e, |c| {
            out.push(kb.find_or_create(f, s, c, n));
            true
        });
        out
    }

    /// One local labelling pass of `f` in component `s` under `ctx` (Alg. 4.4). Contexts with
    /// an inner `M` are not labelled (FIX-3).
    pub fn label_local(&mut self, f: FId, s: ComponentId, ctx: &[Kleene]) -> Change {
        let e = self.exits(s);
        if self.fm.is_static(f) || has_inner_maybe(self.fm, f, ctx, e) {
            return Change::default();
        }
        let targets = self.pairs_of(f, s, ctx);
        let pass = self.compute_local(f, s, ctx, &targets);
        self.apply_local(&targets, &pass)
    }

    /// The values one local pass of the pairs `targets` (of `f` in `s` under `ctx`) deduces,
    /// without writing them: a function of the knowledge base only.
    pub fn compute_local(&self, f: FId, s: ComponentId, ctx: &[Kleene], targets: &[PairId]) -> LocalPass {
        let comp = self.comp(s);
        let e = self.exits(s);
        let n = comp.num_nodes as usize;
        let fm = self.fm;
        let mut pass = LocalPass::default();
        pass.new = match fm.op(f) {
            Op::Not(a) => {
                let v = self.resolve(a, s, &restrict(fm, f, a, ctx, e));
                (0..n).map(|l| self.val(&v, s, l as NodeId).negate()).collect()
            }
            Op::Or(a, b) | Op::And(a, b) => {
                let va = self.resolve(a, s, &restrict(fm, f, a, ctx, e));
                let vb = self.resolve(b, s, &restrict(fm, f, b, ctx, e));
                let is_or = matches!(fm.op(f), Op::Or(..));
                (0..n)
                    .map(|l| {
                        let (x, y) = (self.val(&va, s, l as NodeId), self.val(&vb, s, l as NodeId));
                        if is_or { x.or(y) } else { x.and(y) }
                    })
                    .collect()
            }
            Op::EX(a) => self.label_ex(f, a, s, ctx),
            Op::EG(_) | Op::EU(..) => self.deduce(f, s, ctx, targets, &mut pass),
            Op::True | Op::Prop(_) => unreachable!("propositional nodes are never stored"),
        };
        pass
    }

    /// Writes a pass's values where the pairs `targets` still have `M`, records the callee
    /// pairs its calls read, and counts it.
    fn apply_local(&mut self, targets: &[PairId], pass: &LocalPass) -> Change {
        self.stats.local_checks += 1;
        for &p in targets {
            if !self.kb.checked[p as usize] {
                self.kb.checked[p as usize] = true;
                self.stats.context_pairs_checked += 1;
            }
        }
        if let Some(&first) = targets.first() {
            self.set_links(first, &pass.links);
        }
        let mut ch = Change::default();
        for &p in targets {
            let pair = &mut self.kb.pairs[p as usize];
            let comp = &self.rks.components[pair.comp as usize];
            let rets = &self.return_locs[pair.comp as usize];
            for (l, (v, &x)) in pair.vals.iter_mut().zip(&pass.new).enumerate() {
                if x.is_known() && *v == Kleene::Unknown && !comp.is_call(l as NodeId) {
                    *v = x;
                    ch.any = true;
                    ch.entry |= l == 0;
                    ch.returns |= rets.contains(l);
                }
            }
        }
        ch
    }

    fn label_ex(&self, f: FId, a: FId, s: ComponentId, ctx: &[Kleene]) -> Vals {
        let comp = self.comp(s);
        let e = self.exits(s);
        let w = self.fm.width(f);
        let pos = self.fm.deps[f as usize].binary_search(&a).expect("the child of EX is in its deps");
        let sub = restrict(self.fm, f, a, ctx, e);
        let va = self.resolve(a, s, &sub);
        let mut out: Vals = smallvec::smallvec![Kleene::Unknown; comp.num_nodes as usize];
        for l in 0..comp.num_nodes {
            if comp.is_call(l) {
                continue;
            }
            if let Some(k) = self.exit_index(s, l) {
                out[l as usize] = ctx[k * w + pos];
                continue;
            }
            let mut v = Kleene::False;
            for &x in comp.succ.neighbours(l) {
                let y = if comp.is_call(x) {
                    let t = comp.call_target[x as usize];
                    let cctx = self.cc(s, x, a, &sub);
                    self.get(a, t, &cctx, 0)
                } else {
                    self.val(&va, s, x)
                };
                v = v.or(y);
                if v == Kleene::True {
                    break;
                }
            }
            out[l as usize] = v;
        }
        out
    }

    /// Incremental `deduceLabels` (Alg. 4.5) for `EG ψ` / `E[ψ U χ]`.
    fn deduce(&self, f: FId, s: ComponentId, ctx: &[Kleene], targets: &[PairId], pass: &mut LocalPass) -> Vals {
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
        let vpsi = self.resolve(psi, s, &restrict(fm, f, psi, ctx, e));
        let vchi = chi.map(|b| self.resolve(b, s, &restrict(fm, f, b, ctx, e)));
        let cur = View::Pairs(PairList::from_slice(targets));
        let mut psi_t = bits(n);
        let mut psi_tm = bits(n);
        let mut seed_t = bits(n);
        let mut seed_tm = bits(n);
        let mut known_t = bits(n);
        let mut known_f = bits(n);
        for l in 0..n as NodeId {
            if comp.is_call(l) {
                continue;
            }
            let c = self.val(&cur, s, l);
            known_t.set(l as usize, c == Kleene::True);
            known_f.set(l as usize, c == Kleene::False);
            let p = self.val(&vpsi, s, l);
            psi_t.set(l as usize, p == Kleene::True);
            psi_tm.set(l as usize, p != Kleene::False && c != Kleene::False);
            if let Some(vc) = &vchi {
                let x = self.val(vc, s, l);
                seed_t.set(l as usize, x == Kleene::True || c == Kleene::True);
                seed_tm.set(l as usize, (x != Kleene::False || c == Kleene::True) && c != Kleene::False);
            }
        }
        // Anchors: locations with a successor call or ω (exit) labelled ⌈φ⌉ resp. ⌈φ⌉/⌈φ?⌉.
        let mut call_val: Vals = smallvec::smallvec![Kleene::False; n];
        if !comp.calls.is_empty() {
            let views = self.dep_views(f, s, ctx, Some(targets));
            for &c in &comp.calls {
                let t = comp.call_target[c as usize];
                let cctx = self.cc_from(&views, s, c, f);
                let view = self.resolve(f, t, &cctx);
                match &view {
                    View::Pairs(ps) => {
                        if ps.len() == 1 {
                            pass.links.push((c, ps[0]));
                        }
                        pass.reads.extend_from_slice(ps);
                    }
                    _ => pass.missing |= !has_inner_maybe(fm, f, &cctx, self.exits(t)),
                }
                call_val[c as usize] = self.val(&view, t, 0);
            }
        }
        let mut anchor_t = bits(n);
        let mut anchor_tm = bits(n);
        for l in 0..n as NodeId {
            if comp.is_call(l) {
                continue;
            }
            let mut best = Kleene::False;
            if let Some(k) = self.exit_index(s, l) {
                best = ctx[k * w + w - 1];
            }
            for &x in comp.succ.neighbours(l) {
                if comp.is_call(x) {
                    best = match (best, call_val[x as usize]) {
                        (Kleene::True, _) | (_, Kleene::True) => Kleene::True,
                        (Kleene::Unknown, _) | (_, Kleene::Unknown) => Kleene::Unknown,
                        _ => Kleene::False,
                    };
                }
            }
            anchor_t.set(l as usize, best == Kleene::True);
            anchor_tm.set(l as usize, best != Kleene::False);
        }
        let (sure, possible) = if chi.is_some() {
            (until_set(comp, seed_t, &psi_t, &anchor_t), until_set(comp, seed_tm, &psi_tm, &anchor_tm))
        } else {
            let mut cand_t = copy_bits(&psi_t);
            cand_t.union_with(&known_t);
            let mut cand_tm = copy_bits(&psi_tm);
            cand_tm.difference_with(&known_f);
            let none = bits(n);
            let sets = (globally_set(comp, cand_t, &anchor_t, &known_t), globally_set(comp, cand_tm, &anchor_tm, &none));
            release([seed_t, seed_tm, none]);
            sets
        };
        let out = (0..n)
            .map(|l| {
                if sure.contains(l) {
                    Kleene::True
                } else if !possible.contains(l) {
                    Kleene::False
                } else {
                    Kleene::Unknown
                }
            })
            .collect();
        release([sure, possible, psi_t, psi_tm, known_t, known_f, anchor_t, anchor_tm]);
        out
    }

    /// `labelByFixpoint` (Alg. 3.4) on the pairs `xi` of the fixpoint operator `f`, with a
    /// worklist and callers' back-pointers, then `decideRemainingMaybes` (Alg. 3.6).
    ///
    /// A callee pair read with an undecided entry (with `complete`: any undecided location) that
    /// is not in the set yet (a context refined during the fixpoint) joins it after `prepare`
    /// (the incremental engine labels its subformulas there). `decideRemainingMaybes` only touches the pairs reachable
    /// from `roots` through the final call contexts (a pair left behind by a refined call may
    /// cover contexts it was never checked for); then every call of those pairs whose context
    /// became `T`/`F` gets its pair, inheriting the decided values of the coarser one.
    pub fn label_by_fixpoint(&mut self, f: FId, xi: &[PairId], roots: &[PairId], complete: bool, prepare: &mut dyn FnMut(&mut Core<'a>, PairId)) {
        assert!(self.fm.op(f).is_fixpoint(), "labelByFixpoint only on EG/EU pairs");
        self.stats.fixpoint_rounds += 1;
        let mut set: Vec<PairId> = xi.to_vec();
        let mut index: FxHashMap<PairId, usize> = set.iter().enumerate().map(|(i, &p)| (p, i)).collect();
        let mut queue: Vec<usize> = (0..set.len()).collect();
        let mut queued = vec![true; set.len()];
        let mut dependents: FxHashMap<PairId, Vec<usize>> = FxHashMap::default();
        let mut known_dep: FxHashSet<(PairId, usize)> = FxHashSet::default();
        let mut wake = Vec::new();
        // Pairs written in the current round: a pass that read one of them may have read it
        // before the write, so it runs again.
        let mut written: FxHashSet<PairId> = FxHashSet::default();
        while !queue.is_empty() {
            crate::check::deadline::poll();
            // One round: every queued pair, in index order, computed from the knowledge base as
            // it was at the start of the round (in parallel when the round is large: the passes
            // only read), then written and its dependents woken in index order. The schedule
            // does not depend on the thread count.
            let mut round = std::mem::take(&mut queue);
            round.sort_unstable();
            for &i in &round {
                queued[i] = false;
            }
            written.clear();
            let this = &*self;
            let compute = |&i: &usize| {
                let p = set[i];
                let (s, ctx) = (this.kb.pairs[p as usize].comp, this.kb.ctx_of(p));
                (!has_inner_maybe(this.fm, f, ctx, this.exits(s))).then(|| this.compute_local(f, s, ctx, &[p]))
            };
            let passes: Vec<Option<LocalPass>> =
                if round.len() >= PARALLEL_ROUND { round.par_iter().map(compute).collect() } else { round.iter().map(compute).collect() };
            for (&i, pass) in round.iter().zip(passes) {
                let Some(mut pass) = pass else { continue };
                let p = set[i];
                let (s, ctx): (_, Ctx) = (self.kb.pairs[p as usize].comp, self.kb.ctx_of(p).into());
                if pass.missing {
                    // Refined callee contexts get their pairs, then the pass is redone.
                    self.create_refined_callees(p, s, f, &ctx, &[p]);
                    pass = self.compute_local(f, s, &ctx, &[p]);
                }
                let ch = self.apply_local(&[p], &pass);
                if ch.any {
                    written.insert(p);
                }
                for &r in &pass.reads {
                    if written.contains(&r) && r != p {
                        wake.push(i);
                    }
                    let needed = if complete { !self.is_complete(r) } else { !self.kb.pairs[r as usize].vals[0].is_known() };
                    if !needed {
                        continue;
                    }
                    if let std::collections::hash_map::Entry::Vacant(slot) = index.entry(r) {
                        slot.insert(set.len());
                        set.push(r);
                        queued.push(false);
                        wake.push(set.len() - 1);
                        prepare(self, r);
                    }
                    if known_dep.insert((r, i)) {
                        dependents.entry(r).or_default().push(i);
                    }
                }
                if ch.returns {
                    wake.push(i); // its call contexts read its own return locations
                }
                if ch.entry
                    && let Some(ds) = dependents.get(&p)
                {
                    wake.extend_from_slice(ds);
                }
                for j in wake.drain(..) {
                    if !queued[j] {
                        queued[j] = true;
                        queue.push(j);
                    }
                }
            }
        }
        let (live, refs) = self.live_pairs(f, roots, &index);
        let v = if matches!(self.fm.op(f), Op::EG(_)) { Kleene::True } else { Kleene::False };
        // Values decided here in a pair with `M` tops hold only for the completion the callers
        // induce (their `M`s are decided alike); they seed the refined pairs, then are undone.
        let mut undo: Vec<(PairId, usize)> = Vec::new();
        for &p in &live {
            if !index.contains_key(&p) {
                continue;
            }
            let s = self.kb.pairs[p as usize].comp;
            let ternary = self.top_maybes(f, s, self.kb.ctx_of(p)) > 0;
            let comp = self.comp(s);
            for (l, x) in self.kb.pairs[p as usize].vals.iter_mut().enumerate() {
                if *x == Kleene::Unknown && !comp.is_call(l as NodeId) {
                    *x = v;
                    if ternary {
                        undo.push((p, l));
                    }
                }
            }
        }
        self.close_refined_calls(f, &live, &refs);
        for (p, l) in undo {
            self.kb.pairs[p as usize].vals[l] = Kleene::Unknown;
        }
    }

    /// The pairs reachable from `roots` through the current call contexts, staying inside the
    /// fixpoint set (roots are always visited), and for each visited (pair, call) the pairs its
    /// context reads.
    #[allow(clippy::type_complexity)]
    fn live_pairs(&mut self, f: FId, roots: &[PairId], set: &FxHashMap<PairId, usize>) -> (Vec<PairId>, FxHashMap<(PairId, NodeId), PairList>) {
        let mut seen: FxHashSet<PairId> = FxHashSet::default();
        let mut order = Vec::new();
        let mut refs = FxHashMap::default();
        let mut stack: Vec<PairId> = roots.iter().rev().copied().collect();
        while let Some(p) = stack.pop() {
            if !seen.insert(p) {
                continue;
            }
            order.push(p);
            let (s, ctx): (_, Ctx) = (self.kb.pairs[p as usize].comp, self.kb.ctx_of(p).into());
            let comp = self.comp(s);
            for &c in &comp.calls {
                let t = comp.call_target[c as usize];
                let cctx = self.cc(s, c, f, &ctx);
                if let View::Pairs(ps) = self.resolve(f, t, &cctx) {
                    for &q in ps.iter().rev() {
                        if set.contains_key(&q) {
                            stack.push(q);
                        }
                    }
                    refs.insert((p, c), ps);
                }
            }
        }
        (order, refs)
    }

    /// After `decideRemainingMaybes`: every call of a live pair whose context is now `T`/`F`
    /// (it was an exact ternary context during the fixpoint) gets a pair with all values,
    /// copied from the coarser pair it read, and so on through the new pairs' calls.
    fn close_refined_calls(&mut self, f: FId, live: &[PairId], refs: &FxHashMap<(PairId, NodeId), PairList>) {
        // (pair, live pair whose calls' old contexts are coarser than this pair's)
        let mut stack: Vec<(PairId, PairId)> = live.iter().map(|&p| (p, p)).collect();
        let mut done: FxHashSet<PairId> = live.iter().copied().collect();
        while let Some((p, like)) = stack.pop() {
            let (s, ctx): (_, Ctx) = (self.kb.pairs[p as usize].comp, self.kb.ctx_of(p).into());
            let comp = self.comp(s);
            for &c in &comp.calls {
                let t = comp.call_target[c as usize];
                let cctx = self.cc(s, c, f, &ctx);
                if self.top_maybes(f, t, &cctx) > 0 {
                    continue;
                }
                let Some(src) = refs.get(&(like, c)).and_then(|v| (v.len() == 1).then_some(v[0])) else { continue };
                if self.kb.find(f, t, &cctx).is_some_and(|q| self.is_complete(q)) {
                    continue;
                }
                let q = self.pair_inheriting(f, t, &cctx, Some(src));
                if done.insert(q) {
                    stack.push((q, src));
                }
            }
        }
    }

    /// Every location of pair `p` decided.
    pub fn is_complete(&self, p: PairId) -> bool {
        let pair = &self.kb.pairs[p as usize];
        let comp = self.comp(pair.comp);
        pair.vals.iter().enumerate().all(|(l, x)| x.is_known() || comp.is_call(l as NodeId))
    }

    pub fn finish_stats(&mut self) -> RksStats {
        let mut st = self.stats.clone();
        st.context_pairs_created = self.kb.pairs.len() as u64;
        st
    }
}

/// Per node, the locations of each component where the node holds if it is propositional
/// (and not `⊤` or an atom, which are read straight off the labels); empty otherwise.
fn static_labels(rks: &RecursiveKripkeStructure, fm: &Formula) -> Vec<Vec<FixedBitSet>> {
    let mut out: Vec<Vec<FixedBitSet>> = vec![Vec::new(); fm.nodes.len()];
    for f in 0..fm.nodes.len() {
        let op = fm.nodes[f];
        if !fm.is_static(f as FId) || matches!(op, Op::True | Op::Prop(_)) {
            continue;
        }
        let per_comp = rks
            .components
            .iter()
            .enumerate()
            .map(|(s, comp)| {
                let n = comp.num_nodes as usize;
                let bits = |g: FId| -> FixedBitSet {
                    match fm.nodes[g as usize] {
                        Op::True => {
                            let mut b = FixedBitSet::with_capacity(n);
                            b.insert_range(..);
                            b
                        }
                        Op::Prop(p) => {
                            let mut b = comp.props.get(p as usize).cloned().unwrap_or_default();
                            b.grow(n);
                            b
                        }
                        _ => out[g as usize][s].clone(),
                    }
                };
                let mut b = match op {
                    Op::Not(a) => {
                        let mut b = bits(a);
                        b.toggle_range(..);
                        b
                    }
                    Op::Or(a, c) => {
                        let mut b = bits(a);
                        b.union_with(&bits(c));
                        b
                    }
                    Op::And(a, c) => {
                        let mut b = bits(a);
                        b.intersect_with(&bits(c));
                        b
                    }
                    _ => unreachable!("temporal operators are not propositional"),
                };
                b.grow(n);
                b
            })
            .collect();
        out[f] = per_comp;
    }
    out
}

thread_local! {
    /// Bitsets released by [`Core::deduce`] for reuse (per thread: passes run in parallel).
    static BITS: RefCell<Vec<FixedBitSet>> = const { RefCell::new(Vec::new()) };
}

/// An empty bitset for `n` locations (it may be longer; the extra bits stay clear).
fn bits(n: usize) -> FixedBitSet {
    match BITS.with(|pool| pool.borrow_mut().pop()) {
        Some(mut b) => {
            b.clear();
            b.grow(n);
            b
        }
        None => FixedBitSet::with_capacity(n),
    }
}

fn copy_bits(src: &FixedBitSet) -> FixedBitSet {
    let mut b = bits(src.len());
    b.union_with(src);
    b
}

fn release<const K: usize>(sets: [FixedBitSet; K]) {
    BITS.with(|pool| {
        let mut pool = pool.borrow_mut();
        if pool.len() < 64 {
            pool.extend(sets);
        }
    });
}

/// The locations of `comp` as a graph for the shared kernels.
fn locations(comp: &Component) -> CsrGraph<'_> {
    CsrGraph { succ: &comp.succ, pred: &comp.pred }
}

/// Least fixpoint `μZ. seed ∨ (allowed ∧ (anchor ∨ EX Z))` over the locations of `comp`.
fn until_set(comp: &Component, seed: FixedBitSet, allowed: &FixedBitSet, anchor: &FixedBitSet) -> FixedBitSet {
    let mut set = seed;
    for l in allowed.ones() {
        if anchor.contains(l) {
            set.insert(l);
        }
    }
    let work: SmallVec<[NodeId; 64]> = set.ones().map(|x| x as NodeId).collect();
    graph::backward_closure(&locations(comp), &mut set, work, |p| allowed.contains(p as usize) && !comp.is_call(p));
    set
}

/// Greatest fixpoint `νZ. cand ∧ (anchor ∨ keep ∨ EX Z)` over the locations of `comp`.
fn globally_set(comp: &Component, mut cand: FixedBitSet, anchor: &FixedBitSet, keep: &FixedBitSet) -> FixedBitSet {
    let mut count: SmallVec<[u32; 64]> = smallvec::smallvec![0u32; comp.num_nodes as usize];
    graph::greatest_fixpoint(&locations(comp), &mut cand, &mut count, |l| anchor.contains(l as usize) || keep.contains(l as usize));
    cand
}
