//! Paths returned by the flat checker: a sequence of state ids from an initial state, possibly a
//! lasso whose last state has a transition back to `states[loop_start]`.
//!
//! Minimal on purpose: the report stage turns state ids into NuSMV-style `-> State: 1.k <-`
//! listings using the Kripke structure's per-state values.

use crate::explicit::kripke::StateId;

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum TraceKind {
    /// Explains why a spec is false (NuSMV prints these).
    Counterexample,
    /// Shows a path proving a true existential spec (NuSMV does not print these).
    Witness,
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Trace {
    pub kind: TraceKind,
    pub states: Vec<StateId>,
    /// `Some(i)`: the path is infinite, repeating `states[i..]` forever.
    pub loop_start: Option<usize>,
}
