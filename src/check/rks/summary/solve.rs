//! Solving the new frames of one fixpoint node, each phase by one worklist of (frame, node)
//! across all of them: exit masks (least fixpoint), then `base` (`EU`: least fixpoint by
//! backward reachability; `EG`: greatest fixpoint by dead-end removal with successor counters).
//! Solved frames (of earlier groups) are constants here.

use super::{Frame, FrameId, NO_FRAME, Summary, bit, operands, set_bit};
use crate::check::rks::formula::Op;
use crate::explicit::rks::{NO_CALL, NodeId};
use fixedbitset::FixedBitSet;
use smallvec::SmallVec;

impl Summary<'_> {
    /// True if the callee frame of call `i` (position in `comp.calls`) of frame `fr`, whose
    /// group is being solved, reaches its exit `k` from its entry (see `Frame::entry_rows`).
    fn entry_exit(fr: &Frame, i: usize, k: u32) -> bool {
        bit(&fr.entry_rows[i * fr.stride..], k as usize)
    }

    /// Fills `Frame::entry_rows` of the frames `reps` (about to be solved) from their callees'
    /// current entry rows.
    pub(super) fn init_entry_rows(&mut self, reps: &[FrameId]) {
        for &id in reps {
            let fr = &self.frames[id as usize];
            let comp = self.comp(fr.comp);
            let stride = comp.calls.iter().map(|&c| self.exits(comp.call_target[c as usize]).div_ceil(64)).max().unwrap_or(0);
            let mut rows = vec![0u64; comp.calls.len() * stride];
            for (i, &q) in fr.callees.iter().enumerate() {
                if q != NO_FRAME {
                    let callee = &self.frames[q as usize];
                    rows[i * stride..i * stride + callee.words].copy_from_slice(&self.masks[callee.mask as usize][..callee.words]);
                }
            }
            let fr = &mut self.frames[id as usize];
            (fr.entry_rows, fr.stride) = (rows, stride);
        }
    }

    /// Frame `id`'s entry row grew: copies it into its callers' `entry_rows`.
    fn entry_grew(&mut self, id: FrameId) {
        let fr = &self.frames[id as usize];
        let (mask, w) = (fr.mask as usize, fr.words);
        for ci in 0..self.frames[id as usize].callers.len() {
            let (g, i) = self.frames[id as usize].callers[ci];
            let caller = &mut self.frames[g as usize];
            let at = i as usize * caller.stride;
            caller.entry_rows[at..at + w].copy_from_slice(&self.masks[mask][..w]);
        }
    }

    /// Least fixpoint of the exit masks of the frames `new`, by one worklist of (frame, node)
    /// whose mask grew: it is merged into the node's `a` predecessors, into the calls that
    /// return to it through an exit their callee's entry reaches, and, for an entry, into the
    /// callers' call nodes. A row grows at most once per exit, so the work is linear in the
    /// edges of the frames times the exits; the queue ([`MaskQueue`]) merges the exits that
    /// reach a waiting location before it is propagated.
    pub(super) fn solve_masks(&mut self, new: &[FrameId]) {
        let own: Vec<FrameId> = new.iter().copied().filter(|&id| !self.frames[id as usize].mask_shared).collect();
        let mut work = MaskQueue::new(&own, |id| self.comp(self.frames[id as usize].comp).num_nodes as usize);
        for &id in &own {
            let fr = &self.frames[id as usize];
            let (va, w) = (&self.vecs[fr.a as usize], fr.words);
            for (k, &x) in self.comp(fr.comp).exits.iter().enumerate() {
                if va.contains(x as usize) {
                    set_bit(&mut self.masks[fr.mask as usize][x as usize * w..], k);
                    work.push(id, x);
                }
            }
            if self.masks[fr.mask as usize][..w].iter().any(|&x| x != 0) {
                self.entry_grew(id);
            }
        }
        let mut row: SmallVec<[u64; 2]> = SmallVec::new();
        let mut deps: Vec<(FrameId, NodeId)> = Vec::new();
        while let Some((id, m)) = work.pop() {
            crate::check::deadline::tick(self.stats.local_checks as usize);
            self.stats.local_checks += 1;
            let fr = &self.frames[id as usize];
            let w = fr.words;
            row.clear();
            row.extend_from_slice(&self.masks[fr.mask as usize][m as usize * w..(m as usize + 1) * w]);
            self.dependents(id, m, false, &mut deps);
            let mask = fr.mask as usize;
            for &(_, p) in &deps {
                if merge_row(&mut self.masks[mask][p as usize * w..(p as usize + 1) * w], &row) {
                    work.push(id, p);
                    if p == 0 {
                        self.entry_grew(id);
                    }
                }
            }
            if m == 0 {
                // The entry reaches more exits: each caller's call continues at more returns.
                for ci in 0..self.frames[id as usize].callers.len() {
                    let (g, i) = self.frames[id as usize].callers[ci];
                    let gf = &self.frames[g as usize];
                    let (gcomp, gw, gmask) = (self.comp(gf.comp), gf.words, gf.mask as usize);
                    let c = gcomp.calls[i as usize];
                    let mut acc: SmallVec<[u64; 2]> = smallvec::smallvec![0; gw];
                    for k in 0..row.len() * 64 {
                        if bit(&row, k) {
                            for &r in gcomp.returns(c, k) {
                                merge_row(&mut acc, &self.masks[gmask][r as usize * gw..(r as usize + 1) * gw]);
                            }
                        }
                    }
                    if merge_row(&mut self.masks[gmask][c as usize * gw..(c as usize + 1) * gw], &acc) {
                        work.push(g, c);
                        if c == 0 {
                            self.entry_grew(g);
                        }
                    }
                }
            }
        }
        for id in own {
            let fr = &self.frames[id as usize];
            let (a, _) = operands(self.fm, fr.f);
            if self.fm.is_static(a) {
                self.static_masks.entry((a, fr.comp)).or_insert(fr.mask);
            }
        }
    }

    /// Into `out` (cleared first): the nodes whose mask or `base` depends on node `m` of frame
    /// `id`. These are its `a` predecessors (the only locations that can step to it on an
    /// `a`-path), the calls returning to it through an exit their callee's entry reaches, and,
    /// with `callers` and if `m` is the entry, the callers' calls.
    fn dependents(&self, id: FrameId, m: NodeId, callers: bool, out: &mut Vec<(FrameId, NodeId)>) {
        out.clear();
        let fr = &self.frames[id as usize];
        let (comp, va) = (self.comp(fr.comp), &self.vecs[fr.a as usize]);
        out.extend(comp.pred.neighbours(m).iter().filter(|&&p| va.contains(p as usize)).map(|&p| (id, p)));
        out.extend(
            self.ix.ret_preds(fr.comp, m).iter().filter(|&&(c, k)| Self::entry_exit(fr, comp.call_index[c as usize] as usize, k)).map(|&(c, _)| (id, c)),
        );
        if callers && m == 0 {
            out.extend(fr.callers.iter().map(|&(g, i)| (g, self.comp(self.frames[g as usize].comp).calls[i as usize])));
        }
    }

    /// `base` of the frames `new`: least fixpoint for `EU`, greatest for `EG`.
    pub(super) fn solve_bases(&mut self, new: &[FrameId]) {
        match self.fm.op(self.frames[new[0] as usize].f) {
            Op::EG(_) => self.solve_bases_eg(new),
            _ => self.solve_bases_eu(new),
        }
    }

    /// `E[a U b]` without leaving the frame (least fixpoint): backward reachability, over all
    /// frames at once, of `b` locations and of calls whose callee's entry holds, through `a`
    /// locations and returning calls; an entry that gets in puts its callers' calls in.
    fn solve_bases_eu(&mut self, new: &[FrameId]) {
        let mut work: Vec<(FrameId, NodeId)> = Vec::new();
        for &id in new {
            let fr = &self.frames[id as usize];
            let comp = self.comp(fr.comp);
            let mut base = FixedBitSet::with_capacity(comp.num_nodes as usize);
            for node in self.vecs[fr.b as usize].ones() {
                if comp.call_target[node] == NO_CALL {
                    base.insert(node);
                    work.push((id, node as NodeId));
                }
            }
            for (i, &c) in comp.calls.iter().enumerate() {
                let q = fr.callees[i];
                if q != NO_FRAME && self.frames[q as usize].solved && self.frames[q as usize].base.contains(0) {
                    base.insert(c as usize);
                    work.push((id, c));
                }
            }
            self.frames[id as usize].base = base;
        }
        let mut deps: Vec<(FrameId, NodeId)> = Vec::new();
        while let Some((id, m)) = work.pop() {
            crate::check::deadline::tick(self.stats.local_checks as usize);
            self.stats.local_checks += 1;
            self.dependents(id, m, true, &mut deps);
            for &(g, p) in &deps {
                if !self.frames[g as usize].base.put(p as usize) {
                    work.push((g, p));
                }
            }
        }
    }

    /// `EG a` without leaving the frame (greatest fixpoint): from the `a` locations and the
    /// calls, over all frames at once, remove the nodes left without a successor; a call's
    /// successors are its returns through exits its callee's entry reaches, plus one for the
    /// callee's entry while it stays (a descent that never returns).
    fn solve_bases_eg(&mut self, new: &[FrameId]) {
        for &id in new {
            let fr = &self.frames[id as usize];
            let comp = self.comp(fr.comp);
            let va = &self.vecs[fr.a as usize];
            let mut alive = FixedBitSet::with_capacity(comp.num_nodes as usize);
            for node in 0..comp.num_nodes as usize {
                let live = match comp.call_target[node] {
                    NO_CALL => va.contains(node),
                    _ => fr.callees[comp.call_index[node] as usize] != NO_FRAME,
                };
                alive.set(node, live);
            }
            self.frames[id as usize].base = alive;
        }
        let mut counts: Vec<Vec<u32>> = Vec::with_capacity(new.len());
        // Per frame id minus `lo`: its position in `new` (no hashing per dependent).
        let lo = new.iter().copied().min().unwrap_or(0);
        let mut position = vec![u32::MAX; new.iter().map(|&id| (id - lo) as usize + 1).max().unwrap_or(0)];
        let mut dead: Vec<(FrameId, NodeId)> = Vec::new();
        for (pos, &id) in new.iter().enumerate() {
            position[(id - lo) as usize] = pos as u32;
            let fr = &self.frames[id as usize];
            let comp = self.comp(fr.comp);
            let alive = &fr.base;
            let mut cnt = vec![0u32; comp.num_nodes as usize];
            for node in alive.ones() {
                let n = match comp.call_target[node] {
                    NO_CALL => comp.succ.neighbours(node as NodeId).iter().filter(|&&m| alive.contains(m as usize)).count(),
                    t => {
                        let i = comp.call_index[node] as usize;
                        let own = usize::from(self.frames[fr.callees[i] as usize].base.contains(0));
                        own + (0..self.exits(t))
                            .filter(|&k| Self::entry_exit(fr, i, k as u32))
                            .map(|k| comp.returns(node as NodeId, k).iter().filter(|&&r| alive.contains(r as usize)).count())
                            .sum::<usize>()
                    }
                };
                cnt[node] = n as u32;
                if n == 0 {
                    dead.push((id, node as NodeId));
                }
            }
            counts.push(cnt);
        }
        for &(id, m) in &dead {
            self.frames[id as usize].base.set(m as usize, false);
        }
        let mut deps: Vec<(FrameId, NodeId)> = Vec::new();
        while let Some((id, m)) = dead.pop() {
            crate::check::deadline::tick(self.stats.local_checks as usize);
            self.stats.local_checks += 1;
            self.dependents(id, m, true, &mut deps);
            for &(g, p) in &deps {
                if self.frames[g as usize].base.contains(p as usize) {
                    let cnt = &mut counts[position[(g - lo) as usize] as usize][p as usize];
                    *cnt -= 1;
                    if *cnt == 0 {
                        self.frames[g as usize].base.set(p as usize, false);
                        dead.push((g, p));
                    }
                }
            }
        }
    }
}

