//! Stage 5, CTL checking: explicit labelling for Kripke structures; context-based engines for
//! recursive Kripke structures.

pub mod bdd;
pub mod engine;
pub mod flat;
pub(crate) mod formula;
pub(crate) mod graph;
pub mod kleene;
pub mod ltl;
pub(crate) mod procedures;
pub(crate) mod rewrite;
pub mod rks;
pub mod ternary;
pub mod trace;
pub(crate) mod walk;

pub use engine::{Checked, Checker, Engine, RunOptions, Stats};
