//! Stage 5, CTL checking: explicit labelling for Kripke structures; context-based engines for
//! recursive Kripke structures.

pub mod flat;
pub mod rks;
pub mod ternary;
pub mod trace;
