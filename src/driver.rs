//! The `check` pipeline: front end → state-space construction → checking → report.
//!
//! Used by the command line and by integration tests. The driver owns the order of things, exit
//! codes and timings; the stages it calls are the crate's public functions, reached through
//! [`stages::Stages`] (tests may start from a hand-built `LoweredProgram`).
//!
//! Output: verdicts (text or JSON) on stdout; diagnostics, warnings and `--stats` on stderr.
//! Exit code 0 when every spec holds, 1 when one fails, 2 on input errors.

pub mod flat_engine;
pub mod stages;

use crate::check::trace::SpecOutcome;
use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::explicit::build_flat::BuildLimits;
use crate::explicit::build_rks::{RksModel, build_rks};
use crate::lowering::program::LoweredProgram;
use crate::report::view::{ModelRef, trace_view};
use crate::report::{SpecReport, json, text};
use crate::source::SourceFile;
use crate::syntax::ast::{SpecKind, TerminationRule, VarKind};
use flat_engine::FlatBuilt;
use std::fmt::Write;
use std::time::Instant;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    #[default]
    Text,
    Json,
}

pub use crate::check::Engine;

#[derive(Clone, Debug, Default)]
pub struct CheckOptions {
    pub format: Format,
    /// Counterexamples and witnesses (`--no-trace` / `-dcx` turn them off).
    pub traces: bool,
    /// Witnesses of true existential specs of flat models too (`--witnesses`). NuSMV 2.5.4
    /// prints none, so by default flat models get counterexamples only and the trace numbers
    /// are NuSMV's; procedure specs always get witnesses, as RSMCheck gives them.
    pub witnesses: bool,
    /// `-r`: print the number of reachable states.
    pub reachable: bool,
    pub max_states: Option<u64>,
    /// `--max-memory`: bytes the state space may reserve (`None`: no budget; the command line
    /// defaults to a fraction of the available memory, see `explicit::budget::default_limit`).
    pub max_memory: Option<u64>,
    /// Worker threads, 0 = all cores.
    pub threads: usize,
    pub engine: Engine,
    pub termination: Option<TerminationRule>,
    /// `--stats`: time per phase and checker counters on stderr.
    pub stats: bool,
    /// `--verify`: re-check every procedure spec with an engine of the other family.
    pub verify: bool,
}

/// What checking one model produced: an outcome per spec (in the model's spec order), counters
/// for `--stats` and warnings.
pub use crate::check::Checked as CheckedSpecs;

/// The result of a run, ready to print.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunOutput {
    pub stdout: String,
    pub stderr: String,
    pub exit_code: i32,
}

