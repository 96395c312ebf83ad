//! Solving the new frames of one fixpoint node, each phase by one worklist of (frame, node)
//! across all of them: exit masks (least fixpoint), then `base` (`EU`: least fixpoint by
//! backward reachability; `EG`: greatest fixpoint by dead-end removal with successor counters).
//! Solved frames (of earlier groups) are constants here. In dense components (predecessor
//! rows) the masks are also kept transposed, per exit ([`Held`]), so that a step visits only the
//! locations it changes; the `EU` bases skip the calls already in by words.

use super::pred_rows::{add_common, for_each_common};
use super::{Frame, FrameId, ModelIndex, NO_FRAME, Summary, bit, for_each_call_position, merge_row, operands, set_bit};
use crate::check::rks::formula::Op;
use crate::explicit::rks::{Component, NO_CALL, NodeId};
use fixedbitset::FixedBitSet;
use smallvec::SmallVec;

#[cfg(test)]
mod masks_tests;

#[cfg(test)]
thread_local! {
    /// Tests: solve every mask by whole exit words per location (no [`Held`] rows), to compare.
    static BY_LOCATION_ONLY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
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
    /// locations and returning calls; an entry that gets in puts its callers' calls in.
    fn solve_bases_eu(&mut self, new: &[FrameId]) {
        let group = Group::new(new);
        let mut bases: Vec<FixedBitSet> = Vec::with_capacity(new.len());
        // Per frame: the calls in `base`, by position in `Component::calls` (see `add_new_calls`).
        let mut in_calls: Vec<Vec<u64>> = Vec::with_capacity(new.len());
        let mut work: Vec<(FrameId, NodeId)> = Vec::new();
        for &id in new {
            let fr = &self.frames[id];
            let comp = self.comp(fr.comp);
            let mut base = FixedBitSet::with_capacity(comp.num_nodes as usize);
            let mut calls = vec![0u64; comp.calls.len().div_ceil(64)];
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
                    set_bit(&mut calls, i);
                    work.push((id, c));
                }
            }
            bases.push(base);
            in_calls.push(calls);
        }
        let ix = self.ix;
        while let Some((id, m)) = work.pop() {
            crate::deadline::tick(self.stats.local_checks as usize);
            self.stats.local_checks += 1;
            let fr = &self.frames[id];
            let comp = self.comp(fr.comp);
            let pos = group.pos(id);
            let (base, calls) = (&mut bases[pos], &mut in_calls[pos]);
            let va = &self.vecs[fr.a as usize];
            // A call that gets in as an `a` predecessor is marked in `calls` too.
            let mut reached = |p: NodeId, work: &mut Vec<(FrameId, NodeId)>| {
                if let Some(&i) = comp.call_index.get(p.index()).filter(|&&i| i != u32::MAX) {
                    set_bit(calls, i as usize);
                }
                work.push((id, p));
            };
            match ix.pred_rows(fr.comp) {
                // Backward reachability a word at a time: the `a` predecessors not in yet.
                Some(rows) => add_common(base.as_mut_slice(), rows.row(m), va.as_slice(), |p| reached(p, &mut work)),
                None => {
                    for &p in comp.pred.neighbours(m) {
                        if va.contains(p.index()) && !base.put(p.index()) {
                            reached(p, &mut work);
                        }
                    }
                }
            }
            add_new_calls(ix, fr, comp, m, calls, |p| {
                base.insert(p.index());
                work.push((id, p));
            });
            if m == NodeId::ENTRY {
                for &(g, i) in &fr.callers {
                    let c = self.comp(self.frames[g].comp).calls[i as usize];
                    let gp = group.pos(g);
                    if !bases[gp].put(c.index()) {
                        set_bit(&mut in_calls[gp], i as usize);
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

/// Calls `f` on each call of frame `fr` that returns to its node `m` through an exit its
/// callee's entry reaches (as [`for_each_returning_call`]) and is not in `calls` (bits by
/// position in `comp.calls`), and adds it there: the calls already reached are skipped 64 at a
/// time instead of one by one.
#[inline]
fn add_new_calls(ix: &ModelIndex, fr: &Frame, comp: &Component, m: NodeId, calls: &mut [u64], mut f: impl FnMut(NodeId)) {
    for &(k, w, bits) in ix.ret_words(fr.comp, m) {
        let word = &mut calls[w as usize];
        let fresh = bits & !*word;
        if fresh == 0 {
            continue;
        }
        let fresh = fresh & fr.live[k as usize * fr.call_words + w as usize];
        *word |= fresh;
        for_each_call_position(w, fresh, |i| f(comp.calls[i]));
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
