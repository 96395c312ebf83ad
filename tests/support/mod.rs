//! Shared helpers for integration tests: a seeded PRNG, random Kripke structures and formulas,
//! and the independent path-semantics CTL oracle.
#![allow(dead_code)]

pub mod ltl_lasso;
pub mod ltl_smv;
pub mod oracle;
pub mod random;
