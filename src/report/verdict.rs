//! What checking a spec decided ([`Verdict`]) and why a spec was left undecided ([`Unknown`]):
//! what the report prints and the library API returns (`crate::api` re-exports both).

use crate::ir::Distance;

/// What checking a spec decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The spec holds.
    True,
    /// The spec does not hold.
    False,
    /// The spec was not decided.
    Unknown(Unknown),
    /// `COMPUTE`: the distance it asks for (neither true nor false).
    Distance(Distance),
}

impl Verdict {
    /// `True` or `False`.
    pub fn of(holds: bool) -> Verdict {
        if holds { Verdict::True } else { Verdict::False }
    }

    /// A checker's outcome: its distance for a `COMPUTE`, else whether the spec holds.
    pub(crate) fn of_outcome(outcome: &crate::check::trace::SpecOutcome) -> Verdict {
        outcome.distance.map_or(Verdict::of(outcome.holds), Verdict::Distance)
    }

    /// The verdict as the text format prints it after `is`: `true`, `false`, `unknown (…)`, a
    /// `COMPUTE`'s `6`, `infinity` or `undefined`.
    pub fn describe(self) -> String {
        match self {
            Verdict::True => "true".into(),
            Verdict::False => "false".into(),
            Verdict::Unknown(why) => format!("unknown ({})", why.describe()),
            Verdict::Distance(d) => d.to_string(),
        }
    }

    /// `Some(true)` / `Some(false)` for a decided spec, `None` for an undecided one or a `COMPUTE`.
    pub fn holds(self) -> Option<bool> {
        match self {
            Verdict::True => Some(true),
            Verdict::False => Some(false),
            Verdict::Unknown(_) | Verdict::Distance(_) => None,
        }
    }
}

/// Why a spec was not decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Unknown {
    /// Its check ran past `--spec-timeout` (the limit it had) and was cancelled.
    Timeout(std::time::Duration),
}

impl Unknown {
    /// The reason as the text format prints it, e.g. `timeout after 2 s`.
    pub fn describe(self) -> String {
        match self {
            Unknown::Timeout(limit) => format!("timeout after {} s", limit.as_secs_f64()),
        }
    }
}
