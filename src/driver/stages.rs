//! The stages the driver chains, as function pointers: the front end, the flat checker and the
//! RKS checkers, each adapted here to the driver's shapes. [`Stages::linked`] is what the command
//! line uses; tests may swap the front end for a hand-built `LoweredProgram`.

use super::{CheckOptions, CheckedSpecs, Engine};
use crate::check::trace::{CallFrame, SpecOutcome, TERMINATED, Trace, TraceKind, TraceStep};
use crate::ctl::Ctl;
use crate::diagnostics::Diagnostics;
use crate::explicit::build_flat::FlatModel;
use crate::explicit::build_rks::RksModel;
use crate::explicit::rks::{ComponentId, NodeId, PropId};
use crate::lowering::program::LoweredProgram;
use crate::source::SourceFile;
use crate::syntax::ast::TerminationRule;

/// Parses, resolves and lowers a file (`--termination` overrides the file's directive).
pub type LoadFn = fn(&SourceFile, Option<TerminationRule>) -> (Option<LoweredProgram>, Diagnostics);
/// Checks the specs of a flat model, one outcome per `FlatModel::specs` entry.
pub type CheckFlatFn = fn(&FlatModel, &CheckOptions) -> Result<CheckedSpecs, String>;
/// Checks the procedure specs, one outcome per `RksModel::specs` entry.
pub type CheckRksFn = fn(&RksModel, &CheckOptions) -> Result<CheckedSpecs, String>;

#[derive(Clone, Copy, Debug)]
pub struct Stages {
    pub load: LoadFn,
    pub check_flat: CheckFlatFn,
    pub check_rks: CheckRksFn,
}

impl Stages {
    /// The crate's own stages.
    pub fn linked() -> Stages {
        Stages { load: crate::frontend::load, check_flat, check_rks }
    }
}

/// `check::flat`: CTL specs by fair labelling (all at once, sharing subformulas), invariants by
/// reachability (fairness ignored, as in NuSMV).
pub fn check_flat(model: &FlatModel, options: &CheckOptions) -> Result<CheckedSpecs, String> {
    use crate::check::flat;
    let k = &model.kripke;
    let (invariants, ctl): (Vec<_>, Vec<_>) = model.specs.iter().enumerate().partition(|(_, s)| s.invariant);
    let formulas = |specs: &[(usize, &crate::explicit::build_flat::FlatSpec)]| -> Vec<Ctl<PropId>> { specs.iter().map(|(_, s)| s.formula.clone()).collect() };
    let report = flat::check_ctl(
        k,
        &formulas(&ctl),
        &model.fairness,
        &flat::CheckOptions { threads: options.threads, traces: options.traces, witnesses: options.witnesses },
    );
    let invar = flat::check_invariants(k, &formulas(&invariants), options.traces);
    let mut outcomes = vec![None; model.specs.len()];
    for ((i, _), v) in ctl.iter().zip(report.verdicts).chain(invariants.iter().zip(invar)) {
        outcomes[*i] = Some(v);
    }
    let outcomes = outcomes.into_iter().collect::<Option<Vec<_>>>().ok_or("the flat checker returned fewer verdicts than specs")?;
    let mut warnings = vec![];
    if report.fair_states_empty && !ctl.is_empty() {
        warnings.push("no state has an infinite fair path: every CTL specification holds vacuously".to_string());
    } else if report.no_fair_initial_state && !ctl.is_empty() {
        warnings.push("no initial state has an infinite fair path: every CTL specification holds vacuously".to_string());
    }
    let stats = vec![format!("distinct subformulas: {}", report.distinct_subformulas)];
    Ok(CheckedSpecs { outcomes, stats, warnings })
}

