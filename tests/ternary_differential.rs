//! Differential test of the ternary engines (`check::ternary`, eager and lazy) against each other,
//! against the Finis engines (`check::rks`, incremental and global) and against the brute-force
//! oracle, on seeded random RKSs and formulas. On a disagreement the case is shrunk and printed
//! as a reproducer. `XMV_TEST_CASES` sets the number of cases (default: a few seconds in release).

mod rks_support;

use rks_support::ctl_text;
use rks_support::oracle::{self, Verdict};
use rks_support::random::{self, GenParams, Rng};
use rks_support::shrink::{Case, shrink};
use xmv_rs::check::rks::{self, RksEngine, RksOptions};
use xmv_rs::check::ternary::{self, TernaryEngine};
use xmv_rs::explicit::rks::ComponentId;

fn cases(default: usize) -> usize {
    std::env::var("XMV_TEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(default)
}

/// The verdicts of every engine, in the order of [`ENGINES`]; the oracle's last (None if the
/// bounded unfolding cannot decide).
const ENGINES: [&str; 6] = ["ternary-eager", "ternary-lazy", "rks-incremental", "rks-global", "rks-summary", "oracle"];

fn verdicts(c: &Case) -> Vec<Option<bool>> {
    let rks = c.model.build();
    let init = c.initial as u32;
    let t = |e| Some(ternary::check(&rks, ComponentId::from_u32(init), &c.formula, e, false).holds);
    let r = |engine| Some(rks::check(&rks, ComponentId::from_u32(init), &c.formula, &RksOptions { engine, want_trace: false }).holds);
    let o = match oracle::check(&rks, init, &c.formula, 6, 20_000).0 {
        Verdict::Holds => Some(true),
        Verdict::Fails => Some(false),
        Verdict::Unknown => None,
    };
    vec![t(TernaryEngine::Eager), t(TernaryEngine::Lazy), r(RksEngine::Incremental), r(RksEngine::Global), r(RksEngine::Summary), o]
}

fn disagree(v: &[Option<bool>]) -> bool {
    let known: Vec<bool> = v.iter().flatten().copied().collect();
    known.iter().any(|&b| b != known[0])
}

fn report(c: &Case) -> String {
    let v = verdicts(c);
    let named: Vec<String> = ENGINES.iter().zip(&v).map(|(n, v)| format!("{n}={v:?}")).collect();
    format!("formula: {}\ninitial: {}\nverdicts: {}\nmodel:\n{}", ctl_text::print(&c.formula, &c.model.props), c.initial, named.join(" "), c.model.to_text())
}

#[test]
fn ternary_engines_agree_with_finis_engines_and_the_oracle() {
    let n = cases(6000);
    let mut rng = Rng::new(0x7e57_7e7a);
    let mut failures = Vec::new();
    let mut decided_by_oracle = 0;
    for i in 0..n {
        let params = GenParams { recursive: i % 3 != 0, max_comps: 4, max_nodes: 6 };
        let model = random::model(&mut rng, &params);
        let formula = random::formula(&mut rng, model.props.len(), 3);
        let case = Case { model, initial: 0, formula };
        let v = verdicts(&case);
        decided_by_oracle += v[5].is_some() as usize;
        if disagree(&v) {
            let small = shrink(case, &mut |c| disagree(&verdicts(c)));
            failures.push(report(&small));
            if failures.len() >= 3 {
                break;
            }
        }
    }
    assert!(failures.is_empty(), "{} disagreement(s):\n\n{}", failures.len(), failures.join("\n\n"));
    assert!(decided_by_oracle * 2 > n, "the oracle decided only {decided_by_oracle} of {n} cases");
}

/// Larger models and deeper formulas, ternary engines and Finis engines only (the oracle's
/// unfolding grows too fast here). Prints the summed statistics of both ternary engines.
#[test]
fn ternary_engines_agree_on_larger_models() {
    let n = cases(6000) / 4;
    let mut rng = Rng::new(0x1a2e_e6e5);
    let (mut eager, mut lazy) = (ternary::TernaryStats::default(), ternary::TernaryStats::default());
    for i in 0..n {
        let params = GenParams { recursive: i % 4 != 0, max_comps: 8, max_nodes: 12 };
        let model = random::model(&mut rng, &params);
        let formula = random::formula(&mut rng, model.props.len(), 5);
        let rks = model.build();
        let e = ternary::check(&rks, ComponentId::new(0), &formula, TernaryEngine::Eager, false);
        let l = ternary::check(&rks, ComponentId::new(0), &formula, TernaryEngine::Lazy, false);
        let r = rks::check(&rks, ComponentId::new(0), &formula, &RksOptions::default()).holds;
        for (sum, s) in [(&mut eager, e.stats), (&mut lazy, l.stats)] {
            sum.contexts_created += s.contexts_created;
            sum.refine_runs += s.refine_runs;
            sum.expansions += s.expansions;
            sum.fallbacks += s.fallbacks;
        }
        if e.holds != l.holds || e.holds != r {
            let case = Case { model, initial: 0, formula };
            let differs = |c: &Case| {
                let rks = c.model.build();
                let e = ternary::check(&rks, ComponentId::new(0), &c.formula, TernaryEngine::Eager, false).holds;
                let l = ternary::check(&rks, ComponentId::new(0), &c.formula, TernaryEngine::Lazy, false).holds;
                let r = rks::check(&rks, ComponentId::new(0), &c.formula, &RksOptions::default()).holds;
                e != l || e != r
            };
            let small = shrink(case, &mut |c| differs(c));
            panic!("disagreement:\n{}", report(&small));
        }
    }
    eprintln!("{n} cases; eager {eager:?}; lazy {lazy:?}");
}
