//! NuSMV 2.5.4's `pick_state` and `simulate` on the explicit state space of a flat model.
//!
//! `pick_state [-v] [-r] [-c "constr"]` starts a new trace (`Trace Type: Simulation`) at an
//! initial state satisfying the constraint; `simulate [-p | -v] [-r] [-c "constr" | -t "constr"]
//! [-k steps]` (10 steps by default) extends the current trace from its last state, each step to
//! a successor whose values satisfy `-c` (a state expression on the next state) or `-t` (an
//! expression over the current state and `next()`). Without `-r` the choice is deterministic:
//! the candidate state whose value indices, in the variables' declaration order, are smallest
//! (values in domain order: `FALSE` before `TRUE`, ranges upwards), which is the state NuSMV's
//! BDD picking gives on the models of `tests/nusmv_dropin` (it takes the `0` branch of each bit);
//! `-r` picks uniformly among the candidates. The input shown with a step is the first input
//! valuation (in domain order) that leads to it. What is printed, and the messages when no state
//! can be chosen, are NuSMV's: `pick_state -v` prints the new trace; `simulate -p`/`-v` print
//! the current trace from the step before the simulation's start (changed values or all
//! values); without them nothing is printed. Refused: `-i`/`-a` (interactive choice) and
//! `pick_state -s` (a state of another trace); models built with BDDs (past
//! [`super::DROPIN_EXPLICIT_STATES`] states) and procedure modules (no flat state space).
//!
//! A constraint is compiled by reading the model again with `DEFINE <name> := (constr);` added at
//! the top of `main`: the variables (and so the state rows) are the same in both programs.

use super::{Args, Session, Stage, Status, StoredTrace};
use crate::check::trace::{Trace, TraceKind, TraceStep};
use crate::driver::flat_engine::FlatBuilt;
use crate::explicit::build_flat::FlatModel;
use crate::explicit::eval::{Env, Evaluator};
use crate::explicit::kripke::StateId;
use crate::ir::SpecKind;
use crate::lowering::program::{LoweredProgram, SystemId};
use crate::report::text::{TraceStyle, trace_text_from};
use crate::report::view::{ModelRef, TraceView, trace_view};
use crate::source::SourceFile;

/// The trace `pick_state` started and `simulate` extends.
pub(crate) struct Simulation {
    /// Index into the session's traces.
    trace: usize,
    states: Vec<StateId>,
}

/// The name of the DEFINE a constraint is compiled into.
const CONSTRAINT_DEFINE: &str = "xmv_rs_simulation_constraint_";

/// NuSMV's default `simulate -k`.
const DEFAULT_STEPS: usize = 10;

/// `simulate -p`/`-v` and `pick_state -v`: two-space indentation.
const PRINT_CHANGED: TraceStyle = TraceStyle { header: false, indent: "  ", all_values: false };
const PRINT_ALL: TraceStyle = TraceStyle { header: false, indent: "  ", all_values: true };

/// A compiled `-c`/`-t` constraint: the program read with its DEFINE, and that DEFINE.
struct Constraint {
    program: LoweredProgram,
    system: SystemId,
    define: usize,
}

impl Constraint {
    /// Whether the constraint holds on `to` (reached from `from`, for `next()`); an evaluation
    /// error counts as not holding.
    fn holds(&self, from: &[u32], to: &[u32]) -> bool {
        let system = &self.program.systems[self.system.index()];
        let mut ev = Evaluator::new(&system.vars);
        let env = Env { cur: from, next: Some(to), exited: None };
        ev.bool(&system.defines[self.define].expr, &env).unwrap_or(false)
    }
}

/// How a state is chosen among the candidates.
#[derive(Clone, Copy)]
enum Choice {
    First,
    Random,
}

const PICK_USAGE: &str = "usage: pick_state [-h] [-v] [-r | -i [-a]] [-c \"constr\" | -s trace.state]\n  -h \t\tPrints the command usage.\n  -v \t\tVerbosely prints picked state.\n  -r \t\tRandomly picks a state from the set of the initial states\n     \t\t(otherwise choice is deterministic).\n  -i \t\tLets the user interactively pick a state from\n     \t\tthe set of initial ones (not supported by xmv-rs).\n  -a \t\tDisplays all the state variables (changed and\n   \t\tunchanged) in an interactive session.\n   \t\tIt works only together with -i option.\n  -c \"constr\"   Sets constraints for the initial set of states.\n  -s state\tPicks state from trace.state label (not supported by xmv-rs).\n";
const SIMULATE_USAGE: &str = "usage: simulate [-h] [-p | -v] [-r | -i [-a]] [[-c \"constr\"] | [-t \"constr\"]] [-k steps]\n  -h \t\tPrints the command usage.\n  -p \t\tPrints current generated trace (only changed variables).\n  -v \t\tVerbosely prints current generated trace (all variables).\n  -r \t\tSets picking mode to random (default is deterministic).\n  -i \t\tEnters simulation's interactive mode (not supported by xmv-rs).\n  -a \t\tDisplays all the state variables (changed and unchanged)\n     \t\tin every step of an interactive session.\n     \t\tIt works only together with -i option.\n  -c \"constr\"\tSets constraint (simple expression) for the next steps.\n  -t \"constr\"\tSets constraint (next expression) for the next steps.\n  -k <length> \tSpecifies the simulation length\n\t\tto be used when generating the simulated problem.\n";

