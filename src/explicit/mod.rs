//! Stage 4, explicit models: reachable state spaces as dense-integer graphs — a
//! [`kripke::KripkeStructure`] for flat models, a [`rks::RecursiveKripkeStructure`] for
//! procedure modules.

pub mod csr;
pub mod kripke;
pub mod rks;
pub mod rks_builder;
