//! The one trace walker of the procedure engines: witnesses and counterexamples of a top-level
//! existential spec (or of the dual of a universal one) as runs of configurations, built into a
//! [`Trace`] for the report.
//!
//! A true top-level `EX`/`EF`/`EG`/`E[U]` gets a witness; a false `AX`/`AF`/`AG`/`A[U]` gets a
//! counterexample, the witness of the dual existential formula (the spec's root is `¬goal`).
//! For `A[U]`'s dual `E[..] ∨ EG ..` the disjunct that holds initially is explained. Then:
//!
//! * `EX ψ`: the initial configuration and the first successor where `ψ` holds;
//! * `E[ψ U χ]`: the engine's own search ([`Runs::until`]);
//! * `EG ψ`: a lasso ([`lasso`]). The walk stays on configurations satisfying the goal; it
//!   stops at the first position `j` whose [`Runs::key`] repeats that of an earlier position
//!   `i` whose stack the walk never popped since. The part `i..j` then repeats forever; if
//!   `j`'s stack is deeper, each repetition pushes the same frames again
//!   ([`Trace::loop_push`]): a loop through recursion;
//! * RTCTL's `EBF`, `EBG`, `E[BU]` (true) and `ABF`, `ABG`, `A[BU]` (false): a finite run that
//!   follows the unfolded formula ([`bounded`]), as the flat engines' walkers do: to the bound,
//!   or to the first configuration that meets the goal.
//!
//! What the walk needs from an engine is [`Runs`]: configurations, their successors (calls are
//! transparent: stepping to a call enters the callee), the truth of subformulas there, and a
//! key that determines a configuration's future. `check::rks::trace` implements it over a
//! labelling of (component, context) pairs, `check::ternary::witness` over the copies of the
//! ternary model. The lasso walk is capped at [`SEARCH_LIMIT`] configurations; beyond it no
//! trace is returned.

use crate::check::formula::{FormulaId, Op};
use crate::check::trace::{CallFrame, Trace, TraceKind, TraceStep};
use crate::ctl::Ctl;
use rustc_hash::FxHashMap;
use std::hash::Hash;

/// Length at most of the walk that looks for an `EG` lasso.
pub(crate) const SEARCH_LIMIT: usize = 200_000;

/// Stack frames at most in the steps of a bounded operator's run ([`bounded`]): each step
/// carries (and prints) its whole stack, so a run of `h` steps that recurses at each step holds
/// `h²/2` frames (`ABF 1..10000` through a recursive call: 5·10^7, 7 GB); past this, no trace.
pub(crate) const BOUNDED_FRAMES: usize = 4_000_000;

/// The runs of one checked model, as the walker sees them. `goal` is always the existential
/// formula being explained; `h` in [`Runs::holds`] is in its sub-DAG.
pub(crate) trait Runs {
    /// A configuration (location and call stack, with whatever the engine needs to evaluate
    /// subformulas there).
    type Conf: Clone;
    /// What the future of a run depends on: configurations with equal keys satisfy the same
    /// subformulas of the goal, and so do their successors, step by step.
    type Key: Eq + Hash + Clone;

    fn op(&self, f: FormulaId) -> Op;
    /// Whether `f` holds at the initial configuration (under its initial context).
    fn holds_initially(&self, f: FormulaId) -> bool;
    /// The initial configuration, for explaining `goal`.
    fn start(&self, goal: FormulaId) -> Self::Conf;
    /// Whether `h` holds at `c`.
    fn holds(&self, goal: FormulaId, h: FormulaId, c: &Self::Conf) -> bool;
    /// Whether `h` is false at `c`: `!holds` where the labelling is two-valued; a three-valued
    /// one answers from its own values (an unknown value neither holds nor fails).
    fn fails(&self, goal: FormulaId, h: FormulaId, c: &Self::Conf) -> bool {
        !self.holds(goal, h, c)
    }
    /// `c` with its contexts (kept for the goal `from`) kept for `to`, an operand of `from`
    /// instead: the bounded walk explains one operand after another.
    fn narrow(&self, c: Self::Conf, _from: FormulaId, _to: FormulaId) -> Self::Conf {
        c
    }
    /// The DAG's marked steps of unfolded RTCTL operators (conjunction or disjunction, its step
    /// operand: `check::rewrite::CoreBuilder::mark_step`).
    fn marked_steps(&self) -> &[(FormulaId, FormulaId)];
    /// The successors of `c`, in the engine's order (the walk takes the first that fits).
    fn succs(&self, goal: FormulaId, c: &Self::Conf) -> Vec<Self::Conf>;
    fn key(&self, c: &Self::Conf) -> Self::Key;
    /// Number of pending calls of `c`.
    fn depth(&self, c: &Self::Conf) -> usize;
    /// The pending calls of `c` above depth `from`, outermost first.
    fn frames_from(&self, c: &Self::Conf, from: usize) -> Vec<CallFrame>;
    fn step(&self, c: Self::Conf) -> TraceStep;
    /// A run from `start` through configurations satisfying `goal = E[a U b]` to one satisfying
    /// `b`, as steps; `None` if the engine's search gives up.
    fn until(&self, goal: FormulaId, a: FormulaId, b: FormulaId, start: Self::Conf) -> Option<Vec<TraceStep>>;
}

