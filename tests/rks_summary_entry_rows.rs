//! The summary engine reads a callee frame's entry row (the exits its entry reaches) from a copy
//! kept in the calling frame while a group is solved (`Frame::entry_rows` in
//! `check::rks::summary`), updated whenever the callee's entry grows. On random RSMs with the
//! grid's edge density but many exits per component (up to two mask words) and nested
//! fixpoints (so that callees' entries grow while their callers are solved), its verdicts are
//! those of the lazy ternary engine (and, on the models with fewer exits, of the chapter-4
//! engine). Two small models pin down how a call's mask and its `EG` successor count follow
//! its callee's entry and its continuations.

#[path = "../tools/random_rsm.rs"]
mod random_rsm;

use random_rsm::{INITIAL, RsmParams, random_formula, random_rks};
use xmv_rs::check::rks::{self, RksEngine, RksOptions};
use xmv_rs::check::ternary::{self, TernaryEngine};

#[test]
fn entry_rows_give_the_verdicts_of_the_other_engines() {
    let (mut cells, mut trues, mut max_exits) = (0, 0, 0);
    for (i, exit_pct) in [(5, 0.3), (6, 0.5), (8, 0.6)] {
        let params = RsmParams { components: i, nodes: 24 * i, boxes: 3, exit_pct, ..RsmParams::instance(i) };
        for seed in [1u64] {
            let (rks, _) = random_rks(&params, seed * 100 + i as u64);
            max_exits = max_exits.max(rks.components.iter().map(|c| c.exits.len()).max().unwrap_or(0));
            for j in [10, 13, 19, 22, 25, 28] {
                let f = random_formula(j, seed);
                let sum = rks::check(&rks, INITIAL, &f, &RksOptions { engine: RksEngine::Summary, want_trace: false });
                if exit_pct < 0.4 {
                    // The chapter-4 engine's contexts grow with the exits: only on the smaller models.
                    let inc = rks::check(&rks, INITIAL, &f, &RksOptions { engine: RksEngine::Incremental, want_trace: false });
                    assert_eq!(sum.holds, inc.holds, "summary vs incremental: instance {i}, exits {exit_pct}, seed {seed}, formula {j}: {f:?}");
                }
                let lazy = ternary::check(&rks, INITIAL, &f, TernaryEngine::Lazy, false);
                assert_eq!(sum.holds, lazy.holds, "summary vs lazy: instance {i}, exits {exit_pct}, seed {seed}, formula {j}: {f:?}");
                cells += 1;
                trues += usize::from(sum.holds);
            }
        }
    }
    assert!(trues > 0 && trues < cells, "{trues} of {cells} cells true: both verdicts must occur");
    assert!(max_exits > 64, "the largest component has {max_exits} exits: the test must cover two-word entry rows");
}

/// A call's mask gets the exits its continuations reach when its callee's entry first reaches
/// the exit they continue from, also if those continuations were propagated before (regression
/// test for the merge of the callers' continuation rows in `summary::solve::solve_masks`: a
/// version that merged only exit 0 of them gave every engine's verdict on the random suites).
///
/// In `M`, `r` reaches `M`'s exit `x1` (index 1) in the first wave of the worklist, before `B`'s
/// entry reaches `B`'s exit at the end of a chain; only then does the call `c` continue at `r`,
/// and only through `x1` does `M` return to `main`'s `q` location.
#[test]
fn a_call_gets_its_continuations_exits_when_the_callee_entry_grows() {
    use xmv_rs::explicit::rks::ComponentId;
    use xmv_rs::explicit::rks_builder::{parse_ctl, parse_rks};
    let text = "termination loop\nprops p q\n\
        sub main in m0 out mx\nloc m0{p} m1{q} m2 mx\ncall cm->M\nedge m0->cm m1->m1 m2->m2\nret cm.x0->m2 cm.x1->m1\n\
        sub M in e out x0:x0 x1:x1\nloc e{p} r{p} x0 x1{p}\ncall c->B\nedge e->c r->x1\nret c.bx->r\n\
        sub B in b0 out bx:b4\nloc b0{p} b1{p} b2{p} b3{p} b4{p}\nedge b0->b1->b2->b3->b4\n";
    let rks = parse_rks(text).expect("model");
    let main = ComponentId::new(rks.components.iter().position(|c| c.name == "main").expect("main"));
    let f = parse_ctl("E[p U q]", &rks).expect("formula");
    for engine in [RksEngine::Summary, RksEngine::Incremental] {
        let r = rks::check(&rks, main, &f, &RksOptions { engine, want_trace: false });
        assert!(r.holds, "{engine:?}: m0 -> M.e -> B's chain -> M.r -> M.x1 -> main.m1 {{q}} is a p-path to q");
    }
    assert!(ternary::check(&rks, main, &f, TernaryEngine::Lazy, false).holds, "lazy engine");
}

/// `EG`'s successor count of a call counts only the continuations that are alive at the start
/// (regression test for the count by continuation rows in `summary::solve::solve_bases_eg`: a
/// version counting every continuation gave every engine's verdict on the random suites).
///
/// The call `c` returns to `r1` (`p`, whose only successor is not `p`: dead at once) and to `r2`
/// (not `p`); `B` never loops, so `c`, and with it `m0`, has no infinite `p`-path.
#[test]
fn eg_counts_only_the_live_continuations_of_a_call() {
    use xmv_rs::explicit::rks::ComponentId;
    use xmv_rs::explicit::rks_builder::{parse_ctl, parse_rks};
    let text = "props p\n\
        sub main in m0 out mx\nloc m0{p} r1{p} r2 n1 mx\ncall c->B\nedge m0->c c->r1 c->r2 r1->n1 r2->r2 n1->n1\n\
        sub B in b0 out bx\nloc b0{p} bx{p}\nedge b0->bx\n";
    let rks = parse_rks(text).expect("model");
    let main = ComponentId::new(rks.components.iter().position(|c| c.name == "main").expect("main"));
    let f = parse_ctl("EG p", &rks).expect("formula");
    for engine in [RksEngine::Summary, RksEngine::Incremental] {
        let r = rks::check(&rks, main, &f, &RksOptions { engine, want_trace: false });
        assert!(!r.holds, "{engine:?}: every p-path from m0 ends in B's exit or at r1");
    }
    assert!(!ternary::check(&rks, main, &f, TernaryEngine::Lazy, false).holds, "lazy engine");
}
