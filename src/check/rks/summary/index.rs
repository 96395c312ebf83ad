//! The reverse index of a component's return edges (which calls continue at a location, and
//! through which callee exit), built the first time the summary engine solves a frame of that
//! component and shared by every spec and thread of a check.

use super::exit_reach::ExitReach;
use super::pred_rows::{PredRows, ReturnRows};
use crate::explicit::rks::{ComponentId, NodeId, RecursiveKripkeStructure};
use std::sync::OnceLock;

/// What the engine needs to know about the model beyond [`Component`](crate::explicit::rks::Component): per component, built
/// the first time a frame of that component is solved (components no spec reaches cost
/// nothing), shared by every spec and thread.
pub(crate) struct ModelIndex<'a> {
    rks: &'a RecursiveKripkeStructure,
    comps: Vec<OnceLock<CompIndex>>,
    exit_reach: OnceLock<ExitReach>,
}

struct CompIndex {
    /// For each location `r`: the (call, callee exit) pairs whose continuations include `r`,
    /// rows `ret_pred_offs[r]..ret_pred_offs[r + 1]` of `ret_preds` (a counting sort of the
    /// component's return edges).
    ret_pred_offs: Vec<u32>,
    ret_preds: Vec<(NodeId, u32)>,
    /// `ret_preds` grouped for the summary worklists: per location `r`, rows
    /// `ret_word_offs[r]..ret_word_offs[r + 1]` of `ret_words`, each `(k, w, bits)` = the calls at
    /// positions `64 w + b` in `Component::calls` (`b` a set bit of `bits`) that continue at `r`
    /// when their callee returns through its exit `k`. A frame keeps, per exit `k` and word `w`,
    /// the calls whose callee's entry reaches `k` (`Frame::live`), so one AND filters 64 calls.
    ret_word_offs: Vec<u32>,
    ret_words: Vec<(u32, u32, u64)>,
    /// Per location, its position in a post-order of a depth-first walk from the entry (then
    /// from the locations it misses, in order) over the successor and return edges: along an
    /// edge that closes no loop, the target comes first. Lane worklists pop by it
    /// (`check::rks::lanes`), so a value flowing backwards is mostly complete when it is read.
    /// Built on first use (only the lane engine reads it).
    rank: OnceLock<Vec<u32>>,
    /// The predecessors as bit rows if the component is dense enough (see [`PredRows`]).
    pred_rows: Option<PredRows>,
    /// The continuations of each (call, exit) pair as bit rows if dense enough (see [`ReturnRows`]).
    return_rows: Option<ReturnRows>,
}

