//! Validation of the engines' witnesses and counterexamples against K(R): the run starts at the
//! initial configuration, every step is a transition of K(R) (computed by the oracle's
//! successor function), a lasso closes (with its pushed frames, for loops through recursion),
//! and the run shows what the top-level operator claims — checked at each configuration with the
//! bounded oracle, or the context oracle where the bound cannot decide.

use super::contexts;
use super::ctl_text::F;
use super::oracle::{self, Config, Verdict};
use xmv_rs::check::trace::{Trace, TraceKind, TraceStep};
use xmv_rs::ctl::{Bound, Ctl};
use xmv_rs::explicit::rks::RecursiveKripkeStructure;

const DEPTH: usize = 4;
const STATES: usize = 4000;

/// Counts of the semantic facts checked on traces (undecided: neither oracle applies).
#[derive(Default, Debug)]
pub struct TraceStats {
    pub traces: usize,
    pub facts_checked: usize,
    pub facts_undecided: usize,
}

pub fn config(step: &TraceStep) -> Config {
    if step.terminated {
        Config::Term
    } else {
        Config::At { stack: step.stack.iter().map(|f| (f.component, f.call)).collect(), comp: step.component, node: step.state }
    }
}

/// `conf` with `frames` inserted at stack depth `d` (one more repetition of a recursive loop).
fn push_frames(conf: &Config, d: usize, frames: &[(u32, u32)]) -> Config {
    match conf {
        Config::Term => Config::Term,
        Config::At { stack, comp, node } => {
            let mut s = stack[..d.min(stack.len())].to_vec();
            s.extend_from_slice(frames);
            s.extend_from_slice(&stack[d.min(stack.len())..]);
            Config::At { stack: s, comp: *comp, node: *node }
        }
    }
}

