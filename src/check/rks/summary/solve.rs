//! Solving the new frames of one fixpoint node, each phase by one worklist of (frame, node)
//! across all of them: exit masks (least fixpoint), then `base` (`EU`: least fixpoint by
//! backward reachability; `EG`: greatest fixpoint by dead-end removal, in dense groups by
//! sweeps of word tests, elsewhere or when the sweeps do not settle with successor counters).
//! Solved frames (of earlier groups) are constants here. In dense components (predecessor
//! rows) the masks are also kept transposed, per exit ([`Held`]), so that a step visits only the
//! locations it changes; the `EU` bases skip the calls already in by words.

use super::pred_rows::{add_common, for_each_common};
use super::{Frame, FrameId, ModelIndex, NO_FRAME, Summary, bit, for_each_call_position, merge_row, operands, set_bit};
use crate::check::graph::{self, NodeSet, Preds};
use crate::check::rks::formula::Op;
use crate::explicit::rks::{Component, NO_CALL, NodeId};
use fixedbitset::FixedBitSet;
use smallvec::SmallVec;
use std::cell::Cell;

#[cfg(test)]
mod masks_tests;

#[cfg(test)]
thread_local! {
    /// Tests: solve every mask by whole exit words per location (no [`Held`] rows), to compare.
    static BY_LOCATION_ONLY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

#[cfg(test)]
thread_local! {
    /// Tests: the sweeps [`Summary::sweep_eg`] makes (`None`: [`MAX_EG_SWEEPS`]), and how many
    /// groups it left to the counters.
    static EG_SWEEPS: std::cell::Cell<(Option<usize>, usize)> = const { std::cell::Cell::new((None, 0)) };
}

/// The sweeps [`Summary::sweep_eg`] makes before it leaves a group to the counters.
fn max_eg_sweeps() -> usize {
    #[cfg(test)]
    return EG_SWEEPS.with(|c| c.get().0).unwrap_or(MAX_EG_SWEEPS);
    #[cfg(not(test))]
    MAX_EG_SWEEPS
}

/// Whether the masks are solved without [`Held`] rows (a test's reference run).
fn by_location_only() -> bool {
    #[cfg(test)]
    return BY_LOCATION_ONLY.with(|c| c.get());
    #[cfg(not(test))]
    false
}

impl Summary<'_> {
    /// True if the callee frame of call `i` (position in `comp.calls`) of frame `fr`, whose
    /// group is being solved, reaches its exit `k` from its entry (see `Frame::live`).
    pub(super) fn entry_exit(fr: &Frame, i: usize, k: u32) -> bool {
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
                    for k in ones(self.entry_row(q)) {
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
    /// reach a waiting location before it is propagated. Frames with one-word masks in
    /// components with predecessor rows keep the masks transposed beside them ([`Held`]), so a
    /// growth visits only the predecessors and returning calls it changes: on the grid's dense
    /// components 98 % of the visits changed nothing (cell 50/46: 186 M visits, 4.2 M growths).
    pub(super) fn solve_masks(&mut self, new: &[FrameId]) {
        let own: Vec<FrameId> = new.iter().copied().filter(|&id| !self.frames[id].mask_shared).collect();
        let mut work = MaskQueue::new(&own, |id| self.comp(self.frames[id].comp).num_nodes as usize, |id| self.frames[id].comp.as_u32());
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
        // Per frame of one-word masks in a component with predecessor rows: per exit `k`, the
        // locations whose mask holds `k` (see `Held`).
        let mut held: Vec<Held> = own
            .iter()
            .map(|&id| {
                let fr = &self.frames[id];
                match (fr.words, ix.pred_rows(fr.comp)) {
                    (1, Some(_)) if !by_location_only() => Held::of(self.comp(fr.comp), self.exits(fr.comp), &self.masks[fr.mask as usize]),
                    _ => Held::default(),
                }
            })
            .collect();
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
            let pos = work.position(id);
            let h = &mut held[pos];
            if let (1, Some(rows)) = (w, ix.pred_rows(fr.comp))
                && !h.is_empty()
            {
                // One word per location and predecessor rows: only the `a` predecessors that
                // lack one of the exits of `r` are visited, found a row word at a time.
                let r = row[0];
                h.grow_lacking(comp, r, rows.row(m), va.as_slice(), |p| {
                    let x = &mut mask[p.index()];
                    let new = r & !*x;
                    *x |= r;
                    work.push(id, p);
                    entry |= p == NodeId::ENTRY;
                    new
                });
                h.grow_lacking_calls(ix, fr, comp, m, r, |p| {
                    let x = &mut mask[p.index()];
                    let new = r & !*x;
                    *x |= r;
                    work.push(id, p);
                    entry |= p == NodeId::ENTRY;
                    new
                });
            } else if w == 1 {
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
                        let gp = work.position_of(g);
                        let mut acc = 0u64;
                        match (ix.return_rows(gf.comp), gp.map(|gp| &held[gp])) {
                            // The exits whose locations meet the continuations, a row word at a time.
                            (Some(rows), Some(gh)) if !gh.is_empty() => {
                                let known = gmask[c.index()];
                                for k in ones(&delta) {
                                    acc |= gh.exits_meeting(rows.row(gcomp.return_offsets[i as usize] as usize + k), known | acc);
                                }
                            }
                            _ => {
                                for k in ones(&delta) {
                                    for &r in gcomp.returns(c, k) {
                                        acc |= gmask[r.index()];
                                    }
                                }
                            }
                        }
                        let x = &mut gmask[c.index()];
                        let new = acc & !*x;
                        *x |= acc;
                        if let Some(gp) = gp {
                            held[gp].note(gcomp, c, new);
                        }
                        new != 0
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
    /// locations and returning calls; an entry that gets in puts its callers' calls in. The
    /// closure is the shared kernel ([`graph::backward_closure`]) over [`GroupGraph`].
    fn solve_bases_eu(&mut self, new: &[FrameId]) {
        let group = Group::new(new);
        let layout = Layout::of(self, new);
        let mut base = FixedBitSet::with_capacity(layout.len);
        let mut work: Vec<GroupNode> = Vec::new();
        for (pos, &id) in new.iter().enumerate() {
            let fr = &self.frames[id];
            let comp = self.comp(fr.comp);
            let at = layout.offset[pos];
            let mut seed = |m: NodeId| {
                base.insert(at + m.index());
                work.push(GroupNode { g: (at + m.index()) as u32, pos: pos as u32, m });
            };
            for node in self.vecs[fr.b as usize].ones() {
                if comp.call_target[node] == NO_CALL {
                    seed(NodeId::new(node));
                }
            }
            for (i, &c) in comp.calls.iter().enumerate() {
                let q = fr.callees[i];
                if q != NO_FRAME && self.frames[q].solved && self.frames[q].base.contains(0) {
                    seed(c);
                }
            }
        }
        let g = GroupGraph::new(self, new, &group, &layout);
        self.stats.local_checks += graph::backward_closure(&g, &mut base, work, |_| true) as u64;
        for (pos, &id) in new.iter().enumerate() {
            self.frames[id].base = layout.frame_set(pos, &base);
        }
    }

    /// `EG a` without leaving the frame (greatest fixpoint): from the `a` locations and the
    /// calls, over all frames at once, remove the nodes left without a successor; a call's
    /// successors are its returns through exits its callee's entry reaches, plus one for the
    /// callee's entry while it stays (a descent that never returns). Dense groups first go
    /// through [`Self::sweep_eg`]; where it does not settle, the successors are counted here and
    /// the removal is the shared peeling kernel ([`graph::peel`]) over [`GroupGraph`].
    fn solve_bases_eg(&mut self, new: &[FrameId]) {
        let group = Group::new(new);
        let layout = Layout::of(self, new);
        let mut alive = FixedBitSet::with_capacity(layout.len);
        for (pos, &id) in new.iter().enumerate() {
            let fr = &self.frames[id];
            let comp = self.comp(fr.comp);
            // The `a` locations a word at a time (the frame's part starts on a word), then the
            // calls: alive if they have a callee frame.
            let words = layout.words_mut(pos, alive.as_mut_slice());
            words[..self.vecs[fr.a as usize].as_slice().len()].copy_from_slice(self.vecs[fr.a as usize].as_slice());
            for (i, &c) in comp.calls.iter().enumerate() {
                let (w, b) = (c.index() / usize::BITS as usize, 1usize << (c.index() % usize::BITS as usize));
                if fr.callees[i] == NO_FRAME { words[w] &= !b } else { words[w] |= b }
            }
        }
        if self.sweep_eg(new, &group, &layout, &mut alive) {
            for (pos, &id) in new.iter().enumerate() {
                self.frames[id].base = layout.frame_set(pos, &alive);
            }
            return;
        }
        let mut counts = vec![0u32; layout.len];
        let mut dead: Vec<GroupNode> = Vec::new();
        for (pos, &id) in new.iter().enumerate() {
            let fr = &self.frames[id];
            let comp = self.comp(fr.comp);
            let at = layout.offset[pos];
            let live = layout.words(pos, alive.as_slice());
            let return_rows = self.ix.return_rows(fr.comp);
            let succ_rows = self.ix.succ_rows(fr.comp);
            // Dense component: per (class of calls with the same continuations, callee exit),
            // the live continuations, counted once for the class (u32::MAX: not yet).
            let exits = comp.calls.iter().map(|&c| self.exits(comp.call_target[c.index()])).max().unwrap_or(0);
            let mut class_counts = vec![u32::MAX; if return_rows.is_some() { comp.calls.len() * exits } else { 0 }];
            for node in block_ones(live) {
                let n = match comp.call_target[node] {
                    NO_CALL => match succ_rows {
                        // Dense component: the live successors by popcount.
                        Some(rows) => rows.row(NodeId::new(node)).iter().zip(live).map(|(r, l)| (r & l).count_ones() as usize).sum(),
                        None => comp.succ.neighbours(NodeId::new(node)).iter().filter(|&&m| block_bit(live, m.index())).count(),
                    },
                    t => {
                        let i = comp.call_index[node] as usize;
                        let q = fr.callees[i];
                        let callee_entry = self.callee_entry_alive(q, &group, &layout, &alive);
                        let live_exits = (0..self.exits(t)).filter(|&k| Self::entry_exit(fr, i, k as u32));
                        let returns: usize = match return_rows {
                            // Dense component: the live continuations of a pair by popcount.
                            Some(rows) => live_exits
                                .map(|k| {
                                    let known = &mut class_counts[rows.class(i) * exits + k];
                                    if *known == u32::MAX {
                                        *known = rows.count_in(comp.return_offsets[i] as usize + k, live);
                                    }
                                    *known as usize
                                })
                                .sum(),
                            None => live_exits.map(|k| comp.returns(NodeId::new(node), k).iter().filter(|&&r| block_bit(live, r.index())).count()).sum(),
                        };
                        usize::from(callee_entry) + returns
                    }
                };
                counts[at + node] = n as u32;
                if n == 0 {
                    dead.push(GroupNode { g: (at + node) as u32, pos: pos as u32, m: NodeId::new(node) });
                }
            }
        }
        for d in &dead {
            alive.set(d.g as usize, false);
        }
        let g = GroupGraph::new(self, new, &group, &layout);
        self.stats.local_checks += graph::peel(&g, &mut alive, &mut counts, dead, |_| false) as u64;
        for (pos, &id) in new.iter().enumerate() {
            self.frames[id].base = layout.frame_set(pos, &alive);
        }
    }
}

impl Summary<'_> {
    /// Whether callee frame `q`'s entry is alive: its bit in `alive` if it is in the group, else
    /// its solved `base`.
    fn callee_entry_alive(&self, q: FrameId, group: &Group, layout: &Layout, alive: &FixedBitSet) -> bool {
        match group.get(q) {
            Some(qp) => alive.contains(layout.offset[qp]),
            None => self.frames[q].base.contains(0),
        }
    }

    /// `EG` bases of a group of dense frames (successor and continuation rows) by sweeps: each
    /// removes from `alive` the nodes without a live successor, a word test per location (its
    /// successor row against the frame's live nodes, stopping at the first word that meets)
    /// and per live exit of a call. True if a sweep removed nothing within
    /// [`MAX_EG_SWEEPS`]: `alive` is then the greatest fixpoint. Otherwise `alive` has lost
    /// only nodes outside it and the counters finish the job. On the grid's dense components
    /// most groups are stable after the second sweep, where the counters would first take a
    /// popcount of every live node's row.
    fn sweep_eg(&mut self, new: &[FrameId], group: &Group, layout: &Layout, alive: &mut FixedBitSet) -> bool {
        let ix = self.ix;
        if !new.iter().all(|&id| ix.succ_rows(self.frames[id].comp).is_some() && ix.return_rows(self.frames[id].comp).is_some()) {
            return false;
        }
        const W: usize = usize::BITS as usize;
        for _ in 0..max_eg_sweeps() {
            let mut changed = false;
            for (pos, &id) in new.iter().enumerate() {
                let fr = &self.frames[id];
                let comp = self.comp(fr.comp);
                let (succ, ret) = (ix.succ_rows(fr.comp).expect("checked"), ix.return_rows(fr.comp).expect("checked"));
                let (at, blocks) = (layout.offset[pos], layout.blocks(pos, alive.as_slice().len()));
                for wi in 0..blocks.len() {
                    let mut bits = alive.as_slice()[blocks.start + wi];
                    while bits != 0 {
                        let node = wi * W + bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        self.stats.local_checks += 1;
                        let live = &alive.as_slice()[blocks.clone()];
                        let meets = |row: &[usize]| row.iter().zip(live).any(|(r, l)| r & l != 0);
                        let has_successor = match comp.call_target[node] {
                            NO_CALL => meets(succ.row(NodeId::new(node))),
                            t => {
                                let i = comp.call_index[node] as usize;
                                let q = fr.callees[i];
                                let callee_entry = self.callee_entry_alive(q, group, layout, alive);
                                callee_entry
                                    || (0..self.exits(t)).any(|k| Self::entry_exit(fr, i, k as u32) && meets(ret.row(comp.return_offsets[i] as usize + k)))
                            }
                        };
                        if !has_successor {
                            alive.set(at + node, false);
                            changed = true;
                        }
                    }
                }
            }
            if !changed {
                return true;
            }
        }
        #[cfg(test)]
        EG_SWEEPS.with(|c| c.set((c.get().0, c.get().1 + 1)));
        false
    }
}

/// Sweeps [`Summary::sweep_eg`] makes before it leaves a group to the counters (tests may set
/// fewer, see `max_eg_sweeps`).
const MAX_EG_SWEEPS: usize = 4;

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

/// Per exit `k` of a frame with one-word masks, the locations whose mask holds `k`, as bit rows
/// of the component's locations (`k` at `nodes[k * nw..]`) and of its calls (positions in
/// `Component::calls`, `k` at `calls[k * cw..]`): a transposed copy of the masks that finds the
/// predecessors and returning calls a growth changes without visiting the others.
#[derive(Default)]
struct Held {
    nw: usize,
    nodes: Vec<usize>,
    cw: usize,
    calls: Vec<u64>,
}

impl Held {
    fn of(comp: &Component, exits: usize, mask: &[u64]) -> Held {
        let n = comp.num_nodes as usize;
        let (nw, cw) = (n.div_ceil(usize::BITS as usize), comp.calls.len().div_ceil(64));
        let mut held = Held { nw, nodes: vec![0; exits * nw], cw, calls: vec![0; exits * cw] };
        for (node, &x) in mask.iter().enumerate().take(n) {
            held.note(comp, NodeId::new(node), x);
        }
        held
    }

    fn is_empty(&self) -> bool {
        self.nw == 0
    }

    /// Location `p`'s mask gained the exits `new`.
    #[inline]
    fn note(&mut self, comp: &Component, p: NodeId, new: u64) {
        if self.nodes.is_empty() || new == 0 {
            return;
        }
        let (i, b) = (p.index() / usize::BITS as usize, 1usize << (p.index() % usize::BITS as usize));
        let call = comp.call_index[p.index()];
        for k in ones(std::slice::from_ref(&new)) {
            self.nodes[k * self.nw + i] |= b;
            if call != u32::MAX {
                self.calls[k * self.cw + call as usize / 64] |= 1 << (call % 64);
            }
        }
    }

    /// The exits outside `known` held by some location of `set` (bit rows over the component's
    /// locations).
    #[inline]
    fn exits_meeting(&self, set: &[usize], known: u64) -> u64 {
        let mut out = 0u64;
        for (k, row) in self.nodes.chunks_exact(self.nw).enumerate() {
            if known >> k & 1 == 0 && row.iter().zip(set).any(|(a, b)| a & b != 0) {
                out |= 1 << k;
            }
        }
        out
    }

    /// Calls `f` on each location of `pred & a` whose mask lacks some exit of `r`, in
    /// increasing order; `f` merges `r` into the mask and returns the exits it added.
    #[inline]
    fn grow_lacking(&mut self, comp: &Component, r: u64, pred: &[usize], a: &[usize], mut f: impl FnMut(NodeId) -> u64) {
        for (i, (&x, &y)) in pred.iter().zip(a).enumerate() {
            let mut cand = x & y;
            if cand == 0 {
                continue;
            }
            let mut lack = 0usize;
            let mut rest = r;
            while rest != 0 {
                let k = rest.trailing_zeros() as usize;
                lack |= !self.nodes[k * self.nw + i];
                rest &= rest - 1;
            }
            cand &= lack;
            while cand != 0 {
                let p = NodeId::new(i * usize::BITS as usize + cand.trailing_zeros() as usize);
                let new = f(p);
                self.note(comp, p, new);
                cand &= cand - 1;
            }
        }
    }

    /// Calls `f` on each call of frame `fr` that returns to `m` through an exit its callee's
    /// entry reaches (as [`for_each_returning_call`]) and whose mask lacks some exit of `r`;
    /// `f` merges `r` into the call's mask and returns the exits it added.
    #[inline]
    fn grow_lacking_calls(&mut self, ix: &ModelIndex, fr: &Frame, comp: &Component, m: NodeId, r: u64, mut f: impl FnMut(NodeId) -> u64) {
        let entries = ix.ret_words(fr.comp, m);
        if entries.is_empty() {
            return;
        }
        let mut lack: SmallVec<[u64; 2]> = smallvec::smallvec![0; self.cw];
        let mut rest = r;
        while rest != 0 {
            let k = rest.trailing_zeros() as usize;
            for (l, &h) in lack.iter_mut().zip(&self.calls[k * self.cw..(k + 1) * self.cw]) {
                *l |= !h;
            }
            rest &= rest - 1;
        }
        if lack.iter().all(|&l| l == 0) {
            return;
        }
        for &(k, w, bits) in entries {
            let w = w as usize;
            let cand = bits & lack[w];
            if cand == 0 {
                continue;
            }
            let cand = cand & fr.live[k as usize * fr.call_words + w];
            lack[w] &= !cand;
            for_each_call_position(w as u32, cand, |i| {
                let p = comp.calls[i];
                let new = f(p);
                self.note(comp, p, new);
            });
        }
    }
}

/// The positions of a group's frames in the slice they were given in (frame ids are dense and
/// a group's are close together, so a vector indexed by id minus the smallest; no hashing).
pub(super) struct Group {
    lo: usize,
    position: Vec<u32>,
}

impl Group {
    pub(super) fn new(frames: &[FrameId]) -> Group {
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
    pub(super) fn get(&self, id: FrameId) -> Option<usize> {
        let p = *self.position.get(id.index().checked_sub(self.lo)?)?;
        (p != u32::MAX).then_some(p as usize)
    }
}

/// One set over the nodes of all frames of a group: frame `pos`'s nodes at `offset[pos]..`,
/// each frame starting on a word, so that its part is a word slice of the whole (the dense
/// components' row operations read it as they read a frame's own set).
struct Layout {
    offset: Vec<usize>,
    /// Per frame, its component's node count.
    nodes: Vec<usize>,
    len: usize,
}

impl Layout {
    /// The layout of the frames `new`.
    fn of(s: &Summary, new: &[FrameId]) -> Layout {
        const W: usize = usize::BITS as usize;
        let nodes: Vec<usize> = new.iter().map(|&id| s.comp(s.frames[id].comp).num_nodes as usize).collect();
        let mut offset = Vec::with_capacity(nodes.len());
        let mut len = 0;
        for &n in &nodes {
            offset.push(len);
            len += n.div_ceil(W) * W;
        }
        Layout { offset, nodes, len }
    }
    /// The blocks of frame `pos` among `total` blocks of the group's set.
    fn blocks(&self, pos: usize, total: usize) -> std::ops::Range<usize> {
        const W: usize = usize::BITS as usize;
        self.offset[pos] / W..self.offset.get(pos + 1).map_or(total, |&o| o / W)
    }
    /// Frame `pos`'s part of the group's set `words` (its blocks).
    fn words<'w>(&self, pos: usize, words: &'w [usize]) -> &'w [usize] {
        &words[self.blocks(pos, words.len())]
    }
    /// Frame `pos`'s part of the group's set `words`, to change.
    fn words_mut<'w>(&self, pos: usize, words: &'w mut [usize]) -> &'w mut [usize] {
        let range = self.blocks(pos, words.len());
        &mut words[range]
    }
    /// Frame `pos`'s part of `set`, as a set of its nodes.
    fn frame_set(&self, pos: usize, set: &FixedBitSet) -> FixedBitSet {
        FixedBitSet::with_capacity_and_blocks(self.nodes[pos], self.words(pos, set.as_slice()).iter().copied())
    }
}

