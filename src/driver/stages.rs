//! The stages the driver chains, as function pointers: the front end, the flat checker and the
//! RKS checkers (each a [`Checker`] of `check`). [`Stages::linked`] is what the command
//! line uses; tests may swap the front end for a hand-built `LoweredProgram`.

use super::{CheckOptions, CheckedSpecs};
use crate::check::flat;
use crate::check::procedures::{Procedures, Verified};
use crate::check::{Checker, RunOptions};
use crate::diagnostics::Diagnostics;
use crate::explicit::build_flat::FlatModel;
use crate::explicit::build_rks::RksModel;
use crate::ir::TerminationRule;
use crate::lowering::program::LoweredProgram;
use crate::source::SourceFile;
use crate::symbolic::SymbolicModel;

/// Parses, resolves and lowers a file (`--termination` overrides the file's directive).
pub(crate) type LoadFn = fn(&SourceFile, Option<TerminationRule>) -> (Option<LoweredProgram>, Diagnostics);
/// Checks the specs of a flat model, one outcome per `FlatModel::specs` entry.
pub(crate) type CheckFlatFn = fn(&FlatModel, &CheckOptions) -> Result<CheckedSpecs, String>;
/// Checks the flat model's specs on BDDs, one outcome per `SymbolicModel::specs` entry.
pub(crate) type CheckSymbolicFn = fn(&SymbolicModel, &CheckOptions) -> Result<CheckedSpecs, String>;
/// Checks the procedure specs, one outcome per `RksModel::specs` entry.
pub(crate) type CheckRksFn = fn(&RksModel, &CheckOptions) -> Result<CheckedSpecs, String>;

#[derive(Clone, Copy, Debug)]
pub struct Stages {
    pub load: LoadFn,
    pub check_flat: CheckFlatFn,
    pub check_symbolic: CheckSymbolicFn,
    pub check_rks: CheckRksFn,
}

impl Stages {
    /// The crate's own stages.
    pub fn linked() -> Stages {
        Stages { load: crate::frontend::load, check_flat, check_symbolic, check_rks }
    }
}

/// The flat model's specs with the flat engine ([`flat::checker::Explicit`]).
pub(crate) fn check_flat(model: &FlatModel, options: &CheckOptions) -> Result<CheckedSpecs, String> {
    flat::checker::Explicit.check(model, &model.specs, &run_options(options))
}

/// The flat model's specs with the BDD engine ([`crate::check::bdd::Symbolic`]).
pub(crate) fn check_symbolic(model: &SymbolicModel, options: &CheckOptions) -> Result<CheckedSpecs, String> {
    crate::check::bdd::Symbolic.check(model, &model.specs, &run_options(options))
}

/// The procedure specs with `--engine` ([`Procedures`]); with `--verify` every verdict is checked
/// again by an engine of the other family ([`crate::check::Engine::verifier`], [`Verified`]).
pub(crate) fn check_rks(model: &RksModel, options: &CheckOptions) -> Result<CheckedSpecs, String> {
    let run_options = RunOptions { threads: 0, ..run_options(options) };
    let engine = options.engine.procedures();
    let run = || match options.verify {
        false => Procedures(engine).check(&model.rks, &model.specs, &run_options),
        true => Verified { first: engine, second: engine.verifier() }.check(&model.rks, &model.specs, &run_options),
    };
    if options.threads == 0 {
        return run();
    }
    let pool = crate::deadline::pool_builder().num_threads(options.threads).build().map_err(|e| format!("cannot start {} threads: {e}", options.threads))?;
    pool.install(run)
}

fn run_options(options: &CheckOptions) -> RunOptions {
    RunOptions { traces: options.traces, witnesses: options.witnesses, threads: options.threads }
}
