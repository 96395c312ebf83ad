//! Differential tests of the RKS engines: on seeded random RKSs (recursive and not, zero to three
//! exits, both termination rules) and random formulas over every CTL operator, Finis'
//! `Incremental` and `Global` engines and the ternary `Eager` and `Lazy` engines must agree on
//! every case (and so must the summary engine), and all must agree with two independent oracles: the brute-force unfolding
//! (`rks_support::oracle`: exact on non-recursive RKSs, a sound bound on recursive ones) and the
//! naive all-contexts checker (`rks_support::contexts`: exact on recursive RKSs too, when the
//! contexts are few enough to enumerate). The oracles must also agree with each other. With a
//! trace (first spec of each model), the trace is validated against K(R); every eighth model
//! also goes through `check_many` from every component.
//!
//! `XMV_TEST_CASES=n` runs `n` models instead of the default; `XMV_TEST_SEED=s` changes the seed;
//! `XMV_TEST_MAX_COMPS`, `XMV_TEST_MAX_NODES`, `XMV_TEST_FORMULA_DEPTH` and `XMV_TEST_MAX_EXITS`
//! change the sizes (defaults 4, 6, 4, 3; every fifth model gets 2 more components and 3 more
//! nodes).
//! A disagreement is shrunk to a minimal reproducer, printed as `rks_builder::parse_rks` text
//! plus the formula, and fails the test.

mod rks_support;

use rks_support::contexts;
use rks_support::ctl_text::{self, F};
use rks_support::oracle::{self, Verdict};
use rks_support::random::{self, GenParams, Rng};
use rks_support::shrink::{Case, shrink};
use rks_support::traces::{self, TraceStats};
use std::panic::{AssertUnwindSafe, catch_unwind};
use xmv_rs::check::rks::{RksEngine, RksOptions, check, check_many};
use xmv_rs::check::ternary::{self, TernaryEngine};
use xmv_rs::explicit::rks::ComponentId;

const DEFAULT_MODELS: usize = 1500;
const FORMULAS_PER_MODEL: usize = 3;
const ORACLE_DEPTH: usize = 6;
const ORACLE_STATES: usize = 4000;

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// One engine's answer; a panic is an answer too (and always a finding).
#[derive(Clone, Debug, PartialEq, Eq)]
enum Answer {
    Holds(bool),
    /// The verdict, and what is wrong with its trace.
    BadTrace(bool, String),
    Panicked(String),
}

impl Answer {
    fn verdict(&self) -> Option<bool> {
        match self {
            Answer::Holds(h) | Answer::BadTrace(h, _) => Some(*h),
            Answer::Panicked(_) => None,
        }
    }
}

/// The engines under test: Finis' incremental and global engines (`check::rks`) and the ternary
/// eager and lazy engines of Dubslaff et al. (`check::ternary`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Engine {
    Incremental,
    Global,
    Summary,
    TernaryEager,
    TernaryLazy,
}

const ENGINES: [Engine; 5] = [Engine::Incremental, Engine::Global, Engine::Summary, Engine::TernaryEager, Engine::TernaryLazy];