/// A node of [`GroupGraph`]: its number in the [`Layout`], its frame's position in the group
/// and its location.
#[derive(Clone, Copy)]
struct GroupNode {
    g: u32,
    pos: u32,
    m: NodeId,
}

/// The dependency graph of a group's frames for the shared kernels: a node's predecessors are
/// the frame's `a` predecessors and the calls that return to it through an exit their callee's
/// entry reaches ([`for_each_dependent`]), and for an entry, the callers' call nodes.
struct GroupGraph<'g, 's> {
    s: &'g Summary<'s>,
    new: &'g [FrameId],
    group: &'g Group,
    layout: &'g Layout,
    /// For [`Preds::add_preds`]: per frame (from `call_offset[pos]`, one bit per position in
    /// `Component::calls`), calls known to be in the set, so that the returning calls already
    /// in are skipped 64 at a time. Only ever a subset of the set's calls.
    calls_in: Vec<Cell<u64>>,
    call_offset: Vec<usize>,
    /// Per frame (from `call_offset[pos]`): the calls that return through some exit their
    /// callee's entry reaches. Once `calls_in` holds them all, a node's returning calls are
    /// not visited (on the grid's `EU` rounds the base is most of the component, so this
    /// happens early).
    returning: Vec<u64>,
}

impl<'g, 's> GroupGraph<'g, 's> {
    fn new(s: &'g Summary<'s>, new: &'g [FrameId], group: &'g Group, layout: &'g Layout) -> Self {
        let mut call_offset = Vec::with_capacity(new.len());
        let mut returning = Vec::new();
        for &id in new {
            call_offset.push(returning.len());
            returning.extend(returning_calls(&s.frames[id]));
        }
        GroupGraph { s, new, group, layout, calls_in: vec![Cell::new(0); returning.len()], call_offset, returning }
    }
}

