//! Path searches by onion rings, shared by every symbolic state space: the model
//! ([`ModelSpace`]: error paths, `INVARSPEC` counterexamples, CTL witnesses in `check::bdd::explain`)
//! and the LTL product (`check::bdd::tableau`). A space gives its image, preimage, a way to pick
//! one concrete state from a set and the cube of a state ([`StateSpace`]).
//!
//! - [`walk_back`]: from a state of the last ring, a predecessor in each earlier ring — a shortest
//!   path when ring `i` holds the states first reached in `i` steps;
//! - [`shortest_path`]: breadth-first rings forward from a start state (or set) until a ring meets
//!   the target — the first such frontier, so the search stops there and the path is shortest —
//!   then [`walk_back`];
//! - [`fair_lasso`]: a lasso inside a set that visits every fairness constraint (rounds: reach each
//!   constraint by a shortest path, try to close the loop onto the round's first state; a round
//!   that cannot close has left that state's SCC, and the next starts one step further, ending in
//!   a fair SCC).
//!
//! Picks are deterministic (the BDD's first cube with don't-cares at 0), so the same sets give the
//! same paths.

use super::encoding::Encoding;
use super::trans::TransRel;
use super::{Bdd, SymResult, SymbolicError};
use oxidd::BooleanFunction;

/// Most rounds a lasso may take (each leaves an SCC for a lower one; far more than any model has).
const MAX_ROUNDS: usize = 1 << 16;

/// A symbolic state space the ring searches walk.
pub(crate) trait StateSpace {
    type State: Clone;
    /// The successors of `set`.
    fn image(&self, set: &Bdd) -> SymResult<Bdd>;
    /// The predecessors of `set`.
    fn preimage(&self, set: &Bdd) -> SymResult<Bdd>;
    /// One state of `set` (`None` if empty).
    fn pick(&self, set: &Bdd) -> SymResult<Option<Self::State>>;
    /// The set holding only `state`.
    fn cube(&self, state: &Self::State) -> SymResult<Bdd>;
}

/// The model's own states: value indices per variable.
pub(crate) struct ModelSpace<'a> {
    pub enc: &'a Encoding,
    pub trans: &'a TransRel,
}

impl StateSpace for ModelSpace<'_> {
    type State = Vec<u32>;
    fn image(&self, set: &Bdd) -> SymResult<Bdd> {
        self.trans.image(self.enc, set)
    }
    fn preimage(&self, set: &Bdd) -> SymResult<Bdd> {
        self.trans.preimage(self.enc, set)
    }
    fn pick(&self, set: &Bdd) -> SymResult<Option<Vec<u32>>> {
        self.enc.pick_state(set)
    }
    fn cube(&self, state: &Vec<u32>) -> SymResult<Bdd> {
        self.enc.state_cube(state)
    }
}

/// `last` (a state of the ring after `rings`) preceded by one state of each ring, walking
/// backwards; the path runs forwards, from a state of `rings[0]` to `last`.
pub(crate) fn walk_back<S: StateSpace>(space: &S, rings: &[Bdd], last: S::State) -> SymResult<Vec<S::State>> {
    let mut cur = space.cube(&last)?;
    let mut path = vec![last];
    for ring in rings.iter().rev() {
        let pre = space.preimage(&cur)?.and(ring)?;
        let p = space.pick(&pre)?.ok_or_else(|| SymbolicError("internal error: a ring state without predecessor in the previous ring".into()))?;
        cur = space.cube(&p)?;
        path.push(p);
    }
    path.reverse();
    Ok(path)
}

/// A shortest path from a state of `start` to a `target` state, every state after the first in
/// `inside`; `nonempty`: at least one step. Expands ring by ring and stops at the first ring that
/// meets the target.
pub(crate) fn shortest_path<S: StateSpace>(space: &S, start: &Bdd, inside: &Bdd, target: &Bdd, nonempty: bool) -> SymResult<Option<Vec<S::State>>> {
    if !nonempty && let Some(s) = space.pick(&start.and(target)?)? {
        return Ok(Some(vec![s]));
    }
    let mut rings = vec![start.clone()];
    let mut visited = start.clone();
    let mut frontier = start.clone();
    loop {
        crate::deadline::poll();
        let next = space.image(&frontier)?.and(inside)?;
        if let Some(hit) = space.pick(&next.and(target)?)? {
            return walk_back(space, &rings, hit).map(Some);
        }
        frontier = next.and(&visited.not()?)?;
        if !frontier.satisfiable() {
            return Ok(None);
        }
        visited = visited.or(&frontier)?;
        rings.push(frontier.clone());
    }
}

/// Extends `path` (its last state in `inside`) into a lasso inside `inside` that visits every set
/// of `constraints`; the loop starts at `loop_start` or, if that state cannot be returned to, at
/// a later state. Returns the loop start. Every state of `inside` must have such a lasso (the
/// caller passes a fair `EG` set).
pub(crate) fn fair_lasso<S: StateSpace>(space: &S, inside: &Bdd, constraints: &[Bdd], path: &mut Vec<S::State>, mut loop_start: usize) -> SymResult<usize> {
    let last = |path: &[S::State]| space.cube(&path[path.len() - 1]);
    for _ in 0..MAX_ROUNDS {
        let round_start = space.cube(&path[loop_start])?;
        for f in constraints {
            let target = inside.and(f)?;
            let Some(step) = shortest_path(space, &last(path)?, inside, &target, false)? else {
                return Err(SymbolicError("internal error: a fair state cannot reach a fairness constraint".into()));
            };
            path.extend(step.into_iter().skip(1));
        }
        let here = last(path)?;
        if let Some(back) = shortest_path(space, &here, inside, &round_start, true)? {
            // `back` ends with the round's first state: the loop closes onto it.
            let k = back.len();
            path.extend(back.into_iter().take(k - 1).skip(1));
            return Ok(loop_start);
        }
        // The round's first state is out of reach: start again one step further.
        let succ = space.image(&here)?.and(inside)?;
        let next = space.pick(&succ)?.ok_or_else(|| SymbolicError("internal error: a fair state without a fair successor".into()))?;
        path.push(next);
        loop_start = path.len() - 1;
    }
    Err(SymbolicError("internal error: no fair loop found".into()))
}
