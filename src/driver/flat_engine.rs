//! Which engine builds and checks the flat model (`--engine explicit|bdd|auto`), and `--verify`
//! for flat models.
//!
//! `auto` chooses from the same `LoweredProgram` (no re-parsing), with an explicit budget B
//! (`--max-states`, default [`AUTO_MAX_STATES`]) of B states and
//! [`AUTO_TRANSITIONS_PER_STATE`]·B generated successors, from work it counts rather than times
//! (so the same model gets the same engine on every run, whatever the machine's load): the
//! explicit build's work units ([`BuildWork::units`]: plan steps, compiled operations, tree
//! nodes evaluated, successors generated, states expanded; about 25 ns each) and the BDD nodes
//! the probe's images create ([`ProbeFacts`], [`AUTO_UNITS_PER_NODE`] units each):
//! 1. explicit when the domains allow at most [`AUTO_NOMINAL_STATES`] states ([`nominal_states`]),
//!    unless the free variables ([`free_successors`]) give every state at least
//!    [`AUTO_TRANSITIONS_PER_STATE`] successors: then as in 2, with a first stage that ends after
//!    64 states;
//! 2. else, unless the free variables alone ([`free_successors`]) give more successors than
//!    [`AUTO_FIRST_STATES`]·[`AUTO_TRANSITIONS_PER_STATE`] (then see 4), the explicit build and
//!    the BDD reachability race ([`race`]): the explicit build (budget B) runs a first stage —
//!    until it has found [`AUTO_FIRST_STATES`] states, generated 16 successors per state of them
//!    or done [`AUTO_FIRST_WORK`] units, or after 64 states when they have
//!    [`AUTO_WIDE_SUCCESSORS`] successors each on average, or, when the initial states alone are
//!    more, as soon as it has found one more of them (NuSMV's abp4 has 65,536) — and explicit it
//!    is when the build ends within it (no BDD is built);
//! 3. else the BDD probe runs, and after each of its images the explicit build goes on until
//!    its work reaches the first stage's plus [`race::AUTO_RACE_RATIO`] times the probe's image
//!    units (while its estimate for the states the probe has found is at most
//!    [`race::AUTO_FEED_FACTOR`] times the probe's units; past that it waits): the explicit build finishing first keeps the explicit model (nothing built twice);
//!    the probe passing B states, or the explicit build passing its budget, keeps the BDDs; the
//!    probe finishing first keeps the BDDs unless the explicit work still to do (estimated per
//!    state expanded) is at most [`AUTO_EXPLICIT_FACTOR`] times the probe's (BDD checking costs
//!    a multiple of its reachability), in which case the explicit build goes on to the end;
//! 4. models with too many free successors (a first stage could not fit): a measured explicit
//!    attempt on [`AUTO_MEASURE_STATES`] states gives the work per state, then the BDD probe
//!    keeps its BDDs once it has found more than B states, gives up (explicit build from scratch)
//!    once its images have cost [`AUTO_PROBE_FACTOR`] times the estimated explicit build of the
//!    states found so far, and when it finishes hands the model to the explicit engine if the
//!    estimate is at most [`AUTO_EXPLICIT_FACTOR`] times its images.
//!
//! Before all this, `auto` takes BDDs at once for a future operator below a past one (only the
//! BDD engine checks it) and for an input or unassigned word of more than 2^24 values (the
//! explicit builder refuses to enumerate it, E0234; BDDs encode it as its bits).
//!
//! An explicit build stopped at the budget (E0505, E0508) goes to BDDs. The verdict output is the
//! same whichever engine decided; `--stats` says which (`flat engine: …`) and why (`auto: …`, the
//! counted figures), JSON per spec (`engine`). The counts are the same on every run and for
//! every `-j` (the explicit builds that measure count their evaluation work as one worker would,
//! `explicit::build_flat::Gate`), so the engine, the traces and the output are too.
//! `--verify` checks the flat specs with both engines and turns a disagreement into an error.