/// Whether the trace of `formula` (verdict `holds`) from `initial` is a run of K(R) that shows
/// the verdict. `Err` describes the first defect.
pub fn validate(rks: &RecursiveKripkeStructure, initial: u32, formula: &F, holds: bool, trace: &Trace, stats: &mut TraceStats) -> Result<(), String> {
    stats.traces += 1;
    let steps: Vec<Config> = trace.steps.iter().map(config).collect();
    let start = Config::At { stack: Vec::new(), comp: initial, node: 0 };
    if steps.first() != Some(&start) {
        return Err(format!("the trace does not start at the initial configuration: {:?}", steps.first()));
    }
    let counterexample = trace.kind == TraceKind::Counterexample;
    if counterexample == holds {
        return Err(format!("counterexample flag {counterexample} for verdict {holds}"));
    }
    let is_step = |a: &Config, b: &Config| oracle::successors(rks, a).contains(b);
    for (i, w) in steps.windows(2).enumerate() {
        if !is_step(&w[0], &w[1]) {
            return Err(format!("step {i} -> {}: {:?} -> {:?} is not a transition", i + 1, w[0], w[1]));
        }
    }
    // The run as checked: the steps, plus one repetition of the loop body with its frames.
    let mut run = steps.clone();
    if let Some(ls) = trace.loop_start {
        if ls >= steps.len() {
            return Err(format!("loop_start {ls} beyond {} steps", steps.len()));
        }
        let d = match &steps[ls] {
            Config::At { stack, .. } => stack.len(),
            Config::Term => 0,
        };
        let push: Vec<(u32, u32)> = trace.loop_push.iter().map(|f| (f.component, f.call)).collect();
        let again: Vec<Config> = steps[ls..].iter().map(|c| push_frames(c, d, &push)).collect();
        let again2: Vec<Config> = again.iter().map(|c| push_frames(c, d, &push)).collect();
        let last = steps.last().unwrap_or(&start);
        if !is_step(last, &again[0]) {
            return Err(format!("the loop does not close: {last:?} -> {:?}", again[0]));
        }
        for w in again.windows(2) {
            if !is_step(&w[0], &w[1]) {
                return Err(format!("second repetition: {:?} -> {:?} is not a transition", w[0], w[1]));
            }
        }
        if !is_step(again.last().unwrap_or(last), &again2[0]) {
            return Err("the loop does not close in its second repetition".into());
        }
        run.extend(again);
    } else if !trace.loop_push.is_empty() {
        return Err("loop_push without loop_start".into());
    }
    // What the run must show: per position, a formula that must hold there.
    let not = |f: &F| Ctl::Not(Box::new(f.clone()));
    let and = |a: F, b: F| Ctl::And(Box::new(a), Box::new(b));
    let lasso = trace.loop_start.is_some();
    let n = run.len();
    let mut facts: Vec<(usize, F)> = Vec::new();
    let want = |cond: bool, what: &str| if cond { Ok(()) } else { Err(format!("a {what} trace has the wrong shape")) };
    match (formula, holds) {
        (Ctl::EX(a), true) | (Ctl::AX(a), false) => {
            want(steps.len() == 2 && !lasso, "EX/AX")?;
            facts.push((1, if holds { (**a).clone() } else { not(a) }));
        }
        (Ctl::EF(a), true) | (Ctl::AG(a), false) => {
            want(!lasso, "EF/AG")?;
            facts.push((n - 1, if holds { (**a).clone() } else { not(a) }));
        }
        (Ctl::EU(a, b), true) => {
            want(!lasso, "EU")?;
            facts.extend((0..n - 1).map(|i| (i, (**a).clone())));
            facts.push((n - 1, (**b).clone()));
        }
        (Ctl::EG(a), true) | (Ctl::AF(a), false) => {
            want(lasso, "EG/AF")?;
            let g = if holds { (**a).clone() } else { not(a) };
            facts.extend((0..n).map(|i| (i, g.clone())));
        }
        (Ctl::AU(a, b), false) => {
            facts.extend((0..n - 1).map(|i| (i, not(b))));
            facts.push((n - 1, if lasso { not(b) } else { and(not(a), not(b)) }));
        }
        // RTCTL: finite runs. The walk may go on past the top operator's bound: the DAG merges
        // nested bounded operators (`ABG 0..0 ABF 0..2 p` is `ABF 0..2 p`), whose explanation
        // then continues the run.
        (Ctl::EBF(a, k), true) | (Ctl::ABG(a, k), false) => {
            want(!lasso, "EBF/ABG")?;
            let g = if holds { (**a).clone() } else { not(a) };
            return bounded_until_witness(rks, &run, None, &g, *k, stats);
        }
        (Ctl::EBG(a, k), true) | (Ctl::ABF(a, k), false) => {
            want(!lasso && n > k.hi as usize, "EBG/ABF")?;
            let g = if holds { (**a).clone() } else { not(a) };
            facts.extend((k.lo as usize..=k.hi as usize).map(|i| (i, g.clone())));
        }
        (Ctl::EBU(a, b, k), true) => {
            want(!lasso, "EBU")?;
            return bounded_until_witness(rks, &run, Some(a), b, *k, stats);
        }
        (Ctl::ABU(a, b, k), false) => {
            want(!lasso, "ABU")?;
            return bounded_until_counterexample(rks, &run, a, b, *k, stats);
        }
        _ => return Err("a trace for a spec that has none".into()),
    }
    for (i, f) in facts {
        if value_at(rks, &run[i], &f, stats)? == Some(false) {
            return Err(format!("position {i} ({:?}) does not satisfy the claimed subformula", run[i]));
        }
    }
    Ok(())
}

/// The value of `f` at `conf` (`None`: neither oracle decides), counted.
fn value_at(rks: &RecursiveKripkeStructure, conf: &Config, f: &F, stats: &mut TraceStats) -> Result<Option<bool>, String> {
    Ok(match fact(rks, conf, f)? {
        Verdict::Holds => {
            stats.facts_checked += 1;
            Some(true)
        }
        Verdict::Fails => {
            stats.facts_checked += 1;
            Some(false)
        }
        Verdict::Unknown => {
            stats.facts_undecided += 1;
            None
        }
    })
}

