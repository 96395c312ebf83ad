//! The types that cross stages, in one small module every stage may import (it imports no
//! stage): typed indices ([`id`]), the kinds the source language names ([`kinds`]: variable, spec, termination rule, a COMPUTE's body and result),
//! values and domains ([`value`]), the operators of lowered expressions ([`operators`]) and
//! their meaning on values ([`ops`], [`words`], with the value tables of wide words in
//! [`word_values`]).
//!
//! The pipeline is one-way: `syntax` → `semantics` → `lowering` → `explicit`/`symbolic` →
//! `check` → `report`; a stage imports earlier stages and `ir`, never a later one.

pub(crate) mod id;
pub(crate) mod kinds;
pub(crate) mod operators;
pub(crate) mod ops;
pub(crate) mod value;
pub(crate) mod word_values;
pub(crate) mod words;

pub use id::PropId;
pub use kinds::{Compute, ComputeOperand, Distance, Extremum, SpecKind, TerminationRule, VarKind};
pub use operators::{BinOp, Builtin, UnOp};
pub use value::{Domain, ExitNameId, LabelId, MAX_TABLE_DOMAIN, SymId, SystemId, SystemSpans, Value, VarId, Variable, WideValues};
