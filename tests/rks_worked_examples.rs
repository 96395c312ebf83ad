//! Regression tests of the RKS engines on the worked examples of Finis 2012 (digest §7) and the
//! semantics-pinning examples of Dubslaff et al. 2024 (digest §4.5), with the papers' verdicts —
//! including those that only infinite recursion decides, which the bounded oracle cannot check.
//! Both engines, with and without traces, must give the expected verdict.

mod rks_support;

use rks_support::ctl_text;
use rks_support::examples::*;
use rks_support::model::Model;
use xmv_rs::check::rks::{RksEngine, RksOptions, check};

/// (model text, initial component, formula, expected verdict)
const CASES: &[(&str, &str, &str, bool)] = &[
    // §7.1
    (FIG_1_1, "main", "!E [ !defX U useX ]", false),
    (FIG_1_1, "main", "E [ !defY U useX ]", true),
    // §7.2
    (FIG_2_2, "K", "AX p", true),
    (FIG_2_2, "K", "EX p", true),
    (FIG_2_2, "K", "A [ p U q ]", true),
    (FIG_2_2, "K", "EG r", true),
    (FIG_2_2, "K", "EG p", false),
    (FIG_2_2, "K", "AF q", true),
    (FIG_2_2, "K", "AF s", false),
    (FIG_2_2, "K", "AX AX EG q", true),
    (FIG_2_2, "K", "A [ p U E [ q U s ] ]", true),
    // §7.3: no labels; the run ends in the trap.
    (FIG_2_3, "M", "AF AG !EX TRUE", false),
    (FIG_2_3, "M", "AG EX TRUE", true),
    // §7.6
    (FIG_3_3, "A", "EG p", true),
    (FIG_3_3, "A", "!EG p", false),
    // §7.8: infinite recursion
    (FIG_3_6, "A", "EG p", true),
    (FIG_3_6, "A", "E [ p U q ]", false),
    // §7.9: nested EF, φ1 … φ5 in both structures
    (FIG_3_7, "A", "EF p", true),
    (FIG_3_7, "A", "EF (q & EF p)", true),
    (FIG_3_7, "A", "EF (p & EF (q & EF p))", true),
    (FIG_3_7, "A", "EF (q & EF (p & EF (q & EF p)))", true),
    (FIG_3_7, "A", "EF (p & EF (q & EF (p & EF (q & EF p))))", true),
    (FIG_3_7, "C", "EF p", true),
    (FIG_3_7, "C", "EF (q & EF p)", true),
    (FIG_3_7, "C", "EF (p & EF (q & EF p))", true),
    (FIG_3_7, "C", "EF (q & EF (p & EF (q & EF p)))", true),
    (FIG_3_7, "C", "EF (p & EF (q & EF (p & EF (q & EF p))))", true),
    // §7.10
    (FIG_4_1, "A", "E [ EG p U q ]", true),
    // §7.11
    (LISTING_5_1, "main", "AG (in_state2 -> cr_reset)", false),
    (LISTING_5_1, "main", "E [ in_state2 U cr_reset ]", true),
    // §7.12: each SPEC with its own module as S_in
    (LISTING_5_2, "foo", "E [ q U p ]", false),
    (LISTING_5_2, "foo", "EF q", true),
    (LISTING_5_2, "foo", "EF p", false),
    (LISTING_5_2, "bar", "EF x", false),
    (LISTING_5_2, "bar", "y", true),
    // §7.13
    (EG_CALL_RETURN_CYCLE, "A", "EG p", true),
    (FIX_1_TWINS, "A", "EG E [ q U p ]", true),
    (FIX_2_EX_HORIZONTAL, "A", "EX !q", false),
    (FIX_3_INNER_MAYBE, "A", "EG EG E [ EX q U !TRUE ]", false),
    // Dubslaff §4.5: EX across a call (C-semantics: calls are transparent)
    (EX_ACROSS_CALLS, "A1", "EX EX q", true),
    (EX_ACROSS_CALLS, "A1", "EX EX EX q", false),
    (EX_ACROSS_CALLS, "A1", "EX EX EX EX !(p | q)", true),
    // several named exits
    (SEVERAL_EXITS, "main", "EX EX q", true),
    (SEVERAL_EXITS, "main", "EF (q & EX p)", true),
    (SEVERAL_EXITS, "main", "EF (q & EX err)", false),
    (SEVERAL_EXITS, "main", "EF (!q & !p & !err & EX err)", true),
    (SEVERAL_EXITS, "main", "AF (p | err)", true),
    (SEVERAL_EXITS, "main", "EF AG err", true),
    (SEVERAL_EXITS, "main", "AG (p -> AF AG !(p | q | err))", true),
    // Dubslaff Fig. 3 (part): the final exit depends on the recursion depth's parity
    (EXIT_PARITY, "a1", "EG red", true),
    (EXIT_PARITY, "a1", "EF EG black", true),
    (EXIT_PARITY, "a1", "AG (blue -> EF black)", false),
];

fn engines_verdicts(model: &Model, initial: &str, formula: &str) -> Vec<(String, bool)> {
    let rks = model.build();
    let f = ctl_text::parse(formula, &model.props);
    let init = model.comp_index(initial) as u32;
    let mut out = Vec::new();
    for engine in [RksEngine::Incremental, RksEngine::Global] {
        for want_trace in [false, true] {
            let r = check(&rks, init, &f, &RksOptions { engine, want_trace });
            out.push((format!("{engine:?} trace={want_trace}"), r.holds));
        }
    }
    out
}

#[test]
fn engines_give_the_papers_verdicts() {
    let mut failures = Vec::new();
    for &(text, initial, formula, expected) in CASES {
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