use super::timeout::{Decided, one_by_one};
use super::{CheckOptions, CheckedSpecs};
use crate::check::Engine;
use crate::deadline::SpecClock;
use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::explicit::build_diag;
use crate::explicit::build_flat::{BuildLimits, BuildWork, FirstStage, FlatModel, build_flat, build_flat_measured};
use crate::lowering::checks::E_ENUMERATED_WORD;
use crate::lowering::program::{LoweredProgram, LoweredSpec, SystemId};
use crate::report::Verdict;
use crate::report::view::ModelRef;
use crate::symbolic::{Probe, ProbeFacts, ProbeStep, SymbolicModel};

mod race;

/// The flat model as one of the two engines built it (one per run: the size difference of the
/// variants does not matter).
#[allow(clippy::large_enum_variant)]
pub(crate) enum FlatBuilt {
    Explicit(FlatModel),
    Symbolic(SymbolicModel),
}

impl FlatBuilt {
    pub(crate) fn engine(&self) -> Engine {
        match self {
            FlatBuilt::Explicit(_) => Engine::Explicit,
            FlatBuilt::Symbolic(_) => Engine::Bdd,
        }
    }
    pub(crate) fn system(&self) -> SystemId {
        match self {
            FlatBuilt::Explicit(m) => m.system,
            FlatBuilt::Symbolic(m) => m.system,
        }
    }
    pub(crate) fn warnings(&self) -> &[Diagnostic] {
        match self {
            FlatBuilt::Explicit(m) => &m.warnings,
            FlatBuilt::Symbolic(m) => &m.warnings,
        }
    }
    /// Indices into `LoweredProgram::specs` of the flat specs, in the checker's order.
    pub(crate) fn spec_ids(&self) -> Vec<usize> {
        match self {
            FlatBuilt::Explicit(m) => m.specs.iter().map(|s| s.spec).collect(),
            FlatBuilt::Symbolic(m) => m.specs.iter().map(|s| s.spec).collect(),
        }
    }
    pub(crate) fn model_ref(&self) -> ModelRef<'_> {
        match self {
            FlatBuilt::Explicit(m) => ModelRef::Flat(m),
            FlatBuilt::Symbolic(m) => ModelRef::Concrete(m),
        }
    }
    /// The `--stats` line about the state space.
    pub(crate) fn stats_line(&self) -> String {
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
                let explored = if m.stopped_early { " (explored: stopped at the first bad states)" } else { "" };
                format!(
                    "flat engine: bdd, states: {}, diameter: {}{explored}, bdd variables: {vars}, transition parts: {parts}, clusters: {clusters}, peak bdd nodes: {}",
                    m.reachable_states(),
                    m.diameter(),
                    m.peak_nodes
                )
            }
        }
    }
    /// `(diameter, reachable states)` for `-r`, counting states as NuSMV does
    /// ([`crate::lowering::program::System::counts_in_state`]).
    pub(crate) fn reachable(&self, program: &LoweredProgram) -> (u64, f64) {
        let system = &program.systems[self.system().index()];
        match self {
            FlatBuilt::Explicit(m) if system.has_uncounted_state() => {
                let (diameter, states) = m.kripke.counted_figures(crate::explicit::packed_table::Layout::counted(system));
                (u64::from(diameter), f64::from(states))
            }
            FlatBuilt::Explicit(m) => (u64::from(m.kripke.diameter()), f64::from(m.kripke.num_states)),
            FlatBuilt::Symbolic(m) => {
                let (diameter, states) = m.full_figures(system);
                (diameter as u64, states)
            }
        }
    }
    /// Checks the flat specs one at a time under `clock` (`--spec-timeout`, [`super::timeout`]).
    pub(crate) fn check_each(&mut self, options: &CheckOptions, stages: &super::stages::Stages, clock: &SpecClock) -> Result<Decided, String> {
        let engine = self.engine();
        let mut decided = match self {
            FlatBuilt::Explicit(m) => one_by_one(m, |m| &mut m.specs, |m| (stages.check_flat)(m, options), clock)?,
            FlatBuilt::Symbolic(m) => one_by_one(m, |m| &mut m.specs, |m| (stages.check_symbolic)(m, options), clock)?,
        };
        decided.stats.engine = Some(engine);
        Ok(decided)
    }

    /// Checks the flat specs with this model's engine.
    pub(crate) fn check(&self, options: &CheckOptions, stages: &super::stages::Stages) -> Result<CheckedSpecs, String> {
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
pub(crate) const AUTO_MAX_STATES: u64 = 1 << 21;

/// Models whose domains allow at most this many states (and no more than the budget) are built
/// explicitly at once: the explicit build of such a model costs no more than a BDD probe.
pub(crate) const AUTO_NOMINAL_STATES: u64 = 1 << 18;

/// Generated successors per state of the state budget that `auto`'s explicit builds may spend:
/// models whose states have hundreds of successors (free inputs written as unassigned state
/// variables, as in NuSMV's `syncarb10.smv`: 1,024 per state) reach the state budget only after
/// hundreds of millions of transitions, i.e. a minute, where the BDD engine needs 0.1 s.
pub(crate) const AUTO_TRANSITIONS_PER_STATE: u64 = 16;

/// The budget of `auto`'s explicit builds: `--max-states` (default [`AUTO_MAX_STATES`]) states
/// and [`AUTO_TRANSITIONS_PER_STATE`] times as many generated successors.
pub(crate) fn auto_limits(limits: &BuildLimits) -> BuildLimits {
    let states = limits.max_states.unwrap_or(AUTO_MAX_STATES);
    BuildLimits { max_states: Some(states), max_transitions: Some(states.saturating_mul(AUTO_TRANSITIONS_PER_STATE)), ..*limits }
}

/// Builds the flat model with the engine `--engine` selects for flat models.
pub(crate) fn build(program: &LoweredProgram, limits: &BuildLimits, options: &CheckOptions) -> Result<FlatBuilt, Diagnostics> {
    build_noted(program, limits, options).map(|(m, _)| m)
}

/// [`build`], with `auto`'s reasons for its choice (a `--stats` line) when it chose.
pub(crate) fn build_noted(program: &LoweredProgram, limits: &BuildLimits, options: &CheckOptions) -> Result<(FlatBuilt, Option<String>), Diagnostics> {
    let symbolic = || SymbolicModel::build(program, limits.max_memory, options.threads).map(FlatBuilt::Symbolic);
    match options.engine.flat() {
        Engine::Bdd => symbolic().map(|m| (m, None)),
        Engine::Explicit => build_flat(program, limits).map(|m| (FlatBuilt::Explicit(m), None)).map_err(with_symbolic_hint),
        // Only the BDD engine checks a future operator below a past one (`O (F p)`).
        _ if needs_bdd(program) => symbolic().map(|m| (m, Some("auto: bdd, a future operator below a past one".to_string()))),
        // Words the explicit builder would enumerate value by value (E0234) are bits to BDDs.
        _ if let Some(var) = word_beyond_explicit_reach(program) => {
            symbolic().map(|m| (m, Some(format!("auto: bdd, the explicit build would enumerate the values of `{var}`"))))
        }
        _ => auto(program, limits, options).map(|(m, note)| (m, Some(note))),
    }
}

/// `--engine explicit` past its state or memory budget: the help also names the BDD engine,
/// which `auto` would have switched to.
fn with_symbolic_hint(mut diags: Diagnostics) -> Diagnostics {
    for d in &mut diags.items {
        if d.code == build_diag::E_LIMIT || d.code == build_diag::E_MEMORY {
            d.help.push(
                "or check it with BDDs: `--engine bdd`, or `--engine auto` (the default), which switches to them when the explicit build passes its budget"
                    .into(),
            );
        } else if d.code == E_ENUMERATED_WORD {
            d.help.push("or check it with BDDs, which encode the word as its bits: `--engine bdd`, or `--engine auto` (the default)".into());
        }
    }
    diags
}

/// `auto`'s choice (module doc); the second value says why, for `--stats`.
fn auto(program: &LoweredProgram, limits: &BuildLimits, options: &CheckOptions) -> Result<(FlatBuilt, String), Diagnostics> {
    let symbolic = || SymbolicModel::build(program, limits.max_memory, options.threads).map(FlatBuilt::Symbolic);
    let auto = auto_limits(limits);
    let max_states = auto.max_states.unwrap_or(AUTO_MAX_STATES);
    let tripped = |d: &Diagnostics| d.has_code(build_diag::E_LIMIT) || d.has_code(build_diag::E_MEMORY);
    // The explicit build under the budget; past it, BDDs.
    let explicit_or_bdd = |why: String| match build_flat(program, &auto) {
        Ok(m) => Ok((FlatBuilt::Explicit(m), why)),
        Err(d) if tripped(&d) => symbolic().map(|m| (m, format!("{why}; the explicit build passed its budget"))),
        Err(d) => Err(d),
    };
    let nominal = nominal_states(program);
    let free = free_successors(program);
    // A model of few state bits whose free variables alone give every state many successors
    // (NuSMV's `syncarb5.smv`: 5 free booleans, 32 per state) is cheap to encode, and its BDD
    // images take the branching in one step: it races (`fanned_out`) instead.
    let few_bits = nominal <= max_states.min(AUTO_NOMINAL_STATES) as f64;
    let fanned_out = few_bits && free >= AUTO_TRANSITIONS_PER_STATE as f64;
    if few_bits && !fanned_out {
        return explicit_or_bdd(format!("auto: explicit, the domains allow {nominal} states"));
    }
    // A first, small explicit attempt: most models with many nominal states still have few
    // reachable ones, and it costs milliseconds. Its work per expanded state (counted:
    // [`explicit_units`]) is the rate by which the explicit build of n states is estimated.
    let first_states = max_states.min(AUTO_FIRST_STATES);
    let hopeless = free * free > (first_states * AUTO_TRANSITIONS_PER_STATE) as f64;
    if !hopeless {
        // The explicit build and the BDD probe race (`race`): the explicit build's first stage is
        // the small attempt.
        let transitions = first_states * AUTO_TRANSITIONS_PER_STATE;
        // Every state of a fanned-out model has at least `free` successors: the first stage
        // ends after 64 states.
        let wide = if fanned_out { AUTO_WIDE_SUCCESSORS.min(free as u64) } else { AUTO_WIDE_SUCCESSORS };
        let first = FirstStage { states: first_states, transitions, work: AUTO_FIRST_WORK, wide };
        return race::race(program, &auto, limits.max_memory, options.threads, first);
    }
    // Every state has at least `free` distinct successors, so at least `free` states each have
    // them: that passes the attempt's transition budget, so it only measures one batch.
    let first_transitions = AUTO_MEASURE_STATES * free as u64;
    let first = BuildLimits { max_states: Some(first_states), max_transitions: Some(first_transitions), ..*limits };
    let mut work = BuildWork::default();
    match build_flat_measured(program, &first, &mut work, AUTO_FIRST_WORK) {
        Ok(m) => {
            let units = work.units();
            return Ok((FlatBuilt::Explicit(m), format!("auto: explicit, the first attempt ({first_states} states) built it ({units} work units)")));
        }
        Err(d) if tripped(&d) => {}
        Err(d) => return Err(d),
    }
    // Per expanded state (the initial states' enumeration is a small part: counted, not divided).
    let per_state = explicit_units(&work) / work.expanded.max(1) as f64;
    let explicit_cost = |n: f64| per_state * n.max(work.expanded as f64);
    // The BDD reachability as a probe. Its cost is the nodes its images create, in explicit work
    // units ([`AUTO_UNITS_PER_NODE`]; the relation's construction before is paid whichever way
    // the probe ends): it gives up once the images have cost more than the explicit build of the
    // states they found would, and keeps its BDDs once they are more than the budget.
    let last = std::cell::Cell::new(None::<ProbeFacts>);
    let images = |f: &ProbeFacts| f.nodes.saturating_sub(f.setup_nodes) as f64 * AUTO_UNITS_PER_NODE;
    let step = |f: ProbeFacts| {
        last.set(Some(f));
        if f.states > max_states as f64 {
            ProbeStep::Keep
        } else if images(&f) > AUTO_PROBE_FACTOR * explicit_cost(f.states) {
            ProbeStep::GiveUp
        } else {
            ProbeStep::Continue
        }
    };
    let probe = Probe { step: &step };
    let built = SymbolicModel::build_probe(program, limits.max_memory, options.threads, Some(probe));
    let first_note = if hopeless { format!("first attempt {free} successors per state, measured on") } else { "first attempt".to_string() };
    let facts = match last.get() {
        Some(f) => format!(
            "{first_note} {} states ({per_state:.0} units per state), BDD probe {} rings, {} nodes created ({:.0} units)",
            work.expanded,
            f.rings,
            f.nodes.saturating_sub(f.setup_nodes),
            images(&f)
        ),
        None => format!("{first_note} {} states ({per_state:.0} units per state), BDD probe without images", work.expanded),
    };
    let probe_images = last.get().map_or(0.0, |f| images(&f));
    match built {
        Ok(Some(m)) => {
            // The probe finished: the explicit build wins when it is estimated to cost no more
            // than a multiple of the BDD reachability after the relation's construction (checking
            // with BDDs costs a multiple of it, with the explicit engine a fraction of the build).
            let states = m.reachable_states();
            let estimate = explicit_cost(states);
            let facts = format!("{facts}, {states} states, explicit estimate {estimate:.0} units");
            if states <= max_states as f64 && estimate <= AUTO_EXPLICIT_FACTOR * probe_images {
                match build_flat(program, &auto) {
                    Ok(e) => Ok((FlatBuilt::Explicit(e), format!("auto: explicit, {facts}"))),
                    Err(d) if tripped(&d) => Ok((FlatBuilt::Symbolic(m), format!("auto: bdd, {facts}; the explicit build passed its budget"))),
                    Err(d) => Err(d),
                }
            } else {
                Ok((FlatBuilt::Symbolic(m), format!("auto: bdd, {facts}")))
            }
        }
        Ok(None) => explicit_or_bdd(format!("auto: explicit, {facts}, the probe gave up")),
        // The BDD engine cannot build it (LTL specs, a huge domain, an evaluation error): the
        // explicit engine reports its own error, unless it is only the budget.
        Err(bdd) => match build_flat(program, &auto) {
            Ok(m) => Ok((FlatBuilt::Explicit(m), format!("auto: explicit, {facts}, the BDD engine cannot build it"))),
            Err(d) if tripped(&d) => Err(bdd),
            Err(d) => Err(d),
        },
    }
}

/// The explicit build's work in units comparable across models ([`BuildWork::units`]: plan
/// steps, compiled operations run, generated successors).
pub(crate) fn explicit_units(work: &BuildWork) -> f64 {
    work.units() as f64
}

/// The number of successors every state has at least through its free state variables: those
/// without `next()`/invariant assignment that no `TRANS` reads as `next(v)` and no `INVAR` reads
/// (each of their values gives a distinct successor). 1 when there are none.
pub(crate) fn free_successors(program: &LoweredProgram) -> f64 {
    let Some(system) = program.flat.and_then(|s| program.systems.get(s.index())) else { return 1.0 };
    let n = system.vars.len();
    let mut constrained = vec![false; n];
    for e in &system.trans {
        let (_, next) = crate::symbolic::cone::reads(system, e);
        constrained.iter_mut().zip(next).for_each(|(c, r)| *c |= r);
    }
    for e in &system.invar {
        let (cur, _) = crate::symbolic::cone::reads(system, e);
        constrained.iter_mut().zip(cur).for_each(|(c, r)| *c |= r);
    }
    let free = (0..n).filter(|&v| {
        let var = &system.vars[v];
        var.kind == crate::ir::VarKind::State && system.next_assign[v].is_none() && system.invar_assign[v].is_none() && !constrained[v]
    });
    free.map(|v| system.vars[v].domain.table_len().map_or(f64::INFINITY, |k| k.max(1) as f64)).product()
}

/// The flat specs with a future operator below a past one (`O (F p)`), which only the BDD engine
/// checks (procedure modules refuse them earlier, E0221).
pub(crate) fn bdd_only_specs(program: &LoweredProgram) -> impl Iterator<Item = &LoweredSpec> {
    program.specs.iter().filter(|s| Some(s.system) == program.flat && s.ltl.as_ref().is_some_and(|f| f.has_future_below_past()))
}

/// The first flat-model variable the explicit builder refuses to enumerate (E0234: an input or
/// unassigned word wider than 2^24 values), if any.
fn word_beyond_explicit_reach(program: &LoweredProgram) -> Option<String> {
    let system = program.flat.and_then(|s| program.systems.get(s.index()))?;
    let (v, _) = crate::lowering::checks::words_beyond_explicit_reach(system).next()?;
    Some(system.vars[v].name.clone())
}

/// Whether some flat spec is one of [`bdd_only_specs`].
fn needs_bdd(program: &LoweredProgram) -> bool {
    bdd_only_specs(program).next().is_some()
}

/// The state budget of `auto`'s first, small explicit attempt on a model whose domains allow
/// more states than [`AUTO_NOMINAL_STATES`] (with [`AUTO_TRANSITIONS_PER_STATE`] successors per
/// state of it).
pub(crate) const AUTO_FIRST_STATES: u64 = 1 << 15;

/// Successors per state from which the explicit build's first stage ends after 64 states and the
/// race with the BDD probe begins: NuSMV's `gigamax.smv` (about 110 per state, the nondeterminism
/// of its bus) is cheaper with BDDs, whose images take such branching in one step.
pub(crate) const AUTO_WIDE_SUCCESSORS: u64 = 64;

/// The states a first attempt that cannot fit (its free variables alone need more successors
/// than its budget, [`free_successors`]) expands to measure the work per state. Each has at
/// least `free` successors, so a few states measure thousands of them: on NuSMV's
/// `syncarb10.smv` (1,024 per state) 8 states give 2,218 units per state against 2,118 from
/// 64, and the whole run takes 24 ms instead of 30 (NuSMV 2.5.4: 18 ms).
pub(crate) const AUTO_MEASURE_STATES: u64 = 8;

/// The work budget of the first attempt, in explicit work units ([`BuildWork::units`]): a
/// model whose states each cost thousands of units (the giant `TRANS` disjunctions of NuSMV's
/// `deadlock` examples) stops after it rather than after a batch of states.
pub(crate) const AUTO_FIRST_WORK: u64 = 1 << 24;

/// Explicit work units that cost as much CPU time as one BDD node created by the probe's images.
pub(crate) const AUTO_UNITS_PER_NODE: f64 = 40.0;

/// The BDD probe gives up (and the explicit engine builds the model) once it has cost more than
/// this many times the explicit build of the states it has found, as estimated from the first
/// attempt.
pub(crate) const AUTO_PROBE_FACTOR: f64 = 2.0;

/// A finished probe hands the model to the explicit engine when the explicit build of its
/// states is estimated to cost at most this many times the probe: the BDD engine's checking
/// costs a multiple of its reachability, the explicit engine's a fraction of its build.
pub(crate) const AUTO_EXPLICIT_FACTOR: f64 = 2.0;

/// The number of states the variables' domains allow (INVAR, INIT and TRANS ignored): an upper
/// bound on the reachable states, as a float (it overflows every integer on large models).
pub(crate) fn nominal_states(program: &LoweredProgram) -> f64 {
    let Some(system) = program.flat.and_then(|s| program.systems.get(s.index())) else { return 0.0 };
    let vars = system.vars.iter().filter(|v| v.kind != crate::ir::VarKind::Input);
    vars.map(|v| v.domain.table_len().map_or(f64::INFINITY, |n| n.max(1) as f64)).product()
}

/// `--verify`: the verdicts of `first` (`None`: undecided, `--spec-timeout`) checked again with
/// the other engine (under `clock` when given). `Ok(line)` for `--stats` when they agree on every
/// spec both decided (or the other engine cannot build the model: said in the line); `Err` names
/// the first spec they disagree on.
pub(crate) fn verify(
    program: &LoweredProgram,
    first: &FlatBuilt,
    verdicts: &[Option<Verdict>],
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
    let again = again.outcomes.iter().map(|o| o.as_ref().ok().map(Verdict::of_outcome));
    let mut agreed = 0;
    for ((spec, &a), b) in first.spec_ids().into_iter().zip(verdicts).zip(again) {
        let (Some(a), Some(b)) = (a, b) else { continue };
        agreed += 1;
        if a != b {
            let s = &program.specs[spec];
            return Err(format!(
                "--verify: the engines disagree on `{}`: `{}` says {}, `{}` says {}; please report this model",
                s.text.trim_end(),
                first.engine().name(),
                a.describe(),
                other_engine.name(),
                b.describe()
            ));
        }
    }
    Ok(format!("flat verified by engine {}: {agreed} verdicts agree", other_engine.name()))
}
