//! Stage 4, explicit models: reachable state spaces as dense-integer graphs — a
//! [`kripke::KripkeStructure`] for flat models, a [`rks::RecursiveKripkeStructure`] for
//! procedure modules.

pub(crate) mod atoms;
pub mod budget;
pub(crate) mod build_diag;
pub mod build_flat;
pub mod build_rks;
pub(crate) mod conditions;
pub mod csr;
pub(crate) mod eval;
pub mod kripke;
pub(crate) mod names;
pub(crate) mod packed_table;
pub(crate) mod probe;
pub mod rks;
pub mod rks_builder;
pub(crate) mod state_table;
pub mod state_values;
pub(crate) mod step;
#[cfg(test)]
pub mod test_support;