/// Runs `xmv-rs check` on one file.
pub fn run_check(file: &SourceFile, options: &CheckOptions, stages: &stages::Stages) -> RunOutput {
    let mut out = RunOutput::default();
    let mut stats = String::new();
    let t0 = Instant::now();
    let (program, diags) = (stages.load)(file, options.termination);
    out.stderr.push_str(&diags.render(file));
    let program = match program {
        Some(p) if !diags.has_errors() => p,
        _ => {
            out.exit_code = 2;
            return out;
        }
    };
    let _ = writeln!(stats, "front end: {:.3} ms", ms(t0));

    let limits = BuildLimits { max_states: options.max_states, max_memory: options.max_memory };
    // Without a CTL or invariant spec (and without `-r`) nothing needs the state space: like
    // NuSMV, the file is read and nothing is built, so construction errors (a `case` with no
    // true branch, a value out of range) are only reported when something is checked.
    let needed = options.reachable || !program.specs.is_empty();
    let uses_flat = needed && program.flat.is_some();
    let uses_rks = needed && program.systems.iter().any(|s| s.is_procedure);
    let t1 = Instant::now();
    let flat = if uses_flat { built(flat_engine::build(&program, &limits, options), file, &mut out) } else { Ok(None) };
    let rks = if uses_rks { built(build_rks(&program, &limits), file, &mut out) } else { Ok(None) };
    let (Ok(flat), Ok(rks)) = (flat, rks) else {
        out.exit_code = 2;
        return out;
    };
    for w in flat.iter().flat_map(|m| m.warnings()).chain(rks.iter().flat_map(|m| &m.warnings)) {
        out.stderr.push_str(&w.render(file));
    }
    let _ = writeln!(stats, "state space: {:.3} ms", ms(t1));
    if let Some(m) = &flat {
        let _ = writeln!(stats, "{}", m.stats_line());
    }
    if let Some(m) = &rks {
        for c in &m.rks.components {
            let _ = writeln!(stats, "module {}: {} nodes ({} calls, {} exits)", c.name, c.num_nodes, c.calls.len(), c.exits.len());
        }
    }

    // Check.
    let mut outcomes: Vec<Option<(SpecOutcome, f64)>> = vec![None; program.specs.len()];
    if let Some(m) = flat.as_ref().filter(|m| !m.spec_ids().is_empty()) {
        let ids = m.spec_ids().into_iter();
        let span = program.systems[m.system() as usize].span;
        let warn = |w: String| {
            Diagnostic::warning(crate::explicit::build_diag::W_VACUOUS, w, span)
                .with_label_message("in this model")
                .with_help(
                    "CTL is checked on infinite paths (meeting every FAIRNESS constraint infinitely often); remove deadlocks or relax the fairness constraints",
                )
                .render(file)
        };
        if let Err(e) = run_checker(|o: &CheckOptions| m.check(o, stages), "flat", ids, options, &mut outcomes, &mut stats, &mut out, &warn) {
            return e;
        }
        if options.verify {
            let first: Vec<SpecOutcome> = m.spec_ids().iter().filter_map(|&i| outcomes[i].as_ref().map(|(o, _)| o.clone())).collect();
            match flat_engine::verify(&program, m, &first, &limits, options, stages) {
                Ok(line) => {
                    let _ = writeln!(stats, "{line}");
                }
                Err(e) => return failure(out, e),
            }
        }
    }
    if let Some(m) = rks.as_ref().filter(|m| !m.specs.is_empty()) {
        let ids = m.specs.iter().map(|s| s.spec);
        let warn = |w: String| format!("warning: {w}\n");
        if let Err(e) = run_checker(|o: &CheckOptions| (stages.check_rks)(m, o), "rks", ids, options, &mut outcomes, &mut stats, &mut out, &warn) {
            return e;
        }
    }

    // Report.
    let t3 = Instant::now();
    let mut reports = vec![];
    // NuSMV's batch order: every CTL spec (file order), then every invariant; traces are
    // numbered in this order too. Text is written spec by spec, each trace view dropped once
    // written.
    let mut order: Vec<usize> = (0..program.specs.len()).collect();
    order.sort_by_key(|&i| program.specs[i].kind == SpecKind::Invar);
    let mut text = (options.format == Format::Text).then(text::TextReport::default);
    for i in order {
        let spec = &program.specs[i];
        let Some((outcome, time_ms)) = outcomes[i].take() else { continue };
        let system = &program.systems[spec.system as usize];
        let model = if system.is_procedure { rks.as_ref().map(ModelRef::Rks) } else { flat.as_ref().map(FlatBuilt::model_ref) };
        let trace = match (options.traces, &outcome.trace, model) {
            (true, Some(t), Some(model)) => Some(trace_view(&program, model, t)),
            _ => None,
        };
        reports.push(SpecReport {
            kind: spec.kind,
            name: spec.name.clone(),
            text: spec.text.clone(),
            system_name: system.name.clone(),
            module: system.is_procedure.then(|| system.name.clone()),
            holds: outcome.holds,
            trace,
            time_ms,
        });
        if let (Some(text), Some(r)) = (text.as_mut(), reports.last_mut()) {
            text.push(r);
            r.trace = None;
        }
    }
    match options.format {
        Format::Text => {
            out.stdout.push_str(&text.map(text::TextReport::finish).unwrap_or_default());
            if options.reachable {
                out.stdout.push_str(&reachable_text(&program, flat.as_ref(), rks.as_ref()));
            }
        }
        Format::Json => out.stdout.push_str(&json::render_json(&reports)),
    }
    let _ = writeln!(stats, "report: {:.3} ms", ms(t3));
    let _ = writeln!(stats, "total: {:.3} ms", ms(t0));
    if options.stats {
        for line in stats.lines() {
            let _ = writeln!(out.stderr, "-- stats: {line}");
        }
    }
    out.exit_code = if reports.iter().all(|r| r.holds) { 0 } else { 1 };
    crate::frontend::dispose((program, flat, rks, reports));
    out
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1000.0
}