impl Preds for GroupGraph<'_, '_> {
    type Node = GroupNode;
    #[inline]
    fn number(n: GroupNode) -> usize {
        n.g as usize
    }
    #[inline]
    fn for_each_pred(&self, n: GroupNode, mut f: impl FnMut(GroupNode)) {
        let s = self.s;
        let fr = &s.frames[self.new[n.pos as usize]];
        let comp = s.comp(fr.comp);
        let at = self.layout.offset[n.pos as usize];
        for_each_dependent(s.ix, fr, comp, &s.vecs[fr.a as usize], n.m, |p| f(GroupNode { g: (at + p.index()) as u32, pos: n.pos, m: p }));
        self.for_each_caller(n, f);
    }

    /// In a dense component (predecessor rows), the `a` predecessors outside `set` a word at a
    /// time ([`add_common`]); the returning calls not known to be in 64 at a time (`calls_in`);
    /// the callers one by one.
    #[inline]
    fn add_preds<S: NodeSet>(&self, n: GroupNode, set: &mut S, mut admit: impl FnMut(GroupNode) -> bool, mut added: impl FnMut(GroupNode)) {
        let s = self.s;
        let fr = &s.frames[self.new[n.pos as usize]];
        let comp = s.comp(fr.comp);
        let at = self.layout.offset[n.pos as usize];
        let node = |p: NodeId| GroupNode { g: (at + p.index()) as u32, pos: n.pos, m: p };
        let va = &s.vecs[fr.a as usize];
        match (s.ix.pred_rows(fr.comp), set.blocks_mut()) {
            (Some(rows), Some(blocks)) => {
                let frame = self.layout.words_mut(n.pos as usize, blocks);
                add_common(frame, rows.row(n.m), va.as_slice(), |p| admit(node(p)), |p| added(node(p)));
            }
            _ => {
                for &p in comp.pred.neighbours(n.m) {
                    if va.contains(p.index()) {
                        add_one(set, node(p), &mut admit, &mut added);
                    }
                }
            }
        }
        let (at, cw) = (self.call_offset[n.pos as usize], fr.call_words);
        let calls_in = &self.calls_in[at..at + cw];
        let returning = &self.returning[at..at + cw];
        let all_in = calls_in.iter().zip(returning).all(|(i, &r)| i.get() & r == r);
        for &(k, w, bits) in if all_in { &[][..] } else { s.ix.ret_words(fr.comp, n.m) } {
            let known = &calls_in[w as usize];
            let fresh = bits & !known.get() & fr.live[k as usize * fr.call_words + w as usize];
            let mut now_in = 0;
            for_each_call_position(w, fresh, |i| {
                let u = node(comp.calls[i]);
                if set.contains(u.g as usize) {
                    now_in |= 1 << (i % 64);
                } else if admit(u) {
                    set.insert(u.g as usize);
                    now_in |= 1 << (i % 64);
                    added(u);
                }
            });
            known.set(known.get() | now_in);
        }
        self.for_each_caller(n, |u| add_one(set, u, &mut admit, &mut added));
    }
}

