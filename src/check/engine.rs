//! The engine choice and the one interface every engine implements.
//!
//! [`Engine`] is the value of `--engine` (the command line parses it directly) and the only
//! engine enum outside the engine families. [`Checker`] is what every engine implements: a
//! model and a batch of specs in, one [`SpecOutcome`] per spec (verdict and, when asked for, a
//! [`crate::check::trace::Trace`] of ids), structured [`Stats`] and warnings out. The
//! implementations are sibling modules: [`crate::check::flat::checker`] (flat models, explicit
//! fair labelling) and [`crate::check::procedures`] (procedure modules, the five RKS engines,
//! selected by [`Engine`]). A new engine (symbolic, LTL) is a new sibling implementing
//! [`Checker`] for the model type it reads; see `docs/architecture.md`.
//!
//! Threads: an engine runs in the rayon pool of its caller; one that sizes its own pool (the flat
//! engine) reads [`RunOptions::threads`].

use crate::check::trace::SpecOutcome;

/// The value of `--engine`: an engine for procedure modules or one for flat models.
///
/// Procedure modules: `summary`: exit summaries instead of context tops (`check::rks::summary`);
/// `incremental` and `global`: Finis' chapter-4 and chapter-3 context engines (`check::rks`);
/// `eager` and `lazy`: the ternary engines of Dubslaff et al. (`check::ternary`).
///
/// Flat models: `explicit` (the state graph, `check::flat`), `bdd` (BDDs, `check::bdd`), `auto`
/// (the default: explicit, switching to BDDs when the state space exceeds its state or memory
/// budget). A procedure-engine value leaves flat models on `auto` ([`Engine::flat`]); a flat
/// value leaves procedure modules on `summary` ([`Engine::procedures`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Engine {
    /// Flat models: explicit, or BDDs past the explicit budget (the default).
    #[default]
    Auto,
    /// Flat models: the explicit state graph.
    Explicit,
    /// Flat models: BDDs.
    Bdd,
    /// Procedure modules: exit summaries.
    Summary,
    /// Procedure modules: Finis' incremental context engine.
    Incremental,
    /// Procedure modules: Finis' global context engine.
    Global,
    /// Procedure modules: the eager ternary engine (Dubslaff et al.).
    Eager,
    /// Procedure modules: the lazy ternary engine (Dubslaff et al.).
    Lazy,
}

impl Engine {
    /// Every engine, in `--help` order.
    pub const ALL: [Engine; 8] =
        [Engine::Auto, Engine::Explicit, Engine::Bdd, Engine::Summary, Engine::Incremental, Engine::Global, Engine::Eager, Engine::Lazy];

    /// The engine for flat models: `explicit`, `bdd` or `auto`.
    pub fn flat(self) -> Engine {
        match self {
            Engine::Explicit | Engine::Bdd => self,
            _ => Engine::Auto,
        }
    }

    /// The engine for procedure modules (`summary` for the flat-model values).
    pub fn procedures(self) -> Engine {
        match self {
            Engine::Auto | Engine::Explicit | Engine::Bdd => Engine::Summary,
            other => other,
        }
    }

    /// The engine that re-checks this one's verdicts under `--verify`: one of the other family
    /// (Finis' context-based engines vs the ternary engines of Dubslaff et al.; explicit vs BDD),
    /// so that the two share no algorithm.
    pub fn verifier(self) -> Engine {
        match self {
            Engine::Explicit | Engine::Auto => Engine::Bdd,
            Engine::Bdd => Engine::Explicit,
            Engine::Incremental => Engine::Lazy,
            Engine::Global => Engine::Eager,
            Engine::Eager => Engine::Global,
            Engine::Lazy => Engine::Incremental,
            Engine::Summary => Engine::Lazy,
        }
    }

    /// The name on the command line and in `--stats`.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Auto => "auto",
            Engine::Explicit => "explicit",
            Engine::Bdd => "bdd",
            Engine::Incremental => "incremental",
            Engine::Global => "global",
            Engine::Eager => "eager",
            Engine::Lazy => "lazy",
            Engine::Summary => "summary",
        }
    }
}

/// What every engine is told besides the model and the specs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunOptions {
    /// Counterexamples of false specs (and witnesses where the engine family always gives them).
    pub traces: bool,
    /// Witnesses of true existential specs of flat models too (`--witnesses`).
    pub witnesses: bool,
    /// Worker threads for engines that size their own pool (0 = the caller's pool).
    pub threads: usize,
}

/// One engine: checks a batch of specs of one model.
pub trait Checker {
    /// The state space it reads (a Kripke structure, a recursive Kripke structure, …).
    type Model: ?Sized;
    /// One spec as the state-space builder delivers it.
    type Spec;
    /// One outcome per spec of `specs`, in order. `Err` is a message for the user (exit code 2),
    /// never a verdict.
    fn check(&self, model: &Self::Model, specs: &[Self::Spec], options: &RunOptions) -> Result<Checked, String>;
}

/// What checking one batch produced.
#[derive(Clone, Debug, Default)]
pub struct Checked {
    /// One outcome per spec, in the batch's order.
    pub outcomes: Vec<SpecOutcome>,
    pub stats: Stats,
    /// Warnings about the verdicts (e.g. no fair state), one sentence each.
    pub warnings: Vec<String>,
}

/// An engine's work counters for `--stats`: named, summed over the batch, rendered by
/// [`Stats::lines`] only.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// The engine that ran, for model kinds with several.
    pub engine: Option<Engine>,
    /// `(name, value)` in the order printed.
    pub counters: Vec<(&'static str, u64)>,
    /// `--verify`: the second engine and the number of verdicts it confirmed.
    pub verified_by: Option<(Engine, usize)>,
}

impl Stats {
    /// Counters of an engine that has no name on the command line.
    pub(crate) fn counters(counters: Vec<(&'static str, u64)>) -> Stats {
        Stats { counters, ..Stats::default() }
    }

    /// Counters of `engine`.
    pub(crate) fn of(engine: Engine, counters: Vec<(&'static str, u64)>) -> Stats {
        Stats { engine: Some(engine), counters, verified_by: None }
    }

    /// `name: value` lines, as `--stats` prints them (after the stage's prefix).
    pub(crate) fn lines(&self) -> Vec<String> {
        let engine = self.engine.map(|e| format!("engine: {}", e.name()));
        let counters = self.counters.iter().map(|(name, value)| format!("{name}: {value}"));
        let verified = self.verified_by.map(|(e, n)| format!("verified by engine {}: {n} verdicts agree", e.name()));
        engine.into_iter().chain(counters).chain(verified).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::ValueEnum;

    #[test]
    fn command_line_names_are_the_stats_names() {
        for e in Engine::ALL {
            assert_eq!(e.to_possible_value().map(|v| v.get_name().to_string()), Some(e.name().to_string()));
            assert_ne!(e.verifier(), e);
        }
    }

    #[test]
    fn stats_render_engine_counters_then_verification() {
        let mut s = Stats::of(Engine::Eager, vec![("contexts created", 7)]);
        s.verified_by = Some((Engine::Global, 3));
        assert_eq!(s.lines(), ["engine: eager", "contexts created: 7", "verified by engine global: 3 verdicts agree"]);
        assert_eq!(Stats::counters(vec![("distinct subformulas", 4)]).lines(), ["distinct subformulas: 4"]);
    }
}
