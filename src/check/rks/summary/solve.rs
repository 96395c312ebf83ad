//! Solving the new frames of one fixpoint node, each phase by one worklist of (frame, node)
//! across all of them: exit masks (least fixpoint), then `base` (`EU`: least fixpoint by
//! backward reachability; `EG`: greatest fixpoint by dead-end removal with successor counters).
//! Solved frames (of earlier groups) are constants here.

use super::pred_rows::{add_common, for_each_common};
use super::{Frame, FrameId, ModelIndex, NO_FRAME, Summary, bit, for_each_call_position, merge_row, operands, set_bit};
use crate::check::rks::formula::Op;
use crate::explicit::rks::{Component, NO_CALL, NodeId};
use fixedbitset::FixedBitSet;
use smallvec::SmallVec;

impl Summary<'_> {
    /// True if the callee frame of call `i` (position in `comp.calls`) of frame `fr`, whose
    /// group is being solved, reaches its exit `k` from its entry (see `Frame::live`).
    fn entry_exit(fr: &Frame, i: usize, k: u32) -> bool {
        bit(&fr.live[k as usize * fr.call_words..], i)
    }

    /// Fills `Frame::live` of the frames `reps` (about to be solved) from their callees' current
    /// entry rows.
    pub(super) fn init_entry_rows(&mut self, reps: &[FrameId]) {
        for &id in reps {
            let fr = &self.frames[id];
            let comp = self.comp(fr.comp);
            let exits = comp.calls.iter().map(|&c| self.exits(comp.call_target[c.index()])).max().unwrap_or(0);
            let cw = comp.calls.len().div_ceil(64);
            let mut live = vec![0u64; exits * cw];
            for (i, &q) in fr.callees.iter().enumerate() {
                if q != NO_FRAME {
                    let callee = &self.frames[q];
                    for k in ones(&self.masks[callee.mask as usize][..callee.words]) {
                        set_bit(&mut live[k * cw..], i);
                    }
                }
            }
            let fr = &mut self.frames[id];
            (fr.live, fr.call_words) = (live, cw);
        }
    }

    /// Frame `id`'s entry row grew: adds its call to its callers' `live` words of its exits.
    fn entry_grew(&mut self, id: FrameId) {
        let fr = &self.frames[id];
        let (mask, w) = (fr.mask as usize, fr.words);
        for ci in 0..self.frames[id].callers.len() {
            let (g, i) = self.frames[id].callers[ci];
            let caller = &mut self.frames[g];
            for k in ones(&self.masks[mask][..w]) {
                set_bit(&mut caller.live[k * caller.call_words..], i as usize);
            }
        }
    }

    /// Least fixpoint of the exit masks of the frames `new`, by one worklist of (frame, node)
    /// whose mask grew: it is merged into the node's `a` predecessors, into the calls that
    /// return to it through an exit their callee's entry reaches, and, for an entry, into the
    /// callers' call nodes. A row grows at most once per exit, so the work is linear in the
    /// edges of the frames times the exits; the queue ([`MaskQueue`]) merges the exits that
    /// reach a waiting location before it is propagated.
    pub(super) fn solve_masks(&mut self, new: &[FrameId]) {
        let own: Vec<FrameId> = new.iter().copied().filter(|&id| !self.frames[id].mask_shared).collect();
        let mut work = MaskQueue::new(&own, |id| self.comp(self.frames[id].comp).num_nodes as usize);
        for &id in &own {
            let fr = &self.frames[id];
            let (va, w) = (&self.vecs[fr.a as usize], fr.words);
            for (k, &x) in self.comp(fr.comp).exits.iter().enumerate() {
                if va.contains(x.index()) {
                    set_bit(&mut self.masks[fr.mask as usize][x.index() * w..], k);
                    work.push(id, x);
                }
            }
            if self.masks[fr.mask as usize][..w].iter().any(|&x| x != 0) {
                self.entry_grew(id);
            }
        }
        let ix = self.ix;
        let mut row: SmallVec<[u64; 2]> = SmallVec::new();
        let mut delta: SmallVec<[u64; 2]> = SmallVec::new();
        while let Some((id, m)) = work.pop() {
            crate::deadline::tick(self.stats.local_checks as usize);
            self.stats.local_checks += 1;
            let fr = &self.frames[id];
            let comp = self.comp(fr.comp);
            let (w, va) = (fr.words, &self.vecs[fr.a as usize]);
            let mask = &mut self.masks[fr.mask as usize];
            row.clear();
            row.extend_from_slice(&mask[m.index() * w..(m.index() + 1) * w]);
            let mut entry = false;
            if w == 1 {
                // At most 64 exits (the common case): one word per location, merged in place.
                let r = row[0];
                for_each_dependent(ix, fr, comp, va, m, |p| {
                    let x = &mut mask[p.index()];
                    if *x | r != *x {
                        *x |= r;
                        work.push(id, p);
                        entry |= p == NodeId::ENTRY;
                    }
                });
            } else {
                for_each_dependent(ix, fr, comp, va, m, |p| {
                    if merge_row(&mut mask[p.index() * w..(p.index() + 1) * w], &row) {
                        work.push(id, p);
                        entry |= p == NodeId::ENTRY;
                    }
                });
            }
            if entry {
                self.entry_grew(id);
            }
            if m == NodeId::ENTRY {
                // The entry reaches more exits: each caller's call continues at more returns.
                // Only the exits not sent before: the returns through the others reach the call
                // as dependents of their locations.
                let fr = &mut self.frames[id];
                fr.sent.resize(w, 0);
                delta.clear();
                delta.extend(row.iter().zip(&fr.sent).map(|(r, s)| r & !s));
                fr.sent.copy_from_slice(&row);
                for ci in 0..self.frames[id].callers.len() {
                    let (g, i) = self.frames[id].callers[ci];
                    let gf = &self.frames[g];
                    let (gcomp, gw) = (self.comp(gf.comp), gf.words);
                    let gmask = &mut self.masks[gf.mask as usize];
                    let c = gcomp.calls[i as usize];
                    let grew = if gw == 1 {
                        // One word per location: the continuations' rows ORed as words.
                        let mut acc = 0u64;
                        for k in ones(&delta) {
                            for &r in gcomp.returns(c, k) {
                                acc |= gmask[r.index()];
                            }
                        }
                        let x = &mut gmask[c.index()];
                        let grew = *x | acc != *x;
                        *x |= acc;
                        grew
                    } else {
                        let mut acc: SmallVec<[u64; 2]> = smallvec::smallvec![0; gw];
                        for k in ones(&delta) {
                            for &r in gcomp.returns(c, k) {
                                merge_row(&mut acc, &gmask[r.index() * gw..(r.index() + 1) * gw]);
                            }
                        }
                        merge_row(&mut gmask[c.index() * gw..(c.index() + 1) * gw], &acc)
                    };
                    if grew {
                        work.push(g, c);
                        if c == NodeId::ENTRY {
                            self.entry_grew(g);
                        }
                    }
                }
            }
        }
        for id in own {
            let fr = &self.frames[id];
            let (a, _) = operands(self.fm, fr.f);
            if self.fm.is_static(a) {
                self.static_masks.entry((a, fr.comp)).or_insert(fr.mask);
            }
        }
    }

    /// `base` of the frames `new`: least fixpoint for `EU`, greatest for `EG`.
    pub(super) fn solve_bases(&mut self, new: &[FrameId]) {
        match self.fm.op(self.frames[new[0]].f) {
            Op::EG(_) => self.solve_bases_eg(new),
            _ => self.solve_bases_eu(new),
        }
    }

    /// `E[a U b]` without leaving the frame (least fixpoint): backward reachability, over all
    /// frames at once, of `b` locations and of calls whose callee's entry holds, through `a`
    /// locations and returning calls; an entry that gets in puts its callers' calls in.
    fn solve_bases_eu(&mut self, new: &[FrameId]) {
        let group = Group::new(new);
        let mut bases: Vec<FixedBitSet> = Vec::with_capacity(new.len());
        let mut work: Vec<(FrameId, NodeId)> = Vec::new();
        for &id in new {
            let fr = &self.frames[id];
            let comp = self.comp(fr.comp);
            let mut base = FixedBitSet::with_capacity(comp.num_nodes as usize);
            for node in self.vecs[fr.b as usize].ones() {
                if comp.call_target[node] == NO_CALL {
                    base.insert(node);
                    work.push((id, NodeId::new(node)));
                }
            }
            for (i, &c) in comp.calls.iter().enumerate() {
                let q = fr.callees[i];
                if q != NO_FRAME && self.frames[q].solved && self.frames[q].base.contains(0) {
                    base.insert(c.index());
                    work.push((id, c));
                }
            }
            bases.push(base);
        }
        let ix = self.ix;
        while let Some((id, m)) = work.pop() {
            crate::deadline::tick(self.stats.local_checks as usize);
            self.stats.local_checks += 1;
            let fr = &self.frames[id];
            let comp = self.comp(fr.comp);
            let base = &mut bases[group.pos(id)];
            let va = &self.vecs[fr.a as usize];
            match ix.pred_rows(fr.comp) {
                // Backward reachability a word at a time: the `a` predecessors not in yet.
                Some(rows) => add_common(base.as_mut_slice(), rows.row(m), va.as_slice(), |p| work.push((id, p))),
                None => {
                    for &p in comp.pred.neighbours(m) {
                        if va.contains(p.index()) && !base.put(p.index()) {
                            work.push((id, p));
                        }
                    }
                }
            }
            for_each_returning_call(ix, fr, comp, m, |p| {
                if !base.put(p.index()) {
                    work.push((id, p));
                }
            });
            if m == NodeId::ENTRY {
                for &(g, i) in &fr.callers {
                    let c = self.comp(self.frames[g].comp).calls[i as usize];
                    if !bases[group.pos(g)].put(c.index()) {
                        work.push((g, c));
                    }
                }
            }
        }
        for (&id, base) in new.iter().zip(bases) {
            self.frames[id].base = base;
        }
    }

    /// `EG a` without leaving the frame (greatest fixpoint): from the `a` locations and the
    /// calls, over all frames at once, remove the nodes left without a successor; a call's
    /// successors are its returns through exits its callee's entry reaches, plus one for the
    /// callee's entry while it stays (a descent that never returns).
    fn solve_bases_eg(&mut self, new: &[FrameId]) {
        let group = Group::new(new);
        let mut alive: Vec<FixedBitSet> = Vec::with_capacity(new.len());
        for &id in new {
            let fr = &self.frames[id];
            let comp = self.comp(fr.comp);
            let va = &self.vecs[fr.a as usize];
            let mut live = FixedBitSet::with_capacity(comp.num_nodes as usize);
            for node in 0..comp.num_nodes as usize {
                live.set(
                    node,
                    match comp.call_target[node] {
                        NO_CALL => va.contains(node),
                        _ => fr.callees[comp.call_index[node] as usize] != NO_FRAME,
                    },
                );
            }
            alive.push(live);
        }
        let mut counts: Vec<Vec<u32>> = Vec::with_capacity(new.len());
        let mut dead: Vec<(FrameId, NodeId)> = Vec::new();
        for (pos, &id) in new.iter().enumerate() {
            let fr = &self.frames[id];
            let comp = self.comp(fr.comp);
            let live = &alive[pos];
            let return_rows = self.ix.return_rows(fr.comp);
            let mut cnt = vec![0u32; comp.num_nodes as usize];
            for node in live.ones() {
                let n = match comp.call_target[node] {
                    NO_CALL => comp.succ.neighbours(NodeId::new(node)).iter().filter(|&&m| live.contains(m.index())).count(),
                    t => {
                        let i = comp.call_index[node] as usize;
                        let q = fr.callees[i];
                        let callee_entry = match group.get(q) {
                            Some(qp) => alive[qp].contains(0),
                            None => self.frames[q].base.contains(0),
                        };
                        let live_exits = (0..self.exits(t)).filter(|&k| Self::entry_exit(fr, i, k as u32));
                        let returns: usize = match return_rows {
                            // Dense component: the live continuations of a pair by popcount.
                            Some(rows) => live_exits.map(|k| rows.count_in(comp.return_offsets[i] as usize + k, live.as_slice()) as usize).sum(),
                            None => live_exits.map(|k| comp.returns(NodeId::new(node), k).iter().filter(|&&r| live.contains(r.index())).count()).sum(),
                        };
                        usize::from(callee_entry) + returns
                    }
                };
                cnt[node] = n as u32;
                if n == 0 {
                    dead.push((id, NodeId::new(node)));
                }
            }
            counts.push(cnt);
        }
        for &(id, m) in &dead {
            alive[group.pos(id)].set(m.index(), false);
        }
        let ix = self.ix;
        while let Some((id, m)) = dead.pop() {
            crate::deadline::tick(self.stats.local_checks as usize);
            self.stats.local_checks += 1;
            let fr = &self.frames[id];
            let comp = self.comp(fr.comp);
            let pos = group.pos(id);
            let (live, cnt) = (&mut alive[pos], &mut counts[pos]);
            for_each_dependent(ix, fr, comp, &self.vecs[fr.a as usize], m, |p| {
                if live.contains(p.index()) {
                    cnt[p.index()] -= 1;
                    if cnt[p.index()] == 0 {
                        live.set(p.index(), false);
                        dead.push((id, p));
                    }
                }
            });
            if m == NodeId::ENTRY {
                for &(g, i) in &fr.callers {
                    let c = self.comp(self.frames[g].comp).calls[i as usize].index();
                    let gp = group.pos(g);
                    if alive[gp].contains(c) {
                        counts[gp][c] -= 1;
                        if counts[gp][c] == 0 {
                            alive[gp].set(c, false);
                            dead.push((g, NodeId::new(c)));
                        }
                    }
                }
            }
        }
        for (&id, live) in new.iter().zip(alive) {
            self.frames[id].base = live;
        }
    }
}

