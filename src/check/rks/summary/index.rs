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
    /// The reverse of the component's return edges, for the worklists: per location `r`, rows
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
    /// The successors as bit rows, where there are predecessor rows (see [`PredRows::successors`]).
    succ_rows: Option<PredRows>,
    /// The most exits a callee of the component has.
    max_callee_exits: usize,
}

impl<'a> ModelIndex<'a> {
    pub(crate) fn new(rks: &'a RecursiveKripkeStructure) -> ModelIndex<'a> {
        ModelIndex { rks, comps: (0..rks.components.len()).map(|_| OnceLock::new()).collect(), exit_reach: OnceLock::new() }
    }

    /// The exit mask of `true` in every component, computed the first time it is asked for.
    pub(crate) fn exit_reach(&self) -> &ExitReach {
        self.exit_reach.get_or_init(|| ExitReach::new(self.rks, |s, r| self.ret_words(s, r)))
    }

    fn comp(&self, s: ComponentId) -> &CompIndex {
        self.comps[s.index()].get_or_init(|| {
            let c = &self.rks.components[s.index()];
            let exits_of = |call: NodeId| self.rks.components[c.call_target[call.index()].index()].exits.len();
            // Return edges into each location, bounded by the (exit, word) entries a location
            // can have: the rows of `raw` below are that long (not one entry per edge: on grid
            // instance 50, 27.9 M return edges against 185 K locations).
            let max_exits = c.calls.iter().map(|&call| exits_of(call)).max().unwrap_or(0);
            let most = max_exits * c.calls.len().div_ceil(64);
            let n = c.num_nodes as usize;
            let mut offs = vec![0u32; n + 1];
            for &call in &c.calls {
                for k in 0..exits_of(call) {
                    for &r in c.returns(call, k) {
                        offs[r.index() + 1] += 1;
                    }
                }
            }
            for i in 0..n {
                offs[i + 1] = offs[i] + offs[i + 1].min(most as u32);
            }
            // `ret_words`: the edges visited exit by exit, calls in order, so that each
            // location's row arrives sorted by (exit, word) and a word is merged into the row's
            // last entry (no per-location sort); rows are written in place, then compacted.
            let mut raw: Vec<(u32, u32, u64)> = vec![(0, 0, 0); offs[n] as usize];
            let mut end: Vec<u32> = offs[..n].to_vec();
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
            let used: usize = (0..n).map(|r| (end[r] - offs[r]) as usize).sum();
            let mut ret_word_offs = Vec::with_capacity(n + 1);
            let mut ret_words: Vec<(u32, u32, u64)> = Vec::with_capacity(used);
            ret_word_offs.push(0);
            for r in 0..n {
                ret_words.extend_from_slice(&raw[offs[r] as usize..end[r] as usize]);
                ret_word_offs.push(ret_words.len() as u32);
            }
            CompIndex {
                ret_word_offs,
                ret_words,
                rank: OnceLock::new(),
                pred_rows: PredRows::new(c),
                return_rows: ReturnRows::new(c),
                succ_rows: PredRows::successors(c),
                max_callee_exits: max_exits,
            }
        })
    }

    /// See `CompIndex::rank`.
    pub(crate) fn rank(&self, s: ComponentId) -> &[u32] {
        self.comp(s).rank.get_or_init(|| post_order(self.rks, s))
    }

    /// The predecessor rows of component `s`, if it is dense enough (see [`PredRows`]).
    #[inline]
    pub(crate) fn pred_rows(&self, s: ComponentId) -> Option<&PredRows> {
        self.comp(s).pred_rows.as_ref()
    }

    /// The successor rows of component `s`, if it is dense enough (see [`PredRows::successors`]).
    #[inline]
    pub(crate) fn succ_rows(&self, s: ComponentId) -> Option<&PredRows> {
        self.comp(s).succ_rows.as_ref()
    }

    /// The most exits a callee of component `s` has.
    pub(crate) fn max_callee_exits(&self, s: ComponentId) -> usize {
        self.comp(s).max_callee_exits
    }

    /// The continuation rows of component `s`, if it is dense enough (see [`ReturnRows`]).
    #[inline]
    pub(crate) fn return_rows(&self, s: ComponentId) -> Option<&ReturnRows> {
        self.comp(s).return_rows.as_ref()
    }

    /// The (call, callee exit) pairs whose continuations include `r`, as words of call positions
    /// per callee exit (see `CompIndex::ret_words`).
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

#[cfg(test)]
mod tests {
    use super::ModelIndex;
    use crate::explicit::rks::{ComponentId, NodeId};
    use crate::explicit::rks_builder::RksBuilder;

    /// `ret_words` is the reverse of the return edges, grouped by (exit, word of calls), also
    /// where a location has far more return edges than (exit, word) entries (its row in the
    /// build buffer is bounded by the latter).
    #[test]
    fn ret_words_reverse_the_return_edges() {
        let mut b = RksBuilder::new();
        let main = b.component("main");
        b.loc(main, "e", &[]).loc(main, "l0", &[]).loc(main, "l1", &[]).loc(main, "x", &[]);
        b.exit(main, "EXIT", "x");
        // 70 calls (two words of call positions) to a callee with two exits: every call returns
        // to `l0` through both exits (140 edges, 4 entries) and to `l1` through exit `b` only
        // when its position is odd.
        for i in 0..70 {
            let call = format!("c{i}");
            b.call(main, &call, "B");
            b.edge(main, "e", &call);
            b.ret(main, &call, "a", "l0").ret(main, &call, "b", "l0");
            if i % 2 == 1 {
                b.ret(main, &call, "b", "l1");
            }
        }
        let callee = b.component("B");
        b.loc(callee, "s", &[]).loc(callee, "t", &[]).loc(callee, "u", &[]);
        b.edge(callee, "s", "t").edge(callee, "s", "u");
        b.exit(callee, "a", "t").exit(callee, "b", "u");
        let rks = b.build().expect("valid structure");
        let ix = ModelIndex::new(&rks);
        let c = &rks.components[0];
        let pos = |name: &str| c.calls.iter().position(|&n| c.node_names[n.index()] == name).expect("call") as u64;
        let word = |lo: u64, hi: u64, keep: &dyn Fn(u64) -> bool| (lo..hi).filter(|&i| keep(i)).fold(0u64, |w, i| w | 1 << (i - lo));
        let loc = |name: &str| NodeId::new(c.node_names.iter().position(|n| n == name).expect("location"));
        assert_eq!(pos("c0"), 0, "calls in declaration order");
        let all = |_: u64| true;
        let odd = |i: u64| i % 2 == 1;
        assert_eq!(
            ix.ret_words(ComponentId::new(0), loc("l0")),
            &[(0, 0, word(0, 64, &all)), (0, 1, word(64, 70, &all)), (1, 0, word(0, 64, &all)), (1, 1, word(64, 70, &all))]
        );
        assert_eq!(ix.ret_words(ComponentId::new(0), loc("l1")), &[(1, 0, word(0, 64, &odd)), (1, 1, word(64, 70, &odd))]);
        assert!(ix.ret_words(ComponentId::new(0), loc("e")).is_empty());
    }
}
