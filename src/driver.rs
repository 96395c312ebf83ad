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
pub(crate) mod options;
pub mod shard;
pub mod stages;
pub mod timeout;

use crate::check::trace::SpecOutcome;
use crate::deadline::SpecClock;
use crate::diagnostics::{Diagnostic, Diagnostics, Severity};
use crate::explicit::build_flat::BuildLimits;
use crate::explicit::build_rks::{RksModel, build_rks};
use crate::ir::{ComputeOperand, Distance};
use crate::lowering::program::{LoweredProgram, VarId};
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
/// made from the returned reports (which keep their traces unless the format is text). Four
/// phases, each of which may end the run with exit code 2: load (front end, spec selection,
/// static checks), build (the state spaces), check (the engines), report.
pub(crate) fn run_reports(file: &SourceFile, options: &CheckOptions, stages: &stages::Stages) -> (RunOutput, Vec<SpecReport>) {
    let mut run = Run { file, options, out: RunOutput::default(), stats: String::new(), start: Instant::now() };
    let Some(program) = run.load(stages) else { return run.failed() };
    let Some(mut models) = run.build(&program) else { return run.failed() };
    let Some(outcomes) = run.check(&program, &mut models, stages) else { return run.failed() };
    run.report(program, models, outcomes)
}

/// One run of the pipeline: what it has printed and collected so far.
struct Run<'a> {
    file: &'a SourceFile,
    options: &'a CheckOptions,
    out: RunOutput,
    /// The `--stats` lines (printed at the end when asked for).
    stats: String,
    start: Instant,
}

/// The state spaces of a run: the flat model's and the procedure modules', each built only when
/// something of it is checked (or `-r` asks for it).
struct Models {
    flat: Option<FlatBuilt>,
    rks: Option<RksModel>,
}

