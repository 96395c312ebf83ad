//! The reverse index of a component's return edges (which calls continue at a location, and
//! through which callee exit), built the first time the summary engine solves a frame of that
//! component and shared by every spec and thread of a check.

use crate::explicit::rks::{ComponentId, NodeId, RecursiveKripkeStructure};
use std::sync::OnceLock;

/// What the engine needs to know about the model beyond [`Component`]: per component, built
/// the first time a frame of that component is solved (components no spec reaches cost
/// nothing), shared by every spec and thread.
pub struct ModelIndex<'a> {
    rks: &'a RecursiveKripkeStructure,
    comps: Vec<OnceLock<CompIndex>>,
}

struct CompIndex {
    /// For each location `r`: the (call, callee exit) pairs whose continuations include `r`,
    /// rows `ret_pred_offs[r]..ret_pred_offs[r + 1]` of `ret_preds` (a counting sort of the
    /// component's return edges).
    ret_pred_offs: Vec<u32>,
    ret_preds: Vec<(NodeId, u32)>,
}

impl<'a> ModelIndex<'a> {
    pub fn new(rks: &'a RecursiveKripkeStructure) -> ModelIndex<'a> {
        ModelIndex { rks, comps: (0..rks.components.len()).map(|_| OnceLock::new()).collect() }
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
            CompIndex { ret_pred_offs: offs, ret_preds }
        })
    }

    pub(super) fn ret_preds(&self, s: ComponentId, r: NodeId) -> &[(NodeId, u32)] {
        let c = self.comp(s);
        &c.ret_preds[c.ret_pred_offs[r as usize] as usize..c.ret_pred_offs[r as usize + 1] as usize]
    }
}
