//! One local labelling pass of a context pair (Finis 2012 Alg. 4.4): `⊤ p ¬ ∨ ∧` pointwise,
//! `EX` by one-step look-ahead (an exit reads the child's assumption), `EG`/`EU` by the
//! incremental `deduceLabels` (Alg. 4.5) on the component's locations, with calls labelled by
//! the callee's entry value and one `ω` per exit labelled by the context top: `T` where a
//! certain witness exists, `F` where not even an uncertain one. The least and greatest
//! fixpoints are the shared kernels of [`crate::check::graph`]. A pass only reads the
//! knowledge base ([`Core::compute_local`]); [`Core::apply_local`] writes it.

use super::pool::{bits, copy_bits, release};
use super::{Core, Vals, View};
use crate::check::graph::{self, CsrGraph};
use crate::check::kleene::Kleene;
use crate::check::rks::context::{each_completion, has_inner_maybe, restrict};
use crate::check::rks::formula::{FId, Op};
use crate::check::rks::kb::{PairId, PairList};
use crate::explicit::rks::{Component, ComponentId, NodeId};
use fixedbitset::FixedBitSet;
use smallvec::SmallVec;

/// What one local pass deduced (not yet written).
#[derive(Default)]
pub(crate) struct LocalPass {
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
pub(crate) struct Change {
    pub any: bool,
    pub entry: bool,
    /// A location some call returns to changed (the pair's call contexts may have changed).
    pub returns: bool,
}

impl<'a> Core<'a> {
    pub(crate) fn is_labeled(&self, f: FId, s: ComponentId, ctx: &[Kleene], fully: bool) -> bool {
        let view = self.resolve(f, s, ctx);
        match view {
            View::True | View::Prop(_) | View::Static(_) => true,
            View::Unknown => false,
            View::Pairs(_) => {
                let comp = self.comp(s);
                if !fully {
                    return self.val(&view, s, NodeId::ENTRY).is_known();
                }
                comp.nodes().all(|l| comp.is_call(l) || self.val(&view, s, l).is_known())
            }
        }
    }

