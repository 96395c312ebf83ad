//! `COMPUTE MIN [a, b]` and `COMPUTE MAX [a, b]` on BDDs: NuSMV 2.5.4's `minu` and `maxu`
//! (`mcMc.c`) step for step, on the reachable states of the model the [`Labels`] were computed
//! on. The explicit engine computes the same numbers by graph searches
//! (`crate::check::flat::distance`, whose doc states the definitions).

use super::Labels;
use crate::ir::{ComputeOperand, Distance, Extremum};
use crate::symbolic::{Bdd, SymResult};
use oxidd::BooleanFunction;

/// `MIN`/`MAX [a, b]` for the satisfaction sets `a` and `b` (within the reachable states).
pub(super) fn compute(labels: &Labels, extremum: Extremum, a: &Bdd, b: &Bdd) -> SymResult<Distance> {
    match extremum {
        Extremum::Min => min(labels, a, b),
        Extremum::Max => max(labels, a, b),
    }
}

/// NuSMV's `minu`: forward layers from the fair `a` states through fair states until one meets `b`.
fn min(labels: &Labels, a: &Bdd, b: &Bdd) -> SymResult<Distance> {
    let (model, fair) = (labels.model, &labels.fair);
    let target = b.and(fair)?;
    let mut found = a.and(fair)?;
    let mut steps = 0u64;
    loop {
        crate::deadline::poll();
        model.enc.maybe_reorder();
        if found.and(&target)?.satisfiable() {
            return Ok(Distance::Steps(steps));
        }
        let image = labels.trans.image(&model.enc, &found)?.and(fair)?;
        let more = found.or(&image)?;
        if more == found {
            return Ok(Distance::Infinity);
        }
        found = more;
        steps += 1;
    }
}

/// NuSMV's `maxu`: backward layers of the fair states outside `b` that start ever longer paths
/// outside `b`, until none is an `a` state.
fn max(labels: &Labels, a: &Bdd, b: &Bdd) -> SymResult<Distance> {
    let (model, fair) = (labels.model, &labels.fair);
    // NuSMV restricts the emptiness tests to the fair states only when there are some.
    let any_fair = fair.satisfiable();
    let empty = |set: &Bdd| -> SymResult<bool> { Ok(!(if any_fair { set.and(fair)? } else { set.clone() }).satisfiable()) };
    if empty(a)? {
        return Ok(Distance::Undefined(ComputeOperand::From));
    }
    if empty(b)? {
        return Ok(Distance::Undefined(ComputeOperand::To));
    }
    let outside = fair.and(&b.not()?)?;
    let mut layer = outside.clone();
    let mut steps = 0u64;
    loop {
        crate::deadline::poll();
        model.enc.maybe_reorder();
        if !layer.and(a)?.satisfiable() {
            return Ok(Distance::Steps(steps));
        }
        let next = labels.pre_within(&layer, &outside)?;
        if next == layer {
            return Ok(Distance::Infinity);
        }
        layer = next;
        steps += 1;
    }
}
