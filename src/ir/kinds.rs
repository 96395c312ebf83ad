//! The kinds the source language names and every later stage reads: of a variable
//! (`VAR`/`IVAR`/`FROZENVAR`), of a specification, the termination rule of procedure specs, and
//! a `COMPUTE`'s body ([`Compute`], generic over each stage's formulas) and result
//! ([`Distance`]). The parser produces them (`syntax::ast` re-exports them); the semantics,
//! lowering, state-space builders, checkers and report read them from here.

/// What a run does when the initial procedure module exits with an empty call stack (`TERMINATION`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TerminationRule {
    /// Finis 2012: when the initial module exits with an empty stack, the run moves to a
    /// label-free termination state that loops forever.
    Trap,
    /// Dubslaff et al. 2024 / RSMCheck: the final exit configuration loops with its own labels.
    Loop,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VarKind {
    /// `VAR`
    State,
    /// `IVAR`
    Input,
    /// `FROZENVAR`
    Frozen,
}

/// The kind of a specification.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpecKind {
    /// `SPEC` or `CTLSPEC`
    Ctl,
    /// `INVARSPEC`
    Invar,
    /// `LTLSPEC`
    Ltl,
    /// `PSLSPEC` (read, not checked)
    Psl,
    /// `COMPUTE MIN [a, b]` / `COMPUTE MAX [a, b]` (flat models)
    Compute,
}

/// Which path length a `COMPUTE` asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Extremum {
    /// `MIN [a, b]`: the length of the shortest path from an `a` state to a `b` state.
    Min,
    /// `MAX [a, b]`: the length of the longest path from an `a` state before it reaches a `b` state.
    Max,
}

impl Extremum {
    /// The keyword: `MIN` or `MAX`.
    pub(crate) fn keyword(self) -> &'static str {
        match self {
            Extremum::Min => "MIN",
            Extremum::Max => "MAX",
        }
    }
}

/// The body of a `COMPUTE`: `MIN [from, to]` or `MAX [from, to]`, over the formulas `F` of the
/// stage that holds it (parsed expressions, typed expressions, CTL formulas over atoms).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Compute<F> {
    pub extremum: Extremum,
    /// The states a path starts in.
    pub from: F,
    /// The states it ends in.
    pub to: F,
}

impl<F> Compute<F> {
    /// The same body with both formulas mapped by `f`.
    pub(crate) fn map<G>(&self, mut f: impl FnMut(&F) -> G) -> Compute<G> {
        Compute { extremum: self.extremum, from: f(&self.from), to: f(&self.to) }
    }
}

/// The result of a `COMPUTE`, as NuSMV 2.5.4 defines it (`mcMc.c`: `minu`, `maxu`), over the
/// reachable fair states.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Distance {
    /// A number of transitions.
    Steps(u64),
    /// `MIN`: no `to` state is reachable from a `from` state; `MAX`: some `from` state has an
    /// infinite path that never reaches a `to` state.
    Infinity,
    /// `MAX` only: no reachable fair state satisfies this formula (NuSMV warns "in COMPUTE
    /// initial state is empty" for `from`, "final state" for `to`).
    Undefined(ComputeOperand),
}

/// One of the two formulas of a `COMPUTE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ComputeOperand {
    /// The first, where paths start.
    From,
    /// The second, where they end.
    To,
}

impl std::fmt::Display for Distance {
    /// As NuSMV prints it: `6`, `infinity`, `undefined`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Distance::Steps(n) => write!(f, "{n}"),
            Distance::Infinity => f.write_str("infinity"),
            Distance::Undefined(_) => f.write_str("undefined"),
        }
    }
}
