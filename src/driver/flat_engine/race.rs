//! `--engine auto`'s race between the two flat engines (the rule is in the parent module's doc).
//!
//! The explicit build runs on a thread of its own under a [`Gate`]: it builds its first stage
//! and pauses. Then the BDD reachability probe runs on this thread, and after each of its
//! breadth-first steps the explicit build may go on until its work reaches its first stage's
//! plus [`AUTO_RACE_RATIO`] times the work of the probe's images so far (explicit work units
//! against BDD nodes created, [`AUTO_UNITS_PER_NODE`] units each: counted, not timed), while its
//! estimated build of the states the probe has found is at most [`AUTO_FEED_FACTOR`] times the
//! probe's images (past that it waits for the probe's end). So the
//! engine that is cheaper on the model finishes first, and neither is built twice: the explicit
//! build that wins is the one that was started, the probe that wins is the BDD model. The
//! explicit build's stretch after a probe step runs beside the probe's next image, but each
//! decision waits for the report of the stretch it depends on, so the outcome and the figures
//! are those of running the two in turns: the same on every run and for every `-j`.

use super::{AUTO_EXPLICIT_FACTOR, AUTO_UNITS_PER_NODE, FlatBuilt};
use crate::diagnostics::Diagnostics;
use crate::explicit::build_diag;
use crate::explicit::build_flat::{BuildLimits, BuildWork, FirstStage, FlatModel, Gate, UNGATED, build_flat_gated};
use crate::lowering::program::LoweredProgram;
use crate::symbolic::{Probe, ProbeFacts, ProbeStep, SymbolicModel};
use std::cell::{Cell, RefCell};
use std::sync::mpsc;

/// The explicit build may do this many work units per unit of the probe's images.
pub(crate) const AUTO_RACE_RATIO: f64 = 2.0;

/// The explicit build is resumed only while its estimated build of the states the probe has
/// found so far costs at most this many times the probe's images: past that it cannot win
/// (NuSMV's abp4: 626,256 states in 20 cheap images), and it waits for the probe's end.
pub(crate) const AUTO_FEED_FACTOR: f64 = 4.0;

/// Plan steps one state's expansion may take in `auto`'s explicit build (about 0.4 s): NuSMV's
/// `deadlock/dph35.smv` spends seconds on its first state, where the BDDs need a few.
pub(crate) const AUTO_STATE_STEPS: u64 = 1 << 24;

/// How the explicit build ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    Built,
    /// E0505/E0508: past the state, transition or memory budget (or stopped by the race).
    OverBudget,
    /// Another error (an evaluation error in a reachable state): the explicit engine reports it.
    Failed,
}

/// What the explicit thread reports: paused at its allowance with this work, or done.
enum Report {
    Paused(BuildWork),
    Done(Outcome, BuildWork),
}

/// This thread's end of the explicit build.
struct Explicit {
    allow: mpsc::Sender<Option<u64>>,
    reports: mpsc::Receiver<Report>,
    /// The last report.
    last: Report,
}

impl Explicit {
    /// Lets the build go on to `allowance` work units and waits for its report.
    fn resume(&mut self, allowance: u64) {
        if self.start(allowance) {
            self.wait();
        }
    }
    /// Lets the build go on to `allowance` work units without waiting: the caller reads the
    /// report with [`Explicit::wait`] before anything else reads `last`. `false`: the build has
    /// ended (no report will come).
    fn start(&mut self, allowance: u64) -> bool {
        self.allow.send(Some(allowance)).is_ok()
    }
    fn wait(&mut self) {
        // A thread that ended without reporting (a panic) is joined and re-raised by the caller.
        self.last = self.reports.recv().unwrap_or(Report::Done(Outcome::Failed, BuildWork::default()));
    }
    fn work(&self) -> BuildWork {
        match self.last {
            Report::Paused(w) | Report::Done(_, w) => w,
        }
    }
}

type Handle<'s> = std::thread::ScopedJoinHandle<'s, Result<FlatModel, Diagnostics>>;

