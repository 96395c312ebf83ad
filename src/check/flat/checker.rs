//! The flat-model engine behind [`Checker`]: `SPEC`/`CTLSPEC` by fair CTL labelling (all specs of
//! the batch at once, sharing subformulas, [`check_ctl_fair`]), `INVARSPEC` by reachability
//! (fairness ignored, as in NuSMV, [`check_invariants`]), `LTLSPEC` by the automata-theoretic
//! search of [`crate::check::ltl`], `COMPUTE` by searches of the graph ([`super::distance`]).
//! Outcomes come back in the batch's order.

use super::{CheckOptions, Fairness, check_ctl_fair, check_invariants};
use crate::check::engine::{Checked, Checker, RunOptions, Stats};
use crate::check::trace::SpecOutcome;
use crate::ctl::Ctl;
use crate::explicit::build_flat::{FlatModel, FlatSpec};
use crate::ir::PropId;

/// Explicit fair labelling of a [`FlatModel`]'s Kripke structure.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Explicit;

impl Checker for Explicit {
    type Model = FlatModel;
    type Spec = FlatSpec;

    fn check(&self, model: &FlatModel, specs: &[FlatSpec], options: &RunOptions) -> Result<Checked, String> {
        let k = &model.kripke;
        let (computes, specs_left): (Vec<_>, Vec<_>) = specs.iter().enumerate().partition(|(_, s)| s.compute.is_some());
        let (ltl, branching): (Vec<_>, Vec<_>) = specs_left.into_iter().partition(|(_, s)| s.ltl.is_some());
        let (invariants, ctl): (Vec<_>, Vec<_>) = branching.into_iter().partition(|(_, s)| s.invariant);
        let formulas = |specs: &[(usize, &FlatSpec)]| -> Vec<Ctl<PropId>> { specs.iter().map(|(_, s)| s.formula.clone()).collect() };
        let fairness = Fairness { states: &model.fairness, transitions: &[] };
        let flat_options = CheckOptions { threads: options.threads, traces: options.traces, witnesses: options.witnesses };
        let report = check_ctl_fair(k, &formulas(&ctl), &fairness, &flat_options);
        let invar = check_invariants(k, &formulas(&invariants), options.traces);
        let ltl_formulas: Vec<_> = ltl.iter().filter_map(|(_, s)| s.ltl.as_ref()).collect();
        let ltl_outcomes = super::run_in_pool(options.threads, || crate::check::ltl::check_ltl(k, &ltl_formulas, &model.fairness, options.traces))?;
        let ltl_stats = crate::check::ltl::stats(&ltl_outcomes);
        let bodies: Vec<_> = computes.iter().filter_map(|(_, s)| s.compute.as_ref()).collect();
        let distances = super::run_in_pool(options.threads, || super::check_computes(k, &bodies, &fairness));
        let mut outcomes = vec![None; specs.len()];
        for (&(i, _), distance) in computes.iter().zip(distances) {
            outcomes[i] = Some(SpecOutcome { holds: true, trace: None, distance: Some(distance) });
        }
        let ltl_verdicts = ltl_outcomes.into_iter().map(|o| o.outcome);
        for ((i, _), v) in ctl.iter().zip(report.verdicts).chain(invariants.iter().zip(invar)).chain(ltl.iter().zip(ltl_verdicts)) {
            outcomes[*i] = Some(v);
        }
        let outcomes = outcomes.into_iter().collect::<Option<Vec<_>>>().ok_or("the flat checker returned fewer verdicts than specs")?;
        let mut warnings = vec![];
        if report.fair_states_empty && !ctl.is_empty() {
            warnings.push("no state has an infinite fair path: every CTL specification holds vacuously".to_string());
        } else if report.no_fair_initial_state && !ctl.is_empty() {
            warnings.push("no initial state has an infinite fair path: every CTL specification holds vacuously".to_string());
        }
        let mut counters = vec![("distinct subformulas", report.distinct_subformulas as u64)];
        if !ltl.is_empty() {
            counters.extend([("LTL automaton states", ltl_stats.automaton_states), ("LTL product states", ltl_stats.product_states)]);
        }
        let stats = Stats::counters(counters);
        Ok(Checked { outcomes, stats, warnings })
    }
}