/// Runs one engine; with `want_trace`, also validates the trace against K(R) (a bad or missing
/// trace turns the answer into `BadTrace`).
fn run(case: &Case, engine: Engine, want_trace: bool, stats: &mut TraceStats) -> Answer {
    let rks = case.model.build();
    let init = case.initial as u32;
    let f = &case.formula;
    let result = catch_unwind(AssertUnwindSafe(|| match engine {
        Engine::Incremental | Engine::Global | Engine::Summary => {
            let engine = match engine {
                Engine::Global => RksEngine::Global,
                Engine::Summary => RksEngine::Summary,
                _ => RksEngine::Incremental,
            };
            let r = check(&rks, ComponentId::from_u32(init), f, &RksOptions { engine, want_trace });
            (r.holds, r.trace)
        }
        Engine::TernaryEager | Engine::TernaryLazy => {
            let engine = if engine == Engine::TernaryLazy { TernaryEngine::Lazy } else { TernaryEngine::Eager };
            let r = ternary::check(&rks, ComponentId::from_u32(init), f, engine, want_trace);
            (r.holds, r.trace)
        }
    }));
    match result {
        Ok((holds, trace)) if want_trace => match &trace {
            Some(t) => match traces::validate(&rks, init, f, holds, t, stats) {
                Ok(()) => Answer::Holds(holds),
                Err(e) => Answer::BadTrace(holds, e),
            },
            None if traces::trace_expected(f, holds) => Answer::BadTrace(holds, "missing".into()),
            None => Answer::Holds(holds),
        },
        Ok((holds, _)) => Answer::Holds(holds),
        Err(e) => Answer::Panicked(e.downcast_ref::<String>().cloned().or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string())).unwrap_or_default()),
    }
}

struct Outcome {
    /// One answer per engine of [`ENGINES`].
    answers: Vec<Answer>,
    oracle: Verdict,
    exact: bool,
    /// The all-contexts checker: `None` if too many contexts, `Some(Err)` on an oracle defect.
    contexts: Option<Result<bool, String>>,
}

impl Outcome {
    fn of(case: &Case, want_trace: bool, stats: &mut TraceStats) -> Outcome {
        let (oracle, exact) = oracle::check(&case.model.build(), case.initial as u32, &case.formula, ORACLE_DEPTH, ORACLE_STATES);
        Outcome {
            answers: ENGINES.iter().map(|&e| run(case, e, want_trace, stats)).collect(),
            oracle,
            exact,
            contexts: contexts::check(&case.model.build(), case.initial as u32, &case.formula),
        }
    }

    /// What is wrong, if anything: a panic, the engines disagreeing, or an engine contradicting
    /// the oracle.
    fn problem(&self) -> Option<String> {
        let unfolded = match self.oracle {
            Verdict::Holds => Some(true),
            Verdict::Fails => Some(false),
            Verdict::Unknown => None,
        };
        let by_contexts = match &self.contexts {
            Some(Err(e)) => return Some(format!("oracle defect: {e}")),
            Some(Ok(v)) => Some(*v),
            None => None,
        };
        if let (Some(a), Some(b)) = (unfolded, by_contexts)
            && a != b
        {
            return Some(format!("oracles disagree: unfolding {a}, contexts {b}"));
        }
        let expected = unfolded.or(by_contexts);
        for (name, a) in ENGINES.iter().zip(&self.answers) {
            match a {
                Answer::Panicked(m) => return Some(format!("{name:?} panicked: {m}")),
                Answer::Holds(h) | Answer::BadTrace(h, _) if expected.is_some_and(|e| e != *h) => {
                    return Some(format!("{name:?} says {h}, oracle says {}", !h));
                }
                Answer::BadTrace(_, e) => return Some(format!("{name:?} trace: {e}")),
                _ => {}
            }
        }
        let first = self.answers[0].verdict();
        let differs = self.answers.iter().any(|a| a.verdict() != first);
        differs.then(|| format!("engines disagree: {:?}", ENGINES.iter().zip(&self.answers).collect::<Vec<_>>()))
    }
}

/// The kind of a problem, kept fixed while shrinking so the reproducer shows the same bug.
fn kind(problem: &str) -> String {
    problem.split(':').next().unwrap_or(problem).split(" says").next().unwrap_or(problem).to_string()
}

fn reproducer(case: &Case, out: &Outcome, problem: &str) -> String {
    format!(
        "--- {problem}\ninitial component: {}\nformula: {}\nengines: {:?}\nunfolding oracle: {:?} (exact: {}), \
         context oracle: {:?}\n\
         parse_rks text:\n{}",
        case.model.comps[case.initial].name,
        ctl_text::print(&case.formula, &case.model.props),
        ENGINES.iter().zip(&out.answers).collect::<Vec<_>>(),
        out.oracle,
        out.exact,
        out.contexts,
        case.model.to_builder_text()
    )
}

