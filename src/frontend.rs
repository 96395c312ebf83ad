//! The front end in one call: source text → parse → name resolution and typing → lowering.
//!
//! All diagnostics of all stages are collected; the result is `None` when any of them is an
//! error. The parser recovers and reports every syntax error of the file; semantic checking only
//! runs on a file without syntax errors, because items dropped by recovery would otherwise cause
//! cascades of bogus errors (`x` not declared when its declaration had the syntax error).
//! Lowering only runs on an error-free checked program.

use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::lowering::{self, program::LoweredProgram};
use crate::semantics;
use crate::source::SourceFile;
use crate::syntax::ast::{Program, TerminationRule};

/// Checks and lowers an already parsed program, adding to `diags`.
pub fn check_and_lower(program: &Program, termination_override: Option<TerminationRule>, diags: &mut Diagnostics) -> Option<LoweredProgram> {
    let (checked, sem) = semantics::check(program);
    diags.extend(sem);
    if diags.has_errors() {
        return None;
    }
    let (mut lowered, low): (LoweredProgram, Vec<Diagnostic>) = lowering::lower(&checked);
    diags.extend(low);
    if diags.has_errors() {
        return None;
    }
    if let Some(rule) = termination_override {
        lowered.termination = rule;
    }
    Some(lowered)
}

/// Stack for the front end's thread: the parser and the semantic passes recurse over
/// expressions up to [`crate::semantics::resolve::MAX_DEPTH`] levels (plus DEFINE expansion);
/// debug builds need far more than the 2 MiB of a default thread. The memory is only reserved,
/// pages are touched as the recursion goes.
const FRONT_END_STACK: usize = 256 << 20;

/// The whole front end on one file: parse, check, lower. `None` when there is any error; the
/// diagnostics (errors and warnings of all stages) come back either way.
pub fn load(file: &SourceFile, termination_override: Option<TerminationRule>) -> (Option<LoweredProgram>, Diagnostics) {
    let run = || {
        let mut diags = Diagnostics::new();
        let (program, syntax) = crate::syntax::parse(file);
        diags.extend(syntax);
        let lowered = if diags.has_errors() { None } else { check_and_lower(&program, termination_override, &mut diags) };
        (lowered, diags)
    };
    std::thread::scope(|s| match std::thread::Builder::new().stack_size(FRONT_END_STACK).spawn_scoped(s, run) {
        Ok(handle) => match handle.join() {
            Ok(result) => result,
            Err(panic) => std::panic::resume_unwind(panic),
        },
        // No thread available: run on the caller's stack.
        Err(_) => run(),
    })
}
