//! NuSMV 2.5.4-style text output: one verdict line per spec, traces with changed values only.
//!
//! ```text
//! -- specification AG (x = 1 -> AF y)  is false
//! -- as demonstrated by the following execution sequence
//! Trace Description: CTL Counterexample
//! Trace Type: Counterexample
//! -> State: 1.1 <-
//!   x = 1
//! -> Input: 1.2 <-
//!   i = TRUE
//! -- Loop starts here
//! -> State: 1.2 <-
//!   y = FALSE
//! ```
//! Specs declared in a module instance carry their context in their text (`AG p IN sim`, see
//! `semantics::system`); NuSMV prints those with one space before `is`
//! (`-- specification AG p IN sim is false`), the others with two. Procedure specs name their
//! module the same way (`-- specification EF p IN foo is true`) and each step shows the call stack and the module:
//! `-> State: 1.3 <- [main(pc = c) > parse]` (calls outermost first, as `module(call location)`).
//! The termination state of an RKS run is `-> State: 1.k <- [terminated]`.
//! A spec left undecided by `--spec-timeout` (NuSMV has no such verdict) prints
//! `-- specification AG p  is unknown (timeout after 2 s)`, with no trace.

use super::view::{StepView, TraceView};
use super::{SpecReport, Verdict};
use crate::check::trace::TraceKind;
use crate::ir::SpecKind;
use std::fmt::Write;

/// The verdict line of a spec, without the newline.
pub(crate) fn verdict_line(r: &SpecReport) -> String {
    let what = if r.kind == SpecKind::Invar { "invariant" } else { "specification" };
    let verdict = r.verdict.describe();
    // NuSMV: `-- the result of MIN [ a , b ]  is 6`, `… ]  IN p1is 6` in an instance.
    if let Verdict::Distance(_) = r.verdict {
        let blank = if has_context(&r.text) { "" } else { " " };
        return format!("-- the result of {}{blank}is {verdict}", r.text);
    }
    match &r.module {
        Some(m) => format!("-- {what} {} IN {m} is {verdict}", r.text.trim_end()),
        None if has_context(&r.text) => format!("-- {what} {} is {verdict}", r.text),
        None => format!("-- {what} {}  is {verdict}", r.text),
    }
}

/// Whether a spec's text ends in an instance context (`… IN a.b`). `IN` is a keyword, so it
/// cannot occur in the formula itself.
fn has_context(text: &str) -> bool {
    text.contains(" IN ")
}

/// All verdict lines and traces; traces are numbered from 1 in order of appearance (the tests'
/// view; the driver streams through [`TextReport`]).
#[cfg(test)]
pub(crate) fn render_text(reports: &[SpecReport]) -> String {
    let mut text = TextReport::default();
    for r in reports {
        text.push(r);
    }
    text.finish()
}

/// The text report (as the test-only `render_text` builds it) one spec at a time, so that a spec's trace view can be dropped as soon as
/// it is written (a run with hundreds of long traces keeps one view, not all).
#[derive(Default)]
pub(crate) struct TextReport {
    out: String,
    traces: usize,
}

impl TextReport {
    pub(crate) fn push(&mut self, r: &SpecReport) {
        self.out.push_str(&verdict_line(r));
        self.out.push('\n');
        if let Some(view) = &r.trace {
            self.traces += 1;
            self.out.push_str(&trace_text_for(view, self.traces, r.kind));
        }
    }
    pub(crate) fn finish(self) -> String {
        self.out
    }
}

/// One trace in NuSMV's format (of a CTL spec, or of an invariant when `invariant`; the tests'
/// entry point).
#[cfg(test)]
pub(crate) fn trace_text(view: &TraceView, trace_no: usize, invariant: bool) -> String {
    trace_text_for(view, trace_no, if invariant { SpecKind::Invar } else { SpecKind::Ctl })
}

/// One trace of a spec of kind `spec` in NuSMV's batch format.
pub(crate) fn trace_text_for(view: &TraceView, trace_no: usize, spec: SpecKind) -> String {
    trace_text_styled(view, trace_no, spec, &TraceStyle::BATCH)
}

/// How a trace is laid out: after a verdict (NuSMV's batch output) or by `show_traces [-v]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TraceStyle {
    /// The `-- as demonstrated by the following execution sequence` line first.
    pub header: bool,
    /// Before each `name = value` line.
    pub indent: &'static str,
    /// Every value at every step (`show_traces -v`), not only the changed ones.
    pub all_values: bool,
}

impl TraceStyle {
    pub(crate) const BATCH: TraceStyle = TraceStyle { header: true, indent: "  ", all_values: false };
    pub(crate) const SHOW: TraceStyle = TraceStyle { header: false, indent: "      ", all_values: false };
    pub(crate) const SHOW_VERBOSE: TraceStyle = TraceStyle { header: false, indent: "      ", all_values: true };
}

/// One trace of a spec of kind `spec` in a given [`TraceStyle`]. LTL lassos mark, as NuSMV 2.5.4
/// does for its LTL traces (computed loop-backs), every step whose state equals the last one
/// with `-- Loop starts here`, not only the step where the loop closes.
pub(crate) fn trace_text_styled(view: &TraceView, trace_no: usize, spec: SpecKind, style: &TraceStyle) -> String {
    trace_text_from(view, trace_no, spec, style, 0)
}

