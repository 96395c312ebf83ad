//! The shared fixpoint of the context-pair engines: `labelByFixpoint` (Finis 2012 Alg. 3.4
//! with a back-pointer worklist, thesis §5.4) over the pairs of one `EG`/`EU` node, in rounds
//! whose passes run in parallel when large (the schedule does not depend on the thread count),
//! then `decideRemainingMaybes` (Alg. 3.6) on the pairs reachable from the roots.

use super::{Core, LocalPass, View};
use crate::check::kleene::Kleene;
use crate::check::rks::context::{Ctx, has_inner_maybe};
use crate::check::rks::formula::{FId, Op};
use crate::check::rks::kb::{PairId, PairList};
use crate::explicit::rks::NodeId;
use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};

/// Fixpoint rounds with at least this many pairs compute their passes in parallel.
pub(super) const PARALLEL_ROUND: usize = 64;

impl<'a> Core<'a> {
    /// `labelByFixpoint` (Alg. 3.4) on the pairs `xi` of the fixpoint operator `f`, with a
    /// worklist and callers' back-pointers, then `decideRemainingMaybes` (Alg. 3.6).
    ///
    /// A callee pair read with an undecided entry (with `complete`: any undecided location) that
    /// is not in the set yet (a context refined during the fixpoint) joins it after `prepare`
    /// (the incremental engine labels its subformulas there). `decideRemainingMaybes` only touches the pairs reachable
    /// from `roots` through the final call contexts (a pair left behind by a refined call may
    /// cover contexts it was never checked for); then every call of those pairs whose context
    /// became `T`/`F` gets its pair, inheriting the decided values of the coarser one.
    pub(crate) fn label_by_fixpoint(&mut self, f: FId, xi: &[PairId], roots: &[PairId], complete: bool, prepare: &mut dyn FnMut(&mut Core<'a>, PairId)) {
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
            crate::deadline::poll();
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
                let (s, ctx) = (this.kb.pairs[p].comp, this.kb.ctx_of(p));
                (!has_inner_maybe(this.fm, f, ctx, this.exits(s))).then(|| this.compute_local(f, s, ctx, &[p]))
            };
            let passes: Vec<Option<LocalPass>> =
                if round.len() >= PARALLEL_ROUND { round.par_iter().map(compute).collect() } else { round.iter().map(compute).collect() };
            for (&i, pass) in round.iter().zip(passes) {
                let Some(mut pass) = pass else { continue };
                let p = set[i];
                let (s, ctx): (_, Ctx) = (self.kb.pairs[p].comp, self.kb.ctx_of(p).into());
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
                    let needed = if complete { !self.is_complete(r) } else { !self.kb.pairs[r].vals[0].is_known() };
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
            let s = self.kb.pairs[p].comp;
            let ternary = self.top_maybes(f, s, self.kb.ctx_of(p)) > 0;
            let comp = self.comp(s);
            for (l, x) in self.kb.pairs[p].vals.iter_mut().enumerate() {
                if *x == Kleene::Unknown && !comp.is_call(NodeId::new(l)) {
                    *x = v;
                    if ternary {
                        undo.push((p, l));
                    }
                }
            }
        }
        self.close_refined_calls(f, &live, &refs);
        for (p, l) in undo {
            self.kb.pairs[p].vals[l] = Kleene::Unknown;
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
            let (s, ctx): (_, Ctx) = (self.kb.pairs[p].comp, self.kb.ctx_of(p).into());
            let comp = self.comp(s);
            for &c in &comp.calls {
                let t = comp.call_target[c.index()];
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
            let (s, ctx): (_, Ctx) = (self.kb.pairs[p].comp, self.kb.ctx_of(p).into());
            let comp = self.comp(s);
            for &c in &comp.calls {
                let t = comp.call_target[c.index()];
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
}
