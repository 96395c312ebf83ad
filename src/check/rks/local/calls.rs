//! Contexts of calls (digest §3.9, with the disjunction rule of §4.9 for calls with several
//! continuations): the context a call passes to its callee, read from the caller's values at
//! the call's continuations, and the pairs those contexts lead to — created when a context is
//! refined during a fixpoint, starting from what the coarser pair already knew.

use super::{Core, View};
use crate::check::kleene::Kleene;
use crate::check::rks::context::{Ctx, completions, has_inner_maybe, restrict};
use crate::check::rks::formula::FId;
use crate::check::rks::kb::{PairId, PairList};
use crate::explicit::rks::{ComponentId, NodeId};
use smallvec::SmallVec;

impl<'a> Core<'a> {
    /// The context of `f` under which call `c` of component `s` (itself under `ctx`) calls its
    /// target: per exit `k` of the target and per node `g` of `deps(f)`, the disjunction over the
    /// continuations of exit `k` of `g`'s value there (an empty continuation set gives `F`).
    pub fn cc(&self, s: ComponentId, c: NodeId, f: FId, ctx: &[Kleene]) -> Ctx {
        let views = self.dep_views(f, s, ctx, None);
        self.cc_from(&views, s, c, f)
    }

    /// How to read each node of `deps(f)` in component `s` under `f`'s context `ctx` (the same
    /// for every call of `s`); `own`: the pairs of `(f, s, ctx)` when already known.
    pub(super) fn dep_views(&self, f: FId, s: ComponentId, ctx: &[Kleene], own: Option<&[PairId]>) -> SmallVec<[View; 4]> {
        let es = self.exits(s);
        self.fm.deps[f]
            .iter()
            .map(|&g| match own {
                Some(ps) if g == f => View::Pairs(PairList::from_slice(ps)),
                _ => self.resolve(g, s, &restrict(self.fm, f, g, ctx, es)),
            })
            .collect()
    }

    /// [`Core::cc`] from the views of `deps(f)` in the caller.
    pub(super) fn cc_from(&self, views: &[View], s: ComponentId, c: NodeId, f: FId) -> Ctx {
        let comp = self.comp(s);
        let et = self.exits(comp.call_target[c.index()]);
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
        self.links.get(caller.index())?.iter().find(|&&(x, _)| x == c).map(|&(_, q)| q)
    }

    pub(super) fn set_links(&mut self, caller: PairId, links: &[(NodeId, PairId)]) {
        if links.is_empty() {
            return;
        }
        if self.links.len() <= caller.index() {
            self.links.resize_with(self.kb.pairs.len().max(caller.index() + 1), SmallVec::new);
        }
        let mine = &mut self.links[caller.index()];
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
    pub(super) fn create_refined_callees(&mut self, caller: PairId, s: ComponentId, f: FId, ctx: &[Kleene], targets: &[PairId]) {
        let comp = self.comp(s);
        let views = self.dep_views(f, s, ctx, Some(targets));
        for &c in &comp.calls {
            let t = comp.call_target[c.index()];
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
    pub(crate) fn pair_inheriting(&mut self, f: FId, t: ComponentId, ctx: &[Kleene], source: Option<PairId>) -> PairId {
        let n = self.comp(t).num_nodes as usize;
        let q = self.kb.find_or_create(f, t, ctx, n);
        if let Some(src) = source
            && src != q
            && self.kb.pairs[src].comp == t
            && self.kb.pairs[src].node == f
        {
            let coarser = self.kb.ctx_of(src).iter().zip(ctx).all(|(&a, &b)| a == b || a == Kleene::Unknown);
            if coarser {
                let (a, b) = if src < q {
                    let (x, y) = self.kb.pairs.raw_mut().split_at_mut(q.index());
                    (&x[src.index()], &mut y[0])
                } else {
                    let (x, y) = self.kb.pairs.raw_mut().split_at_mut(src.index());
                    (&y[0], &mut x[q.index()])
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
}
