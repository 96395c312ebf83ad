//! The summary engine merges frames with equal solutions before solving them
//! (`check::rks::summary::quotient`): on random RSMs of the scalability grid (Dubslaff et al.'s
//! parameters, `tools/random_rsm.rs`) with nested fixpoint formulas, its verdicts are those of
//! the chapter-4 engine (which keys pairs by full contexts and merges nothing), and merging
//! does happen (fewer frames solved than created).

#[path = "../tools/random_rsm.rs"]
mod random_rsm;

use random_rsm::{INITIAL, RsmParams, random_formula, random_rks};
use xmv_rs::check::rks::{self, RksEngine, RksOptions};

#[test]
fn merged_frames_give_the_verdicts_of_the_incremental_engine() {
    let seed = 1;
    let (mut cells, mut trues, mut merged) = (0, 0, 0u64);
    for i in [6, 9, 12, 15] {
        let (rks, _) = random_rks(&RsmParams::instance(i), seed + i as u64);
        for j in [19, 22, 25, 28, 31, 34] {
            let f = random_formula(j, seed);
            let inc = rks::check(&rks, INITIAL, &f, &RksOptions { engine: RksEngine::Incremental, want_trace: false });
            let sum = rks::check(&rks, INITIAL, &f, &RksOptions { engine: RksEngine::Summary, want_trace: false });
            assert_eq!(sum.holds, inc.holds, "instance {i}, formula {j}, seed {seed}: {f:?}");
            assert!(sum.stats.context_pairs_checked <= sum.stats.context_pairs_created);
            merged += sum.stats.context_pairs_created - sum.stats.context_pairs_checked;
            cells += 1;
            trues += usize::from(sum.holds);
        }
    }
    assert!(trues > 0 && trues < cells, "{trues} of {cells} cells true: both verdicts must occur");
    assert!(merged > 0, "no frame was merged: the test does not exercise the quotient");
}