/// Renders a build's errors, or passes its model on.
fn built<T>(r: Result<T, Diagnostics>, file: &SourceFile, out: &mut RunOutput) -> Result<Option<T>, ()> {
    match r {
        Ok(m) => Ok(Some(m)),
        Err(d) => {
            out.stderr.push_str(&d.render(file));
            Err(())
        }
    }
}

/// Runs one checker (if linked) and files its outcomes under their spec indices.
#[allow(clippy::too_many_arguments)]
fn run_checker(
    check: impl Fn(&CheckOptions) -> Result<CheckedSpecs, String>,
    what: &str,
    spec_ids: impl Iterator<Item = usize>,
    options: &CheckOptions,
    outcomes: &mut [Option<(SpecOutcome, f64)>],
    stats: &mut String,
    out: &mut RunOutput,
    render_warning: &dyn Fn(String) -> String,
) -> Result<(), RunOutput> {
    let t = Instant::now();
    let spec_ids: Vec<usize> = spec_ids.collect();
    // The checkers decide their specs together (CTL specs share subformulas), so the count
    // moves from 0 to all at the end; the bar shows that a long check is still running.
    let progress = crate::progress::Progress::check(if what == "flat" { "the model" } else { "the procedure modules" }, spec_ids.len() as u64);
    let checked = check(options).map_err(|e| failure(std::mem::take(out), e))?;
    progress.specs(spec_ids.len() as u64);
    drop(progress);
    let elapsed = ms(t);
    for (spec, outcome) in spec_ids.into_iter().zip(checked.outcomes) {
        outcomes[spec] = Some((outcome, elapsed));
    }
    let _ = writeln!(stats, "{what} checking: {elapsed:.3} ms");
    for line in checked.stats.lines() {
        let _ = writeln!(stats, "{what} {line}");
    }
    for w in checked.warnings {
        out.stderr.push_str(&render_warning(w));
    }
    Ok(())
}

fn failure(mut out: RunOutput, message: String) -> RunOutput {
    let _ = writeln!(out.stderr, "error: {message}");
    out.exit_code = 2;
    out
}

/// `-r`: NuSMV's `system diameter: D` and `reachable states: N (2^x) out of M (2^y)` for the flat model, and the number
/// of locations of each procedure module.
pub fn reachable_text(program: &LoweredProgram, flat: Option<&FlatBuilt>, rks: Option<&RksModel>) -> String {
    let mut out = String::new();
    if let Some(m) = flat {
        let system = &program.systems[m.system() as usize];
        let total: f64 = system.vars.iter().filter(|v| v.kind != VarKind::Input).map(|v| v.domain.len() as f64).product();
        let (diameter, states) = m.reachable();
        let _ = writeln!(out, "system diameter: {diameter}");
        let _ = writeln!(out, "{}", text::reachable_line(states as u64, total));
    }
    if let Some(m) = rks {
        for c in &m.rks.components {
            let _ = writeln!(out, "reachable locations of module {}: {} ({} calls)", c.name, c.num_nodes - c.calls.len() as u32, c.calls.len());
        }
    }
    out
}

#[cfg(test)]
mod tests;
