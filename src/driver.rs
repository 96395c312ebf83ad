//! The `check` pipeline: front end → state-space construction → checking → report.
//!
//! Used by the command line and by integration tests. The driver owns the order of things, exit
//! codes and timings; the stages it calls are the crate's public functions, reached through
//! [`stages::Stages`] (tests may start from a hand-built `LoweredProgram`).
//!
//! Output: verdicts on stdout; `--stats` on stderr. Diagnostics and warnings of every stage are
//! collected as data in [`RunOutput::diagnostics`]; in the text format they are also rendered
//! on stderr as they arise, in the JSON and SARIF formats they are part of the one document on
//! stdout (`report::json`, `report::sarif`). Exit code 0 when every spec holds, 1 when one
//! fails, 2 on input errors, 3 when no spec fails but one was left undecided (`--spec-timeout`).

pub(crate) mod flat_engine;
pub mod options;
pub mod shard;
pub mod stages;
pub mod timeout;

use crate::check::trace::SpecOutcome;
use crate::deadline::SpecClock;
use crate::diagnostics::{Diagnostic, Diagnostics, Severity};
use crate::explicit::build_flat::BuildLimits;
use crate::explicit::build_rks::{RksModel, build_rks};
use crate::ir::{SpecKind, VarKind};
use crate::lowering::program::LoweredProgram;
use crate::report::view::{ModelRef, trace_view};
use crate::report::{SpecReport, Unknown, Verdict, json, sarif, text};
use crate::source::SourceFile;
use flat_engine::FlatBuilt;
use std::fmt::Write;
use std::time::Instant;
use timeout::Decided;

pub use crate::check::Engine;
pub use crate::report::RunOutput;
pub use options::{CheckOptions, Format};

/// What checking one model produced: an outcome per spec (in the model's spec order), counters
/// for `--stats` and warnings.
pub(crate) use crate::check::Checked as CheckedSpecs;

/// Runs `xmv-rs check` on one file.
pub fn run_check(file: &SourceFile, options: &CheckOptions, stages: &stages::Stages) -> RunOutput {
    let (mut out, reports) = run_reports(file, options, stages);
    match options.format {
        Format::Text => {}
        Format::Json => out.stdout = json::render_document(file, &reports, &out),
        Format::Sarif => out.stdout = sarif::render_sarif(file, &reports, &out),
    }
    out
}