/// Calls `f` on each node of frame `fr` (in component `comp`, `a` vector `va`) whose mask or
/// `base` depends on its node `m`: its `a` predecessors (the only locations that can step to it
/// on an `a`-path) and the calls returning to it through an exit their callee's entry reaches
/// (`Frame::live`). The callers' calls, which depend on the entry, are not included.
#[inline]
fn for_each_dependent(ix: &ModelIndex, fr: &Frame, comp: &Component, va: &FixedBitSet, m: NodeId, mut f: impl FnMut(NodeId)) {
    match ix.pred_rows(fr.comp) {
        Some(rows) => for_each_common(rows.row(m), va.as_slice(), &mut f),
        None => {
            for &p in comp.pred.neighbours(m) {
                if va.contains(p.index()) {
                    f(p);
                }
            }
        }
    }
    for_each_returning_call(ix, fr, comp, m, f);
}

/// Calls `f` on each call of frame `fr` that returns to its node `m` through an exit its
/// callee's entry reaches (`Frame::live`).
#[inline]
fn for_each_returning_call(ix: &ModelIndex, fr: &Frame, comp: &Component, m: NodeId, mut f: impl FnMut(NodeId)) {
    for &(k, w, bits) in ix.ret_words(fr.comp, m) {
        for_each_call_position(w, bits & fr.live[k as usize * fr.call_words + w as usize], |i| f(comp.calls[i]));
    }
}

