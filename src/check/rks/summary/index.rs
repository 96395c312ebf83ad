//! The reverse index of a component's return edges (which calls continue at a location, and
//! through which callee exit), built the first time the summary engine solves a frame of that
//! component and shared by every spec and thread of a check.

use super::exit_reach::ExitReach;
use crate::explicit::rks::{ComponentId, NodeId, RecursiveKripkeStructure};
use std::sync::OnceLock;

/// What the engine needs to know about the model beyond [`Component`](crate::explicit::rks::Component): per component, built
/// the first time a frame of that component is solved (components no spec reaches cost
/// nothing), shared by every spec and thread.
pub struct ModelIndex<'a> {
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
    /// `ret_preds` with each call given by its position in `Component::calls` (the summary
    /// worklists index per-call rows by it).
    ret_pred_pos: Vec<(u32, u32)>,
    /// Per location, its position in a post-order of a depth-first walk from the entry (then
    /// from the locations it misses, in order) over the successor and return edges: along an
    /// edge that closes no loop, the target comes first. Lane worklists pop by it
    /// (`check::rks::lanes`), so a value flowing backwards is mostly complete when it is read.
    rank: Vec<u32>,
}

impl<'a> ModelIndex<'a> {
    pub fn new(rks: &'a RecursiveKripkeStructure) -> ModelIndex<'a> {
        ModelIndex { rks, comps: (0..rks.components.len()).map(|_| OnceLock::new()).collect(), exit_reach: OnceLock::new() }
    }

    /// The exit mask of `true` in every component, computed the first time it is asked for.
    pub(crate) fn exit_reach(&self) -> &ExitReach {
        self.exit_reach.get_or_init(|| ExitReach::new(self.rks, &|s, r| self.ret_preds(s, r).to_vec()))
    }

    fn comp(&self, s: ComponentId) -> &CompIndex {
        self.comps[s as usize].get_or_init(|| {
            let c = &self.rks.components[s as usize];
            let exits_of = |call: NodeId| self.rks.components[c.call_target[call as usize] as usize].exits.len();
            let mut offs = vec![0u32; c.num_nodes as usize + 1];
            for &call in &c.calls {
                for k in 0..exits_of(call) {
                    for &r in c.returns(call, k) {
                        offs[r as usize + 1] += 1;
                    }
                }
            }
            for i in 0..c.num_nodes as usize {
                offs[i + 1] += offs[i];
            }
            let mut next = offs.clone();
            let mut ret_preds = vec![(0, 0); offs[c.num_nodes as usize] as usize];
            for &call in &c.calls {
                for k in 0..exits_of(call) {
                    for &r in c.returns(call, k) {
                        ret_preds[next[r as usize] as usize] = (call, k as u32);
                        next[r as usize] += 1;
                    }
                }
            }
            let ret_pred_pos = ret_preds.iter().map(|&(call, k)| (c.call_index[call as usize], k)).collect();
            CompIndex { ret_pred_offs: offs, ret_preds, ret_pred_pos, rank: post_order(self.rks, s) }
        })
    }

    /// See `CompIndex::rank`.
    pub(crate) fn rank(&self, s: ComponentId) -> &[u32] {
        &self.comp(s).rank
    }

    pub(crate) fn ret_preds(&self, s: ComponentId, r: NodeId) -> &[(NodeId, u32)] {
        let c = self.comp(s);
        &c.ret_preds[c.ret_pred_offs[r as usize] as usize..c.ret_pred_offs[r as usize + 1] as usize]
    }

    /// [`Self::ret_preds`] with calls by position in `Component::calls`.
    pub(crate) fn ret_preds_pos(&self, s: ComponentId, r: NodeId) -> &[(u32, u32)] {
        let c = self.comp(s);
        &c.ret_pred_pos[c.ret_pred_offs[r as usize] as usize..c.ret_pred_offs[r as usize + 1] as usize]
    }
}

/// `CompIndex::rank` of component `s`.
fn post_order(rks: &RecursiveKripkeStructure, s: ComponentId) -> Vec<u32> {
    let c = &rks.components[s as usize];
    let n = c.num_nodes as usize;
    let succs = |v: NodeId| -> Vec<NodeId> {
        match c.call_target[v as usize] {
            crate::explicit::rks::NO_CALL => c.succ.neighbours(v).to_vec(),
            t => (0..rks.components[t as usize].exits.len()).flat_map(|k| c.returns(v, k).iter().copied()).collect(),
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
        stack.push((root as NodeId, succs(root as NodeId), 0));
        while let Some((v, out, i)) = stack.last_mut() {
            if let Some(&m) = out.get(*i) {
                *i += 1;
                if !seen[m as usize] {
                    seen[m as usize] = true;
                    let o = succs(m);
                    stack.push((m, o, 0));
                }
            } else {
                rank[*v as usize] = next;
                next += 1;
                stack.pop();
            }
        }
    }
    rank
}