impl<'a> ModelIndex<'a> {
    pub(crate) fn new(rks: &'a RecursiveKripkeStructure) -> ModelIndex<'a> {
        ModelIndex { rks, comps: (0..rks.components.len()).map(|_| OnceLock::new()).collect(), exit_reach: OnceLock::new() }
    }

    /// The exit mask of `true` in every component, computed the first time it is asked for.
    pub(crate) fn exit_reach(&self) -> &ExitReach {
        self.exit_reach.get_or_init(|| ExitReach::new(self.rks, |s, r| self.ret_preds(s, r)))
    }

    fn comp(&self, s: ComponentId) -> &CompIndex {
        self.comps[s.index()].get_or_init(|| {
            let c = &self.rks.components[s.index()];
            let exits_of = |call: NodeId| self.rks.components[c.call_target[call.index()].index()].exits.len();
            let mut offs = vec![0u32; c.num_nodes as usize + 1];
            for &call in &c.calls {
                for k in 0..exits_of(call) {
                    for &r in c.returns(call, k) {
                        offs[r.index() + 1] += 1;
                    }
                }
            }
            for i in 0..c.num_nodes as usize {
                offs[i + 1] += offs[i];
            }
            let mut next = offs.clone();
            let mut ret_preds = vec![(NodeId::ENTRY, 0); offs[c.num_nodes as usize] as usize];
            for &call in &c.calls {
                for k in 0..exits_of(call) {
                    for &r in c.returns(call, k) {
                        ret_preds[next[r.index()] as usize] = (call, k as u32);
                        next[r.index()] += 1;
                    }
                }
            }
            // `ret_words`: the same edges visited exit by exit, calls in order, so that each
            // location's row arrives sorted by (exit, word) and a word is merged into the row's
            // last entry (no per-location sort); rows are written in place, then compacted.
            let max_exits = c.calls.iter().map(|&call| exits_of(call)).max().unwrap_or(0);
            let mut raw: Vec<(u32, u32, u64)> = vec![(0, 0, 0); offs[c.num_nodes as usize] as usize];
            let mut end: Vec<u32> = offs[..c.num_nodes as usize].to_vec();
            for k in 0..max_exits {
                for (i, &call) in c.calls.iter().enumerate() {
                    if k >= exits_of(call) {
                        continue;
                    }
                    let (w, b) = ((i / 64) as u32, 1u64 << (i % 64));
                    for &r in c.returns(call, k) {
                        let (start, e) = (offs[r.index()] as usize, end[r.index()] as usize);
                        match raw[start..e].last_mut() {
                            Some(last) if (last.0, last.1) == (k as u32, w) => last.2 |= b,
                            _ => {
                                raw[e] = (k as u32, w, b);
                                end[r.index()] += 1;
                            }
                        }
                    }
                }
            }
            let mut ret_word_offs = Vec::with_capacity(c.num_nodes as usize + 1);
            let mut ret_words: Vec<(u32, u32, u64)> = Vec::with_capacity(raw.len());
            ret_word_offs.push(0);
            for r in 0..c.num_nodes as usize {
                ret_words.extend_from_slice(&raw[offs[r] as usize..end[r] as usize]);
                ret_word_offs.push(ret_words.len() as u32);
            }
            CompIndex {
                ret_pred_offs: offs,
                ret_preds,
                ret_word_offs,
                ret_words,
                rank: OnceLock::new(),
                pred_rows: PredRows::new(c),
                return_rows: ReturnRows::new(c),
            }
        })
    }

    /// See `CompIndex::rank`.
    pub(crate) fn rank(&self, s: ComponentId) -> &[u32] {
        self.comp(s).rank.get_or_init(|| post_order(self.rks, s))
    }

    pub(crate) fn ret_preds(&self, s: ComponentId, r: NodeId) -> &[(NodeId, u32)] {
        let c = self.comp(s);
        &c.ret_preds[c.ret_pred_offs[r.index()] as usize..c.ret_pred_offs[r.index() + 1] as usize]
    }

    /// The predecessor rows of component `s`, if it is dense enough (see [`PredRows`]).
    #[inline]
    pub(crate) fn pred_rows(&self, s: ComponentId) -> Option<&PredRows> {
        self.comp(s).pred_rows.as_ref()
    }

    /// The continuation rows of component `s`, if it is dense enough (see [`ReturnRows`]).
    #[inline]
    pub(crate) fn return_rows(&self, s: ComponentId) -> Option<&ReturnRows> {
        self.comp(s).return_rows.as_ref()
    }

    /// [`Self::ret_preds`] as words of call positions per callee exit (see `CompIndex::ret_words`).
    pub(crate) fn ret_words(&self, s: ComponentId, r: NodeId) -> &[(u32, u32, u64)] {
        let c = self.comp(s);
        &c.ret_words[c.ret_word_offs[r.index()] as usize..c.ret_word_offs[r.index() + 1] as usize]
    }
}

/// `CompIndex::rank` of component `s`.
fn post_order(rks: &RecursiveKripkeStructure, s: ComponentId) -> Vec<u32> {
    let c = &rks.components[s.index()];
    let n = c.num_nodes as usize;
    let succs = |v: NodeId| -> Vec<NodeId> {
        match c.call_target[v.index()] {
            crate::explicit::rks::NO_CALL => c.succ.neighbours(v).to_vec(),
            t => (0..rks.components[t.index()].exits.len()).flat_map(|k| c.returns(v, k).iter().copied()).collect(),
        }
    };
    let mut rank = vec![u32::MAX; n];
    let mut seen = vec![false; n];
    let mut next = 0u32;
    let mut stack: Vec<(NodeId, Vec<NodeId>, usize)> = Vec::new();
    for root in 0..n {
        if seen[root] {
            continue;
        }
        seen[root] = true;
        stack.push((NodeId::new(root), succs(NodeId::new(root)), 0));
        while let Some((v, out, i)) = stack.last_mut() {
            if let Some(&m) = out.get(*i) {
                *i += 1;
                if !seen[m.index()] {
                    seen[m.index()] = true;
                    let o = succs(m);
                    stack.push((m, o, 0));
                }
            } else {
                rank[v.index()] = next;
                next += 1;
                stack.pop();
            }
        }
    }
    rank
}