/// The worklist of [`Summary::solve_masks`]: first in, first out, and a (frame, location)
/// already waiting is not queued again, so the exits reaching a location in the same wave are
/// propagated from it once (a stack re-propagated every location once per exit).
struct MaskQueue {
    queue: std::collections::VecDeque<(FrameId, NodeId)>,
    /// Per frame of the group (by id minus `lo`; `u32::MAX` for other frames): its offset in `queued`.
    offset: Vec<u32>,
    lo: FrameId,
    queued: FixedBitSet,
}

impl MaskQueue {
    fn new(frames: &[FrameId], nodes: impl Fn(FrameId) -> usize) -> MaskQueue {
        let lo = frames.iter().copied().min().unwrap_or(0);
        let hi = frames.iter().copied().max().map_or(0, |h| h + 1);
        let mut offset = vec![u32::MAX; (hi - lo) as usize];
        let mut total = 0usize;
        for &id in frames {
            offset[(id - lo) as usize] = total as u32;
            total += nodes(id);
        }
        MaskQueue { queue: Default::default(), offset, lo, queued: FixedBitSet::with_capacity(total) }
    }
    fn push(&mut self, id: FrameId, m: NodeId) {
        let o = self.offset[(id - self.lo) as usize];
        debug_assert!(o != u32::MAX, "only the group's own masks change");
        if !self.queued.put(o as usize + m as usize) {
            self.queue.push_back((id, m));
        }
    }
    fn pop(&mut self) -> Option<(FrameId, NodeId)> {
        let (id, m) = self.queue.pop_front()?;
        self.queued.set(self.offset[(id - self.lo) as usize] as usize + m as usize, false);
        Some((id, m))
    }
}

/// `row |= add`; true if `row` changed.
fn merge_row(row: &mut [u64], add: &[u64]) -> bool {
    let mut changed = false;
    for (x, y) in row.iter_mut().zip(add) {
        changed |= *x | y != *x;
        *x |= y;
    }
    changed
}
