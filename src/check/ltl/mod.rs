//! Explicit LTL model checking of flat models (`LTLSPEC`), automata-theoretic.
//!
//! Per spec `φ`: `¬φ` is put in negation normal form with simplification ([`formula`]), its
//! pure-past subformulas become deterministic monitor bits ([`past`]), the rest is translated to
//! a generalized Büchi automaton by the GPVW tableau ([`tableau`]), and the product with the
//! Kripke structure is searched on the fly for an accepting lasso by Couvreur's SCC algorithm
//! ([`product`]). No crate is used for the translation: the Rust LTL-to-automata crates do not
//! offer past operators nor an automaton type over our propositions, and GPVW is small.
//!
//! Semantics (NuSMV 2.5.4): `φ` holds iff every infinite path from an initial state that visits
//! every `FAIRNESS`/`JUSTICE` constraint infinitely often satisfies it. Finite paths (ending in a
//! deadlock) are not paths: a model whose only runs deadlock satisfies every LTL spec. The first
//! position of a path has no past (`Y a` is false, `Z a` true there). A false spec's
//! counterexample is a lasso of model states ([`crate::check::trace::Trace`] with `loop_start`).
//!
//! Specs are checked in parallel (one product per spec); results do not depend on the threads.
//! Procedure modules: [`rks`], the same automaton, then summaries and emptiness on the
//! recursive product.

pub(crate) mod formula;
pub(crate) mod past;
pub(crate) mod product;
pub mod rks;
pub(crate) mod tableau;

use crate::check::trace::{SpecOutcome, Trace, TraceKind};
use crate::explicit::kripke::KripkeStructure;
use crate::ir::PropId;
use crate::ltl::Ltl;
use rayon::prelude::*;

crate::index_type! {
    /// A node of the hash-consed NNF [`formula::Arena`] of LTL formulas (here, not in `formula`,
    /// because the past monitors of `past` name nodes of the arena that creates them).
    pub(crate) struct NnfId;
}

/// Sizes of the work done for a batch of LTL specs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct LtlStats {
    /// Automaton states, summed over the specs.
    pub automaton_states: u64,
    /// Product states built, summed over the specs.
    pub product_states: u64,
}

/// The verdict of one spec and the sizes of its automaton and product.
#[derive(Clone, Debug)]
pub struct LtlOutcome {
    pub outcome: SpecOutcome,
    pub automaton_states: usize,
    pub product_states: usize,
}

/// Checks each LTL spec on `kripke` under the state fairness constraints `fairness`; `traces`
/// asks for counterexamples. `Err` names a spec the translation cannot handle.
pub fn check_ltl(kripke: &KripkeStructure, specs: &[&Ltl<PropId>], fairness: &[PropId], traces: bool) -> Result<Vec<LtlOutcome>, String> {
    specs.par_iter().map(|spec| check_one(kripke, spec, fairness, traces)).collect()
}

/// Sums the sizes of a batch.
pub(crate) fn stats(outcomes: &[LtlOutcome]) -> LtlStats {
    LtlStats {
        automaton_states: outcomes.iter().map(|o| o.automaton_states as u64).sum(),
        product_states: outcomes.iter().map(|o| o.product_states as u64).sum(),
    }
}

fn check_one(kripke: &KripkeStructure, spec: &Ltl<PropId>, fairness: &[PropId], traces: bool) -> Result<LtlOutcome, String> {
    let mut arena = formula::Arena::new();
    let mut monitor = past::PastMonitor::default();
    let negated = arena.nnf(spec, true, &mut monitor)?;
    let gba = tableau::translate(&arena, negated)?;
    let search = product::Product::new(kripke, &monitor, &gba, fairness)?.search(traces);
    let trace = search.lasso.map(|l| {
        let (states, loop_start) = shortest_form(l.states, &l.bits, l.loop_start, monitor.carried());
        Trace::flat(TraceKind::Counterexample, &states, Some(loop_start))
    });
    Ok(LtlOutcome {
        outcome: SpecOutcome { holds: !search.accepting, trace, distance: None },
        automaton_states: gba.labels.len(),
        product_states: search.product_states,
    })
}

