//! `--spec-timeout SECS`: checking a model's specs one at a time, each under its own deadline
//! ([`crate::deadline::SpecClock`]); a spec whose check runs out is left undecided
//! ([`Unknown::Timeout`]) and the next one starts.
//!
//! Without a timeout a checker decides all specs of a model in one batch (they share
//! subformulas and the fair states); with one, each spec is a batch of its own, so its time is
//! its own work (shared subformulas and the fair states are computed again for each spec). The
//! model's spec list is narrowed to the one spec for the call and restored afterwards, whether
//! the check finished or was cancelled. The state-space construction is not under the clock.

use super::CheckedSpecs;
use crate::check::Stats;
use crate::check::trace::SpecOutcome;
use crate::deadline::SpecClock;
use crate::report::Unknown;
use std::time::Duration;

/// The outcomes of one model's specs (in the model's spec order), each decided or not.
#[derive(Debug, Default)]
pub(crate) struct Decided {
    /// `Err` for a spec left undecided.
    pub outcomes: Vec<Result<SpecOutcome, Unknown>>,
    pub stats: Stats,
    /// Warnings about the verdicts, each once.
    pub warnings: Vec<String>,
}

impl From<CheckedSpecs> for Decided {
    fn from(checked: CheckedSpecs) -> Decided {
        Decided { outcomes: checked.outcomes.into_iter().map(Ok).collect(), stats: checked.stats, warnings: checked.warnings }
    }
}

/// Checks the specs of `model` (the list `specs` reaches) one at a time under `clock`.
/// Counters are summed over the specs; `Err` is a checker's failure (no verdict at all).
pub(crate) fn one_by_one<M: Sync, S: Clone>(
    model: &mut M,
    specs: fn(&mut M) -> &mut Vec<S>,
    check: impl Fn(&M) -> Result<CheckedSpecs, String> + Sync,
    clock: &SpecClock,
) -> Result<Decided, String> {
    let all = std::mem::take(specs(model));
    let mut decided = Decided::default();
    let mut failure = None;
    for spec in &all {
        *specs(model) = vec![spec.clone()];
        let shared: &M = model;
        match clock.run(|| check(shared)) {
            None => decided.outcomes.push(Err(Unknown::Timeout(clock.limit()))),
            Some(Err(e)) => {
                failure = Some(e);
                break;
            }
            Some(Ok(checked)) => {
                add_counters(&mut decided.stats, checked.stats);
                for w in checked.warnings {
                    if !decided.warnings.contains(&w) {
                        decided.warnings.push(w);
                    }
                }
                let Some(outcome) = checked.outcomes.into_iter().next() else {
                    failure = Some("a checker returned no verdict for its spec".to_string());
                    break;
                };
                decided.outcomes.push(Ok(outcome));
            }
        }
    }
    *specs(model) = all;
    failure.map_or(Ok(decided), Err)
}

/// `--spec-timeout`'s value: seconds, a non-negative decimal number (`2`, `0.5`, `0`).
pub fn parse_seconds(text: &str) -> Result<Duration, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if (0.0..=1e9).contains(&s) => Ok(Duration::from_secs_f64(s)),
        _ => Err(format!("`{text}` is not a number of seconds (e.g. 2 or 0.5)")),
    }
}

/// Adds the counters of one spec's check to the run's.
fn add_counters(total: &mut Stats, one: Stats) {
    total.engine = total.engine.or(one.engine);
    total.verified_by = match (total.verified_by, one.verified_by) {
        (Some((e, a)), Some((_, b))) => Some((e, a + b)),
        (a, b) => a.or(b),
    };
    for (name, value) in one.counters {
        match total.counters.iter_mut().find(|(n, _)| *n == name) {
            Some((_, sum)) => *sum += value,
            None => total.counters.push((name, value)),
        }
    }
}
