//! The procedure-module engines behind [`Checker`]: [`Procedures`] runs the engine an [`Engine`]
//! names on every procedure spec of a batch (an `INVARSPEC` is checked as `AG` of its atom), and
//! [`Verified`] re-checks each verdict with a second engine (`--verify`).
//!
//! This is the one place where [`Engine`] is mapped onto the engine families' own entry points
//! (`check::rks::check_many` for `summary`, `incremental`, `global`; `check::ternary::check` for
//! `eager`, `lazy`), exhaustively. Traces leave here as [`Trace`]s.

use crate::check::engine::{Checked, Checker, Engine, RunOptions, Stats};
use crate::check::trace::{SpecOutcome, Trace};
use crate::check::{rks, ternary};
use crate::ctl::Ctl;
use crate::explicit::build_rks::RksSpec;
use crate::explicit::rks::{ComponentId, PropId, RecursiveKripkeStructure};
use rayon::prelude::*;

/// One RKS engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Procedures(pub Engine);

/// Runs `first`, then re-checks with `second`; a verdict they disagree on is an error naming the
/// spec, never silently resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verified {
    pub first: Engine,
    pub second: Engine,
}

/// The formula each engine checks for a procedure spec.
fn formulas(specs: &[RksSpec]) -> Vec<(ComponentId, Ctl<PropId>)> {
    (specs.iter()).map(|s| (s.component, if s.invariant { Ctl::AG(Box::new(s.formula.clone())) } else { s.formula.clone() })).collect()
}

impl Checker for Procedures {
    type Model = RecursiveKripkeStructure;
    type Spec = RksSpec;

    fn check(&self, model: &RecursiveKripkeStructure, specs: &[RksSpec], options: &RunOptions) -> Result<Checked, String> {
        Ok(run(model, &formulas(specs), self.0, options.traces))
    }
}

impl Checker for Verified {
    type Model = RecursiveKripkeStructure;
    type Spec = RksSpec;

    fn check(&self, model: &RecursiveKripkeStructure, specs: &[RksSpec], options: &RunOptions) -> Result<Checked, String> {
        let specs = formulas(specs);
        let mut checked = run(model, &specs, self.first, options.traces);
        let again = run(model, &specs, self.second, false);
        for (i, (a, b)) in checked.outcomes.iter().zip(&again.outcomes).enumerate() {
            if a.holds != b.holds {
                return Err(format!(
                    "--verify: the engines disagree on procedure spec {} (module `{}`): `{}` says {}, `{}` says {}; please report this model",
                    i + 1,
                    model.components[specs[i].0 as usize].name,
                    self.first.name(),
                    a.holds,
                    self.second.name(),
                    b.holds
                ));
            }
        }
        checked.stats.verified_by = Some((self.second, again.outcomes.len()));
        Ok(checked)
    }
}

/// All `specs` with `engine`.
fn run(model: &RecursiveKripkeStructure, specs: &[(ComponentId, Ctl<PropId>)], engine: Engine, traces: bool) -> Checked {
    let engine = engine.procedures();
    let context = |rks_engine: rks::RksEngine| {
        let results = rks::check_many(model, specs, &rks::RksOptions { engine: rks_engine, want_trace: traces });
        let mut totals = rks::RksStats::default();
        let outcomes = (results.into_iter())
            .map(|r| {
                totals.add(&r.stats);
                SpecOutcome { holds: r.holds, trace: r.trace.map(|t| Trace::from_rks(&t)) }
            })
            .collect();
        Checked { outcomes, stats: Stats::of(engine, totals.counters()), warnings: vec![] }
    };
    let ternary = |t_engine: ternary::TernaryEngine| {
        let results: Vec<ternary::TernaryResult> = specs.par_iter().map(|(c, f)| ternary::check(model, *c, f, t_engine, traces)).collect();
        let contexts: u64 = results.iter().map(|r| r.stats.contexts_created).sum();
        let outcomes = (results.into_iter()).map(|r| SpecOutcome { holds: r.holds, trace: r.trace.map(|t| Trace::from_rks(&t)) }).collect();
        Checked { outcomes, stats: Stats::of(engine, vec![("contexts created", contexts)]), warnings: vec![] }
    };
    match engine {
        Engine::Summary | Engine::Auto | Engine::Explicit | Engine::Bdd => context(rks::RksEngine::Summary),
        Engine::Incremental => context(rks::RksEngine::Incremental),
        Engine::Global => context(rks::RksEngine::Global),
        Engine::Eager => ternary(ternary::TernaryEngine::Eager),
        Engine::Lazy => ternary(ternary::TernaryEngine::Lazy),
    }
}
