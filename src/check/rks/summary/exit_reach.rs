//! The exits reachable from each location of each component on any path (calls that return
//! included): the exit mask of every fixpoint frame whose `a` is `true` (`EF`, `AG`, `E[⊤ U χ]`),
//! whatever the spec, the node and the context. Computed once per model, the first time a
//! frame needs it, and shared by every batch and thread (the per-batch masks recomputed it for
//! every batch of specs).
//!
//! Least fixpoint by one worklist of (component, location) over the whole model: a row grows at
//! most once per exit, as in `summary::solve`.

use crate::explicit::rks::{ComponentId, NodeId, RecursiveKripkeStructure};

/// Per component, `words` words per location: bit `k` = exit `k` is reachable.
pub(crate) struct ExitReach {
    rows: Vec<Vec<u64>>,
}

impl ExitReach {
    pub(crate) fn new(rks: &RecursiveKripkeStructure, ret_preds: &dyn Fn(ComponentId, NodeId) -> Vec<(NodeId, u32)>) -> ExitReach {
        let comps = &rks.components;
        let words: Vec<usize> = comps.iter().map(|c| c.exits.len().div_ceil(64)).collect();
        let mut rows: Vec<Vec<u64>> = comps.iter().zip(&words).map(|(c, w)| vec![0; c.num_nodes as usize * w]).collect();
        // The engines explore a call only if a location (`a`, here any) leads to it.
        let explored = |c: &crate::explicit::rks::Component, call: NodeId| !c.pred.neighbours(call).is_empty();
        // Callers of each component: (caller, call node).
        let mut callers: Vec<Vec<(ComponentId, NodeId)>> = vec![Vec::new(); comps.len()];
        for (s, c) in comps.iter().enumerate() {
            for &call in c.calls.iter().filter(|&&call| explored(c, call)) {
                callers[c.call_target[call as usize].index()].push((ComponentId::new(s), call));
            }
        }
        let mut work: Vec<(ComponentId, NodeId)> = Vec::new();
        for (s, c) in comps.iter().enumerate() {
            for (k, &x) in c.exits.iter().enumerate() {
                rows[s][x as usize * words[s] + k / 64] |= 1 << (k % 64);
                work.push((ComponentId::new(s), x));
            }
        }
        let mut row: Vec<u64> = Vec::new();
        while let Some((s, m)) = work.pop() {
            let (c, w) = (&comps[s.index()], words[s.index()]);
            row.clear();
            row.extend_from_slice(&rows[s.index()][m as usize * w..(m as usize + 1) * w]);
            let mut targets: Vec<NodeId> = c.pred.neighbours(m).to_vec();
            for (call, k) in ret_preds(s, m) {
                let t = c.call_target[call as usize].index();
                if !explored(c, call) || rows[t][k as usize / 64] >> (k % 64) & 1 == 0 {
                    continue;
                }
                targets.push(call);
            }
            for p in targets {
                if merge(&mut rows[s.index()][p as usize * w..(p as usize + 1) * w], &row) {
                    work.push((s, p));
                }
            }
            if m == 0 {
                // The entry reaches more exits: each call of `s` continues at more returns.
                for &(g, call) in &callers[s.index()] {
                    let (gc, gw) = (&comps[g.index()], words[g.index()]);
                    let mut acc = vec![0u64; gw];
                    for k in 0..c.exits.len() {
                        if row[k / 64] >> (k % 64) & 1 == 1 {
                            for &r in gc.returns(call, k) {
                                merge(&mut acc, &rows[g.index()][r as usize * gw..(r as usize + 1) * gw]);
                            }
                        }
                    }
                    if merge(&mut rows[g.index()][call as usize * gw..(call as usize + 1) * gw], &acc) {
                        work.push((g, call));
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

/// `row |= add`; true if `row` changed.
fn merge(row: &mut [u64], add: &[u64]) -> bool {
    let mut changed = false;
    for (x, y) in row.iter_mut().zip(add) {
        changed |= *x | y != *x;
        *x |= y;
    }
    changed
}
