//! Shortest paths for traces: forward breadth-first search from one state through allowed states
//! to a target. Parent links live in a per-thread array that is reset entry by entry after each
//! search, so a search costs what it explores (no per-search allocation of the state count).

use crate::explicit::kripke::{KripkeStructure, StateId};
use std::cell::RefCell;

const NO_PARENT: u32 = u32::MAX;

thread_local! {
    static PARENT: RefCell<Vec<u32>> = const { RefCell::new(Vec::new()) };
}

/// Shortest path `[from, …, t]` with `target(t)`, every state after `from` satisfying `allowed`
/// (the target too). With `at_least_one_step`, `from` itself does not count as reached, so the
/// result is a genuine cycle when `target(from)`.
pub(crate) fn shortest_path(
    k: &KripkeStructure,
    from: StateId,
    allowed: impl Fn(StateId) -> bool,
    target: impl Fn(StateId) -> bool,
    at_least_one_step: bool,
) -> Option<Vec<StateId>> {
    if !at_least_one_step && target(from) {
        return Some(vec![from]);
    }
    PARENT.with(|cell| {
        let mut parent = cell.borrow_mut();
        if parent.len() < k.num_states as usize {
            parent.resize(k.num_states as usize, NO_PARENT);
        }
        let mut queue = vec![from];
        let mut head = 0;
        let mut found = None;
        'search: while head < queue.len() {
            crate::deadline::tick(head);
            let u = queue[head];
            head += 1;
            for &v in k.succ.neighbours(u) {
                if !allowed(v) || parent[v.index()] != NO_PARENT {
                    continue;
                }
                parent[v.index()] = u.as_u32();
                queue.push(v);
                if target(v) {
                    found = Some(v);
                    break 'search;
                }
            }
        }
        let path = found.map(|to| unwind(&parent, from, to));
        // Every state with a parent link is in the queue (`from` only if reached again).
        for &v in &queue {
            parent[v.index()] = NO_PARENT;
        }
        path
    })
}

fn unwind(parent: &[u32], from: StateId, to: StateId) -> Vec<StateId> {
    let mut path = vec![to];
    let mut cur = to;
    // Always at least one step back: `to` was reached by an edge (it may be `from` on a cycle).
    loop {
        cur = StateId::from_u32(parent[cur.index()]);
        path.push(cur);
        if cur == from {
            break;
        }
    }
    path.reverse();
    path
}

/// A lasso from `from` staying inside `inside`, assuming every state of `inside` has a successor
/// in `inside` (true for `EG` sets without fairness constraints): a depth-first walk that closes
/// the loop as soon as a successor lies on the current path. Returns the path and loop start.
pub(crate) fn closed_walk(k: &KripkeStructure, from: StateId, inside: impl Fn(StateId) -> bool) -> Option<(Vec<StateId>, usize)> {
    PARENT.with(|cell| {
        // Reuses the parent array as "position on the current path, or visited-and-left" marks.
        let mut mark = cell.borrow_mut();
        if mark.len() < k.num_states as usize {
            mark.resize(k.num_states as usize, NO_PARENT);
        }
        const LEFT: u32 = u32::MAX - 1;
        let mut path = vec![from];
        let mut next_edge = vec![0usize];
        let mut touched = vec![from];
        mark[from.index()] = 0;
        let mut result = None;
        while let Some(&u) = path.last() {
            let succ = k.succ.neighbours(u);
            if let Some(&v) = succ.iter().find(|&&v| inside(v) && mark[v.index()] < LEFT) {
                result = Some((path.clone(), mark[v.index()] as usize));
                break;
            }
            let depth = path.len() - 1;
            let pos = &mut next_edge[depth];
            let step = succ[*pos..].iter().position(|&v| inside(v) && mark[v.index()] == NO_PARENT);
            match step {
                Some(i) => {
                    let v = succ[*pos + i];
                    *pos += i + 1;
                    mark[v.index()] = path.len() as u32;
                    touched.push(v);
                    path.push(v);
                    next_edge.push(0);
                }
                None => {
                    mark[u.index()] = LEFT;
                    path.pop();
                    next_edge.pop();
                }
            }
        }
        for &v in &touched {
            mark[v.index()] = NO_PARENT;
        }
        result
    })
}