impl Run<'_> {
    /// Files a stage's diagnostics; the text format renders them on stderr at once.
    fn file_all(&mut self, diags: &Diagnostics) {
        if self.options.format == Format::Text {
            self.out.stderr.push_str(&diags.render(self.file));
        }
        let mut sorted: Vec<&Diagnostic> = diags.items.iter().collect();
        sorted.sort_by_key(|d| d.primary_span().start); // the order `Diagnostics::render` prints
        self.out.diagnostics.extend(sorted.into_iter().cloned());
        self.out.suppressed_errors += diags.suppressed();
    }

    /// Files one diagnostic.
    fn file_one(&mut self, d: Diagnostic) {
        if self.options.format == Format::Text {
            self.out.stderr.push_str(&d.render(self.file));
        }
        self.out.diagnostics.push(d);
    }

    /// Files a checker's failure (a message without a place, E0601).
    fn file_failure(&mut self, message: String) {
        self.file_one(Diagnostic::global(Severity::Error, E_CHECKER, message));
    }

    /// Ends the run on an error already filed: exit code 2, no reports.
    fn failed(mut self) -> (RunOutput, Vec<SpecReport>) {
        self.out.exit_code = 2;
        (self.out, vec![])
    }

    fn stat(&mut self, line: std::fmt::Arguments) {
        let _ = writeln!(self.stats, "{line}");
    }

    /// The front end, `-n`/`-P` and `--shard` selection, and the checks NuSMV makes before it
    /// builds anything: the program to check, or `None` once the errors are filed.
    fn load(&mut self, stages: &stages::Stages) -> Option<LoweredProgram> {
        let options = self.options;
        crate::cpu_trace::mark("file read");
        let (program, diags) = (stages.load)(self.file, options.termination);
        self.file_all(&diags);
        let mut program = program.filter(|_| !diags.has_errors())?;
        if let Err(message) = crate::properties::keep_selected(self.file, &mut program, &diags, &options.selection) {
            self.file_one(Diagnostic::global(Severity::Error, E_SELECTION, message));
            return None;
        }
        crate::cpu_trace::mark("loaded");
        self.stat(format_args!("front end: {:.3} ms", ms(self.start)));
        if let Some(slice) = options.shard {
            shard::select(&mut program.specs, slice);
        }

        // NuSMV rejects an assignment that can give a value outside its variable's type in any
        // state, reachable or not, whether or not anything is checked.
        if let Some(d) = crate::symbolic::assign_domain::check(&program) {
            self.file_one(d);
            return None;
        }
        crate::cpu_trace::mark("specs selected");

        // `--engine explicit` cannot check a future operator below a past one (`O (F p)`): say so at
        // the spec, before anything is built (`auto` and `bdd` check it on BDDs).
        if self.needs_flat(&program) && options.engine.flat() == Engine::Explicit {
            let refused: Vec<Diagnostic> = flat_engine::bdd_only_specs(&program)
                .map(|s| {
                    Diagnostic::error("E0221", "a future operator below a past one is not checked by the explicit engine", self.spec_span(s))
                        .with_label_message("this LTL spec has a future operator (`X G F U V`), or an input variable, inside a past one (`Y Z H O S T`)")
                        .with_help("check it with `--engine bdd` (or `auto`, the default, which picks BDDs for such specs): the explicit engine's past monitors read past and propositional operands only, and an input variable in an LTL atom is read on the step leaving the state (one step ahead)")
                })
                .collect();
            if self.refused(refused) {
                return None;
            }
        }

        // The context engines cannot hold the contexts of a procedure spec with a deep `EX` chain
        // (a large RTCTL bound): `auto` checks it with the lazy engine, but an engine asked for by
        // name, or `--verify` (whose second engine family has no other engine for it), is refused
        // at the spec before anything is built.
        let context_engine = matches!(options.engine, Engine::Summary | Engine::Incremental | Engine::Global);
        if self.needed(&program) && (context_engine || options.verify) {
            let procedure_ctl = |s: &&crate::lowering::program::LoweredSpec| Some(s.system) != program.flat && s.kind == crate::ir::SpecKind::Ctl;
            let refused: Vec<Diagnostic> = (program.specs.iter().filter(procedure_ctl))
                .filter(|s| !crate::check::rks::formula::fits_context_engines(&s.formula))
                .map(|s| {
                    let who = if options.verify { "`--verify`'s context engine".to_string() } else { format!("the `{}` engine", options.engine.name()) };
                    Diagnostic::error("E0223", format!("this spec's contexts are too large for {who}"), self.spec_span(s))
                        .with_label_message("nested next-step operators (an RTCTL bound above a few hundred steps, or a long chain of `EX`/`AX`)")
                        .with_help(format!(
                            "check it with `--engine lazy` or `--engine eager`, or without `--engine` (`auto` picks `lazy` for such specs), and without `--verify`; or lower the bound: `summary`, `incremental` and `global` record every step's value at each call (about the cube of the bound in entries; at most {})",
                            crate::check::rks::formula::MAX_CONTEXT_ENTRIES
                        ))
                })
                .collect();
            if self.refused(refused) {
                return None;
            }
        }
        Some(program)
    }

    /// Files `diags` (specs refused before anything is built); whether there were any.
    fn refused(&mut self, diags: Vec<Diagnostic>) -> bool {
        let any = !diags.is_empty();
        for d in diags {
            self.file_one(d);
        }
        any
    }

    /// A spec's span for a caret: it runs to the next token, the caret ends at its last character.
    fn spec_span(&self, s: &crate::lowering::program::LoweredSpec) -> crate::source::Span {
        let text = self.file.text.get(s.span.start as usize..s.span.end as usize).unwrap_or("");
        crate::source::Span { start: s.span.start, end: s.span.start + text.trim_end().len() as u32 }
    }

    /// Without a CTL or invariant spec (and without `-r`) nothing needs the state space: like
    /// NuSMV, the file is read and nothing is built, so construction errors (a `case` with no
    /// true branch in a reachable state) are only reported when something is checked; the static
    /// domain check of assignments runs regardless, as NuSMV's does.
    fn needed(&self, program: &LoweredProgram) -> bool {
        self.options.reachable || !program.specs.is_empty()
    }

    fn needs_flat(&self, program: &LoweredProgram) -> bool {
        self.needed(program) && program.flat.is_some()
    }

    /// Builds the state spaces the specs need (both are attempted, so the errors of both are
    /// reported); files the builders' warnings. `None` once the errors are filed.
    fn build(&mut self, program: &LoweredProgram) -> Option<Models> {
        let options = self.options;
        let limits = BuildLimits { max_states: options.max_states, max_memory: options.max_memory, max_transitions: None };
        let uses_rks = self.needed(program) && program.systems.iter().any(|s| s.is_procedure);
        let t1 = Instant::now();
        // The flat builder expands states on the current rayon pool (`-j`; the result does not
        // depend on the number of threads).
        let build = || flat_engine::build_noted(program, &limits, options);
        let pool = (options.threads > 0).then(|| rayon::ThreadPoolBuilder::new().num_threads(options.threads).build().ok()).flatten();
        let flat = if self.needs_flat(program) { self.built(pool.map_or_else(build, |p| p.install(build))) } else { Ok(None) };
        let rks = if uses_rks { self.built(build_rks(program, &limits)) } else { Ok(None) };
        let (Ok(flat), Ok(rks)) = (flat, rks) else { return None };
        let (flat, auto_note) = flat.map_or((None, None), |(m, note)| (Some(m), note));
        for w in flat.iter().flat_map(|m| m.warnings()).chain(rks.iter().flat_map(|m| &m.warnings)) {
            self.file_one(w.clone());
        }
        crate::cpu_trace::mark("state space built");
        self.stat(format_args!("state space: {:.3} ms", ms(t1)));
        if let Some(m) = &flat {
            self.stat(format_args!("{}", m.stats_line()));
        }
        if let Some(note) = &auto_note {
            self.stat(format_args!("{note}"));
        }
        if let Some(m) = &rks {
            for c in &m.rks.components {
                self.stat(format_args!("module {}: {} nodes ({} calls, {} exits)", c.name, c.num_nodes, c.calls.len(), c.exits.len()));
            }
        }
        Some(Models { flat, rks })
    }

    /// Files a build's errors, or passes its model on.
    fn built<T>(&mut self, r: Result<T, Diagnostics>) -> Result<Option<T>, ()> {
        match r {
            Ok(m) => Ok(Some(m)),
            Err(d) => {
                self.file_all(&d);
                Err(())
            }
        }
    }

    /// Checks each model's specs in one batch, or one at a time under `--spec-timeout`: the
    /// outcomes by spec index, or `None` once a checker's failure is filed.
    fn check(&mut self, program: &LoweredProgram, models: &mut Models, stages: &stages::Stages) -> Option<Vec<Option<Filed>>> {
        let options = self.options;
        let clock = match options.spec_timeout.map(|limit| SpecClock::new(limit, options.threads)).transpose() {
            Ok(clock) => clock,
            Err(e) => {
                self.file_failure(e);
                return None;
            }
        };
        let mut outcomes: Vec<Option<Filed>> = vec![None; program.specs.len()];
        if let Some(m) = models.flat.as_mut().filter(|m| !m.spec_ids().is_empty()) {
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
            self.run_checker(check, "flat", ids, &mut outcomes, &warn)?;
            if options.verify {
                let first: Vec<Option<Verdict>> =
                    m.spec_ids().iter().map(|&i| outcomes[i].as_ref().and_then(|(o, ..)| o.as_ref().ok().map(Verdict::of_outcome))).collect();
                let limits = BuildLimits { max_states: options.max_states, max_memory: options.max_memory, max_transitions: None };
                match flat_engine::verify(program, m, &first, &limits, options, stages, clock.as_ref()) {
                    Ok(line) => self.stat(format_args!("{line}")),
                    Err(e) => {
                        self.file_failure(e);
                        return None;
                    }
                }
            }
        }
        if let Some(m) = models.rks.as_mut().filter(|m| !m.specs.is_empty()) {
            let ids: Vec<usize> = m.specs.iter().map(|s| s.spec).collect();
            let warn = |w: String| Diagnostic::global(Severity::Warning, W_CHECKER, w);
            let check = |o: &CheckOptions| match &clock {
                Some(clock) => timeout::one_by_one(m, |m| &mut m.specs, |m| (stages.check_rks)(m, o), clock),
                None => (stages.check_rks)(m, o).map(Decided::from),
            };
            self.run_checker(check, "rks", ids.into_iter(), &mut outcomes, &warn)?;
            if options.traces {
                self.missing_traces(program, m, &outcomes);
            }
        }
        Some(outcomes)
    }

    /// W0603 at each procedure CTL spec whose verdict has a trace by its shape
    /// ([`crate::check::walk::has_trace`]) but got none: the walkers stop at their caps (a lasso
    /// searched over 200,000 configurations, a witness over 1,000,000 steps, a bounded run
    /// whose steps carry over 4 M stack frames) and a ternary engine may leave a step unknown.
    fn missing_traces(&mut self, program: &LoweredProgram, m: &RksModel, outcomes: &[Option<Filed>]) {
        for s in m.specs.iter().filter(|s| s.ltl.is_none()) {
            let Some((Ok(outcome), ..)) = &outcomes[s.spec] else { continue };
            if outcome.trace.is_some() || !crate::check::walk::has_trace(&s.checked_formula(), outcome.holds) {
                continue;
            }
            let what = if outcome.holds { "witness" } else { "counterexample" };
            let d = Diagnostic::warning(W_NO_TRACE, format!("no {what} is printed for this spec: the run is too long for the trace walkers"), self.spec_span(&program.specs[s.spec]))
                .with_label_message("its verdict stands; only the run that shows it is missing")
                .with_help("the walkers stop at 200,000 configurations for a loop, 1,000,000 steps for a path, and 4,000,000 stack frames in the steps of a bounded operator's run (each step prints its whole call stack); a smaller bound or another `--engine` may give a shorter run");
            self.file_one(d);
        }
    }

    /// Runs one checker and files its outcomes under their spec indices (`None`: it failed, and
    /// its failure is filed).
    fn run_checker(
        &mut self,
        check: impl FnOnce(&CheckOptions) -> Result<Decided, String>,
        what: &str,
        spec_ids: impl Iterator<Item = usize>,
        outcomes: &mut [Option<Filed>],
        warning: &dyn Fn(String) -> Diagnostic,
    ) -> Option<()> {
        let t = Instant::now();
        let spec_ids: Vec<usize> = spec_ids.collect();
        // The checkers decide their specs together (CTL specs share subformulas), so the count
        // moves from 0 to all at the end; the bar shows that a long check is still running.
        let progress = crate::progress::Progress::check(if what == "flat" { "the model" } else { "the procedure modules" }, spec_ids.len() as u64);
        let checked = match check(self.options) {
            Ok(checked) => checked,
            Err(e) => {
                self.file_failure(e);
                return None;
            }
        };
        progress.specs(spec_ids.len() as u64);
        drop(progress);
        let elapsed = ms(t);
        for (spec, outcome) in spec_ids.into_iter().zip(checked.outcomes) {
            outcomes[spec] = Some((outcome, elapsed, checked.stats.engine));
        }
        self.stat(format_args!("{what} checking: {elapsed:.3} ms"));
        for line in checked.stats.lines() {
            self.stat(format_args!("{what} {line}"));
        }
        for w in checked.warnings {
            self.file_one(warning(w));
        }
        Some(())
    }

    /// The reports in NuSMV's batch order — every CTL spec (file order), then every COMPUTE, every LTL spec,
    /// then every invariant; traces are numbered in this order too — and, in the text format,
    /// the verdict lines and traces on stdout (written spec by spec, each trace view dropped
    /// once written), `-r`'s figures, `--stats` and the exit code.
    fn report(mut self, program: LoweredProgram, models: Models, mut outcomes: Vec<Option<Filed>>) -> (RunOutput, Vec<SpecReport>) {
        let options = self.options;
        let t3 = Instant::now();
        let mut reports = vec![];
        let mut order: Vec<usize> = (0..program.specs.len()).collect();
        order.sort_by_key(|&i| crate::properties::group(program.specs[i].kind));
        let mut text = (options.format == Format::Text).then(text::TextReport::default);
        for i in order {
            let spec = &program.specs[i];
            let Some((outcome, time_ms, engine)) = outcomes[i].take() else { continue };
            let system = &program.systems[spec.system.index()];
            let model = if system.is_procedure { models.rks.as_ref().map(ModelRef::Rks) } else { models.flat.as_ref().map(FlatBuilt::model_ref) };
            let trace = match (options.traces, outcome.as_ref().ok().and_then(|o| o.trace.as_ref()), model) {
                (true, Some(t), Some(model)) => Some(crate::report::view::TraceView { linear: spec.ltl.is_some(), ..trace_view(&program, model, t) }),
                _ => None,
            };
            if let Ok(SpecOutcome { distance: Some(Distance::Undefined(empty)), .. }) = &outcome {
                // The spec's span without the blank and comment-free tail the parser includes.
                let end = spec.span.start + self.file.slice(spec.span).trim_end().len() as u32;
                self.file_one(undefined_compute(&spec.text, *empty, crate::source::Span::new(spec.span.start as usize, end as usize)));
            }
            reports.push(SpecReport {
                kind: spec.kind,
                name: spec.name.clone(),
                text: spec.text.clone(),
                system_name: system.name.clone(),
                module: system.is_procedure.then(|| system.name.clone()),
                verdict: match &outcome {
                    Ok(o) => Verdict::of_outcome(o),
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
                self.out.stdout.push_str(&text.map(text::TextReport::finish).unwrap_or_default());
                if options.reachable {
                    self.out.stdout.push_str(&reachable_text(&program, models.flat.as_ref(), models.rks.as_ref()));
                }
            }
            Format::Json | Format::Sarif => {}
        }
        crate::cpu_trace::mark("reported");
        self.stat(format_args!("report: {:.3} ms", ms(t3)));
        self.stat(format_args!("total: {:.3} ms", ms(self.start)));
        if options.stats {
            for line in self.stats.lines() {
                let _ = writeln!(self.out.stderr, "-- stats: {line}");
            }
        }
        self.out.exit_code = exit_code(&reports);
        crate::frontend::dispose((program, models.flat, models.rks));
        (self.out, reports)
    }
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
/// Code of the warning that a `COMPUTE MAX` is undefined (one of its formulas holds nowhere).
pub(crate) const W_UNDEFINED_COMPUTE: &str = "W0602";
/// Code of the warning that a procedure spec whose verdict has a trace got none (a walker's cap).
pub(crate) const W_NO_TRACE: &str = "W0603";

/// W0602 for the `COMPUTE` at `span` (printed as `text`) whose formula `empty` holds in no
/// reachable fair state.
fn undefined_compute(text: &str, empty: ComputeOperand, span: crate::source::Span) -> Diagnostic {
    let (which, nusmv) = match empty {
        ComputeOperand::From => ("first", "initial"),
        ComputeOperand::To => ("second", "final"),
    };
    Diagnostic::warning(W_UNDEFINED_COMPUTE, format!("`{}` is undefined: no reachable fair state satisfies its {which} formula", text.trim_end()), span)
        .with_help(format!("NuSMV warns \"in COMPUTE {nusmv} state is empty\" and gives `undefined` too; check the formula and the FAIRNESS constraints"))
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1000.0
}

/// One spec's outcome as filed by [`Run::run_checker`]: the verdict (or why it is unknown), the
/// checker's time in ms and the engine that decided it.
type Filed = (Result<SpecOutcome, Unknown>, f64, Option<Engine>);

/// `-r`: NuSMV's `system diameter: D` and `reachable states: N (2^x) out of M (2^y)` for the flat model, and the number
/// of locations of each procedure module.
pub(crate) fn reachable_text(program: &LoweredProgram, flat: Option<&FlatBuilt>, rks: Option<&RksModel>) -> String {
    let mut out = String::new();
    if let Some(m) = flat {
        let (diameter, states) = m.reachable(program);
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
        (0..system.vars.len()).map(VarId::new).filter(|&v| system.counts_in_state(v)).map(|v| system.vars[v.index()].domain.len() as f64).product();
    format!("system diameter: {diameter}\n{}\n", text::reachable_line(states, total, exact))
}

#[cfg(test)]
mod tests;
