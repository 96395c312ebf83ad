//! Smoke test of the scalability grid (`examples/rsm_scalability.rs`): on a 3×3 grid of random
//! RSMs with Dubslaff et al.'s parameters, all four engines give the same verdict.

#[path = "../tools/random_rsm.rs"]
mod random_rsm;

use random_rsm::{INITIAL, RsmParams, random_formula, random_rks};
use xmv_rs::check::rks::{self, RksEngine, RksOptions};
use xmv_rs::check::ternary::{self, TernaryEngine};

#[test]
fn random_rsm_grid_3x3_all_engines_agree() {
    let seed = 1;
    let mut trues = 0;
    for i in [4, 8, 12] {
        let (rks, size) = random_rks(&RsmParams::instance(i), seed + i as u64);
        assert_eq!(size.rsm_components, i);
        assert_eq!(size.rsm_nodes, 3 * i * i);
        assert_eq!(size.rsm_boxes, i * (i / 3));
        for j in [5, 14, 23] {
            let f = random_formula(j, seed);
            let inc = rks::check(&rks, INITIAL, &f, &RksOptions { engine: RksEngine::Incremental, want_trace: false }).holds;
            let glo = rks::check(&rks, INITIAL, &f, &RksOptions { engine: RksEngine::Global, want_trace: false }).holds;
            let sum = rks::check(&rks, INITIAL, &f, &RksOptions { engine: RksEngine::Summary, want_trace: false }).holds;
            let eag = ternary::check(&rks, INITIAL, &f, TernaryEngine::Eager, false).holds;
            let laz = ternary::check(&rks, INITIAL, &f, TernaryEngine::Lazy, false).holds;
            assert_eq!([glo, sum, eag, laz], [inc; 4], "instance {i}, formula {j}, seed {seed}: {f:?}");
            trues += inc as usize;
        }
    }
    // Both verdicts occur, so agreement is not trivial.
    assert!(trues > 0 && trues < 9, "{trues} of 9 cells true");
}

/// `random_rks` builds the structure directly; it must equal what the name-based
/// `RksBuilder` construction gives (node numbering, edge order, return rows, labels).
#[test]
fn direct_random_rks_equals_the_builder_construction() {
    for i in 1..=14 {
        for seed in [1, 7] {
            let params = RsmParams::instance(i);
            let (direct, ds) = random_rks(&params, seed + i as u64);
            let (named, ns) = random_rsm::random_rks_by_names(&params, seed + i as u64);
            assert_eq!(describe(&direct), describe(&named), "instance {i}, seed {seed}");
            assert_eq!(format!("{ds:?}"), format!("{ns:?}"), "instance {i}, seed {seed}");
        }
    }
}

/// Every field of `rks`, label sets by their members (`FixedBitSet`'s `Debug` prints a pointer).
fn describe(rks: &xmv_rs::explicit::rks::RecursiveKripkeStructure) -> String {
    let mut out = format!("{:?} {:?}\n", rks.prop_names, rks.termination);
    for c in &rks.components {
        out += &format!(
            "{} {} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?}\n",
            c.name,
            c.num_nodes,
            c.succ,
            c.pred,
            c.call_target,
            c.calls,
            c.call_index,
            c.exits,
            c.exit_names,
            c.returns,
            c.return_offsets,
            c.node_names,
            c.props.ids().iter().map(|&p| (p, c.props[p.index()].ones().collect::<Vec<_>>())).collect::<Vec<_>>()
        );
    }
    out
}

/// The summary engine against the incremental one (no shared algorithm) on the grid's dense
/// components, where the summary engine's worklists take their word-parallel paths (predecessor
/// and continuation rows, the transposed masks of `summary::solve`): instances 3 to 9, every
/// third formula up to depth 4, two seeds.
#[test]
fn summary_agrees_with_incremental_on_dense_random_rsms() {
    let mut cells = [0usize; 2];
    for seed in [1u64, 5] {
        for i in 3..=9 {
            let (rks, _) = random_rks(&RsmParams::instance(i), seed + i as u64);
            for j in (1..=44).step_by(3) {
                let f = random_formula(j, seed);
                let inc = rks::check(&rks, INITIAL, &f, &RksOptions { engine: RksEngine::Incremental, want_trace: false }).holds;
                let sum = rks::check(&rks, INITIAL, &f, &RksOptions { engine: RksEngine::Summary, want_trace: false }).holds;
                assert_eq!(sum, inc, "instance {i}, formula {j}, seed {seed}: {f:?}");
                cells[inc as usize] += 1;
            }
        }
    }
    assert!(cells[0] > 0 && cells[1] > 0, "verdicts false/true: {cells:?}");
}
