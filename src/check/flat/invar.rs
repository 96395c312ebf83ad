//! `INVARSPEC` by reachability: one breadth-first search from the initial states, shared by all
//! invariants; an invariant fails iff a reachable state violates it, and its counterexample is a
//! shortest path to the violating state that is first in breadth-first order. Fairness is ignored,
//! as in NuSMV.

use super::trace::{Trace, TraceKind};
use crate::explicit::kripke::{KripkeStructure, PropId, StateId};

/// Breadth-first order of the reachable states with parent links.
pub struct Reachability {
    /// `rank[s]`: position of `s` in breadth-first order, `u32::MAX` if unreachable.
    rank: Vec<u32>,
    parent: Vec<StateId>,
}

impl Reachability {
    pub fn new(k: &KripkeStructure) -> Reachability {
        let n = k.num_states as usize;
        let mut rank = vec![u32::MAX; n];
        let mut parent = vec![u32::MAX; n];
        let mut queue: Vec<StateId> = Vec::with_capacity(n);
        for &s in &k.initial {
            if rank[s as usize] == u32::MAX {
                rank[s as usize] = queue.len() as u32;
                queue.push(s);
            }
        }
        let mut head = 0;
        while head < queue.len() {
            let u = queue[head];
            head += 1;
            for &v in k.succ.neighbours(u) {
                if rank[v as usize] == u32::MAX {
                    rank[v as usize] = queue.len() as u32;
                    parent[v as usize] = u;
                    queue.push(v);
                }
            }
        }
        Reachability { rank, parent }
    }

    pub fn is_reachable(&self, s: StateId) -> bool {
        self.rank[s as usize] != u32::MAX
    }

    /// The path from an initial state to `s` along breadth-first parents.
    pub fn path_to(&self, s: StateId) -> Vec<StateId> {
        let mut path = vec![s];
        let mut cur = s;
        while self.parent[cur as usize] != u32::MAX {
            cur = self.parent[cur as usize];
            path.push(cur);
        }
        path.reverse();
        path
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvarVerdict {
    pub holds: bool,
    pub counterexample: Option<Trace>,
}

/// Checks each invariant (a proposition that must hold in every reachable state).
pub fn check_invariants(k: &KripkeStructure, invariants: &[PropId], traces: bool) -> Vec<InvarVerdict> {
    let reach = Reachability::new(k);
    invariants
        .iter()
        .map(|&p| {
            let holds_in = &k.props[p as usize];
            let first_bad = (0..k.num_states)
                .filter(|&s| !holds_in.contains(s as usize) && reach.is_reachable(s))
                .min_by_key(|&s| reach.rank[s as usize]);
            match first_bad {
                None => InvarVerdict { holds: true, counterexample: None },
                Some(bad) => InvarVerdict {
                    holds: false,
                    counterexample: traces.then(|| Trace {
                        kind: TraceKind::Counterexample,
                        states: reach.path_to(bad),
                        loop_start: None,
                    }),
                },
            }
        })
        .collect()
}
