//! The worked examples of Dubslaff et al. 2024 (digest §4) on both ternary engines: verdicts,
//! and context counts where the digest gives them.

mod support;

use support::ctl::*;
use support::rsm_json::{Rsm, load};
use xmv_rs::check::ternary::{TernaryEngine, TernaryResult, check};

fn shared(path: &str) -> String {
    format!("{}/../shared/{path}", env!("CARGO_MANIFEST_DIR"))
}

fn run(rsm: &Rsm, f: &F, engine: TernaryEngine) -> TernaryResult {
    check(&rsm.rks, rsm.initial, f, engine, false)
}

/// Both engines give `expected`; returns (eager, lazy) results.
fn verdict(rsm: &Rsm, f: &F, expected: bool) -> (TernaryResult, TernaryResult) {
    let e = run(rsm, f, TernaryEngine::Eager);
    let l = run(rsm, f, TernaryEngine::Lazy);
    assert_eq!(e.holds, expected, "eager on {f:?}");
    assert_eq!(l.holds, expected, "lazy on {f:?}");
    (e, l)
}

#[test]
fn conference_fig2_example_rsm() {
    let m = load(&shared("bench/rsmcheck-examples/example.rsm"));
    let (blue, red, black) = (m.prop("blue"), m.prop("red"), m.prop("black"));
    verdict(&m, &ex(eg(ap(blue))), true);
    verdict(&m, &ex(eu(ap(blue), ap(black))), true);
    verdict(&m, &ax(eu(ap(blue), ap(red))), false);
    let (_, lazy) = verdict(&m, &or(ex(ap(red)), ex(eu(ap(blue), ap(black)))), true);
    assert_eq!(lazy.stats.contexts_created, 1, "decided locally, no contextualisation of b");
}

#[test]
fn simple_rsm() {
    let m = load(&shared("bench/rsmcheck-examples/simple.rsm"));
    let (a, b) = (m.prop("a"), m.prop("b"));
    verdict(&m, &eg(ap(a)), true);
    verdict(&m, &eu(ap(a), ap(b)), true);
}

#[test]
fn journal_fig3_running_example() {
    let m = load(&shared("papers/dubslaff-2024-fig3.rsm.json"));
    let (blue, red, black) = (m.prop("blue"), m.prop("red"), m.prop("black"));
    // Ex. 3
    let (e, l) = verdict(&m, &eg(ap(red)), true);
    assert_eq!((e.stats.contexts_created, l.stats.contexts_created), (1, 1));
    // Ex. 4, 7, 9
    verdict(&m, &ef(eg(ap(black))), true);
    // Ex. 5: tautology with an existential ψ
    verdict(&m, &or(ex(ap(blue)), not(ex(ap(blue)))), true);
    // Ex. 6: RSMCheck's lazy mode crashes here
    verdict(&m, &ef(eg(ap(blue))), true);
    // Ex. 8
    verdict(&m, &ef(ap(black)), true);
    // Ex. 10
    verdict(&m, &eg(ap(blue)), false);
    // Ex. 11: decided at n1, no context for A2
    let (_, l) = verdict(&m, &or(ex(ap(red)), ex(eu(ap(blue), ap(black)))), true);
    assert_eq!(l.stats.contexts_created, 1);
    // Ex. 12, 13
    verdict(&m, &ax(eu(ap(blue), ap(red))), false);
    // extras
    verdict(&m, &eg(ap(black)), false);
    verdict(&m, &ex(eg(ap(blue))), true);
    verdict(&m, &ag(implies(ap(blue), ef(ap(black)))), false);
    verdict(&m, &ef(eg(ap(red))), true);
}

/// Ex. 4: the consistent contexts of `E F E G black` are 3 for A1 and 2 for A2; RSMCheck's
/// exhaustive mode ends with exactly these copies.
#[test]
fn journal_example_4_context_counts() {
    let m = load(&shared("papers/dubslaff-2024-fig3.rsm.json"));
    let black = m.prop("black");
    let e = run(&m, &ef(eg(ap(black))), TernaryEngine::Eager);
    assert!(e.holds);
    assert_eq!(e.stats.contexts_live, 5, "3 copies of A1 (A0 included) and 2 of A2");
    assert_eq!(e.stats.contexts_created, 5);
    let l = run(&m, &ef(eg(ap(black))), TernaryEngine::Lazy);
    assert!(l.holds);
    assert_eq!(l.stats.contexts_created, 4, "RSMCheck lazy built 4");
}
