//! The procedure-module engines behind [`Checker`]: [`Procedures`] runs the engine an [`Engine`]
//! names on every procedure spec of a batch (an `INVARSPEC` is checked as `AG` of its atom), and
//! [`Verified`] re-checks each verdict with a second engine (`--verify`).
//!
//! This is the one place where [`Engine`] is mapped onto the engine families' own entry points
//! (`check::rks::check_many` for `summary`, `incremental`, `global`; `check::ternary::check` for
//! `eager`, `lazy`), exhaustively. Traces leave here as [`Trace`](crate::check::trace::Trace)s. `LTLSPEC`s of procedure
//! modules go to the one LTL engine for them ([`RksLtl`]) whatever the engine: [`with_ltl`].

use crate::check::engine::{Checked, Checker, Engine, RunOptions, Stats};
use crate::check::ltl::rks::RksLtl;
use crate::check::trace::SpecOutcome;
use crate::check::{rks, ternary};
use crate::ctl::Ctl;
use crate::explicit::build_rks::RksSpec;
use crate::explicit::rks::{ComponentId, RecursiveKripkeStructure};
use crate::ir::PropId;
use rayon::prelude::*;

/// One RKS engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Procedures(pub Engine);

/// Runs `first`, then re-checks with `second`; a verdict they disagree on is an error naming the
/// spec, never silently resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Verified {
    pub first: Engine,
    pub second: Engine,
}

/// The formula each engine checks for a procedure spec.
fn formulas(specs: &[RksSpec]) -> Vec<(ComponentId, Ctl<PropId>)> {
    (specs.iter()).map(|s| (s.component, s.checked_formula())).collect()
}

impl Checker for Procedures {
    type Model = RecursiveKripkeStructure;
    type Spec = RksSpec;

    fn check(&self, model: &RecursiveKripkeStructure, specs: &[RksSpec], options: &RunOptions) -> Result<Checked, String> {
        with_ltl(model, specs, options, |specs| Ok(run(model, &formulas(specs), self.0, options.traces)))
    }
}

impl Checker for Verified {
    type Model = RecursiveKripkeStructure;
    type Spec = RksSpec;

    fn check(&self, model: &RecursiveKripkeStructure, specs: &[RksSpec], options: &RunOptions) -> Result<Checked, String> {
        with_ltl(model, specs, options, |specs| self.check_ctl(model, specs, options))
    }
}

impl Verified {
    /// The CTL specs and invariants, verified.
    fn check_ctl(&self, model: &RecursiveKripkeStructure, specs: &[RksSpec], options: &RunOptions) -> Result<Checked, String> {
        let specs = formulas(specs);
        let mut checked = run(model, &specs, self.first, options.traces);
        let again = run(model, &specs, self.second, false);
        for (i, (a, b)) in checked.outcomes.iter().zip(&again.outcomes).enumerate() {
            if a.holds != b.holds {
                return Err(format!(
                    "--verify: the engines disagree on procedure spec {} (module `{}`): `{}` says {}, `{}` says {}; please report this model",
                    i + 1,
                    model.components[specs[i].0.index()].name,
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

/// The `LTLSPEC`s of `specs` with [`RksLtl`], the others with `ctl`; outcomes in the order of
/// `specs`, the LTL engine's counters after `ctl`'s (`--verify` re-checks the CTL verdicts only).
fn with_ltl(
    model: &RecursiveKripkeStructure,
    specs: &[RksSpec],
    options: &RunOptions,
    ctl: impl FnOnce(&[RksSpec]) -> Result<Checked, String>,
) -> Result<Checked, String> {
    let (ltl, other): (Vec<RksSpec>, Vec<RksSpec>) = specs.iter().cloned().partition(|s| s.ltl.is_some());
    if ltl.is_empty() {
        return ctl(specs);
    }
    let mut checked = if other.is_empty() { Checked::default() } else { ctl(&other)? };
    let from_ltl = RksLtl.check(model, &ltl, options)?;
    let (mut ltl_outcomes, mut ctl_outcomes) = (from_ltl.outcomes.into_iter(), std::mem::take(&mut checked.outcomes).into_iter());
    checked.outcomes = (specs.iter()).filter_map(|s| if s.ltl.is_some() { ltl_outcomes.next() } else { ctl_outcomes.next() }).collect();
    checked.stats.counters.extend(from_ltl.stats.counters);
    checked.warnings.extend(from_ltl.warnings);
    Ok(checked)
}

/// All `specs` with `engine`. With `summary` (what `auto` and the flat engines' names run), the
/// specs whose context tables pass the context engines' budget
/// ([`rks::formula::fits_context_engines`]: large RTCTL bounds) are checked by the lazy ternary
/// engine instead; the driver refuses them before anything is built when the context engine was
/// asked for by name or `--verify` is on (E0223), so this is `auto`'s choice.
fn run(model: &RecursiveKripkeStructure, specs: &[(ComponentId, Ctl<PropId>)], engine: Engine, traces: bool) -> Checked {
    let wide: Vec<bool> = match engine.procedures() {
        Engine::Summary => specs.iter().map(|(_, f)| !rks::formula::fits_context_engines(f)).collect(),
        _ => vec![],
    };
    if !wide.contains(&true) {
        return run_one(model, specs, engine, traces);
    }
    let (mut summary, mut lazy) = (vec![], vec![]);
    for (spec, &w) in specs.iter().zip(&wide) {
        if w { &mut lazy } else { &mut summary }.push(spec.clone());
    }
    let mut checked = run_one(model, &summary, engine, traces);
    let by_lazy = run_one(model, &lazy, Engine::Lazy, traces);
    let (mut from_summary, mut from_lazy) = (std::mem::take(&mut checked.outcomes).into_iter(), by_lazy.outcomes.into_iter());
    checked.outcomes = wide.iter().filter_map(|&w| if w { from_lazy.next() } else { from_summary.next() }).collect();
    checked.stats.counters.push(("specs checked by the lazy engine (contexts past the summary engine's budget)", lazy.len() as u64));
    checked.stats.counters.extend(by_lazy.stats.counters);
    checked
}

/// All `specs` with `engine` alone.
fn run_one(model: &RecursiveKripkeStructure, specs: &[(ComponentId, Ctl<PropId>)], engine: Engine, traces: bool) -> Checked {
    let engine = engine.procedures();
    let context = |rks_engine: rks::RksEngine| {
        let results = rks::check_many(model, specs, &rks::RksOptions { engine: rks_engine, want_trace: traces });
        let mut totals = rks::RksStats::default();
        let outcomes = (results.into_iter())
            .map(|r| {
                totals.add(&r.stats);
                SpecOutcome { holds: r.holds, trace: r.trace, distance: None }
            })
            .collect();
        Checked { outcomes, stats: Stats::of(engine, totals.counters()), warnings: vec![] }
    };
    let ternary = |t_engine: ternary::TernaryEngine| {
        let results: Vec<ternary::TernaryResult> = specs.par_iter().map(|(c, f)| ternary::check(model, *c, f, t_engine, traces)).collect();
        let contexts: u64 = results.iter().map(|r| r.stats.contexts_created).sum();
        let outcomes = (results.into_iter()).map(|r| SpecOutcome { holds: r.holds, trace: r.trace, distance: None }).collect();
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