/// [`Preds::add_preds`] for one predecessor `u`.
#[inline]
fn add_one<S: NodeSet>(set: &mut S, u: GroupNode, admit: &mut impl FnMut(GroupNode) -> bool, added: &mut impl FnMut(GroupNode)) {
    if !set.contains(u.g as usize) && admit(u) {
        set.insert(u.g as usize);
        added(u);
    }
}

impl GroupGraph<'_, '_> {
    /// For an entry, the callers' call nodes (all in the group).
    #[inline]
    fn for_each_caller(&self, n: GroupNode, mut f: impl FnMut(GroupNode)) {
        if n.m == NodeId::ENTRY {
            let s = self.s;
            for &(g, i) in &s.frames[self.new[n.pos as usize]].callers {
                let gp = self.group.pos(g);
                let c = s.comp(s.frames[g].comp).calls[i as usize];
                f(GroupNode { g: (self.layout.offset[gp] + c.index()) as u32, pos: gp as u32, m: c });
            }
        }
    }
}

/// The positions of the set bits of the blocks `b` of a [`FixedBitSet`].
fn block_ones(b: &[usize]) -> impl Iterator<Item = usize> + '_ {
    positions(b.iter().map(|&w| w as u64), usize::BITS as usize)
}

/// Bit `i` of the blocks `b` of a [`FixedBitSet`].
fn block_bit(b: &[usize], i: usize) -> bool {
    const W: usize = usize::BITS as usize;
    b[i / W] >> (i % W) & 1 != 0
}