/// The positions of a group's frames in the slice they were given in (frame ids are dense and
/// a group's are close together, so a vector indexed by id minus the smallest; no hashing).
struct Group {
    lo: usize,
    position: Vec<u32>,
}

impl Group {
    fn new(frames: &[FrameId]) -> Group {
        let lo = frames.iter().map(|id| id.index()).min().unwrap_or(0);
        let mut position = vec![u32::MAX; frames.iter().map(|id| id.index() - lo + 1).max().unwrap_or(0)];
        for (pos, id) in frames.iter().enumerate() {
            position[id.index() - lo] = pos as u32;
        }
        Group { lo, position }
    }
    /// The position of `id`, a frame of the group.
    fn pos(&self, id: FrameId) -> usize {
        self.position[id.index() - self.lo] as usize
    }
    /// The position of `id` if it is a frame of the group.
    fn get(&self, id: FrameId) -> Option<usize> {
        let p = *self.position.get(id.index().checked_sub(self.lo)?)?;
        (p != u32::MAX).then_some(p as usize)
    }
}

/// The positions of the set bits of `b`.
fn ones(b: &[u64]) -> impl Iterator<Item = usize> + '_ {
    b.iter().enumerate().flat_map(|(i, &w)| {
        let mut w = w;
        std::iter::from_fn(move || {
            (w != 0).then(|| {
                let t = w.trailing_zeros() as usize;
                w &= w - 1;
                i * 64 + t
            })
        })
    })
}

