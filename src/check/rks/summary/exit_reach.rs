//! The exits reachable from each location of each component on any path (calls that return
//! included): the exit mask of every fixpoint frame whose `a` is `true` (`EF`, `AG`, `E[⊤ U χ]`),
//! whatever the spec, the node and the context. Computed once per model, the first time a
//! frame needs it, and shared by every batch and thread (the per-batch masks recomputed it for
//! every batch of specs).
//!
//! Least fixpoint by one worklist of (component, location) over the whole model, first in,
//! first out, a location already waiting not queued again (so the exits reaching it in one wave
//! are propagated from it once, as in `summary::solve::MaskQueue`); a row grows at most once per
//! exit. No allocation per step.

use super::{for_each_call_position, merge_row};
use crate::explicit::rks::{Component, ComponentId, NodeId, RecursiveKripkeStructure};
use fixedbitset::FixedBitSet;
use std::collections::VecDeque;

/// Per component, `words` words per location: bit `k` = exit `k` is reachable.
pub(crate) struct ExitReach {
    rows: Vec<Vec<u64>>,
}

/// The worklist of [`ExitReach::new`]: (component, location) pairs, each queued at most once
/// at a time.
struct Queue {
    queue: VecDeque<(ComponentId, NodeId)>,
    /// Per component: its offset in `queued`.
    offset: Vec<usize>,
    queued: FixedBitSet,
}

impl Queue {
    fn push(&mut self, s: ComponentId, m: NodeId) {
        if !self.queued.put(self.offset[s.index()] + m.index()) {
            self.queue.push_back((s, m));
        }
    }
    fn pop(&mut self) -> Option<(ComponentId, NodeId)> {
        let (s, m) = self.queue.pop_front()?;
        self.queued.set(self.offset[s.index()] + m.index(), false);
        Some((s, m))
    }
}

impl ExitReach {
    /// `ret_words(s, r)`: the (call, callee exit) pairs of component `s` whose continuations
    /// include `r`, as (exit, word of call positions, calls) (`ModelIndex::ret_words`).
    pub(crate) fn new<'i>(rks: &RecursiveKripkeStructure, ret_words: impl Fn(ComponentId, NodeId) -> &'i [(u32, u32, u64)]) -> ExitReach {
        let comps = &rks.components;
        let words: Vec<usize> = comps.iter().map(|c| c.exits.len().div_ceil(64)).collect();
        let mut rows: Vec<Vec<u64>> = comps.iter().zip(&words).map(|(c, w)| vec![0; c.num_nodes as usize * w]).collect();
        // The engines explore a call only if a location (`a`, here any) leads to it.
        let explored = |c: &Component, call: NodeId| !c.pred.neighbours(call).is_empty();
        // Callers of each component: (caller, call node).
        let mut callers: Vec<Vec<(ComponentId, NodeId)>> = vec![Vec::new(); comps.len()];
        for (s, c) in comps.iter().enumerate() {
            for &call in c.calls.iter().filter(|&&call| explored(c, call)) {
                callers[c.call_target[call.index()].index()].push((ComponentId::new(s), call));
            }
        }
        let mut offset = Vec::with_capacity(comps.len());
        let mut total = 0usize;
        for c in comps {
            offset.push(total);
            total += c.num_nodes as usize;
        }
        let mut work = Queue { queue: VecDeque::new(), offset, queued: FixedBitSet::with_capacity(total) };
        for (s, c) in comps.iter().enumerate() {
            for (k, &x) in c.exits.iter().enumerate() {
                rows[s][x.index() * words[s] + k / 64] |= 1 << (k % 64);
                work.push(ComponentId::new(s), x);
            }
        }
        let (mut row, mut acc): (Vec<u64>, Vec<u64>) = (Vec::new(), Vec::new());
        while let Some((s, m)) = work.pop() {
            let (c, w) = (&comps[s.index()], words[s.index()]);
            row.clear();
            row.extend_from_slice(&rows[s.index()][m.index() * w..(m.index() + 1) * w]);
            for &p in c.pred.neighbours(m) {
                if merge_row(&mut rows[s.index()][p.index() * w..(p.index() + 1) * w], &row) {
                    work.push(s, p);
                }
            }
            for &(k, word, bits) in ret_words(s, m) {
                for_each_call_position(word, bits, |i| {
                    let call = c.calls[i];
                    let t = c.call_target[call.index()].index();
                    // The callee's entry (row 0) reaches exit `k`.
                    if explored(c, call)
                        && rows[t][k as usize / 64] >> (k % 64) & 1 == 1
                        && merge_row(&mut rows[s.index()][call.index() * w..(call.index() + 1) * w], &row)
                    {
                        work.push(s, call);
                    }
                });
            }
            if m == NodeId::ENTRY {
                // The entry reaches more exits: each call of `s` continues at more returns.
                for &(g, call) in &callers[s.index()] {
                    let (gc, gw) = (&comps[g.index()], words[g.index()]);
                    acc.clear();
                    acc.resize(gw, 0);
                    for k in 0..c.exits.len() {
                        if row[k / 64] >> (k % 64) & 1 == 1 {
                            for &r in gc.returns(call, k) {
                                merge_row(&mut acc, &rows[g.index()][r.index() * gw..(r.index() + 1) * gw]);
                            }
                        }
                    }
                    if merge_row(&mut rows[g.index()][call.index() * gw..(call.index() + 1) * gw], &acc) {
                        work.push(g, call);
                    }
                }
            }
        }
        ExitReach { rows }
    }

    /// The rows of component `s`, one word per 64 exits per location.
    pub(crate) fn rows(&self, s: ComponentId) -> &[u64] {
        &self.rows[s.index()]
    }
}
