//! The types that cross stages, in one small module every stage may import (it imports no
//! stage): typed indices ([`id`]), the kinds the source language names ([`kinds`]: variable, spec, termination rule),
//! values and domains ([`value`]), the operators of lowered expressions ([`operators`]) and
//! their meaning on values ([`ops`], [`words`], with the value tables of wide words in
//! [`word_values`]).
//!
//! The pipeline is one-way: `syntax` → `semantics` → `lowering` → `explicit`/`symbolic` →
//! `check` → `report`; a stage imports earlier stages and `ir`, never a later one.

pub mod id;
pub mod kinds;
pub mod operators;
pub mod ops;
pub mod value;
pub mod word_values;
pub mod words;

pub use kinds::{SpecKind, TerminationRule, VarKind};
pub use operators::{BinOp, Builtin, UnOp};
pub use value::{Domain, ExitNameId, MAX_TABLE_DOMAIN, SymId, SystemId, SystemSpans, Value, Variable, WideValues};