/// The worklist of [`Summary::solve_masks`]: first in, first out, and a (frame, location)
/// already waiting is not queued again, so the exits reaching a location in the same wave are
/// propagated from it once (a stack re-propagated every location once per exit).
struct MaskQueue {
    queue: std::collections::VecDeque<(FrameId, NodeId)>,
    /// Per frame of the group (by id minus `lo`; `u32::MAX` for other frames): its offset in `queued`.
    offset: Vec<u32>,
    lo: usize,
    queued: FixedBitSet,
}

impl MaskQueue {
    fn new(frames: &[FrameId], nodes: impl Fn(FrameId) -> usize) -> MaskQueue {
        let lo = frames.iter().map(|id| id.index()).min().unwrap_or(0);
        let hi = frames.iter().map(|id| id.index() + 1).max().unwrap_or(0);
        let mut offset = vec![u32::MAX; hi - lo];
        let mut total = 0usize;
        for &id in frames {
            offset[id.index() - lo] = total as u32;
            total += nodes(id);
        }
        MaskQueue { queue: Default::default(), offset, lo, queued: FixedBitSet::with_capacity(total) }
    }
    fn push(&mut self, id: FrameId, m: NodeId) {
        let o = self.offset[id.index() - self.lo];
        debug_assert!(o != u32::MAX, "only the group's own masks change");
        if !self.queued.put(o as usize + m.index()) {
            self.queue.push_back((id, m));
        }
    }
    fn pop(&mut self) -> Option<(FrameId, NodeId)> {
        let (id, m) = self.queue.pop_front()?;
        self.queued.set(self.offset[id.index() - self.lo] as usize + m.index(), false);
        Some((id, m))
    }
}