/// The same infinite word of model states as a shorter lasso: the product may repeat a model
/// state while the automaton moves on. The prefix's last state is rotated into the loop while it
/// equals the loop's last state (`u a · (w a)^ω = u · (a w)^ω`), then the loop is cut to its
/// smallest period. With past operators a position is its model state and the monitor bits it
/// carries from the previous position (`carried`: mask, and values before the first position),
/// so that the loop closes on equal states of NuSMV's product (model × tableau), as its lassos do.
fn shortest_form<S: Copy + Eq>(mut states: Vec<S>, bits: &[u64], mut loop_start: usize, carried: (u64, Option<u64>)) -> (Vec<S>, usize) {
    let (mask, before) = carried;
    let mut bits = bits.to_vec();
    // The position's state: model state and carried bits (`None`: before the first position
    // when the initial values are not one bit vector).
    let key = |states: &[S], bits: &[u64], i: usize, from: Option<usize>| (states[i], from.map_or(before, |p| Some(bits[p] & mask)));
    let at = |states: &[S], bits: &[u64], i: usize| key(states, bits, i, i.checked_sub(1));
    while loop_start > 0 && at(&states, &bits, loop_start - 1) == at(&states, &bits, states.len() - 1) {
        states.pop();
        bits.pop();
        loop_start -= 1;
    }
    // The product lasso repeats the monitor bits exactly, but the loop start may carry other bits
    // from the prefix than from the loop's end: start the loop one position later (its copy at
    // the end then has the same predecessor bits).
    if at(&states, &bits, loop_start) != key(&states, &bits, loop_start, Some(states.len() - 1)) {
        states.push(states[loop_start]);
        bits.push(bits[loop_start]);
        loop_start += 1;
    }
    let cycle = states.len() - loop_start;
    let period = (1..cycle).find(|&d| {
        cycle.is_multiple_of(d)
            && (loop_start + d..states.len()).all(|i| states[i] == states[i - d])
            && key(&states, &bits, loop_start, Some(loop_start + d - 1)) == at(&states, &bits, loop_start)
    });
    if let Some(d) = period {
        states.truncate(loop_start + d);
    }
    (states, loop_start)
}

#[cfg(test)]
mod tests {
    use super::shortest_form;

    #[test]
    fn lassos_are_rotated_and_cut_to_their_period() {
        // 7 · (5 7)^ω = (7 5)^ω
        let none = (0, Some(0));
        assert_eq!(shortest_form(vec![7, 5, 7], &[0; 3], 1, none), (vec![7, 5], 0));
        // 1 · (2 3 2 3)^ω = 1 · (2 3)^ω
        assert_eq!(shortest_form(vec![1, 2, 3, 2, 3], &[0; 5], 1, none), (vec![1, 2, 3], 1));
        // (4)^ω after 4 4: a one-state loop
        assert_eq!(shortest_form(vec![4, 4, 4], &[0; 3], 2, none), (vec![4], 0));
        assert_eq!(shortest_form(vec![1, 2], &[0; 2], 1, none), (vec![1, 2], 1));
        // A carried monitor bit set from position 1 on keeps position 0 out of the loop, and
        // position 1 too (reached with the bit clear first, set later).
        assert_eq!(shortest_form(vec![7, 5, 7], &[0, 1, 1], 1, (1, Some(0))), (vec![7, 5, 7, 5], 2));
        // 7 5 (9 5)^ω with the bit set at 9 only: the loop starts at 9.
        assert_eq!(shortest_form(vec![7, 5, 9], &[0, 0, 1], 1, (1, Some(0))), (vec![7, 5, 9, 5], 2));
    }
}