/// The explicit thread's result (a panic there is raised here).
fn join(handle: Handle<'_>) -> Result<FlatModel, Diagnostics> {
    handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// Lets the explicit build go on to `allowance` (unless it is done), stops it (dropping this end:
/// a paused build stops with E0505) and returns its result.
fn finish(mut explicit: Explicit, allowance: Option<u64>, handle: Handle<'_>) -> Result<FlatModel, Diagnostics> {
    if let (Report::Paused(_), Some(a)) = (&explicit.last, allowance) {
        explicit.resume(a);
    }
    drop(explicit);
    join(handle)
}

fn outcome(result: &Result<FlatModel, Diagnostics>) -> Outcome {
    match result {
        Ok(_) => Outcome::Built,
        Err(d) if d.has_code(build_diag::E_LIMIT) || d.has_code(build_diag::E_MEMORY) => Outcome::OverBudget,
        Err(_) => Outcome::Failed,
    }
}

/// Builds the flat model with the engine that wins the race; the second value says why (the
/// `--stats` line). `auto` holds the explicit budget, `first` ends the explicit first stage.
pub(super) fn race(
    program: &LoweredProgram,
    auto: &BuildLimits,
    max_memory: Option<u64>,
    threads: usize,
    first: FirstStage,
) -> Result<(FlatBuilt, String), Diagnostics> {
    let max_states = auto.max_states.unwrap_or(u64::MAX);
    std::thread::scope(|scope| {
        let (allow, allowed) = mpsc::channel::<Option<u64>>();
        let (report, reports) = mpsc::channel::<Report>();
        let handle = scope.spawn(move || {
            let mut work = BuildWork::default();
            let mut pause = |w: &BuildWork| -> Option<u64> {
                report.send(Report::Paused(*w)).ok()?;
                allowed.recv().ok().flatten()
            };
            let gate = Gate { first, state_steps: AUTO_STATE_STEPS, pause: &mut pause };
            let result = build_flat_gated(program, auto, &mut work, gate);
            let _ = report.send(Report::Done(outcome(&result), work));
            result
        });
        let mut explicit = Explicit { allow, reports, last: Report::Paused(BuildWork::default()) };
        explicit.wait();
        let first_work = explicit.work();
        if let Report::Done(done, w) = explicit.last {
            drop(explicit);
            let result = join(handle);
            let units = w.units();
            return match result {
                Ok(m) => Ok((FlatBuilt::Explicit(m), format!("auto: explicit, built within the first stage ({units} work units)"))),
                Err(_) if done == Outcome::OverBudget => SymbolicModel::build(program, max_memory, threads)
                    .map(|m| (FlatBuilt::Symbolic(m), format!("auto: bdd, the explicit build passed its budget ({units} work units)"))),
                Err(d) => Err(d),
            };
        }

        // The probe, with the explicit build resumed after each of its steps. The resumed
        // build runs beside the probe's next image, and the probe's next step (or its end) first
        // waits for the build's report and makes the decision the previous step would have made
        // on it: the same decisions, figures and outcome as running them in turns, in the wall
        // time of the longer of the two instead of their sum.
        let explicit = RefCell::new(explicit);
        // A resume whose report has not been read yet.
        let running = Cell::new(false);
        let last = Cell::new(None::<ProbeFacts>);
        // Images of probes the BDD engine restarted with a larger cache (counted in the race).
        let carried = Cell::new(0.0f64);
        let images = |f: &ProbeFacts| f.nodes.saturating_sub(f.setup_nodes) as f64 * AUTO_UNITS_PER_NODE;
        let total = |f: &ProbeFacts| carried.get() + images(f);
        let step = |f: ProbeFacts| {
            let mut e = explicit.borrow_mut();
            if running.replace(false) {
                e.wait();
                // The previous step's decision, on the report it would have waited for (its
                // facts are still `last`; this step's are not counted).
                match e.last {
                    Report::Paused(_) => {}
                    Report::Done(Outcome::OverBudget, _) => return ProbeStep::Keep,
                    Report::Done(_, _) => return ProbeStep::GiveUp,
                }
            }
            if let Some(l) = last.get()
                && (f.rings < l.rings || f.nodes < l.nodes)
            {
                carried.set(carried.get() + images(&l));
            }
            last.set(Some(f));
            if f.states > max_states as f64 {
                return ProbeStep::Keep;
            }
            if let Report::Paused(w) = e.last {
                let allowance = first_work.units().saturating_add((AUTO_RACE_RATIO * total(&f)) as u64);
                // The explicit build of the states the probe has found, at its rate per state.
                let at_least = w.units() as f64 / w.expanded.max(1) as f64 * f.states;
                if allowance > w.units() && at_least <= AUTO_FEED_FACTOR * total(&f) && e.start(allowance) {
                    running.set(true);
                    return ProbeStep::Continue;
                }
            }
            match e.last {
                Report::Paused(_) => ProbeStep::Continue,
                Report::Done(Outcome::OverBudget, _) => ProbeStep::Keep,
                Report::Done(_, _) => ProbeStep::GiveUp,
            }
        };
        let built = SymbolicModel::build_probe(program, max_memory, threads, Some(Probe { step: &step }));
        let mut explicit = explicit.into_inner();
        let resumed_last = running.get();
        if resumed_last {
            explicit.wait();
        }
        // The probe's last step resumed the build and it ended (built, or failed): in turns, that
        // step would have stopped the probe (`GiveUp`), so what the probe did after it (finish,
        // or fail) is dropped.
        let built = match explicit.last {
            Report::Done(done, _) if resumed_last && done != Outcome::OverBudget => Ok(None),
            _ => built,
        };
        let probe_units = last.get().map_or(0.0, |f| total(&f));
        let w = explicit.work();
        let facts = format!(
            "first stage {} states ({} units), BDD probe {} rings ({probe_units:.0} units), explicit {} states ({} units)",
            first_work.expanded,
            first_work.units(),
            last.get().map_or(0, |f| f.rings),
            w.expanded,
            w.units()
        );
        match built {
            // The explicit build finished first.
            Ok(None) => finish(explicit, None, handle).map(|m| (FlatBuilt::Explicit(m), format!("auto: explicit, {facts}: the explicit build finished first"))),
            Ok(Some(m)) => {
                let states = m.reachable_states();
                let Report::Paused(w) = explicit.last else {
                    drop(explicit);
                    let _ = join(handle);
                    return Ok((FlatBuilt::Symbolic(m), format!("auto: bdd, {facts}, {states} states")));
                };
                // The probe finished first: the explicit build goes on when what is left of it
                // is estimated to cost at most a multiple of the probe (the BDD engine's checking
                // costs a multiple of its reachability, the explicit engine's a fraction of its
                // build).
                let per_state = w.units() as f64 / w.expanded.max(1) as f64;
                let left = per_state * (states - w.expanded as f64).max(0.0);
                let facts = format!("{facts}, {states} states, {left:.0} explicit units left");
                if states <= max_states as f64 && left <= AUTO_EXPLICIT_FACTOR * probe_units {
                    explicit.resume(UNGATED);
                    let done = match explicit.last {
                        Report::Done(done, _) => done,
                        Report::Paused(_) => Outcome::Failed,
                    };
                    match finish(explicit, None, handle) {
                        Ok(e) => Ok((FlatBuilt::Explicit(e), format!("auto: explicit, {facts}"))),
                        Err(_) if done == Outcome::OverBudget => {
                            Ok((FlatBuilt::Symbolic(m), format!("auto: bdd, {facts}; the explicit build passed its budget")))
                        }
                        Err(d) => Err(d),
                    }
                } else {
                    drop(explicit);
                    let _ = join(handle);
                    Ok((FlatBuilt::Symbolic(m), format!("auto: bdd, {facts}")))
                }
            }
            // The BDD engine cannot build the model (LTL specs, a huge domain, an evaluation
            // error): the explicit engine builds it or reports its own error, unless it is only
            // the budget.
            Err(bdd) => match finish(explicit, Some(UNGATED), handle) {
                Ok(m) => Ok((FlatBuilt::Explicit(m), format!("auto: explicit, {facts}, the BDD engine cannot build it"))),
                Err(d) if d.has_code(build_diag::E_LIMIT) || d.has_code(build_diag::E_MEMORY) => Err(bdd),
                Err(d) => Err(d),
            },
        }
    })
}
