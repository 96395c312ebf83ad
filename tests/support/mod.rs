//! Shared helpers for integration tests: a seeded PRNG, random Kripke structures and formulas,
//! the independent path-semantics CTL oracle, and running NuSMV (`nusmv`).
#![allow(dead_code)]

pub mod ltl_lasso;
pub mod ltl_smv;
pub mod nusmv;
pub mod oracle;
pub mod random;
