//! The kinds the source language names and every later stage reads: of a variable
//! (`VAR`/`IVAR`/`FROZENVAR`), of a specification, and the termination rule of procedure
//! specs. The parser produces them (`syntax::ast` re-exports them); the semantics, lowering,
//! state-space builders, checkers and report read them from here.

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
    /// `COMPUTE` (read, not checked)
    Compute,
}