/// The run; the text format's stdout is written here, the documents of the other formats are
/// made from the returned reports (which keep their traces unless the format is text).
pub(crate) fn run_reports(file: &SourceFile, options: &CheckOptions, stages: &stages::Stages) -> (RunOutput, Vec<SpecReport>) {
    let mut out = RunOutput::default();
    let mut stats = String::new();
    let t0 = Instant::now();
    crate::cpu_trace::mark("file read");
    let (program, diags) = (stages.load)(file, options.termination);
    report(&mut out, &diags, file, options.format);
    let mut program = match program {
        Some(p) if !diags.has_errors() => p,
        _ => {
            out.exit_code = 2;
            return (out, vec![]);
        }
    };
    if let Err(message) = crate::properties::keep_selected(file, &mut program, &diags, &options.selection) {
        report_one(&mut out, Diagnostic::global(Severity::Error, E_SELECTION, message), file, options.format);
        out.exit_code = 2;
        return (out, vec![]);
    }
    crate::cpu_trace::mark("loaded");
    let _ = writeln!(stats, "front end: {:.3} ms", ms(t0));
    if let Some(slice) = options.shard {
        shard::select(&mut program.specs, slice);
    }

    // NuSMV rejects an assignment that can give a value outside its variable's type in any
    // state, reachable or not, whether or not anything is checked.
    if let Some(d) = crate::symbolic::assign_domain::check(&program) {
        report_one(&mut out, d, file, options.format);
        out.exit_code = 2;
        return (out, vec![]);
    }

    crate::cpu_trace::mark("specs selected");
    let limits = BuildLimits { max_states: options.max_states, max_memory: options.max_memory, max_transitions: None };
    // Without a CTL or invariant spec (and without `-r`) nothing needs the state space: like
    // NuSMV, the file is read and nothing is built, so construction errors (a `case` with no
    // true branch in a reachable state) are only reported when something is checked; the static
    // domain check of assignments above runs regardless, as NuSMV's does.
    let needed = options.reachable || !program.specs.is_empty();
    let uses_flat = needed && program.flat.is_some();
    let uses_rks = needed && program.systems.iter().any(|s| s.is_procedure);
    // `--engine explicit` cannot check a future operator below a past one (`O (F p)`): say so at
    // the spec, before anything is built (`auto` and `bdd` check it on BDDs).
    if uses_flat && options.engine.flat() == Engine::Explicit {
        let refused: Vec<Diagnostic> = flat_engine::bdd_only_specs(&program)
            .map(|s| {
                // The spec's span runs to the next token; the caret ends at its last character.
                let text = file.text.get(s.span.start as usize..s.span.end as usize).unwrap_or("");
                let span = crate::source::Span { start: s.span.start, end: s.span.start + text.trim_end().len() as u32 };
                Diagnostic::error("E0221", "a future operator below a past one is not checked by the explicit engine", span)
                    .with_label_message("this LTL spec has a future operator (`X G F U V`), or an input variable, inside a past one (`Y Z H O S T`)")
                    .with_help("check it with `--engine bdd` (or `auto`, the default, which picks BDDs for such specs): the explicit engine's past monitors read past and propositional operands only, and an input variable in an LTL atom is read on the step leaving the state (one step ahead)")
            })
            .collect();
        if !refused.is_empty() {
            for d in refused {
                report_one(&mut out, d, file, options.format);
            }
            out.exit_code = 2;
            return (out, vec![]);
        }
    }
    let t1 = Instant::now();
    // The flat builder expands states on the current rayon pool (`-j`; the result does not
    // depend on the number of threads).
    let build = || flat_engine::build_noted(&program, &limits, options);
    let pool = (options.threads > 0).then(|| rayon::ThreadPoolBuilder::new().num_threads(options.threads).build().ok()).flatten();
    let flat = if uses_flat { built(pool.map_or_else(build, |p| p.install(build)), file, options.format, &mut out) } else { Ok(None) };
    let rks = if uses_rks { built(build_rks(&program, &limits), file, options.format, &mut out) } else { Ok(None) };
    let (Ok(flat), Ok(rks)) = (flat, rks) else {
        out.exit_code = 2;
        return (out, vec![]);
    };
    let (flat, auto_note) = flat.map_or((None, None), |(m, note)| (Some(m), note));
    for w in flat.iter().flat_map(|m| m.warnings()).chain(rks.iter().flat_map(|m| &m.warnings)) {
        report_one(&mut out, w.clone(), file, options.format);
    }
    crate::cpu_trace::mark("state space built");
    let _ = writeln!(stats, "state space: {:.3} ms", ms(t1));
    if let Some(m) = &flat {
        let _ = writeln!(stats, "{}", m.stats_line());
    }
    if let Some(note) = &auto_note {
        let _ = writeln!(stats, "{note}");
    }
    if let Some(m) = &rks {
        for c in &m.rks.components {
            let _ = writeln!(stats, "module {}: {} nodes ({} calls, {} exits)", c.name, c.num_nodes, c.calls.len(), c.exits.len());
        }
    }

    // Check: each model's specs in one batch, or one at a time under `--spec-timeout`.
    let clock = match options.spec_timeout.map(|limit| SpecClock::new(limit, options.threads)).transpose() {
        Ok(clock) => clock,
        Err(e) => return (failure(out, e, file, options.format), vec![]),
    };
    let mut flat = flat;
    let mut rks = rks;
    let mut outcomes: Vec<Option<Filed>> = vec![None; program.specs.len()];
    if let Some(m) = flat.as_mut().filter(|m| !m.spec_ids().is_empty()) {
        let ids = m.spec_ids().into_iter();
        let span = program.systems[m.system().index()].span;
        let warn = |w: String| {
            Diagnostic::warning(crate::explicit::build_diag::W_VACUOUS, w, span).with_label_message("in this model").with_help(
                "CTL is checked on infinite paths (meeting every FAIRNESS constraint infinitely often); remove deadlocks or relax the fairness constraints",
            )
        };
        let check = |o: &CheckOptions| match &clock {
            Some(clock) => m.check_each(o, stages, clock),
            None => m.check(o, stages).map(Decided::from),
        };
        if let Err(e) = run_checker(check, "flat", ids, options, &mut outcomes, &mut stats, &mut out, file, &warn) {
            return (e, vec![]);
        }
        if options.verify {
            let first: Vec<Option<bool>> = m.spec_ids().iter().map(|&i| outcomes[i].as_ref().and_then(|(o, ..)| o.as_ref().ok().map(|o| o.holds))).collect();
            match flat_engine::verify(&program, m, &first, &limits, options, stages, clock.as_ref()) {
                Ok(line) => {
                    let _ = writeln!(stats, "{line}");
                }
                Err(e) => return (failure(out, e, file, options.format), vec![]),
            }
        }
    }
    if let Some(m) = rks.as_mut().filter(|m| !m.specs.is_empty()) {
        let ids: Vec<usize> = m.specs.iter().map(|s| s.spec).collect();
        let warn = |w: String| Diagnostic::global(Severity::Warning, W_CHECKER, w);
        let check = |o: &CheckOptions| match &clock {
            Some(clock) => timeout::one_by_one(m, |m| &mut m.specs, |m| (stages.check_rks)(m, o), clock),
            None => (stages.check_rks)(m, o).map(Decided::from),
        };
        if let Err(e) = run_checker(check, "rks", ids.into_iter(), options, &mut outcomes, &mut stats, &mut out, file, &warn) {
            return (e, vec![]);
        }
    }

    // Report.
    let t3 = Instant::now();
    let mut reports = vec![];
    // NuSMV's batch order: every CTL spec (file order), then every LTL spec, then every
    // invariant; traces are numbered in this order too. Text is written spec by spec, each trace
    // view dropped once written.
    let mut order: Vec<usize> = (0..program.specs.len()).collect();
    order.sort_by_key(|&i| match program.specs[i].kind {
        SpecKind::Ltl => 1,
        SpecKind::Invar => 2,
        _ => 0,
    });
    let mut text = (options.format == Format::Text).then(text::TextReport::default);
    for i in order {
        let spec = &program.specs[i];
        let Some((outcome, time_ms, engine)) = outcomes[i].take() else { continue };
        let system = &program.systems[spec.system.index()];
        let model = if system.is_procedure { rks.as_ref().map(ModelRef::Rks) } else { flat.as_ref().map(FlatBuilt::model_ref) };
        let trace = match (options.traces, outcome.as_ref().ok().and_then(|o| o.trace.as_ref()), model) {
            (true, Some(t), Some(model)) => Some(trace_view(&program, model, t)),
            _ => None,
        };
        reports.push(SpecReport {
            kind: spec.kind,
            name: spec.name.clone(),
            text: spec.text.clone(),
            system_name: system.name.clone(),
            module: system.is_procedure.then(|| system.name.clone()),
            verdict: match &outcome {
                Ok(o) => Verdict::of(o.holds),
                Err(why) => Verdict::Unknown(*why),
            },
            trace,
            time_ms,
            engine: engine.map(|e| e.name()),
            span: spec.span,
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
        Format::Json | Format::Sarif => {}
    }
    crate::cpu_trace::mark("reported");
    let _ = writeln!(stats, "report: {:.3} ms", ms(t3));
    let _ = writeln!(stats, "total: {:.3} ms", ms(t0));
    if options.stats {
        for line in stats.lines() {
            let _ = writeln!(out.stderr, "-- stats: {line}");
        }
    }
    out.exit_code = exit_code(&reports);
    crate::frontend::dispose((program, flat, rks));
    (out, reports)
}

/// 1 when a spec is false, else 3 when one is undecided, else 0.
fn exit_code(reports: &[SpecReport]) -> i32 {
    if reports.iter().any(|r| r.verdict == Verdict::False) {
        1
    } else if reports.iter().any(|r| matches!(r.verdict, Verdict::Unknown(_))) {
        EXIT_UNKNOWN
    } else {
        0
    }
}

/// The exit code of a run in which no spec is false and some spec was left undecided
/// (`--spec-timeout`).
pub(crate) const EXIT_UNKNOWN: i32 = 3;

/// Code of a checker's failure (no verdict; exit code 2), a diagnostic without a place.
pub(crate) const E_CHECKER: &str = "E0601";
/// Code of a `-n`/`-P` selection that names no spec xmv-rs can check (exit code 2).
pub(crate) const E_SELECTION: &str = "E0602";
/// Code of a checker's warning about the verdicts of procedure specs.
pub(crate) const W_CHECKER: &str = "W0601";

/// Files a stage's diagnostics; the text format renders them on stderr at once.
fn report(out: &mut RunOutput, diags: &Diagnostics, file: &SourceFile, format: Format) {
    if format == Format::Text {
        out.stderr.push_str(&diags.render(file));
    }
    let mut sorted: Vec<&Diagnostic> = diags.items.iter().collect();
    sorted.sort_by_key(|d| d.primary_span().start); // the order `Diagnostics::render` prints
    out.diagnostics.extend(sorted.into_iter().cloned());
    out.suppressed_errors += diags.suppressed();
}

/// Files one diagnostic.
fn report_one(out: &mut RunOutput, d: Diagnostic, file: &SourceFile, format: Format) {
    if format == Format::Text {
        out.stderr.push_str(&d.render(file));
    }
    out.diagnostics.push(d);
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1000.0
}

/// Files a build's errors, or passes its model on.
fn built<T>(r: Result<T, Diagnostics>, file: &SourceFile, format: Format, out: &mut RunOutput) -> Result<Option<T>, ()> {
    match r {
        Ok(m) => Ok(Some(m)),
        Err(d) => {
            report(out, &d, file, format);
            Err(())
        }
    }
}

/// One spec's outcome as filed by [`run_checker`]: the verdict (or why it is unknown), the
/// checker's time in ms and the engine that decided it.
type Filed = (Result<SpecOutcome, Unknown>, f64, Option<Engine>);

/// Runs one checker (if linked) and files its outcomes under their spec indices.
#[allow(clippy::too_many_arguments)]
fn run_checker(
    check: impl FnOnce(&CheckOptions) -> Result<Decided, String>,
    what: &str,
    spec_ids: impl Iterator<Item = usize>,
    options: &CheckOptions,
    outcomes: &mut [Option<Filed>],
    stats: &mut String,
    out: &mut RunOutput,
    file: &SourceFile,
    warning: &dyn Fn(String) -> Diagnostic,
) -> Result<(), RunOutput> {
    let t = Instant::now();
    let spec_ids: Vec<usize> = spec_ids.collect();
    // The checkers decide their specs together (CTL specs share subformulas), so the count
    // moves from 0 to all at the end; the bar shows that a long check is still running.
    let progress = crate::progress::Progress::check(if what == "flat" { "the model" } else { "the procedure modules" }, spec_ids.len() as u64);
    let checked = check(options).map_err(|e| failure(std::mem::take(out), e, file, options.format))?;
    progress.specs(spec_ids.len() as u64);
    drop(progress);
    let elapsed = ms(t);
    for (spec, outcome) in spec_ids.into_iter().zip(checked.outcomes) {
        outcomes[spec] = Some((outcome, elapsed, checked.stats.engine));
    }
    let _ = writeln!(stats, "{what} checking: {elapsed:.3} ms");
    for line in checked.stats.lines() {
        let _ = writeln!(stats, "{what} {line}");
    }
    for w in checked.warnings {
        report_one(out, warning(w), file, options.format);
    }
    Ok(())
}

fn failure(mut out: RunOutput, message: String, file: &SourceFile, format: Format) -> RunOutput {
    report_one(&mut out, Diagnostic::global(Severity::Error, E_CHECKER, message), file, format);
    out.exit_code = 2;
    out
}

/// `-r`: NuSMV's `system diameter: D` and `reachable states: N (2^x) out of M (2^y)` for the flat model, and the number
/// of locations of each procedure module.
pub(crate) fn reachable_text(program: &LoweredProgram, flat: Option<&FlatBuilt>, rks: Option<&RksModel>) -> String {
    let mut out = String::new();
    if let Some(m) = flat {
        let (diameter, states) = m.reachable();
        out.push_str(&flat_reachable_text(program, m.system(), diameter, states, true));
    }
    if let Some(m) = rks {
        for c in &m.rks.components {
            let _ = writeln!(out, "reachable locations of module {}: {} ({} calls)", c.name, c.num_nodes - c.calls.len() as u32, c.calls.len());
        }
    }
    out
}

/// `-r`'s two lines for a flat model with `states` reachable states and the given diameter
/// (counts as exact integers with `exact`, else with `%g` as NuSMV prints them).
pub(crate) fn flat_reachable_text(program: &LoweredProgram, system: crate::lowering::program::SystemId, diameter: u64, states: f64, exact: bool) -> String {
    let system = &program.systems[system.index()];
    let total: f64 =
        system.vars.iter().filter(|v| v.kind != VarKind::Input && !crate::lowering::invar_monitor::is_monitor(v)).map(|v| v.domain.len() as f64).product();
    format!("system diameter: {diameter}\n{}\n", text::reachable_line(states, total, exact))
}

#[cfg(test)]
mod tests;