    /// The stored completions of `ctx`, created if new. Empty for propositional nodes.
    pub(crate) fn pairs_of(&mut self, f: FId, s: ComponentId, ctx: &[Kleene]) -> PairList {
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
    pub(crate) fn label_local(&mut self, f: FId, s: ComponentId, ctx: &[Kleene]) -> Change {
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
    pub(crate) fn compute_local(&self, f: FId, s: ComponentId, ctx: &[Kleene], targets: &[PairId]) -> LocalPass {
        let comp = self.comp(s);
        let e = self.exits(s);
        let n = comp.num_nodes as usize;
        let fm = self.fm;
        let mut pass = LocalPass::default();
        pass.new = match fm.op(f) {
            Op::Not(a) => {
                let v = self.resolve(a, s, &restrict(fm, f, a, ctx, e));
                (0..n).map(|l| self.val(&v, s, NodeId::new(l)).negate()).collect()
            }
            Op::Or(a, b) | Op::And(a, b) => {
                let va = self.resolve(a, s, &restrict(fm, f, a, ctx, e));
                let vb = self.resolve(b, s, &restrict(fm, f, b, ctx, e));
                let is_or = matches!(fm.op(f), Op::Or(..));
                (0..n)
                    .map(|l| {
                        let (x, y) = (self.val(&va, s, NodeId::new(l)), self.val(&vb, s, NodeId::new(l)));
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
    pub(super) fn apply_local(&mut self, targets: &[PairId], pass: &LocalPass) -> Change {
        self.stats.local_checks += 1;
        for &p in targets {
            if !self.kb.checked[p] {
                self.kb.checked[p] = true;
                self.stats.context_pairs_checked += 1;
            }
        }
        if let Some(&first) = targets.first() {
            self.set_links(first, &pass.links);
        }
        let mut ch = Change::default();
        for &p in targets {
            let pair = &mut self.kb.pairs[p];
            let comp = &self.rks.components[pair.comp.index()];
            let rets = &self.return_locs[pair.comp.index()];
            for (l, (v, &x)) in pair.vals.iter_mut().zip(&pass.new).enumerate() {
                if x.is_known() && *v == Kleene::Unknown && !comp.is_call(NodeId::new(l)) {
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
        let pos = self.fm.deps[f].binary_search(&a).expect("the child of EX is in its deps");
        let sub = restrict(self.fm, f, a, ctx, e);
        let va = self.resolve(a, s, &sub);
        let mut out: Vals = smallvec::smallvec![Kleene::Unknown; comp.num_nodes as usize];
        for l in comp.nodes() {
            if comp.is_call(l) {
                continue;
            }
            if let Some(k) = self.exit_index(s, l) {
                out[l.index()] = ctx[k * w + pos];
                continue;
            }
            let mut v = Kleene::False;
            for &x in comp.succ.neighbours(l) {
                let y = if comp.is_call(x) {
                    let t = comp.call_target[x.index()];
                    let cctx = self.cc(s, x, a, &sub);
                    self.get(a, t, &cctx, NodeId::ENTRY)
                } else {
                    self.val(&va, s, x)
                };
                v = v.or(y);
                if v == Kleene::True {
                    break;
                }
            }
            out[l.index()] = v;
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
        for l in (0..n).map(NodeId::new) {
            if comp.is_call(l) {
                continue;
            }
            let c = self.val(&cur, s, l);
            known_t.set(l.index(), c == Kleene::True);
            known_f.set(l.index(), c == Kleene::False);
            let p = self.val(&vpsi, s, l);
            psi_t.set(l.index(), p == Kleene::True);
            psi_tm.set(l.index(), p != Kleene::False && c != Kleene::False);
            if let Some(vc) = &vchi {
                let x = self.val(vc, s, l);
                seed_t.set(l.index(), x == Kleene::True || c == Kleene::True);
                seed_tm.set(l.index(), (x != Kleene::False || c == Kleene::True) && c != Kleene::False);
            }
        }
        // Anchors: locations with a successor call or ω (exit) labelled ⌈φ⌉ resp. ⌈φ⌉/⌈φ?⌉.
        let mut call_val: Vals = smallvec::smallvec![Kleene::False; n];
        if !comp.calls.is_empty() {
            let views = self.dep_views(f, s, ctx, Some(targets));
            for &c in &comp.calls {
                let t = comp.call_target[c.index()];
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
                call_val[c.index()] = self.val(&view, t, NodeId::ENTRY);
            }
        }
        let mut anchor_t = bits(n);
        let mut anchor_tm = bits(n);
        for l in (0..n).map(NodeId::new) {
            if comp.is_call(l) {
                continue;
            }
            let mut best = Kleene::False;
            if let Some(k) = self.exit_index(s, l) {
                best = ctx[k * w + w - 1];
            }
            for &x in comp.succ.neighbours(l) {
                if comp.is_call(x) {
                    best = match (best, call_val[x.index()]) {
                        (Kleene::True, _) | (_, Kleene::True) => Kleene::True,
                        (Kleene::Unknown, _) | (_, Kleene::Unknown) => Kleene::Unknown,
                        _ => Kleene::False,
                    };
                }
            }
            anchor_t.set(l.index(), best == Kleene::True);
            anchor_tm.set(l.index(), best != Kleene::False);
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
}

/// The locations of `comp` as a graph for the shared kernels.
fn locations(comp: &Component) -> CsrGraph<'_, NodeId> {
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
    let work: SmallVec<[u32; 64]> = set.ones().map(|x| x as u32).collect();
    graph::backward_closure(&locations(comp), &mut set, work, |p| allowed.contains(p as usize) && !comp.is_call(NodeId::from_u32(p)));
    set
}

/// Greatest fixpoint `νZ. cand ∧ (anchor ∨ keep ∨ EX Z)` over the locations of `comp`.
fn globally_set(comp: &Component, mut cand: FixedBitSet, anchor: &FixedBitSet, keep: &FixedBitSet) -> FixedBitSet {
    let mut count: SmallVec<[u32; 64]> = smallvec::smallvec![0u32; comp.num_nodes as usize];
    graph::greatest_fixpoint(&locations(comp), &mut cand, &mut count, |l| anchor.contains(l as usize) || keep.contains(l as usize));
    cand
}