/// Compares `check_many` with one-by-one `check` on `specs`, for the context-based engines.
fn batch_mismatch(model: &rks_support::model::Model, specs: &[(ComponentId, F)]) -> Option<String> {
    let rks = model.build();
    for engine in [RksEngine::Incremental, RksEngine::Global, RksEngine::Summary] {
        let opts = RksOptions { engine, want_trace: false };
        let Ok(many) = catch_unwind(AssertUnwindSafe(|| check_many(&rks, specs, &opts))) else {
            return Some(format!("{engine:?} check_many panicked"));
        };
        for ((init, f), r) in specs.iter().zip(&many) {
            let one = catch_unwind(AssertUnwindSafe(|| check(&rks, *init, f, &opts).holds)).ok();
            if one != Some(r.holds) {
                let name = &model.comps[init.index()].name;
                let f = ctl_text::print(f, &model.props);
                return Some(format!("{engine:?} check_many says {} for {f} at {name}, check says {one:?}", r.holds));
            }
        }
    }
    None
}

#[test]
fn rks_engines_and_oracles_agree_on_random_rks() {
    let models = env_usize("XMV_TEST_CASES", DEFAULT_MODELS);
    let seed = env_usize("XMV_TEST_SEED", 0x5eed_2012) as u64;
    let mut rng = Rng::new(seed);
    let max_comps = env_usize("XMV_TEST_MAX_COMPS", 4);
    let max_nodes = env_usize("XMV_TEST_MAX_NODES", 6);
    let depth = env_usize("XMV_TEST_FORMULA_DEPTH", 4);
    let max_exits = env_usize("XMV_TEST_MAX_EXITS", 3);
    let (mut cases, mut acyclic, mut exact, mut decided_by_bound, mut multi_exit) = (0, 0, 0, 0, 0);
    let (mut by_contexts, mut only_by_contexts, mut undecided, mut batch_specs) = (0, 0, 0, 0);
    let mut reproducers: Vec<String> = Vec::new();
    let mut seen_kinds: Vec<String> = Vec::new();
    let mut disagreements = 0;
    let mut trace_stats = TraceStats::default();
    // Engine panics are caught and reported; keep their messages off the test output.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    for i in 0..models {
        // Mostly small models (shrinking is fast, many shapes); every fifth one larger.
        let big = i % 5 == 4;
        let (max_comps, max_nodes) = if big { (max_comps + 2, max_nodes + 3) } else { (max_comps, max_nodes) };
        let params = GenParams { recursive: i % 2 == 1, max_comps, max_nodes };
        let model = random::model_with_exits(&mut rng, &params, max_exits);
        let initial = rng.range(0, model.comps.len() - 1);
        let cyclic = model.call_graph_cyclic(initial);
        let several_exits = model.comps.iter().any(|c| c.exits.len() > 1);
        let mut batch: Vec<(ComponentId, F)> = Vec::new();
        for j in 0..FORMULAS_PER_MODEL {
            // The first spec of each model has a temporal top operator and asks for a trace.
            let want_trace = j == 0;
            let formula: F =
                if want_trace { random::temporal_formula(&mut rng, model.props.len(), depth) } else { random::formula(&mut rng, model.props.len(), depth) };
            batch.extend((0..model.comps.len()).map(|c| (ComponentId::new(c), formula.clone())));
            let case = Case { model: model.clone(), initial, formula };
            let out = Outcome::of(&case, want_trace, &mut trace_stats);
            cases += 1;
            acyclic += !cyclic as usize;
            exact += out.exact as usize;
            decided_by_bound += (!out.exact && out.oracle != Verdict::Unknown) as usize;
            multi_exit += several_exits as usize;
            let ctx_decided = matches!(out.contexts, Some(Ok(_)));
            by_contexts += ctx_decided as usize;
            only_by_contexts += (ctx_decided && out.oracle == Verdict::Unknown) as usize;
            undecided += (!ctx_decided && out.oracle == Verdict::Unknown) as usize;
            let Some(problem) = out.problem() else { continue };
            disagreements += 1;
            let k = kind(&problem);
            if seen_kinds.contains(&k) || reproducers.len() >= 8 {
                continue;
            }
            seen_kinds.push(k.clone());
            let mut scratch = TraceStats::default();
            let small = shrink(case, &mut |c| Outcome::of(c, want_trace, &mut scratch).problem().is_some_and(|p| kind(&p) == k));
            let small_out = Outcome::of(&small, want_trace, &mut scratch);
            let small_problem = small_out.problem().unwrap_or(problem);
            reproducers.push(reproducer(&small, &small_out, &small_problem));
        }
        // The batch API (specs in parallel) must answer every spec, from every component, as
        // `check` does one by one. Every eighth model: waking rayon's threads costs wall time.
        if i % 8 != 0 {
            continue;
        }
        batch_specs += batch.len();
        if let Some(e) = batch_mismatch(&model, &batch) {
            disagreements += 1;
            if reproducers.len() < 8 {
                reproducers.push(format!("--- {e}\nparse_rks text:\n{}", model.to_builder_text()));
            }
        }
    }
    std::panic::set_hook(hook);
    eprintln!(
        "rks differential: {cases} cases ({acyclic} with an acyclic call graph, {multi_exit} with several exits), \
         {exact} checked against the exact unfolding, {decided_by_bound} recursive ones against the bounded unfolding, \
         {by_contexts} against the context oracle ({only_by_contexts} decided by it alone), {undecided} engine-vs-engine only, \
         {disagreements} disagreements; {} traces validated ({} facts checked on them, {} undecided); \
         {batch_specs} specs through check_many",
        trace_stats.traces, trace_stats.facts_checked, trace_stats.facts_undecided
    );
    assert!(reproducers.is_empty(), "{disagreements} disagreements; minimal reproducers:\n{}", reproducers.join("\n"));
}

