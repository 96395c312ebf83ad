//! `INVARSPEC` by forward reachability that stops at the first bad state (NuSMV's forward
//! invariant check): while the reachability of [`super::SymbolicModel`] adds its rings, every
//! new ring is met with the bad states (`¬p`) of each invariant not yet violated; once every
//! invariant is violated the reachability stops, and the rings so far give each counterexample
//! (a shortest path, by `check::bdd`'s onion-ring search, as after a full reachability).
//!
//! Assumes the caller watches only when nothing else depends on the states past the stop: every
//! spec of the model is an invariant, and no evaluation error or deadlock can occur in a state
//! the reachability might not explore (see `SymbolicModel::build_in`); the verdicts, traces and
//! diagnostics are then those of the full reachability.

use super::{Bdd, SymResult};
use crate::ctl::Ctl;
use oxidd::BooleanFunction;

/// The invariants still undecided while the reachability runs.
pub(crate) struct InvariantWatch {
    /// `¬p` of each invariant.
    bad: Vec<Bdd>,
    violated: Vec<bool>,
}

impl InvariantWatch {
    /// Watches the invariants whose bad states are `bad` (at least one).
    pub(crate) fn new(bad: Vec<Bdd>) -> InvariantWatch {
        let violated = vec![false; bad.len()];
        InvariantWatch { bad, violated }
    }

    /// Marks the invariants a new ring violates; `true` once every invariant is violated.
    pub(crate) fn ring(&mut self, ring: &Bdd) -> SymResult<bool> {
        for (bad, violated) in self.bad.iter().zip(self.violated.iter_mut()) {
            if !*violated && ring.and(bad)?.satisfiable() {
                *violated = true;
            }
        }
        Ok(self.violated.iter().all(|&v| v))
    }
}

/// The BDD of a propositional formula over BDDs; `None` for a temporal operator.
pub(crate) fn propositional(f: &Ctl<Bdd>, t: &Bdd) -> SymResult<Option<Bdd>> {
    let two = |a: &Ctl<Bdd>, b: &Ctl<Bdd>| -> SymResult<Option<(Bdd, Bdd)>> { Ok(propositional(a, t)?.zip(propositional(b, t)?)) };
    Ok(match f {
        Ctl::True => Some(t.clone()),
        Ctl::False => Some(t.not()?),
        Ctl::Atom(a) => Some(a.clone()),
        Ctl::Not(a) => propositional(a, t)?.map(|a| a.not()).transpose()?,
        Ctl::And(a, b) => two(a, b)?.map(|(a, b)| a.and(&b)).transpose()?,
        Ctl::Or(a, b) => two(a, b)?.map(|(a, b)| a.or(&b)).transpose()?,
        Ctl::Xor(a, b) => two(a, b)?.map(|(a, b)| a.xor(&b)).transpose()?,
        Ctl::Xnor(a, b) | Ctl::Iff(a, b) => two(a, b)?.map(|(a, b)| a.equiv(&b)).transpose()?,
        Ctl::Implies(a, b) => two(a, b)?.map(|(a, b)| a.imp(&b)).transpose()?,
        _ => None,
    })
}
