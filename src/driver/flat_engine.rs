//! Which engine builds and checks the flat model (`--engine explicit|bdd|auto`), and `--verify`
//! for flat models.
//!
//! `auto` builds the explicit state graph under its state and memory budget (at most
//! [`AUTO_MAX_STATES`] states unless `--max-states` is given); when the build stops at the budget (E0505 `--max-states`, E0508 `--max-memory`) it builds the BDD model from
//! the same `LoweredProgram` instead (no re-parsing). The verdict output is the same whichever
//! engine decided; `--stats` says which (`flat engine: …`), and JSON consumers can read it there.
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
use crate::symbolic::SymbolicModel;

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

/// Builds the flat model with the engine `--engine` selects for flat models.
pub fn build(program: &LoweredProgram, limits: &BuildLimits, options: &CheckOptions) -> Result<FlatBuilt, Diagnostics> {
    let symbolic = || SymbolicModel::build(program, limits.max_memory, options.threads).map(FlatBuilt::Symbolic);
    match options.engine.flat() {
        Engine::Bdd => symbolic(),
        Engine::Explicit => build_flat(program, limits).map(FlatBuilt::Explicit),
        _ => match build_flat(program, &BuildLimits { max_states: limits.max_states.or(Some(AUTO_MAX_STATES)), ..*limits }) {
            Ok(m) => Ok(FlatBuilt::Explicit(m)),
            Err(d) if d.has_code(build_diag::E_LIMIT) || d.has_code(build_diag::E_MEMORY) => symbolic(),
            Err(d) => Err(d),
        },
    }
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
