//! Diagnostics of state-space construction (codes `E03xx`, `W03xx`), shared by the flat and the
//! recursive builders: they name the offending state (its variable values) and, where known, a
//! path to it from an initial state.

use super::budget::{OutOfMemory, format_size};
use super::names::Names;
use super::step::{Origin, StepError, StepErrorKind};
use crate::diagnostics::Diagnostic;
use crate::lowering::program::System;
use crate::source::Span;

/// `case` with no true branch in a reachable state.
pub(crate) const E_CASE: &str = "E0501";
/// An assignment gives a value outside the variable's range.
pub(crate) const E_RANGE: &str = "E0502";
/// Another evaluation error (division by zero, overflow, …).
pub(crate) const E_EVAL: &str = "E0503";
/// Assignments depend on each other in a cycle.
pub(crate) const E_CYCLE: &str = "E0504";
/// More reachable states than `--max-states`.
pub(crate) const E_LIMIT: &str = "E0505";
/// The state space outgrows `--max-memory`, or the allocator refuses memory for it.
pub(crate) const E_MEMORY: &str = "E0508";
/// Evaluating a specification's or fairness constraint's atom fails in a reachable state.
pub(crate) const E_ATOM: &str = "E0506";
/// Procedure module well-formedness (entry, calls, exits).
pub(crate) const E_PROC: &str = "E0507";
/// States without successors.
pub(crate) const W_DEADLOCK: &str = "W0501";
/// No initial state.
pub(crate) const W_NO_INIT: &str = "W0502";
/// A label holds at a call state (ignored: calls carry no labels).
pub(crate) const W_CALL_LABEL: &str = "W0503";
/// No (initial) state has an infinite fair path, so every CTL spec holds vacuously (reported by
/// the driver from the flat checker's result; NuSMV prints "Fair states set … is empty").
pub(crate) const W_VACUOUS: &str = "W0504";

/// Longest path printed in full; longer ones show their first and last states.
const PATH_SHOWN: usize = 12;

/// The numbered states of a path, one per line, eliding the middle of long paths.
pub(crate) fn path_note(path: &[String]) -> String {
    let mut out = format!("path from an initial state ({} states):", path.len());
    for (i, s) in path.iter().enumerate() {
        if path.len() > PATH_SHOWN && i == PATH_SHOWN / 2 {
            out.push_str(&format!("\n  … {} states omitted …", path.len() - PATH_SHOWN));
        }
        if path.len() > PATH_SHOWN && i >= PATH_SHOWN / 2 && i < path.len() - PATH_SHOWN / 2 {
            continue;
        }
        out.push_str(&format!("\n  {}: {s}", i + 1));
    }
    out
}

/// Where a step error happened: in which state (for successors) and how it was reached.
pub(crate) struct ErrorContext {
    /// `Some(state)` while computing successors of `state`; `None` for initial states.
    pub state: Option<String>,
    pub path: Vec<String>,
    /// Extra context such as "while returning from `foo` through exit `done`".
    pub during: Option<String>,
}

/// A diagnostic for an error raised while enumerating initial states or successors.
pub(crate) fn step_error(err: &StepError, system: &System, names: &Names, ctx: &ErrorContext) -> Diagnostic {
    let what = err.origin.describe();
    let partial = names.state(system, &err.partial);
    let mut d = match &err.kind {
        StepErrorKind::Eval(crate::explicit::eval::EvalError::NonExhaustiveCase { span }) => {
            let mut d = Diagnostic::error(E_CASE, "case conditions are not exhaustive in a reachable state", *span)
                .with_label_message("no branch of this case holds")
                .with_help("add a final branch `TRUE : …;` or make the conditions cover this state");
            if *span != err.span {
                d = d.with_secondary(err.span, format!("while evaluating this {what}"));
            }
            d
        }
        StepErrorKind::Eval(e) => Diagnostic::error(E_EVAL, format!("{} while evaluating this {what}", e.describe(&system.vars)), err.span)
            .with_label_message(e.describe(&system.vars)),
        StepErrorKind::OutOfRange { var, value } => {
            let v = &system.vars[var.index()];
            Diagnostic::error(E_RANGE, format!("cannot assign value {} to variable `{}`", names.value(*value), v.name), err.span)
                .with_label_message(format!("this {what} gives {}", names.value(*value)))
                .with_secondary(v.span, format!("`{}` is declared here", v.name))
                .with_help(format!("widen the type of `{}` or keep the assigned value within it", v.name))
        }
        StepErrorKind::Budget => {
            return Diagnostic::error(E_LIMIT, "the explicit build passed its work budget inside one state's expansion", system.span)
                .with_label_message("in this model")
                .with_help("use `--engine bdd`, or `--engine explicit` (no work budget)");
        }
        StepErrorKind::Cycle { var } => {
            let name = &system.vars[var.index()].name;
            return Diagnostic::error(E_CYCLE, format!("the assignment of `{name}` depends on itself"), err.span)
                .with_label_message("part of a cycle of assignments")
                .with_help("break the cycle: an assignment may read `next(y)` only if `next(y)` does not read it back");
        }
    };
    if let Some(during) = &ctx.during {
        d = d.with_note(during.clone());
    }
    match &ctx.state {
        Some(state) => {
            d = d.with_note(format!("in state: {state}"));
            if err.origin != Origin::InitAssign && err.origin != Origin::Init && partial != "(no variables)" && partial != *state {
                d = d.with_note(format!("successor computed so far: {partial}"));
            }
        }
        None => d = d.with_note(format!("while computing an initial state: {partial}")),
    }
    if ctx.path.len() > 1 {
        d = d.with_note(path_note(&ctx.path));
    }
    d
}

