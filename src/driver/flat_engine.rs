//! Which engine builds and checks the flat model (`--engine explicit|bdd|auto`), and `--verify`
//! for flat models.
//!
//! `auto` chooses from the same `LoweredProgram` (no re-parsing), with an explicit budget B
//! (`--max-states`, default [`AUTO_MAX_STATES`]): explicit when the domains allow at most B
//! states ([`nominal_states`]); else a small explicit attempt ([`AUTO_FIRST_STATES`]); else the
//! BDD reachability as a probe ([`Probe`]), kept when it finds more than B states, else the
//! explicit build under B states and [`AUTO_TRANSITIONS_PER_STATE`]·B generated successors; a
//! build stopped at a budget (E0505, E0508) goes to BDDs. The verdict output is the same
//! whichever engine decided; `--stats` says which (`flat engine: …`), JSON per spec (`engine`).
//! `--verify` checks the flat specs with both engines and turns a disagreement into an error.

use super::timeout::{Decided, one_by_one};
use super::{CheckOptions, CheckedSpecs};
use crate::check::Engine;
use crate::check::deadline::SpecClock;
use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::explicit::build_diag;
use crate::explicit::build_flat::{BuildLimits, FlatModel, build_flat};
use crate::lowering::program::{LoweredProgram, SystemId};
use crate::report::view::ModelRef;
use crate::symbolic::{Probe, SymbolicModel};

/// The flat model as one of the two engines built it (one per run: the size difference of the
/// variants does not matter).
#[allow(clippy::large_enum_variant)]
pub enum FlatBuilt {
    Explicit(FlatModel),
    Symbolic(SymbolicModel),
}

impl FlatBuilt {
    pub fn engine(&self) -> Engine {
        match self {
            FlatBuilt::Explicit(_) => Engine::Explicit,
            FlatBuilt::Symbolic(_) => Engine::Bdd,
        }
    }
    pub fn system(&self) -> SystemId {
        match self {
            FlatBuilt::Explicit(m) => m.system,
            FlatBuilt::Symbolic(m) => m.system,
        }
    }
    pub fn warnings(&self) -> &[Diagnostic] {
        match self {
            FlatBuilt::Explicit(m) => &m.warnings,
            FlatBuilt::Symbolic(m) => &m.warnings,
        }
    }
    /// Indices into `LoweredProgram::specs` of the flat specs, in the checker's order.
    pub fn spec_ids(&self) -> Vec<usize> {
        match self {
            FlatBuilt::Explicit(m) => m.specs.iter().map(|s| s.spec).collect(),
            FlatBuilt::Symbolic(m) => m.specs.iter().map(|s| s.spec).collect(),
        }
    }
    pub fn model_ref(&self) -> ModelRef<'_> {
        match self {
            FlatBuilt::Explicit(m) => ModelRef::Flat(m),
            FlatBuilt::Symbolic(m) => ModelRef::Concrete(m.system),
        }
    }
    /// The `--stats` line about the state space.
    pub fn stats_line(&self) -> String {
        match self {
            FlatBuilt::Explicit(m) => {
                format!(
                    "flat engine: explicit, states: {}, transitions: {}, propositions: {}",
                    m.kripke.num_states,
                    m.kripke.succ.edge_count(),
                    m.kripke.props.len()
                )
            }
            FlatBuilt::Symbolic(m) => {
                let (vars, parts, clusters) = m.shape();
                format!(
                    "flat engine: bdd, states: {}, diameter: {}, bdd variables: {vars}, transition parts: {parts}, clusters: {clusters}, peak bdd nodes: {}",
                    m.reachable_states(),
                    m.diameter(),
                    m.peak_nodes
                )
            }
        }
    }
    /// `(diameter, reachable states)` for `-r`.
    pub fn reachable(&self) -> (u64, f64) {
        match self {
            FlatBuilt::Explicit(m) => (u64::from(m.kripke.diameter()), f64::from(m.kripke.num_states)),
            FlatBuilt::Symbolic(m) => (m.diameter() as u64, m.reachable_states()),
        }
    }
    /// Checks the flat specs one at a time under `clock` (`--spec-timeout`, [`super::timeout`]).
    pub fn check_each(&mut self, options: &CheckOptions, stages: &super::stages::Stages, clock: &SpecClock) -> Result<Decided, String> {
        let engine = self.engine();
        let mut decided = match self {
            FlatBuilt::Explicit(m) => one_by_one(m, |m| &mut m.specs, |m| (stages.check_flat)(m, options), clock)?,
            FlatBuilt::Symbolic(m) => one_by_one(m, |m| &mut m.specs, |m| (stages.check_symbolic)(m, options), clock)?,
        };
        decided.stats.engine = Some(engine);
        Ok(decided)
    }

    /// Checks the flat specs with this model's engine.
    pub fn check(&self, options: &CheckOptions, stages: &super::stages::Stages) -> Result<CheckedSpecs, String> {
        let mut checked = match self {
            FlatBuilt::Explicit(m) => (stages.check_flat)(m, options)?,
            FlatBuilt::Symbolic(m) => (stages.check_symbolic)(m, options)?,
        };
        checked.stats.engine = Some(self.engine());
        Ok(checked)
    }
}

