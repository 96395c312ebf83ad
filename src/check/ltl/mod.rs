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

pub(crate) mod formula;
pub(crate) mod past;
pub(crate) mod product;
pub(crate) mod tableau;

use crate::check::trace::{SpecOutcome, Trace, TraceKind};
use crate::explicit::kripke::{KripkeStructure, PropId};
use crate::ltl::Ltl;
use rayon::prelude::*;

/// Sizes of the work done for a batch of LTL specs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LtlStats {
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
pub fn stats(outcomes: &[LtlOutcome]) -> LtlStats {
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
    let trace = search.lasso.map(|l| Trace::flat(TraceKind::Counterexample, &l.states, Some(l.loop_start)));
    Ok(LtlOutcome { outcome: SpecOutcome { holds: !search.accepting, trace }, automaton_states: gba.labels.len(), product_states: search.product_states })
}