impl Session<'_> {
    /// `pick_state`.
    pub(crate) fn pick_state(&mut self, args: &Args) -> Status {
        if args.flag('h') {
            return self.fail(PICK_USAGE.trim_end());
        }
        if let Err(s) = self.need(Stage::Built) {
            return s;
        }
        if args.flag('i') || args.flag('a') {
            return self.fail("xmv-rs: pick_state -i (interactive choice) is not supported; use -r or the deterministic choice");
        }
        if args.value('s').is_some() {
            return self.fail("xmv-rs: pick_state -s (a state of a trace) is not supported");
        }
        let constraint = match args.value('c').map(|c| self.constraint(c)).transpose() {
            Ok(c) => c,
            Err(s) => return s,
        };
        let choice = if args.flag('r') { Choice::Random } else { Choice::First };
        let picked = match self.explicit_model() {
            Ok(m) => {
                let candidates: Vec<StateId> = (m.kripke.initial.iter().copied())
                    .filter(|&s| {
                        constraint.as_ref().is_none_or(|c| {
                            let row = m.kripke.state_values(s);
                            c.holds(&row, &row)
                        })
                    })
                    .collect();
                self.choose(m, &candidates, choice)
            }
            Err(message) => return self.fail(&message),
        };
        let Some(state) = picked else {
            return self.fail("The set of initial states is EMPTY. No state can be chosen.\nNo trace: constraint and initial state are inconsistent");
        };
        let trace = self.traces.len();
        self.sim = Some(Simulation { trace, states: vec![state] });
        let Some(view) = self.simulation_view() else { return 1 };
        self.traces.push(StoredTrace { view, kind: SpecKind::Ctl });
        if args.flag('v') {
            self.print_simulation(0, &PRINT_ALL);
        }
        0
    }

    /// `simulate`.
    pub(crate) fn simulate(&mut self, args: &Args) -> Status {
        if args.flag('h') {
            return self.fail(SIMULATE_USAGE.trim_end());
        }
        if let Err(s) = self.need(Stage::Built) {
            return s;
        }
        if self.sim.is_none() {
            return self.fail("No current state set. Use the \"pick_state\" command.");
        }
        if args.flag('i') || args.flag('a') {
            return self.fail("xmv-rs: simulate -i (interactive choice) is not supported; use -r or the deterministic choice");
        }
        let steps = match args.value('k') {
            None => DEFAULT_STEPS,
            Some(k) => match k.parse::<usize>() {
                Ok(k) => k,
                Err(_) => return self.fail(&format!("Error: \"{k}\" is not a valid value for the -k option (must be a non-negative integer).")),
            },
        };
        // `-c` reads the next state only; `-t` the current one and `next()`.
        let over_transition = args.value('t').is_some();
        let text = args.value('t').or(args.value('c'));
        let constraint = match text.map(|c| self.constraint(c)).transpose() {
            Ok(c) => c,
            Err(s) => return s,
        };
        let choice = if args.flag('r') { Choice::Random } else { Choice::First };
        let (trace_no, start) = self.sim.as_ref().map_or((0, 0), |s| (s.trace + 1, s.states.len()));
        let _ = writeln!(self.out, "********  Simulation Starting From State {trace_no}.{start}   ********");
        let mut stopped = None;
        for step in 1..=steps {
            let Some(current) = self.sim.as_ref().and_then(|s| s.states.last().copied()) else { break };
            let next = match self.explicit_model() {
                Ok(m) => {
                    let from = m.kripke.state_values(current);
                    let succ = m.kripke.succ.neighbours(current);
                    let allowed = |t: StateId| {
                        let to = m.kripke.state_values(t);
                        constraint.as_ref().is_none_or(|c| c.holds(if over_transition { &from } else { &to }, &to))
                    };
                    let candidates: Vec<StateId> = succ.iter().copied().filter(|&t| allowed(t)).collect();
                    let dead = succ.is_empty();
                    (self.choose(m, &candidates, choice), dead)
                }
                Err(message) => return self.fail(&message),
            };
            match next {
                (Some(t), _) => {
                    if let Some(sim) = self.sim.as_mut() {
                        sim.states.push(t);
                    }
                }
                (None, dead) => {
                    stopped = Some((step, dead));
                    break;
                }
            }
        }
        self.refresh_simulation_view();
        if let Some((step, dead)) = stopped {
            let why = if dead { "No future state exists." } else { "No future state exists: trace not built.\n" };
            let _ = writeln!(self.err, "{why}Simulation stopped at step {step}.");
        }
        let first = start.saturating_sub(2);
        if args.flag('v') {
            self.print_simulation(first, &PRINT_ALL);
        } else if args.flag('p') {
            self.print_simulation(first, &PRINT_CHANGED);
        }
        0
    }

    /// The explicit state space, or the message why there is none.
    fn explicit_model(&self) -> Result<&FlatModel, String> {
        match self.built.as_ref().and_then(|b| b.flat.as_ref()) {
            Some(FlatBuilt::Explicit(m)) => Ok(m),
            Some(FlatBuilt::Symbolic(_)) => Err(format!(
                "xmv-rs: pick_state and simulate need the explicit state space; this model has more than {} states and was built with BDDs",
                super::DROPIN_EXPLICIT_STATES
            )),
            None => Err("xmv-rs: pick_state and simulate need a flat model (procedure modules have no flat state space)".to_string()),
        }
    }

    fn choose(&self, m: &FlatModel, candidates: &[StateId], choice: Choice) -> Option<StateId> {
        match choice {
            Choice::First => candidates.iter().copied().min_by_key(|&s| m.kripke.state_values(s)),
            Choice::Random if candidates.is_empty() => None,
            Choice::Random => {
                let r = self.random_index(candidates.len());
                candidates.get(r).copied()
            }
        }
    }

    /// A uniform index below `n` from the session's xorshift generator (seeded from the clock).
    fn random_index(&self, n: usize) -> usize {
        let mut x = self.rng.get();
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.rng.set(x);
        (x % n as u64) as usize
    }

    /// Compiles `-c`/`-t` text (see the module comment).
    fn constraint(&mut self, text: &str) -> Result<Constraint, Status> {
        let Some(loaded) = &self.loaded else { return Err(1) };
        let model = &loaded.file.text;
        let Some(at) = super::main_body_start(model) else { return Err(self.fail("xmv-rs: -c needs a `MODULE main` to add the constraint to")) };
        let new_text = format!("{}\nDEFINE {CONSTRAINT_DEFINE} := ({text});\n{}", &model[..at], &model[at..]);
        let file = SourceFile::new("<command-line>", new_text);
        let (program, diags) = crate::frontend::load_with(&file, None, self.language());
        let found = program.filter(|_| !diags.has_errors()).and_then(|p| {
            let system = p.flat?;
            let define = p.systems[system.index()].defines.iter().position(|d| d.name == CONSTRAINT_DEFINE)?;
            Some(Constraint { program: p, system, define })
        });
        match found {
            Some(c) => Ok(c),
            None => {
                let _ = self.err.write_all(diags.render(&file).as_bytes());
                Err(self.fail(&format!("xmv-rs: the constraint \"{text}\" is not a well-typed expression of the model")))
            }
        }
    }

    /// The printable view of the simulation's trace.
    fn simulation_view(&self) -> Option<TraceView> {
        let (Some(sim), Some(loaded)) = (&self.sim, &self.loaded) else { return None };
        let Some(Some(FlatBuilt::Explicit(m))) = self.built.as_ref().map(|b| b.flat.as_ref()) else { return None };
        let steps = sim.states.iter().map(|&state| TraceStep::flat(state)).collect();
        let trace = Trace { kind: TraceKind::Simulation, steps, loop_start: None, loop_push: vec![] };
        Some(trace_view(&loaded.program, ModelRef::Flat(m), &trace))
    }

    /// Rebuilds the stored view of the simulation's trace from its states.
    fn refresh_simulation_view(&mut self) {
        let Some(view) = self.simulation_view() else { return };
        let Some(i) = self.sim.as_ref().map(|s| s.trace) else { return };
        if let Some(t) = self.traces.get_mut(i) {
            t.view = view;
        }
    }

    /// Prints the simulation's trace from step `first` (0-based).
    fn print_simulation(&mut self, first: usize, style: &TraceStyle) {
        let Some(sim) = &self.sim else { return };
        let Some(t) = self.traces.get(sim.trace) else { return };
        let text = trace_text_from(&t.view, sim.trace + 1, t.kind, style, first);
        let _ = self.out.write_all(text.as_bytes());
    }
}
