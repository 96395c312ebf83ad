//! Regression tests of the RKS engines on the worked examples of Finis 2012 (digest §7) and the
//! semantics-pinning examples of Dubslaff et al. 2024 (digest §4.5), with the papers' verdicts —
//! including those that only infinite recursion decides, which the bounded oracle cannot check.
//! All four engines (Finis' incremental and global, the ternary eager and lazy), with and without
//! traces, must give the expected verdict.

mod rks_support;

use rks_support::ctl_text;
use rks_support::examples::*;
use rks_support::model::Model;
use xmv_rs::check::rks::{RksEngine, RksOptions, check};
use xmv_rs::check::ternary::{self, TernaryEngine};
use xmv_rs::explicit::rks::ComponentId;

fn engines_verdicts(model: &Model, initial: &str, formula: &str) -> Vec<(String, bool)> {
    let rks = model.build();
    let f = ctl_text::parse(formula, &model.props);
    let init = model.comp_index(initial) as u32;
    let mut out = Vec::new();
    for want_trace in [false, true] {
        for engine in [RksEngine::Incremental, RksEngine::Global, RksEngine::Summary] {
            let r = check(&rks, ComponentId::from_u32(init), &f, &RksOptions { engine, want_trace });
            out.push((format!("{engine:?} trace={want_trace}"), r.holds));
        }
        for engine in [TernaryEngine::Eager, TernaryEngine::Lazy] {
            let r = ternary::check(&rks, ComponentId::from_u32(init), &f, engine, want_trace);
            out.push((format!("ternary {engine:?} trace={want_trace}"), r.holds));
        }
    }
    out
}

#[test]
fn engines_give_the_papers_verdicts() {
    let mut failures = Vec::new();
    for &(text, initial, formula, expected) in VERDICTS {
        let model = Model::parse(text);
        for (how, holds) in engines_verdicts(&model, initial, formula) {
            if holds != expected {
                failures.push(format!("{formula} at {initial}: {how} says {holds}, expected {expected}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn engines_apply_the_termination_rule() {
    for (rule, formula, expected) in [
        ("trap", "EG p", false),
        ("loop", "EG p", true),
        ("trap", "EX EX p", false),
        ("loop", "EX EX p", true),
        ("trap", "AF !p", true),
        ("loop", "AF !p", false),
        ("trap", "EX EX EX !(p | q)", true),
        ("loop", "E [ p U !p ]", false),
    ] {
        let model = Model::parse(&format!("termination {rule}\n{TERMINATION_BASE}"));
        for (how, holds) in engines_verdicts(&model, "A", formula) {
            assert_eq!(holds, expected, "termination {rule}, {formula}: {how}");
        }
    }
}