/// [`trace_text_styled`] from step `first` (0-based) on, that step printed in full (NuSMV's
/// `simulate -p`/`-v` print a trace from the step before the simulation's start).
pub(crate) fn trace_text_from(view: &TraceView, trace_no: usize, spec: SpecKind, style: &TraceStyle, first: usize) -> String {
    let mut out = String::new();
    if style.header {
        out.push_str("-- as demonstrated by the following execution sequence\n");
    }
    let (description, kind) = match (view.kind, spec) {
        (TraceKind::Counterexample, SpecKind::Invar) => ("AG alpha Counterexample", "Counterexample"),
        (TraceKind::Counterexample, SpecKind::Ltl) => ("LTL Counterexample", "Counterexample"),
        (TraceKind::Counterexample, SpecKind::Psl) => ("PSL Counterexample", "Counterexample"),
        (TraceKind::Counterexample, _) => ("CTL Counterexample", "Counterexample"),
        (TraceKind::Witness, _) => ("CTL Witness", "Example"),
        (TraceKind::Simulation, _) => ("Simulation Trace", "Simulation"),
    };
    let last_state = view.steps.last().map(|s| &s.values[..s.state_vars]);
    let same_as_last = |i: usize| i + 1 < view.steps.len() && Some(&view.steps[i].values[..view.steps[i].state_vars]) == last_state;
    let loops_at = |i: usize| match spec {
        // RKS lassos: a step's values do not say its module and stack, so only the loop start.
        SpecKind::Ltl if !view.recursive => view.loop_start.is_some() && same_as_last(i),
        SpecKind::Psl if view.linear && !view.recursive => view.loop_start.is_some() && same_as_last(i),
        // NuSMV marks every step of an invariant's (unfrozen) trace whose state equals the last
        // one; only a trace that ends with a transition violating an invariant over inputs or
        // `next()` can have one.
        SpecKind::Invar if !view.recursive => same_as_last(i),
        _ => view.loop_start == Some(i),
    };
    let _ = writeln!(out, "Trace Description: {description} ");
    let _ = writeln!(out, "Trace Type: {kind} ");
    let mut prev: Option<&StepView> = None;
    let mut prev_inputs: Option<&StepView> = None;
    for (i, step) in view.steps.iter().enumerate().skip(first) {
        let n = i + 1;
        if !step.inputs.is_empty() {
            let _ = writeln!(out, "-> Input: {trace_no}.{n} <-");
            let before = prev_inputs.filter(|_| !style.all_values).map(|p| &p.inputs[..]);
            write_changed(&mut out, &step.inputs, before, style.indent);
            prev_inputs = Some(step);
        }
        if loops_at(i) {
            out.push_str("-- Loop starts here\n");
            if !view.loop_push.is_empty() {
                let _ = writeln!(out, "-- each repetition of the loop calls again: {}", view.loop_push.join(" > "));
            }
        }
        let _ = write!(out, "-> State: {trace_no}.{n} <-");
        if step.terminated {
            out.push_str(" [terminated]");
        } else if view.recursive {
            out.push_str(" [");
            for frame in &step.stack {
                let _ = write!(out, "{frame} > ");
            }
            let _ = write!(out, "{}]", step.module);
        }
        out.push('\n');
        let same_module = prev.is_some_and(|p| p.module == step.module && !p.terminated);
        let before = if same_module && !style.all_values { prev.map(|p| &p.values[..]) } else { None };
        write_changed(&mut out, &step.values, before, style.indent);
        prev = Some(step);
    }
    out
}

/// `  name = value` lines for the pairs that differ from `before` (all of them without `before`).
/// Steps of one module list their variables in the same order, so `before[i]` is looked at
/// first; the search is the fallback (linear per step, not quadratic, on modules with
/// thousands of labels).
fn write_changed(out: &mut String, now: &[(String, String)], before: Option<&[(String, String)]>, indent: &str) {
    for (i, (name, value)) in now.iter().enumerate() {
        let unchanged = before.is_some_and(|b| match b.get(i) {
            Some((n, v)) if n == name => v == value,
            _ => b.iter().any(|(n, v)| n == name && v == value),
        });
        if !unchanged {
            let _ = writeln!(out, "{indent}{name} = {value}");
        }
    }
}

/// NuSMV's `-r` line: `reachable states: N (2^x) out of M (2^y)`. NuSMV prints both counts with
/// C's `%g` (`3.93216e+06` past six digits); `exact` prints them as integers while they are exact
/// (`xmv-rs check -r`), the drop-in mode passes `false` to match NuSMV byte for byte.
pub(crate) fn reachable_line(reachable: f64, total: f64, exact: bool) -> String {
    let count = |x: f64| if exact { g6_int(x) } else { g6(x) };
    format!("reachable states: {} (2^{}) out of {} (2^{})", count(reachable), g6(reachable.log2()), count(total), g6(total.log2()))
}

/// A number the way C's `%g` prints it (6 significant digits, no trailing zeros): the exponent
/// that decides between the fixed and the scientific form is the one of the rounded `%.5e` form
/// (so `999999.5` prints `1e+06`, as in C).
pub(crate) fn g6(x: f64) -> String {
    if !x.is_finite() {
        return if x.is_nan() {
            "nan".into()
        } else if x > 0.0 {
            "inf".into()
        } else {
            "-inf".into()
        };
    }
    if x == 0.0 {
        return "0".into();
    }
    let s = format!("{:.5e}", x);
    let (mantissa, e) = s.split_once('e').unwrap_or((&s, "0"));
    let exp: i32 = e.parse().unwrap_or(0);
    if !(-4..6).contains(&exp) {
        let mantissa = trim_zeros(mantissa);
        return format!("{mantissa}e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs());
    }
    let decimals = (5 - exp).max(0) as usize;
    trim_zeros(&format!("{:.*}", decimals, x)).to_string()
}

/// Counts print as integers while exact, else like `%g`.
fn g6_int(x: f64) -> String {
    if x < 1e15 && x.fract() == 0.0 { format!("{}", x as u64) } else { g6(x) }
}

fn trim_zeros(s: &str) -> &str {
    if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.') } else { s }
}