/// A witness of `E[a BU k b]` (`a = None`: `EBF k b`): a position `i` of the run in `k` with `b`,
/// and `a` at every position before it. An undecided value ends the check without a verdict.
fn bounded_until_witness(rks: &RecursiveKripkeStructure, run: &[Config], a: Option<&F>, b: &F, k: Bound, stats: &mut TraceStats) -> Result<(), String> {
    for (i, conf) in run.iter().enumerate().take(k.hi as usize + 1) {
        if i >= k.lo as usize {
            match value_at(rks, conf, b, stats)? {
                Some(true) => return Ok(()),
                Some(false) => {}
                None => return Ok(()),
            }
        }
        if let Some(a) = a {
            match value_at(rks, conf, a, stats)? {
                Some(true) => {}
                Some(false) => break,
                None => return Ok(()),
            }
        }
    }
    Err(format!("no position of the run in {}..{} meets the bounded goal", k.lo, k.hi))
}

/// A counterexample of `A[a BU k b]`: a run on which no position `i` in `k` has `b` with `a` at
/// every position before it, however the run goes on: before its last position `m` the goal is
/// not met, and either `a` failed somewhere before `m` (then it can no longer be met), or `m`
/// is past the bound, or the shifted `A[a BU k−m b]` fails at `m`.
fn bounded_until_counterexample(rks: &RecursiveKripkeStructure, run: &[Config], a: &F, b: &F, k: Bound, stats: &mut TraceStats) -> Result<(), String> {
    let m = run.len() - 1;
    let in_range = |i: usize| (k.lo as usize..=k.hi as usize).contains(&i);
    for (i, conf) in run.iter().enumerate().take(m) {
        if in_range(i) && value_at(rks, conf, b, stats)? == Some(true) {
            return Err(format!("position {i} ({conf:?}) meets the goal of the A[BU] the trace claims to fail"));
        }
        if value_at(rks, conf, a, stats)? == Some(false) {
            return Ok(());
        }
    }
    if m > k.hi as usize {
        return Ok(());
    }
    let rest = Bound { lo: k.lo.saturating_sub(m as u32), hi: k.hi - m as u32 };
    let shifted = Ctl::ABU(Box::new(a.clone()), Box::new(b.clone()), rest);
    match value_at(rks, &run[m], &shifted, stats)? {
        Some(true) => Err(format!("the last position ({:?}) can still meet the goal", run[m])),
        _ => Ok(()),
    }
}

/// Whether `f` holds at `config`: the bounded unfolding first, the context oracle where the
/// bound cannot decide.
fn fact(rks: &RecursiveKripkeStructure, config: &Config, f: &F) -> Result<Verdict, String> {
    Ok(match oracle::check_at(rks, config.clone(), f, DEPTH, STATES).0 {
        Verdict::Unknown => match contexts::check_at(rks, f, config) {
            Some(Ok(true)) => Verdict::Holds,
            Some(Ok(false)) => Verdict::Fails,
            Some(Err(e)) => return Err(e),
            None => Verdict::Unknown,
        },
        v => v,
    })
}

/// True if the engines promise a trace for this spec and verdict.
pub fn trace_expected(formula: &F, holds: bool) -> bool {
    match formula {
        Ctl::EX(_) | Ctl::EF(_) | Ctl::EG(_) | Ctl::EU(..) => holds,
        Ctl::AX(_) | Ctl::AF(_) | Ctl::AG(_) | Ctl::AU(..) => !holds,
        Ctl::EBF(..) | Ctl::EBG(..) | Ctl::EBU(..) => holds,
        Ctl::ABF(..) | Ctl::ABG(..) | Ctl::ABU(..) => !holds,
        _ => false,
    }
}
