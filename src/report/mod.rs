//! Stage 6, reports: NuSMV-style verdict lines and traces, JSON output.
//!
//! Checkers return [`crate::check::trace::Trace`]s of ids; [`view`] maps them to names and values;
//! [`text`], [`json`] and [`sarif`] format a list of [`SpecReport`]s (one per spec, in file order);
//! a run's printed result is a [`RunOutput`], its verdicts [`Verdict`]s.

pub(crate) mod json;
pub(crate) mod sarif;
pub(crate) mod text;
pub(crate) mod verdict;
pub(crate) mod view;

use crate::diagnostics::Diagnostic;
use crate::ir::SpecKind;

pub use verdict::{Unknown, Verdict};

/// The result of a run, ready to print.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunOutput {
    pub stdout: String,
    pub stderr: String,
    pub exit_code: i32,
    /// Every diagnostic and warning of the run, in the order they were reported (each stage's
    /// in source order): what the text format rendered on stderr, and what JSON and SARIF carry.
    pub diagnostics: Vec<Diagnostic>,
    /// Errors beyond [`crate::diagnostics::Diagnostics::LIMIT`] that were counted but not kept.
    pub suppressed_errors: usize,
}

/// Everything printed about one spec.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct SpecReport {
    pub kind: SpecKind,
    pub name: Option<String>,
    /// The formula as NuSMV prints it.
    pub text: String,
    /// The spec's system name (the flat model or the initial procedure module).
    pub system_name: String,
    /// `Some(module)` for procedure specs: printed as `… IN module`.
    pub module: Option<String>,
    pub verdict: Verdict,
    pub trace: Option<view::TraceView>,
    pub time_ms: f64,
    /// The engine that decided the spec (`explicit`, `bdd`, a procedure engine), when known.
    pub engine: Option<&'static str>,
    /// Where the spec is written (SARIF locations).
    pub span: crate::source::Span,
}

#[cfg(test)]
mod tests;