fn is_existential(formula: &Ctl<crate::ir::PropId>) -> bool {
    matches!(formula, Ctl::EX(_) | Ctl::EF(_) | Ctl::EG(_) | Ctl::EU(..))
}

/// RTCTL's `EBF`, `EBG`, `E[BU]` (`Some(true)`) and `ABF`, `ABG`, `A[BU]` (`Some(false)`).
fn bounded_existential(formula: &Ctl<crate::ir::PropId>) -> Option<bool> {
    match formula {
        Ctl::EBF(..) | Ctl::EBG(..) | Ctl::EBU(..) => Some(true),
        Ctl::ABF(..) | Ctl::ABG(..) | Ctl::ABU(..) => Some(false),
        _ => None,
    }
}

/// True if a spec `formula` with verdict `holds` gets a trace: a witness when it is true and
/// existential, a counterexample when it is false and universal (RTCTL's bounded operators
/// included: [`bounded`]).
pub(crate) fn has_trace(formula: &Ctl<crate::ir::PropId>, holds: bool) -> bool {
    let unbounded = if holds { is_existential(formula) } else { is_unbounded_universal(formula) };
    unbounded || bounded_existential(formula) == Some(holds)
}

fn is_unbounded_universal(formula: &Ctl<crate::ir::PropId>) -> bool {
    matches!(formula, Ctl::AX(_) | Ctl::AF(_) | Ctl::AG(_) | Ctl::AU(..))
}

/// The witness or counterexample of the spec `formula` (DAG root `root`) with verdict `holds`,
/// if the spec has a trace-bearing shape and the walk finds one.
pub(crate) fn explain<R: Runs>(runs: &R, root: FormulaId, formula: &Ctl<crate::ir::PropId>, holds: bool) -> Option<Trace> {
    if bounded_existential(formula) == Some(holds) {
        let kind = if holds { TraceKind::Witness } else { TraceKind::Counterexample };
        let steps = bounded(runs, root, holds)?;
        return Some(Trace { kind, steps, loop_start: None, loop_push: Vec::new() });
    }
    let (goal, kind) = if is_existential(formula) && holds {
        (root, TraceKind::Witness)
    } else if is_unbounded_universal(formula) && !holds {
        match runs.op(root) {
            Op::Not(g) => (g, TraceKind::Counterexample),
            _ => return None,
        }
    } else {
        return None;
    };
    let goal = match runs.op(goal) {
        Op::Or(x, y) => [x, y].into_iter().find(|&d| runs.holds_initially(d))?,
        _ => goal,
    };
    let start = runs.start(goal);
    let (steps, loop_start, loop_push) = match runs.op(goal) {
        Op::EX(a) => {
            let next = runs.succs(goal, &start).into_iter().find(|c| runs.holds(goal, a, c))?;
            (vec![runs.step(start), runs.step(next)], None, Vec::new())
        }
        Op::EU(a, b) => (runs.until(goal, a, b, start)?, None, Vec::new()),
        Op::EG(_) => {
            let (path, i, push) = lasso(runs, goal, start)?;
            (path.into_iter().map(|c| runs.step(c)).collect(), Some(i), push)
        }
        _ => return None,
    };
    Some(Trace { kind, steps, loop_start, loop_push })
}

/// The `EG` lasso from `start` through configurations satisfying `goal`: (steps, loop start,
/// frames pushed per repetition).
#[allow(clippy::type_complexity)]
fn lasso<R: Runs>(runs: &R, goal: FormulaId, start: R::Conf) -> Option<(Vec<R::Conf>, usize, Vec<CallFrame>)> {
    let mut path: Vec<R::Conf> = Vec::new();
    // Positions whose stack depth no later position went below, and their keys.
    let mut candidates: Vec<usize> = Vec::new();
    let mut by_key: FxHashMap<R::Key, Vec<usize>> = FxHashMap::default();
    let mut keys: Vec<R::Key> = Vec::new();
    let mut cur = start;
    while path.len() < SEARCH_LIMIT {
        let depth = runs.depth(&cur);
        while let Some(&i) = candidates.last() {
            if runs.depth(&path[i]) <= depth {
                break;
            }
            candidates.pop();
            if let Some(v) = by_key.get_mut(&keys[i]) {
                v.pop();
            }
        }
        let key = runs.key(&cur);
        if let Some(&i) = by_key.get(&key).and_then(|v| v.last()) {
            let push = runs.frames_from(&cur, runs.depth(&path[i]));
            return Some((path, i, push));
        }
        let j = path.len();
        path.push(cur.clone());
        keys.push(key.clone());
        candidates.push(j);
        by_key.entry(key).or_default().push(j);
        cur = runs.succs(goal, &cur).into_iter().find(|n| runs.holds(goal, goal, n))?;
    }
    None
}

