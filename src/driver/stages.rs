//! The stages the driver chains, as function pointers, and the ones linked into this build.
//!
//! Each stage lives in its own part of the crate (front end, flat checker, RKS checker) and is
//! adapted here to the driver's shapes. A stage that is not in this build is `None`; the driver
//! then reports it as missing instead of producing verdicts.

use super::{CheckOptions, CheckedSpecs};
use crate::diagnostics::Diagnostics;
use crate::explicit::build_flat::FlatModel;
use crate::explicit::build_rks::RksModel;
use crate::lowering::program::LoweredProgram;
use crate::source::SourceFile;
use crate::syntax::ast::TerminationRule;

/// Parses, resolves and lowers a file (`--termination` overrides the file's directive).
pub type LoadFn = fn(&SourceFile, Option<TerminationRule>) -> (Option<LoweredProgram>, Diagnostics);
/// Checks the specs of a flat model, one outcome per `FlatModel::specs` entry.
pub type CheckFlatFn = fn(&FlatModel, &CheckOptions) -> Result<CheckedSpecs, String>;
/// Checks the procedure specs, one outcome per `RksModel::specs` entry.
pub type CheckRksFn = fn(&RksModel, &CheckOptions) -> Result<CheckedSpecs, String>;

#[derive(Clone, Copy, Debug, Default)]
pub struct Stages {
    pub load: Option<LoadFn>,
    pub check_flat: Option<CheckFlatFn>,
    pub check_rks: Option<CheckRksFn>,
}

/// The stages present in this build. The front end and the checkers are developed in parallel
/// and are linked here as they are merged.
pub fn linked() -> Stages {
    Stages { load: None, check_flat: None, check_rks: None }
}