/// RTCTL's bounded operators reach the RKS engines unfolded into the shared formula DAG
/// (`check::rewrite`); the oracles expand them from the path semantics
/// (`rks_support::ctl_text::expand_bounded`). Engines and oracles must agree, and every trace
/// must be valid, on random RKSs (recursive and not) with bounded top operators.
#[test]
fn rks_engines_and_oracles_agree_on_rtctl() {
    let models = env_usize("XMV_TEST_CASES", DEFAULT_MODELS) / 5;
    let mut rng = Rng::new(0x07c7_2012);
    let mut trace_stats = TraceStats::default();
    let (mut cases, mut decided, mut problems) = (0, 0, Vec::new());
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    for i in 0..models {
        let params = GenParams { recursive: i % 2 == 1, max_comps: 4, max_nodes: 6 };
        let model = random::model_with_exits(&mut rng, &params, 3);
        let initial = rng.range(0, model.comps.len() - 1);
        for j in 0..FORMULAS_PER_MODEL {
            let formula = random::bounded_formula(&mut rng, model.props.len(), 3);
            let case = Case { model: model.clone(), initial, formula };
            let out = Outcome::of(&case, j == 0, &mut trace_stats);
            cases += 1;
            decided += (out.oracle != Verdict::Unknown || matches!(out.contexts, Some(Ok(_)))) as usize;
            if let Some(problem) = out.problem()
                && problems.len() < 4
            {
                problems.push(reproducer(&case, &out, &problem));
            }
        }
    }
    std::panic::set_hook(hook);
    eprintln!("rks RTCTL: {cases} cases, {decided} decided by an oracle, {} traces validated", trace_stats.traces);
    assert!(problems.is_empty(), "disagreements:\n{}", problems.join("\n"));
}
