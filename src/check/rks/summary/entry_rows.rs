//! Frames without mask rows: the entry row by a forward search, a location's mask only when a
//! vector asks for it.
//!
//! Of a frame's exit masks, the engine reads two things: the entry's row (its callers' calls
//! return through those exits: `Frame::live`) and, when a vector of the fixpoint node is asked
//! for under a top vector `t`, which locations reach an exit of `t` (`mask(n) ∩ t ≠ ∅`). Solving
//! every location's row ([`Summary::solve_masks`]) pays for all exits at every location; on the
//! grid's dense components a row grows about once per exit and each growth visits the
//! predecessors and returning calls (cell 50/46: 5.5 M growths for 21 K frames). Here a group of
//! frames is solved for its entry rows only, by one forward search per frame from the entry
//! over the nodes an `a`-path can use (`a` locations, calls with a callee frame), a call
//! continuing at the returns of the exits its callee's entry reaches so far; an entry that
//! reaches a new exit resumes its callers' searches at the calls into it. Every node is reached
//! once per frame, so the search is linear in the frame's edges. A vector under a top `t` is
//! then the frame's `base` and the backward closure of the `a` exits in `t`
//! ([`Summary::vector_under_top`]), which is exactly `{n : mask(n) ∩ t ≠ ∅}`: the same graph as the
//! masks' worklist (the `a` predecessors and the returning calls through live exits), read
//! backwards from those exits.
//!
//! Used for groups whose frames and their callees all have at most 64 exits in components with
//! predecessor and successor rows (the dense components), where the rows make each step a few word
//! operations; other groups keep their mask rows. `tests` compares both on random dense
//! recursive structures.

use super::solve::Group;
use super::{FrameId, NO_FRAME, NO_MASK, Summary, for_each_call_position};
use crate::explicit::rks::{NO_CALL, NodeId};
use fixedbitset::FixedBitSet;

