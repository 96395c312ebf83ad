//! xmv-rs: an explicit-state CTL model checker for NuSMV models and recursive procedure modules.
//!
//! The module tree is the pipeline, one stage per module:
//!
//! | stage | module | input → output |
//! |---|---|---|
//! | parse | [`syntax`] | `SourceFile` → [`syntax::ast::Program`] |
//! | resolve and type | [`semantics`] | `ast::Program` → `semantics::CheckedProgram` |
//! | lower | [`lowering`] | `CheckedProgram` → [`lowering::program::LoweredProgram`] |
//! | build the state space | [`explicit`] | `LoweredProgram` → [`explicit::kripke::KripkeStructure`] / [`explicit::rks::RecursiveKripkeStructure`] |
//! | check | [`check`] | models + CTL → verdicts and traces |
//! | report | [`report`] | verdicts → NuSMV-style text or JSON |
//!
//! [`api::check_str`] (re-exported here) is the entry point for programs that embed the checker.
//! [`import`] translates other tools' formats (RSMCheck JSON, PuMoC `.pds`, PDSolver `.pdmu`)
//! into `.smv` text. [`lsp`] is the language server (`xmv-rs lsp`) over the front end.
//! [`source`] and [`diagnostics`] are shared by all stages; [`ir`] holds the types that cross
//! stages (values, operators, spec and variable kinds); [`ctl`] is the formula type shared by
//! the front end and the checkers. See docs/architecture.md.

#![cfg_attr(not(test), deny(clippy::unwrap_used))]

pub mod api;
pub mod check;
pub mod ctl;
pub mod diagnostics;
pub mod driver;
pub mod explicit;
pub mod frontend;
pub mod import;
pub mod ir;
pub mod lowering;
pub mod lsp;
pub mod ltl;
pub mod nusmv_mode;
pub mod par;
pub mod progress;
pub mod properties;
pub mod report;
pub mod semantics;
pub mod source;
pub mod symbolic;
pub mod syntax;

pub use api::{Report, SpecResult, check_file, check_str};
pub use driver::CheckOptions;