/// The explicit engine's state budget under `auto` when `--max-states` is not given: past it the
/// BDD engine is the better bet (the explicit graph would take seconds and gigabytes).
pub const AUTO_MAX_STATES: u64 = 1 << 18;

/// Generated successors per state of the state budget that `auto`'s explicit attempt may spend:
/// models whose states have hundreds of successors (free inputs written as unassigned state
/// variables, as in NuSMV's `syncarb10.smv`: 1,024 per state) reach the state budget only after
/// hundreds of millions of transitions, i.e. a minute, where the BDD engine needs 0.1 s.
pub const AUTO_TRANSITIONS_PER_STATE: u64 = 16;

/// The budget of `auto`'s explicit attempt: `--max-states` (default [`AUTO_MAX_STATES`]) states
/// and [`AUTO_TRANSITIONS_PER_STATE`] times as many generated successors.
pub fn auto_limits(limits: &BuildLimits) -> BuildLimits {
    let states = limits.max_states.unwrap_or(AUTO_MAX_STATES);
    BuildLimits { max_states: Some(states), max_transitions: Some(states.saturating_mul(AUTO_TRANSITIONS_PER_STATE)), ..*limits }
}

/// Builds the flat model with the engine `--engine` selects for flat models.
pub fn build(program: &LoweredProgram, limits: &BuildLimits, options: &CheckOptions) -> Result<FlatBuilt, Diagnostics> {
    let symbolic = || SymbolicModel::build(program, limits.max_memory, options.threads).map(FlatBuilt::Symbolic);
    match options.engine.flat() {
        Engine::Bdd => symbolic(),
        Engine::Explicit => build_flat(program, limits).map(FlatBuilt::Explicit),
        // Only the BDD engine checks a future operator below a past one (`O (F p)`).
        _ if needs_bdd(program) => symbolic(),
        _ => {
            let auto = auto_limits(limits);
            let max_states = auto.max_states.unwrap_or(AUTO_MAX_STATES);
            let explicit = || build_flat(program, &auto);
            let tripped = |d: &Diagnostics| d.has_code(build_diag::E_LIMIT) || d.has_code(build_diag::E_MEMORY);
            // The explicit build under the budget; past it, BDDs.
            let explicit_or_bdd = || match explicit() {
                Ok(m) => Ok(FlatBuilt::Explicit(m)),
                Err(d) if tripped(&d) => symbolic(),
                Err(d) => Err(d),
            };
            if nominal_states(program) <= max_states as f64 {
                return explicit_or_bdd();
            }
            // A first, small explicit attempt: most models with many nominal states still have
            // few reachable ones, and it costs milliseconds.
            let first_states = max_states.min(AUTO_FIRST_STATES);
            let first = BuildLimits { max_states: Some(first_states), max_transitions: Some(first_states * AUTO_FIRST_TRANSITIONS_PER_STATE), ..*limits };
            match build_flat(program, &first) {
                Ok(m) => return Ok(FlatBuilt::Explicit(m)),
                Err(d) if tripped(&d) => {}
                Err(d) => return Err(d),
            }
            let probe = Probe { max_states, max_rings: AUTO_PROBE_RINGS };
            match SymbolicModel::build_probe(program, limits.max_memory, options.threads, Some(probe)) {
                Ok(Some(m)) => Ok(FlatBuilt::Symbolic(m)),
                Ok(None) => explicit_or_bdd(),
                // The BDD engine cannot build it (LTL specs, a huge domain, an evaluation error):
                // the explicit engine reports its own error, unless it is only the budget.
                Err(bdd) => match explicit() {
                    Ok(m) => Ok(FlatBuilt::Explicit(m)),
                    Err(d) if tripped(&d) => Err(bdd),
                    Err(d) => Err(d),
                },
            }
        }
    }
}