/// A node of the goal's DAG with the truth value the walk explains (`positive`: that it holds).
#[derive(Clone, Copy)]
struct Lit {
    f: FormulaId,
    positive: bool,
}

/// What the bounded walk does at a configuration: go on with an operand there, step to a
/// successor (`EX`), or stop (the literal is shown by the configuration itself).
enum Move<C> {
    Operand(Lit),
    Step(C, Lit),
    Stop,
}

/// The witness of an unfolded RTCTL operator (`root` explained as `positive`: a true `EBF`,
/// `EBG`, `E[BU]`, or the dual of a false `ABF`, `ABG`, `A[BU]`) as a finite run, walked as the
/// flat engines' `check::flat::explain` walks it: negations flip the polarity, a conjunction
/// whose operands must all be shown follows its marked step (the unfolding's `EX`, so the run
/// goes on to the bound or to the first configuration meeting the goal), a disjunction one of
/// its operands that holds (the marked step first), `EX` a successor where its operand holds;
/// anything else (an atom, an unmarked conjunction, a nested `EU`/`EG`, a universal step) ends
/// the run at the configuration that shows it. Each move goes to an operand, a smaller node,
/// so the walk takes at most one move per node of the DAG. `None` if a step the labels promise
/// is not found (a three-valued labelling that leaves it unknown), or past [`BOUNDED_FRAMES`].
fn bounded<R: Runs>(runs: &R, root: FormulaId, positive: bool) -> Option<Vec<TraceStep>> {
    let marks: FxHashMap<FormulaId, FormulaId> = runs.marked_steps().iter().copied().collect();
    // Whether `l` (`lit` or an operand of it) is shown at `c`, whose contexts are `lit`'s.
    let shows = |lit: Lit, l: Lit, c: &R::Conf| if l.positive { runs.holds(lit.f, l.f, c) } else { runs.fails(lit.f, l.f, c) };
    let mut conf = runs.start(root);
    let mut lit = Lit { f: root, positive };
    if !shows(lit, lit, &conf) {
        return None;
    }
    let mut steps = Vec::new();
    let mut frames = runs.depth(&conf);
    loop {
        if frames > BOUNDED_FRAMES {
            return None;
        }
        let marked = |a: Lit, b: Lit| marks.get(&lit.f).map(|&m| if m == a.f { (a, b) } else { (b, a) });
        let shows = |l: Lit, c: &R::Conf| shows(lit, l, c);
        let next = match (runs.op(lit.f), lit.positive) {
            (Op::Not(a), p) => Move::Operand(Lit { f: a, positive: !p }),
            // Both operands are shown: the marked step, if any.
            (Op::And(a, b), true) | (Op::Or(a, b), false) => {
                let (a, b) = (Lit { f: a, positive: lit.positive }, Lit { f: b, positive: lit.positive });
                marked(a, b).map_or(Move::Stop, |(step, _)| Move::Operand(step))
            }
            // One operand that is shown, the marked step first.
            (Op::Or(a, b), true) | (Op::And(a, b), false) => {
                let (a, b) = (Lit { f: a, positive: lit.positive }, Lit { f: b, positive: lit.positive });
                let (first, second) = marked(a, b).unwrap_or((a, b));
                if shows(first, &conf) {
                    Move::Operand(first)
                } else if shows(second, &conf) {
                    Move::Operand(second)
                } else {
                    return None;
                }
            }
            (Op::EX(a), true) => {
                let a = Lit { f: a, positive: true };
                let next = runs.succs(lit.f, &conf).into_iter().find(|c| shows(a, c))?;
                Move::Step(next, a)
            }
            _ => Move::Stop,
        };
        match next {
            Move::Operand(l) => {
                conf = runs.narrow(conf, lit.f, l.f);
                lit = l;
            }
            Move::Step(c, l) => {
                let c = runs.narrow(c, lit.f, l.f);
                frames += runs.depth(&c);
                steps.push(runs.step(std::mem::replace(&mut conf, c)));
                lit = l;
            }
            Move::Stop => {
                steps.push(runs.step(conf));
                return Some(steps);
            }
        }
    }
}