/// `check::rks` (engines `incremental`, `global`) and `check::ternary` (`eager`, `lazy`); an
/// `INVARSPEC` of a procedure module is checked as `AG` of its atom. With `--verify` every verdict
/// is checked again by an engine of the other family ([`Engine::verifier`]); a disagreement is an
/// error naming the spec, never silently resolved.
pub fn check_rks(model: &RksModel, options: &CheckOptions) -> Result<CheckedSpecs, String> {
    let specs: Vec<(ComponentId, Ctl<PropId>)> =
        (model.specs.iter()).map(|s| (s.component, if s.invariant { Ctl::AG(Box::new(s.formula.clone())) } else { s.formula.clone() })).collect();
    let run = || -> Result<CheckedSpecs, String> {
        let mut checked = run_rks_engine(&model.rks, &specs, options.engine, options.traces);
        if options.verify {
            let second = options.engine.verifier();
            let again = run_rks_engine(&model.rks, &specs, second, false);
            for (i, (a, b)) in checked.outcomes.iter().zip(&again.outcomes).enumerate() {
                if a.holds != b.holds {
                    return Err(format!(
                        "--verify: the engines disagree on procedure spec {} (module `{}`): `{}` says {}, `{}` says {}; please report this model",
                        i + 1,
                        model.rks.components[specs[i].0 as usize].name,
                        options.engine.name(),
                        a.holds,
                        second.name(),
                        b.holds
                    ));
                }
            }
            checked.stats.push(format!("verified by engine {}: {} verdicts agree", second.name(), again.outcomes.len()));
        }
        Ok(checked)
    };
    if options.threads == 0 {
        return run();
    }
    let pool = rayon::ThreadPoolBuilder::new().num_threads(options.threads).build().map_err(|e| format!("cannot start {} threads: {e}", options.threads))?;
    pool.install(run)
}

/// All procedure specs with one engine.
fn run_rks_engine(
    rks_model: &crate::explicit::rks::RecursiveKripkeStructure,
    specs: &[(ComponentId, Ctl<PropId>)],
    engine: Engine,
    traces: bool,
) -> CheckedSpecs {
    use crate::check::{rks, ternary};
    use rayon::prelude::*;
    match engine {
        Engine::Incremental | Engine::Global | Engine::Summary => {
            let rks_engine = match engine {
                Engine::Global => rks::RksEngine::Global,
                Engine::Summary => rks::RksEngine::Summary,
                _ => rks::RksEngine::Incremental,
            };
            let results = rks::check_many(rks_model, specs, &rks::RksOptions { engine: rks_engine, want_trace: traces });
            let mut totals = rks::RksStats::default();
            let outcomes = (results.into_iter())
                .map(|r| {
                    totals.context_pairs_created += r.stats.context_pairs_created;
                    totals.context_pairs_checked += r.stats.context_pairs_checked;
                    totals.local_checks += r.stats.local_checks;
                    totals.fixpoint_rounds += r.stats.fixpoint_rounds;
                    SpecOutcome { holds: r.holds, trace: r.trace.map(|t| rks_trace(&t)) }
                })
                .collect();
            let stats = vec![
                format!("engine: {}", engine.name()),
                format!("context pairs created: {}", totals.context_pairs_created),
                format!("context pairs checked: {}", totals.context_pairs_checked),
                format!("local checks: {}", totals.local_checks),
                format!("fixpoint rounds: {}", totals.fixpoint_rounds),
            ];
            CheckedSpecs { outcomes, stats, warnings: vec![] }
        }
        Engine::Eager | Engine::Lazy => {
            let t_engine = if engine == Engine::Eager { ternary::TernaryEngine::Eager } else { ternary::TernaryEngine::Lazy };
            let results: Vec<ternary::TernaryResult> = specs.par_iter().map(|(c, f)| ternary::check(rks_model, *c, f, t_engine, traces)).collect();
            let contexts: u64 = results.iter().map(|r| r.stats.contexts_created).sum();
            let outcomes = (results.into_iter()).map(|r| SpecOutcome { holds: r.holds, trace: r.trace.map(|t| rks_trace(&t)) }).collect();
            CheckedSpecs { outcomes, stats: vec![format!("engine: {}", engine.name()), format!("contexts created: {contexts}")], warnings: vec![] }
        }
    }
}

fn frames(stack: &[(ComponentId, NodeId)]) -> Vec<CallFrame> {
    stack.iter().map(|&(component, call)| CallFrame { component, call }).collect()
}

fn rks_trace(t: &crate::check::rks::RksTrace) -> Trace {
    use crate::check::rks::RksStep;
    let steps = (t.steps.iter())
        .map(|s| match s {
            RksStep::At { component, node, stack } => TraceStep { component: *component, state: *node, stack: frames(stack) },
            RksStep::Terminated => TraceStep { component: 0, state: TERMINATED, stack: vec![] },
        })
        .collect();
    let kind = if t.counterexample { TraceKind::Counterexample } else { TraceKind::Witness };
    Trace { kind, steps, loop_start: t.loop_start, loop_push: frames(&t.loop_push) }
}
