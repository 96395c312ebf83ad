//! Regression tests of the lazy ternary engine on cells of the scalability grid
//! (`examples/rsm_scalability.rs`) where it was slow. Counts, not times, are asserted.

#[path = "../tools/random_rsm.rs"]
mod random_rsm;

use random_rsm::{INITIAL, RsmParams, random_formula, random_rks};
use xmv_rs::check::ternary::{self, TernaryEngine};

/// Formula 34 on instance 13 (seed 1): FindReason appended the whole suffix of `R` to `D` at
/// every closed dependency cycle, 1,195,918,891 pairs over the 705 GetNextExpansion calls
/// (5.6 s where eager needs 0.006 s). `D` is now a set: each pair at most once per call.
#[test]
fn lazy_cycle_set_stays_linear() {
    let seed = 1;
    let (rks, _) = random_rks(&RsmParams::instance(13), seed + 13);
    let f = random_formula(34, seed);
    let lazy = ternary::check(&rks, INITIAL, &f, TernaryEngine::Lazy, false);
    let eager = ternary::check(&rks, INITIAL, &f, TernaryEngine::Eager, false);
    assert!(lazy.holds && eager.holds);
    assert_eq!(lazy.stats.expansions, 705);
    assert_eq!(lazy.stats.contexts_created, 40);
    assert_eq!(lazy.stats.cycle_pairs, 3_432_175);
    assert_eq!(lazy.stats.fallbacks, 0);
}