/// Warning for states without successors.
pub(crate) fn deadlock_warning(count: usize, span: Span, path: &[String]) -> Diagnostic {
    let states = if count == 1 { "1 state has".to_string() } else { format!("{count} states have") };
    let mut d = Diagnostic::warning(W_DEADLOCK, format!("{states} no successor (deadlock)"), span)
        .with_label_message("in this model")
        .with_help("CTL paths are infinite, so specifications can hold vacuously in and before deadlock states; give every state a successor (e.g. a final `TRUE : x;` branch in `next(x)`)");
    if let Some(last) = path.last() {
        d = d.with_note(format!("deadlock state: {last}"));
    }
    if path.len() > 1 {
        d = d.with_note(path_note(path));
    }
    d
}

/// What a build had reserved when it stopped: for the `--max-states` and `--max-memory`
/// diagnostics.
pub(crate) struct BuildSize {
    /// States (flat models) or locations (procedure modules) built.
    pub count: u64,
    /// `"states"` or `"locations"`.
    pub what: &'static str,
    /// Bytes reserved by the tracked structures (see `explicit::budget`).
    pub bytes: u64,
    /// The `--max-memory` budget, if any.
    pub limit: Option<u64>,
}

impl BuildSize {
    fn notes(&self, d: Diagnostic) -> Diagnostic {
        let each = if self.count == 0 { self.bytes } else { self.bytes.div_ceil(self.count) };
        let d = d.with_note(format!(
            "{} {} were built, {each} bytes each ({} in the state table, successor arrays and search tree)",
            self.count,
            self.what,
            format_size(self.bytes)
        ));
        match self.limit {
            Some(limit) => match super::budget::process_memory_limit() {
                Some(process) => d.with_note(format!(
                    "memory budget: {} (--max-memory); this process may reserve at most {} (`ulimit -v`/`ulimit -d`), which keeps the default budget well below it",
                    format_size(limit),
                    format_size(process)
                )),
                None => d.with_note(format!("memory budget: {} (--max-memory)", format_size(limit))),
            },
            None => d,
        }
    }
}

/// More states than `--max-states`.
pub(crate) fn state_limit(max: u64, size: &BuildSize, span: Span) -> Diagnostic {
    let model = if size.what == "states" { "the model has" } else { "the procedure modules have" };
    let d =
        Diagnostic::error(E_LIMIT, format!("{model} more than {max} reachable {} (--max-states {max})", size.what), span).with_label_message("in this model");
    size.notes(d).with_help("raise the limit with `--max-states N`, or reduce the variables' ranges")
}

/// More generated successors than the work budget of `--engine auto`'s explicit attempt
/// ([`super::build_flat::BuildLimits::max_transitions`]); same code as the state budget.
pub(crate) fn transition_limit(max: u64, size: &BuildSize, span: Span) -> Diagnostic {
    let d = Diagnostic::error(E_LIMIT, format!("the model has more than {max} transitions within the explicit engine's budget"), span)
        .with_label_message("in this model");
    size.notes(d).with_help("use `--engine bdd`, or `--engine explicit` (no transition budget)")
}

/// The state space outgrew the memory budget, or the allocator refused memory.
pub(crate) fn out_of_memory(e: OutOfMemory, size: &BuildSize, span: Span) -> Diagnostic {
    let d = match e {
        OutOfMemory::Budget { needed } => Diagnostic::error(
            E_MEMORY,
            format!("the state space does not fit in the memory budget of {}", size.limit.map_or_else(|| "(none)".into(), format_size)),
            span,
        )
        .with_label_message("in this model")
        .with_note(format!("growing it needs {} in all", format_size(needed))),
        OutOfMemory::Allocator { bytes } => {
            Diagnostic::error(E_MEMORY, format!("the system refused {} of memory for the state space", format_size(bytes)), span)
                .with_label_message("in this model")
        }
    };
    size.notes(d).with_help(
        "raise the budget with `--max-memory SIZE` (the default is 80% of the available memory) if the machine has more, or check a smaller model (fewer or smaller variables, more constraints)",
    )
}