/// The positions of the set bits of `b`.
fn ones(b: &[u64]) -> impl Iterator<Item = usize> + '_ {
    positions(b.iter().copied(), 64)
}

/// The positions of the set bits of `words`, `width` bits per word.
fn positions(words: impl Iterator<Item = u64>, width: usize) -> impl Iterator<Item = usize> {
    words.enumerate().flat_map(move |(i, mut w)| {
        std::iter::from_fn(move || {
            (w != 0).then(|| {
                let t = w.trailing_zeros() as usize;
                w &= w - 1;
                i * width + t
            })
        })
    })
}

/// The worklist of [`Summary::solve_masks`]: one first-in-first-out queue per frame, and a
/// (frame, location) already waiting is not queued again, so the exits reaching a location in
/// the same wave are propagated from it once (a stack re-propagated every location once per
/// exit). A frame's queue is emptied before another frame's is taken (the waiting frame of the
/// lowest component number first), so the locations popped in a row share their frame's mask,
/// vectors and rows, and consecutive frames often their component's rows: on the grid's cell
/// 50/43 this took a tenth of the check's CPU time off the single queue of (frame, location).
struct MaskQueue {
    /// Per frame of the group (by id minus `lo`; `u32::MAX` for other frames): its position.
    position: Vec<u32>,
    lo: usize,
    /// Per position: the frame's id and its offset in `queued`.
    frames: Vec<(FrameId, u32)>,
    /// Per position: the frame's waiting locations.
    local: Vec<std::collections::VecDeque<NodeId>>,
    /// The positions with waiting locations, except `current`'s; `ready_bit` marks them.
    ready: std::collections::BinaryHeap<std::cmp::Reverse<(u32, u32)>>,
    ready_bit: FixedBitSet,
    /// Per position: the frame's component (frames of one component are taken together).
    comp_of: Vec<u32>,
    current: Option<u32>,
    queued: FixedBitSet,
}

