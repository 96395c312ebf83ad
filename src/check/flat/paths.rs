//! Shortest paths for traces: forward breadth-first search from one state through allowed states
//! to a target, with parent links kept in a hash map so a search costs what it explores.

use crate::explicit::kripke::{KripkeStructure, StateId};
use rustc_hash::FxHashMap;

/// Shortest path `[from, …, t]` with `target(t)`, every state after `from` satisfying `allowed`
/// (the target too). With `at_least_one_step`, `from` itself does not count as reached, so the
/// result is a genuine cycle when `target(from)`.
pub fn shortest_path(
    k: &KripkeStructure,
    from: StateId,
    allowed: impl Fn(StateId) -> bool,
    target: impl Fn(StateId) -> bool,
    at_least_one_step: bool,
) -> Option<Vec<StateId>> {
    if !at_least_one_step && target(from) {
        return Some(vec![from]);
    }
    let mut parent: FxHashMap<StateId, StateId> = FxHashMap::default();
    let mut queue = vec![from];
    let mut head = 0;
    while head < queue.len() {
        let u = queue[head];
        head += 1;
        for &v in k.succ.neighbours(u) {
            if !allowed(v) || parent.contains_key(&v) {
                continue;
            }
            parent.insert(v, u);
            if target(v) {
                return Some(unwind(&parent, from, v));
            }
            queue.push(v);
        }
    }
    None
}

fn unwind(parent: &FxHashMap<StateId, StateId>, from: StateId, to: StateId) -> Vec<StateId> {
    let mut path = vec![to];
    let mut cur = to;
    // Always at least one step back: `to` was reached by an edge (it may be `from` on a cycle).
    loop {
        cur = parent[&cur];
        path.push(cur);
        if cur == from {
            break;
        }
    }
    path.reverse();
    path
}