#[cfg(test)]
thread_local! {
    /// Tests: solve every group with mask rows, to compare.
    pub(super) static MASK_ROWS_ONLY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether every group is solved with mask rows (a test's reference run).
fn mask_rows_only() -> bool {
    #[cfg(test)]
    return MASK_ROWS_ONLY.with(|c| c.get());
    #[cfg(not(test))]
    false
}

const BITS: usize = usize::BITS as usize;

impl Summary<'_> {
    /// True if the new frames `new` are solved without mask rows (see the module documentation):
    /// their exits and their callees' exits (the search keeps a call's live exits in one word)
    /// at most 64.
    pub(super) fn lazy_group(&self, new: &[FrameId]) -> bool {
        !mask_rows_only()
            && new.iter().all(|&id| {
                let fr = &self.frames[id];
                fr.words <= 1 && self.ix.max_callee_exits(fr.comp) <= 64 && self.ix.pred_rows(fr.comp).is_some() && self.ix.succ_rows(fr.comp).is_some()
            })
    }

    /// Gives the frames of `new` that have none their (zero) mask rows.
    pub(super) fn allocate_masks(&mut self, new: &[FrameId]) {
        for &id in new {
            let fr = &mut self.frames[id];
            if fr.mask == NO_MASK {
                let n = self.rks.components[fr.comp.index()].num_nodes as usize;
                self.masks.push(vec![0; n * fr.words]);
                fr.mask = self.masks.len() as u32 - 1;
            }
        }
    }

    /// The exits reachable from frame `id`'s entry so far, one word per 64 exits (a frame of
    /// a lazy group being solved: `entry`, from zero).
    pub(super) fn entry_row(&self, id: FrameId) -> &[u64] {
        let fr = &self.frames[id];
        if fr.lazy || fr.mask == NO_MASK { &std::slice::from_ref(&fr.entry)[..fr.words] } else { &self.masks[fr.mask as usize][..fr.words] }
    }

    /// The entry rows of the frames `reps` of a lazy group (their `live` filled from their
    /// callees' entry rows): one forward search per frame, resumed at a call when its callee's
    /// entry reaches a new exit. Frames with a shared mask are solved already.
    ///
    /// A reached call whose callee is searched too reads the callee's entry as it is and waits
    /// for it to grow (`Search::waiting`); the callers' `live` words get the searched callees'
    /// entry rows once, at the end. (Pushing every growth to every caller instead visited each
    /// caller once per exit, most of them before they reached the call: on grid cell 50/46,
    /// 14.2 M caller visits for 2.9 M resumed calls.)
    pub(super) fn solve_entry_rows(&mut self, reps: &[FrameId]) {
        let own: Vec<FrameId> = reps.iter().copied().filter(|&id| !self.frames[id].mask_shared).collect();
        let mut search = Search {
            pos: Group::new(&own),
            allowed: Vec::new(),
            seen: Vec::new(),
            expanded: Vec::new(),
            waiting: vec![Vec::new(); own.len()],
            work: Vec::new(),
        };
        for (pos, &id) in own.iter().enumerate() {
            let fr = &self.frames[id];
            let comp = self.comp(fr.comp);
            // The nodes an `a`-path can use: `a` locations and calls with a callee frame (the
            // vector's value at a call is unspecified).
            let mut allowed = self.vecs[fr.a as usize].as_slice().to_vec();
            for (i, &c) in comp.calls.iter().enumerate() {
                let (w, b) = (c.index() / BITS, 1usize << (c.index() % BITS));
                if fr.callees[i] == NO_FRAME { allowed[w] &= !b } else { allowed[w] |= b }
            }
            search.allowed.push(allowed);
            search.seen.push(vec![0; comp.num_nodes.div_ceil(BITS as u32) as usize]);
            search.expanded.push(vec![0; comp.calls.len()]);
            search.reach(pos, NodeId::ENTRY);
        }
        let (ix, rks) = (self.ix, self.rks);
        while let Some((pos, m)) = search.work.pop() {
            crate::deadline::tick(self.stats.local_checks as usize);
            self.stats.local_checks += 1;
            let id = own[pos as usize];
            let fr = &self.frames[id];
            let comp = self.comp(fr.comp);
            if comp.call_target[m.index()] != NO_CALL {
                // A call continues at the returns of the exits its callee's entry reaches.
                let i = comp.call_index[m.index()] as usize;
                let q = fr.callees[i];
                let live = match search.pos.get(q) {
                    Some(qp) => {
                        search.waiting[qp].push((pos, i as u32));
                        self.frames[q].entry
                    }
                    None => (0..self.exits(comp.call_target[m.index()])).fold(0, |live, k| live | u64::from(Self::entry_exit(fr, i, k as u32)) << k),
                };
                search.continue_through(pos as usize, comp, ix.return_rows(fr.comp), i, live);
                continue;
            }
            let succ = ix.succ_rows(fr.comp).expect("lazy groups have successor rows").row(m);
            search.reach_row(pos as usize, succ);
            let Some(k) = (comp.succ.neighbours(m).is_empty()).then(|| comp.exits.iter().position(|&x| x == m)).flatten() else { continue };
            // The entry reaches exit `k`: its callers' calls continue at the returns of `k`.
            let fr = &mut self.frames[id];
            if fr.entry >> k & 1 == 1 {
                continue;
            }
            fr.entry |= 1 << k;
            for wi in 0..search.waiting[pos as usize].len() {
                let (gp, i) = search.waiting[pos as usize][wi];
                let caller = own[gp as usize];
                let gcomp = &rks.components[self.frames[caller].comp.index()];
                search.continue_through(gp as usize, gcomp, ix.return_rows(self.frames[caller].comp), i as usize, 1 << k);
            }
        }
        // The callers' `live` words: the searched callees' entry rows.
        for &id in reps {
            for i in 0..self.frames[id].callees.len() {
                let q = self.frames[id].callees[i];
                if search.pos.get(q).is_some() {
                    let mut exits = self.frames[q].entry;
                    let fr = &mut self.frames[id];
                    while exits != 0 {
                        let k = exits.trailing_zeros() as usize;
                        exits &= exits - 1;
                        fr.live[k * fr.call_words + i / 64] |= 1 << (i % 64);
                    }
                }
            }
        }
        for &id in &own {
            self.frames[id].lazy = true;
        }
    }

    /// The vector of lazy frame `id` under the top vector `top` (exits, one word): its `base`
    /// and the locations whose mask meets `top`, the backward closure of the `a` exits in `top`
    /// through the `a` predecessors and the calls returning through an exit their callee's
    /// entry reaches. The closure starts from `base`: a node that reaches `base` on an
    /// `a`-path is in it (both fixpoints' bases are closed backwards), so it is not walked again.
    pub(super) fn vector_under_top(&self, id: FrameId, top: u64) -> FixedBitSet {
        let fr = &self.frames[id];
        let comp = self.comp(fr.comp);
        let va = &self.vecs[fr.a as usize];
        let mut set = fr.base.clone();
        let mut stack: Vec<NodeId> = Vec::new();
        for k in (0..comp.exits.len()).filter(|&k| top >> k & 1 == 1) {
            let x = comp.exits[k];
            if va.contains(x.index()) && !set.put(x.index()) {
                stack.push(x);
            }
        }
        let rows = self.ix.pred_rows(fr.comp).expect("lazy frames have predecessor rows");
        // The calls in the set, by position in `comp.calls`: a location's returning calls
        // already in are skipped 64 at a time.
        let mut calls_in = vec![0u64; fr.call_words];
        for (i, &c) in comp.calls.iter().enumerate() {
            if set.contains(c.index()) {
                calls_in[i / 64] |= 1 << (i % 64);
            }
        }
        // Once every call that can return is in, a node's returning calls are not visited.
        let returning: Vec<u64> = super::solve::returning_calls(fr).collect();
        let mut all_in = calls_in.iter().zip(&returning).all(|(&i, &r)| i & r == r);
        while let Some(m) = stack.pop() {
            super::pred_rows::add_common(set.as_mut_slice(), rows.row(m), va.as_slice(), |_| true, |p| stack.push(p));
            all_in = all_in || calls_in.iter().zip(&returning).all(|(&i, &r)| i & r == r);
            if all_in {
                continue;
            }
            for &(k, w, bits) in self.ix.ret_words(fr.comp, m) {
                let w = w as usize;
                let fresh = bits & fr.live[k as usize * fr.call_words + w] & !calls_in[w];
                calls_in[w] |= fresh;
                for_each_call_position(w as u32, fresh, |i| {
                    set.insert(comp.calls[i].index());
                    stack.push(comp.calls[i]);
                });
            }
        }
        set
    }
}

/// The forward searches of a lazy group: per frame (by position), the nodes a path may use and
/// those reached; one stack of reached nodes not yet expanded.
struct Search {
    pos: Group,
    allowed: Vec<Vec<usize>>,
    seen: Vec<Vec<usize>>,
    /// Per frame and class of calls with the same continuations (indexed by the class's first
    /// call, see `ReturnRows::class`): the callee exits whose returns have been reached. A
    /// call of the class reached later continues only through the others.
    expanded: Vec<Vec<u64>>,
    /// Per frame, the reached calls (frame position, call position) whose callee it is: they
    /// continue through each exit its entry reaches from now on.
    waiting: Vec<Vec<(u32, u32)>>,
    work: Vec<(u32, NodeId)>,
}

impl Search {
    /// Reaches node `m` of frame `pos` if a path may use it.
    fn reach(&mut self, pos: usize, m: NodeId) {
        let (w, b) = (m.index() / BITS, 1usize << (m.index() % BITS));
        if self.allowed[pos][w] & b != 0 && self.seen[pos][w] & b == 0 {
            self.seen[pos][w] |= b;
            self.work.push((pos as u32, m));
        }
    }

    /// Reaches the nodes of `row` (blocks over the frame's nodes) a path may use.
    fn reach_row(&mut self, pos: usize, row: &[usize]) {
        let (allowed, seen) = (&self.allowed[pos], &mut self.seen[pos]);
        for (i, ((s, &r), &a)) in seen.iter_mut().zip(row).zip(allowed).enumerate() {
            let mut new = r & a & !*s;
            *s |= new;
            while new != 0 {
                self.work.push((pos as u32, NodeId::new(i * BITS + new.trailing_zeros() as usize)));
                new &= new - 1;
            }
        }
    }

    /// Reaches the returns of call position `i` (a reached call) of frame `pos` through the
    /// callee exits `exits` (bits), those its class has not reached yet.
    fn continue_through(&mut self, pos: usize, comp: &crate::explicit::rks::Component, rows: Option<&super::pred_rows::ReturnRows>, i: usize, exits: u64) {
        let class = rows.map_or(i, |r| r.class(i));
        let mut new = exits & !self.expanded[pos][class];
        self.expanded[pos][class] |= new;
        while new != 0 {
            let k = new.trailing_zeros() as usize;
            new &= new - 1;
            match rows {
                Some(rows) => self.reach_row(pos, rows.row(comp.return_offsets[i] as usize + k)),
                None => {
                    for &r in comp.returns(comp.calls[i], k) {
                        self.reach(pos, r);
                    }
                }
            }
        }
    }
}
