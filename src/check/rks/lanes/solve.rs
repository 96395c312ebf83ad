//! Solving the new frames of one fixpoint node for all lanes at once, each phase by one
//! worklist of (frame, location) across all of them, as `summary::solve` does for one spec:
//! exit masks (least fixpoint), then `base` (`EU`: least fixpoint by backward reachability;
//! `EG`: greatest fixpoint by dead-end removal). A location is put back on the worklist when
//! its lane word changes, which happens at most once per lane (per exit for masks); `EG`
//! recomputes a location's word from its successors instead of counting them per lane.

use super::{FrameId, LaneSummary, NO_FRAME, operands};
use crate::check::rks::formula::Op;
use crate::check::rks::summary::for_each_call_position;
use crate::explicit::rks::{NO_CALL, NodeId};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

impl LaneSummary<'_> {
    /// The lanes in which callee frame `q`'s entry reaches its exit `k` on an `a`-path.
    fn entry_exit(&self, q: FrameId, k: u32) -> u64 {
        let fr = &self.frames[q];
        let m = self.mask_of(fr);
        match fr.uniform {
            true if m[k as usize / 64] >> (k % 64) & 1 == 1 => self.live,
            true => 0,
            false => m[k as usize],
        }
    }

    /// Into `out` (cleared first): the locations whose mask or `base` depends on location `m`
    /// of frame `id`, each with the lanes through which it depends: the `a` predecessors (the
    /// lanes where they are `a`), the calls returning to `m` (the lanes where the callee's
    /// entry reaches that exit), and, with `callers` and if `m` is the entry, the callers'
    /// calls (all lanes).
    fn dependents(&self, id: FrameId, m: NodeId, callers: bool, out: &mut Vec<(FrameId, NodeId, u64)>) {
        out.clear();
        let fr = &self.frames[id];
        let (comp, va) = (self.comp(fr.comp), &self.vecs[fr.a as usize]);
        out.extend(comp.pred.neighbours(m).iter().filter(|&&p| va[p.index()] != 0).map(|&p| (id, p, va[p.index()])));
        for &(k, word, bits) in self.ix.ret_words(fr.comp, m) {
            for_each_call_position(word, bits, |i| {
                let q = fr.callees[i];
                if q != NO_FRAME {
                    let lanes = self.entry_exit(q, k);
                    if lanes != 0 {
                        out.push((id, comp.calls[i], lanes));
                    }
                }
            });
        }
        if callers && m == NodeId::ENTRY {
            out.extend(fr.callers.iter().map(|&(g, i)| (g, self.comp(self.frames[g].comp).calls[i as usize], self.live)));
        }
    }

    /// Least fixpoint of the exit masks of the frames `new` (those not sharing a solved mask;
    /// the masks of `a = true` are the model's, see `ModelIndex::exit_reach`).
    pub(super) fn solve_masks(&mut self, new: &[FrameId]) {
        let own: Vec<FrameId> = new.iter().copied().filter(|&id| !self.frames[id].mask_shared).collect();
        let mut work: Vec<(FrameId, NodeId)> = Vec::new();
        for &id in &own {
            let fr = &self.frames[id];
            let (e, mask) = (fr.exits, fr.mask as usize);
            for (k, &x) in self.comp(fr.comp).exits.iter().enumerate() {
                let lanes = self.vecs[fr.a as usize][x.index()];
                if lanes != 0 {
                    self.masks[mask][x.index() * e + k] |= lanes;
                    work.push((id, x));
                }
            }
        }
        let mut row: Vec<u64> = Vec::new();
        let mut deps = Vec::new();
        while let Some((id, m)) = work.pop() {
            crate::deadline::tick(self.stats.local_checks as usize);
            self.stats.local_checks += 1;
            let fr = &self.frames[id];
            let (e, mask) = (fr.exits, fr.mask as usize);
            row.clear();
            row.extend_from_slice(&self.masks[mask][m.index() * e..(m.index() + 1) * e]);
            self.dependents(id, m, false, &mut deps);
            for &(_, p, lanes) in &deps {
                if merge_row(&mut self.masks[mask][p.index() * e..(p.index() + 1) * e], &row, lanes) {
                    work.push((id, p));
                }
            }
            if m == NodeId::ENTRY {
                // The entry reaches more exits in some lanes: each caller's call continues at more returns.
                for ci in 0..self.frames[id].callers.len() {
                    let (g, i) = self.frames[id].callers[ci];
                    let gf = &self.frames[g];
                    let (gcomp, ge, gmask) = (self.comp(gf.comp), gf.exits, gf.mask as usize);
                    let c = gcomp.calls[i as usize];
                    let mut acc = vec![0u64; ge];
                    for (k, &lanes) in row.iter().enumerate() {
                        if lanes != 0 {
                            for &r in gcomp.returns(c, k) {
                                merge_row(&mut acc, &self.masks[gmask][r.index() * ge..(r.index() + 1) * ge], lanes);
                            }
                        }
                    }
                    if merge_row(&mut self.masks[gmask][c.index() * ge..(c.index() + 1) * ge], &acc, u64::MAX) {
                        work.push((g, c));
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

    /// `E[a U b]` without leaving the frame: backward reachability of `b` locations and of calls
    /// whose callee's entry holds, through `a` locations and returning calls, per lane.
    fn solve_bases_eu(&mut self, new: &[FrameId]) {
        let mut work = Queue::new(self, new);
        for &id in new {
            let fr = &self.frames[id];
            let comp = self.comp(fr.comp);
            let mut base = vec![0u64; comp.num_nodes as usize];
            for (node, &lanes) in self.vecs[fr.b as usize].iter().enumerate() {
                if lanes != 0 && comp.call_target[node] == NO_CALL {
                    base[node] = lanes;
                    work.push(id, NodeId::new(node));
                }
            }
            for (i, &c) in comp.calls.iter().enumerate() {
                let q = fr.callees[i];
                if q != NO_FRAME && self.frames[q].solved {
                    let lanes = self.frames[q].base[0];
                    if lanes != 0 {
                        base[c.index()] = lanes;
                        work.push(id, c);
                    }
                }
            }
            self.frames[id].base = base;
        }
        let mut deps = Vec::new();
        while let Some((id, m)) = work.pop() {
            crate::deadline::tick(self.stats.local_checks as usize);
            self.stats.local_checks += 1;
            let word = self.frames[id].base[m.index()];
            self.dependents(id, m, true, &mut deps);
            for &(g, p, lanes) in &deps {
                let x = &mut self.frames[g].base[p.index()];
                let add = word & lanes & !*x;
                if add != 0 {
                    *x |= add;
                    work.push(g, p);
                }
            }
        }
    }

    /// `EG a` without leaving the frame (greatest fixpoint): start from the `a` locations and
    /// the explored calls, and remove from a location the lanes in which it has no live
    /// successor (a call's successors: its returns through exits its callee's entry reaches,
    /// and the callee's entry itself, a descent that never returns), until nothing changes.
    fn solve_bases_eg(&mut self, new: &[FrameId]) {
        let live = self.live;
        let mut work = Queue::new(self, new);
        for &id in new {
            let fr = &self.frames[id];
            let comp = self.comp(fr.comp);
            let va = &self.vecs[fr.a as usize];
            let alive: Vec<u64> = (0..comp.num_nodes as usize)
                .map(|node| match comp.call_target[node] {
                    NO_CALL => va[node],
                    _ if fr.callees[comp.call_index[node] as usize] != NO_FRAME => live,
                    _ => 0,
                })
                .collect();
            for node in (0..alive.len()).rev() {
                if alive[node] != 0 {
                    work.push(id, NodeId::new(node));
                }
            }
            self.frames[id].base = alive;
        }
        let mut deps = Vec::new();
        while let Some((id, p)) = work.pop() {
            crate::deadline::tick(self.stats.local_checks as usize);
            self.stats.local_checks += 1;
            let old = self.frames[id].base[p.index()];
            if old == 0 {
                continue;
            }
            let now = old & self.eg_support(id, p);
            if now == old {
                continue;
            }
            self.frames[id].base[p.index()] = now;
            self.dependents(id, p, true, &mut deps);
            for &(g, q, _) in &deps {
                work.push(g, q);
            }
        }
    }

    /// The lanes in which location `p` of frame `id` has a live successor.
    fn eg_support(&self, id: FrameId, p: NodeId) -> u64 {
        let fr = &self.frames[id];
        let comp = self.comp(fr.comp);
        let alive = &fr.base;
        match comp.call_target[p.index()] {
            NO_CALL => comp.succ.neighbours(p).iter().fold(0, |acc, &m| acc | alive[m.index()]),
            t => {
                let q = fr.callees[comp.call_index[p.index()] as usize];
                let mut out = self.frames[q].base[0];
                for k in 0..self.exits(t) {
                    let lanes = self.entry_exit(q, k as u32);
                    if lanes != 0 {
                        out |= lanes & comp.returns(p, k).iter().fold(0, |acc, &r| acc | alive[r.index()]);
                    }
                }
                out
            }
        }
    }
}

/// A worklist of (frame, location) of one group of new frames in which each entry is at most
/// once at a time: a location whose word changes again while it waits is propagated once.
///
/// Entries pop in a fixed order that lets values flowing backwards arrive together: frames
/// discovered later (callees) first, and in a frame the locations by their post-order rank
/// ([`crate::check::rks::summary::ModelIndex::rank`], successors first). Without it a location is revisited once per lane
/// that reaches it.
struct Queue<'i> {
    /// The group's first frame; the group's frames (and frames solved while discovering it) follow.
    first: usize,
    queued: Vec<fixedbitset::FixedBitSet>,
    ranks: Vec<&'i [u32]>,
    heap: BinaryHeap<Reverse<(u32, u32, NodeId)>>,
}

impl<'i> Queue<'i> {
    fn new(engine: &LaneSummary<'i>, new: &[FrameId]) -> Queue<'i> {
        let first = new.iter().map(|id| id.index()).min().unwrap_or(0);
        let mut queued = vec![fixedbitset::FixedBitSet::new(); engine.frames.len() - first];
        let mut ranks: Vec<&'i [u32]> = vec![&[]; queued.len()];
        for &id in new {
            let s = engine.frames[id].comp;
            queued[id.index() - first].grow(engine.comp(s).num_nodes as usize);
            ranks[id.index() - first] = engine.ix.rank(s);
        }
        Queue { first, queued, ranks, heap: BinaryHeap::new() }
    }
    fn push(&mut self, id: FrameId, node: NodeId) {
        let i = id.index() - self.first;
        if !self.queued[i].put(node.index()) {
            self.heap.push(Reverse((u32::MAX - id.as_u32(), self.ranks[i][node.index()], node)));
        }
    }
    fn pop(&mut self) -> Option<(FrameId, NodeId)> {
        let Reverse((f, _, node)) = self.heap.pop()?;
        let id = FrameId::from_u32(u32::MAX - f);
        self.queued[id.index() - self.first].set(node.index(), false);
        Some((id, node))
    }
}

/// `row |= add & lanes` word by word; true if `row` changed.
fn merge_row(row: &mut [u64], add: &[u64], lanes: u64) -> bool {
    let mut changed = false;
    for (x, y) in row.iter_mut().zip(add) {
        let n = *x | (y & lanes);
        changed |= n != *x;
        *x = n;
    }
    changed
}
