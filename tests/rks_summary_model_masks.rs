//! Exit masks of `E[ψ U χ]`/`EG ψ` frames whose `ψ` holds at every location without being the
//! node `true` (`a ∨ ¬a`): a whole round of such frames occurs on the scalability grid (50/43,
//! 424 frames), and their masks are the model's exit reachability (`ModelIndex::exit_reach`),
//! which `summary::model_masks` copies instead of solving when every frame of the round and
//! every callee frame below it has such a `ψ` (the `ψ`s built with `EX` below are true
//! everywhere in some contexts only, so both outcomes occur). On random RSMs with the grid's
//! parameters, such formulas, nested so that the same fixpoint node is solved under several
//! contexts and mixed with `ψ`s that hold almost everywhere, get the verdicts of the lazy
//! ternary engine and of the chapter-4 engine.

#[path = "../tools/random_rsm.rs"]
mod random_rsm;

use random_rsm::{INITIAL, RsmParams, random_rks};
use xmv_rs::check::rks::{self, RksEngine, RksOptions};
use xmv_rs::check::ternary::{self, TernaryEngine};
use xmv_rs::ctl::Ctl;
use xmv_rs::ir::PropId;

fn atom(p: u32) -> Ctl<PropId> {
    Ctl::Atom(PropId::from_u32(p))
}
fn not(f: Ctl<PropId>) -> Ctl<PropId> {
    Ctl::Not(Box::new(f))
}
fn or(a: Ctl<PropId>, b: Ctl<PropId>) -> Ctl<PropId> {
    Ctl::Or(Box::new(a), Box::new(b))
}
fn and(a: Ctl<PropId>, b: Ctl<PropId>) -> Ctl<PropId> {
    Ctl::And(Box::new(a), Box::new(b))
}
fn eu(a: Ctl<PropId>, b: Ctl<PropId>) -> Ctl<PropId> {
    Ctl::EU(Box::new(a), Box::new(b))
}
fn eg(a: Ctl<PropId>) -> Ctl<PropId> {
    Ctl::EG(Box::new(a))
}
fn ex(a: Ctl<PropId>) -> Ctl<PropId> {
    Ctl::EX(Box::new(a))
}
/// `p ∨ ¬p`: holds at every location.
fn everywhere(p: u32) -> Ctl<PropId> {
    or(atom(p), not(atom(p)))
}

fn formulas() -> Vec<Ctl<PropId>> {
    vec![
        eu(everywhere(0), atom(1)),
        eu(everywhere(0), and(atom(1), ex(atom(2)))),
        not(eu(everywhere(0), not(eu(everywhere(1), atom(2))))),
        ex(eu(everywhere(0), atom(1))),
        and(eu(everywhere(0), atom(2)), ex(ex(eu(everywhere(0), atom(2))))),
        eg(everywhere(2)),
        eg(and(everywhere(2), ex(eu(everywhere(1), atom(0))))),
        eu(or(atom(0), ex(everywhere(1))), atom(2)),
        eu(ex(everywhere(1)), eg(eu(everywhere(0), atom(1)))),
        Ctl::AG(Box::new(Ctl::Implies(Box::new(atom(0)), Box::new(Ctl::EF(Box::new(atom(1))))))),
        eg(or(everywhere(0), atom(1))),
        ex(eg(or(atom(1), ex(everywhere(0))))),
        and(eu(everywhere(1), atom(0)), eu(ex(everywhere(2)), atom(1))),
        eu(everywhere(0), eu(or(atom(1), ex(everywhere(2))), atom(0))),
        not(eu(ex(everywhere(0)), not(eg(ex(everywhere(1)))))),
    ]
}

#[test]
fn model_masks_give_the_verdicts_of_the_other_engines() {
    let (mut cells, mut trues) = (0, 0);
    for i in [3, 5, 7, 9] {
        for seed in [1u64, 2] {
            let (rks, _) = random_rks(&RsmParams::instance(i), seed * 100 + i as u64);
            for (j, f) in formulas().iter().enumerate() {
                let sum = rks::check(&rks, INITIAL, f, &RksOptions { engine: RksEngine::Summary, want_trace: false });
                let lazy = ternary::check(&rks, INITIAL, f, TernaryEngine::Lazy, false);
                assert_eq!(sum.holds, lazy.holds, "summary vs lazy: instance {i}, seed {seed}, formula {j}: {f:?}");
                let inc = rks::check(&rks, INITIAL, f, &RksOptions { engine: RksEngine::Incremental, want_trace: false });
                assert_eq!(sum.holds, inc.holds, "summary vs incremental: instance {i}, seed {seed}, formula {j}: {f:?}");
                cells += 1;
                trues += usize::from(sum.holds);
            }
        }
    }
    assert!(trues > 0 && trues < cells, "{trues} of {cells} cells true: both verdicts must occur");
}
