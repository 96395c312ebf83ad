//! `INVARSPEC` by reachability: one breadth-first search from the initial states, shared by all
//! invariants; an invariant fails iff a reachable state violates it, and its counterexample is a
//! shortest path to the violating state that is first in breadth-first order. Fairness is ignored,
//! as in NuSMV.

use super::eval::Labelling;
use super::formula::{Arena, Lit};
use crate::check::trace::{SpecOutcome, Trace, TraceKind};
use crate::ctl::Ctl;
use crate::explicit::kripke::{KripkeStructure, StateId};
use crate::ir::PropId;

/// The parent of a state without one.
const NO_PARENT: StateId = StateId::from_u32(u32::MAX);

/// Breadth-first order of the reachable states with parent links.
pub(crate) struct Reachability {
    /// `rank[s]`: position of `s` in breadth-first order, `u32::MAX` if unreachable.
    rank: Vec<u32>,
    /// `parent[s]`: the state `s` was reached from, [`NO_PARENT`] for initial and unreachable states.
    parent: Vec<StateId>,
}

impl Reachability {
    pub(crate) fn new(k: &KripkeStructure) -> Reachability {
        let n = k.num_states as usize;
        let mut rank = vec![u32::MAX; n];
        let mut parent = vec![NO_PARENT; n];
        let mut queue: Vec<StateId> = Vec::with_capacity(n);
        for &s in &k.initial {
            if rank[s.index()] == u32::MAX {
                rank[s.index()] = queue.len() as u32;
                queue.push(s);
            }
        }
        let mut head = 0;
        while head < queue.len() {
            crate::deadline::tick(head);
            let u = queue[head];
            head += 1;
            for &v in k.succ.neighbours(u) {
                if rank[v.index()] == u32::MAX {
                    rank[v.index()] = queue.len() as u32;
                    parent[v.index()] = u;
                    queue.push(v);
                }
            }
        }
        Reachability { rank, parent }
    }

    pub(crate) fn is_reachable(&self, s: StateId) -> bool {
        self.rank[s.index()] != u32::MAX
    }

    /// The path from an initial state to `s` along breadth-first parents.
    pub(crate) fn path_to(&self, s: StateId) -> Vec<StateId> {
        let mut path = vec![s];
        let mut cur = s;
        while self.parent[cur.index()] != NO_PARENT {
            cur = self.parent[cur.index()];
            path.push(cur);
        }
        path.reverse();
        path
    }
}

/// Checks each invariant: a state formula (propositional over the structure's propositions) that
/// must hold in every reachable state.
pub fn check_invariants(k: &KripkeStructure, invariants: &[Ctl<PropId>], traces: bool) -> Vec<SpecOutcome> {
    let mut arena = Arena::new();
    let roots: Vec<Lit> = invariants.iter().map(|f| arena.lower(f)).collect();
    let mut lab = Labelling::new(k, arena, &super::Fairness::default());
    lab.compute_all();
    let reach = Reachability::new(k);
    roots
        .iter()
        .map(|&root| {
            let first_bad =
                (0..k.num_states).map(StateId::from_u32).filter(|&s| !lab.holds_at(root, s) && reach.is_reachable(s)).min_by_key(|&s| reach.rank[s.index()]);
            match first_bad {
                None => SpecOutcome { holds: true, trace: None, distance: None },
                Some(bad) => {
                    SpecOutcome { holds: false, trace: traces.then(|| Trace::flat(TraceKind::Counterexample, &reach.path_to(bad), None)), distance: None }
                }
            }
        })
        .collect()
}
