//! Stage 5, CTL checking: explicit labelling for Kripke structures; context-based engines for
//! recursive Kripke structures.

pub mod bdd;
pub mod deadline;
pub mod engine;
pub mod flat;
pub mod formula;
pub mod graph;
pub mod kleene;
pub mod ltl;
pub mod procedures;
pub mod rewrite;
pub mod rks;
pub mod ternary;
pub mod trace;
pub(crate) mod walk;

pub use engine::{Checked, Checker, Engine, RunOptions, Stats};