/// Whether a spec has a future operator below a past one (`O (F p)`), which only the BDD engine
/// checks.
fn needs_bdd(program: &LoweredProgram) -> bool {
    program.specs.iter().any(|s| s.ltl.as_ref().is_some_and(|f| f.has_future_below_past()))
}

/// The state budget of `auto`'s first, small explicit attempt on a model whose domains allow
/// more states than the explicit budget.
pub const AUTO_FIRST_STATES: u64 = 1 << 14;
/// Generated successors per state of that first attempt's state budget.
pub const AUTO_FIRST_TRANSITIONS_PER_STATE: u64 = 4;

/// Breadth-first steps the probe of `auto` takes while the reachable states stay within the
/// explicit budget before it hands the model to the explicit engine.
pub const AUTO_PROBE_RINGS: usize = 512;

/// The number of states the variables' domains allow (INVAR, INIT and TRANS ignored): an upper
/// bound on the reachable states, as a float (it overflows every integer on large models).
pub fn nominal_states(program: &LoweredProgram) -> f64 {
    let Some(system) = program.flat.and_then(|s| program.systems.get(s as usize)) else { return 0.0 };
    let vars = system.vars.iter().filter(|v| v.kind != crate::ir::VarKind::Input);
    vars.map(|v| v.domain.table_len().map_or(f64::INFINITY, |n| n.max(1) as f64)).product()
}

/// `--verify`: the verdicts of `first` (`None`: undecided, `--spec-timeout`) checked again with
/// the other engine (under `clock` when given). `Ok(line)` for `--stats` when they agree on every
/// spec both decided (or the other engine cannot build the model: said in the line); `Err` names
/// the first spec they disagree on.
pub fn verify(
    program: &LoweredProgram,
    first: &FlatBuilt,
    verdicts: &[Option<bool>],
    limits: &BuildLimits,
    options: &CheckOptions,
    stages: &super::stages::Stages,
    clock: Option<&SpecClock>,
) -> Result<String, String> {
    let other_engine = first.engine().verifier();
    let other_options = CheckOptions { engine: other_engine, traces: false, ..options.clone() };
    if other_engine == Engine::Explicit && needs_bdd(program) {
        return Ok(format!("flat verified by engine {}: not run (a future operator below a past one is the BDD engine's only)", other_engine.name()));
    }
    let mut other = match build(program, limits, &other_options) {
        Ok(m) => m,
        Err(_) => return Ok(format!("flat verified by engine {}: not run (it cannot build the model)", other_engine.name())),
    };
    let again = match clock {
        Some(clock) => other.check_each(&other_options, stages, clock)?,
        None => Decided::from(other.check(&other_options, stages)?),
    };
    let again = again.outcomes.iter().map(|o| o.as_ref().ok().map(|o| o.holds));
    let mut agreed = 0;
    for ((spec, &a), b) in first.spec_ids().into_iter().zip(verdicts).zip(again) {
        let (Some(a), Some(b)) = (a, b) else { continue };
        agreed += 1;
        if a != b {
            let s = &program.specs[spec];
            return Err(format!(
                "--verify: the engines disagree on `{}`: `{}` says {}, `{}` says {}; please report this model",
                s.text,
                first.engine().name(),
                a,
                other_engine.name(),
                b
            ));
        }
    }
    Ok(format!("flat verified by engine {}: {agreed} verdicts agree", other_engine.name()))
}
