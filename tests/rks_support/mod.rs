//! Test support for recursive Kripke structures: the independent trust layer for the RKS engines.
//!
//! - [`model`]: an editable RKS description with a text format and `build()` into the engines' type;
//! - [`contexts`]: an exact naive checker enumerating all call contexts (recursive RKSs too);
//! - [`ctl_text`]: CTL formulas as text (print and parse);
//! - [`examples`]: the papers' worked examples as model texts;
//! - [`inspect`]: name-based canonical view of an RKS and its invariants;
//! - [`oracle`]: brute-force checking on the unfolded semantic Kripke structure;
//! - [`random`]: seeded random RKSs and formulas;
//! - [`rsm_json`]: RSMCheck JSON models as `Model`s;
//! - [`shrink`]: greedy minimisation of a failing (model, formula) pair;
//! - [`traces`]: validation of witnesses and counterexamples against K(R).
//!
//! Shares no code with the engines in `src/check`.
#![allow(dead_code)]

pub mod contexts;
pub mod ctl_text;
pub mod examples;
pub mod inspect;
pub mod model;
pub mod oracle;
pub mod random;
pub mod rsm_json;
pub mod shrink;
pub mod traces;