impl MaskQueue {
    fn new(frames: &[FrameId], nodes: impl Fn(FrameId) -> usize, comp: impl Fn(FrameId) -> u32) -> MaskQueue {
        let lo = frames.iter().map(|id| id.index()).min().unwrap_or(0);
        let hi = frames.iter().map(|id| id.index() + 1).max().unwrap_or(0);
        let mut position = vec![u32::MAX; hi - lo];
        let mut total = 0usize;
        let mut entries = Vec::with_capacity(frames.len());
        for (pos, &id) in frames.iter().enumerate() {
            position[id.index() - lo] = pos as u32;
            entries.push((id, total as u32));
            total += nodes(id);
        }
        MaskQueue {
            position,
            lo,
            local: (0..frames.len()).map(|_| Default::default()).collect(),
            ready: Default::default(),
            comp_of: frames.iter().map(|&id| comp(id)).collect(),
            ready_bit: FixedBitSet::with_capacity(frames.len()),
            current: None,
            frames: entries,
            queued: FixedBitSet::with_capacity(total),
        }
    }
    /// The position of frame `id` (a frame of the group) in the slice the queue was made from.
    fn position(&self, id: FrameId) -> usize {
        self.position[id.index() - self.lo] as usize
    }
    /// [`MaskQueue::position`], `None` for a frame outside the group (a caller whose mask is a
    /// solved shared one).
    fn position_of(&self, id: FrameId) -> Option<usize> {
        let p = *self.position.get(id.index().checked_sub(self.lo)?)?;
        (p != u32::MAX).then_some(p as usize)
    }
    fn push(&mut self, id: FrameId, m: NodeId) {
        let pos = self.position[id.index() - self.lo];
        debug_assert!(pos != u32::MAX, "only the group's own masks change");
        if self.queued.put(self.frames[pos as usize].1 as usize + m.index()) {
            return;
        }
        self.local[pos as usize].push_back(m);
        if self.current != Some(pos) && !self.ready_bit.put(pos as usize) {
            self.ready.push(std::cmp::Reverse((self.comp_of[pos as usize], pos)));
        }
    }
    fn pop(&mut self) -> Option<(FrameId, NodeId)> {
        loop {
            if let Some(pos) = self.current
                && let Some(m) = self.local[pos as usize].pop_front()
            {
                let (id, offset) = self.frames[pos as usize];
                self.queued.set(offset as usize + m.index(), false);
                return Some((id, m));
            }
            let std::cmp::Reverse((_, pos)) = self.ready.pop()?;
            self.ready_bit.set(pos as usize, false);
            self.current = Some(pos);
        }
    }
}

/// The calls of frame `fr` (while its group is solved) that return through some exit their
/// callee's entry reaches, `call_words` words of call positions: the union of its `live` rows.
pub(super) fn returning_calls(fr: &Frame) -> impl Iterator<Item = u64> + '_ {
    (0..fr.call_words).map(|w| fr.live.iter().skip(w).step_by(fr.call_words.max(1)).fold(0, |acc, &x| acc | x))
}
