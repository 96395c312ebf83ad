//! The front end in one call: source text → parse → name resolution and typing → lowering.
//!
//! All diagnostics of all stages are collected; the result is `None` when any of them is an
//! error. The parser recovers and reports every syntax error of the file; semantic checking only
//! runs on a file without syntax errors, because items dropped by recovery would otherwise cause
//! cascades of bogus errors (`x` not declared when its declaration had the syntax error).
//! Lowering only runs on an error-free checked program.
//!
//! The parse tree and the checked program of a big model are millions of small heap blocks;
//! freeing them took longer than lowering. [`load`] hands them to a detached thread
//! ([`drop_in_background`]) so that the caller can go on building the model meanwhile; a process
//! that exits right after the run (the command-line tool) leaks them instead ([`leak_at_exit`]),
//! which library callers and tests never do.

use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::lowering::{self, program::LoweredProgram};
use crate::semantics;
use crate::source::SourceFile;
use crate::syntax::ast::{Program, TerminationRule};

/// Checks and lowers an already parsed program with the language options `language` (NuSMV's
/// or the default), adding to `diags`.
pub(crate) fn check_and_lower_with(
    program: &Program,
    termination_override: Option<TerminationRule>,
    language: semantics::LanguageOptions,
    diags: &mut Diagnostics,
) -> Option<LoweredProgram> {
    let (checked, sem) = semantics::check_with(program, language);
    crate::cpu_trace::mark("checked");
    diags.extend(sem);
    if diags.has_errors() {
        return None;
    }
    let (mut lowered, low): (LoweredProgram, Vec<Diagnostic>) = lowering::lower(&checked);
    crate::cpu_trace::mark("lowered");
    drop_in_background(checked);
    diags.extend(low);
    if diags.has_errors() {
        return None;
    }
    if let Some(rule) = termination_override {
        lowered.termination = rule;
    }
    Some(lowered)
}

use crate::par::FRONT_END_STACK;

/// The whole front end on one file: parse, check, lower. `None` when there is any error; the
/// diagnostics (errors and warnings of all stages) come back either way.
pub fn load(file: &SourceFile, termination_override: Option<TerminationRule>) -> (Option<LoweredProgram>, Diagnostics) {
    load_with(file, termination_override, semantics::LanguageOptions::default())
}

/// [`load`] with NuSMV's language options (the drop-in mode's `-old_div_op`).
pub(crate) fn load_with(
    file: &SourceFile,
    termination_override: Option<TerminationRule>,
    language: semantics::LanguageOptions,
) -> (Option<LoweredProgram>, Diagnostics) {
    let run = || {
        let mut diags = Diagnostics::new();
        let (program, syntax) = crate::syntax::parse(file);
        crate::cpu_trace::mark("parsed");
        diags.extend(syntax);
        let lowered = if diags.has_errors() { None } else { check_and_lower_with(&program, termination_override, language, &mut diags) };
        drop_in_background(program);
        crate::cpu_trace::mark("front end done");
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

/// Whether the big structures of a run may be leaked instead of freed ([`leak_at_exit`]).
static LEAK_AT_EXIT: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Lets this process leak the parse tree, the checked and lowered programs and the built models
/// instead of freeing them. Only for a process that exits right after one run: the command-line
/// tool sets it, because freeing millions of small heap blocks cost several milliseconds of CPU
/// (on a background thread, but on 2 cores it slowed the stages still running), while the OS
/// reclaims the memory at exit at no cost. Library callers and tests never set it.
pub fn leak_at_exit(on: bool) {
    LEAK_AT_EXIT.store(on, std::sync::atomic::Ordering::Relaxed);
}

/// Disposes of a big structure at the end of a run: leaked if [`leak_at_exit`] is on, else
/// dropped here.
pub(crate) fn dispose<T>(value: T) {
    if LEAK_AT_EXIT.load(std::sync::atomic::Ordering::Relaxed) {
        std::mem::forget(value);
    } else {
        drop(value);
    }
}

/// Drops `value` on a detached thread (with the front end's stack: dropping a deeply nested
/// expression recurses), or leaks it if [`leak_at_exit`] is on. If no thread can be started,
/// the value is dropped right here.
fn drop_in_background<T: Send + 'static>(value: T) {
    if LEAK_AT_EXIT.load(std::sync::atomic::Ordering::Relaxed) {
        std::mem::forget(value);
        return;
    }
    // On failure `spawn` drops the closure, and with it the value, on this thread.
    let _ = std::thread::Builder::new().name("xmv-drop".into()).stack_size(FRONT_END_STACK).spawn(move || drop(value));
}
