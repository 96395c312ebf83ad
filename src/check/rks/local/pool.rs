//! A per-thread pool of scratch bitsets for the local passes (which run in parallel, one pass
//! per thread at a time): `deduceLabels` takes a handful of location sets per pass, and
//! reusing them keeps small components free of allocation.

use fixedbitset::FixedBitSet;
use std::cell::RefCell;

thread_local! {
    /// Bitsets released by the `deduceLabels` passes for reuse (per thread: passes run in parallel).
    static BITS: RefCell<Vec<FixedBitSet>> = const { RefCell::new(Vec::new()) };
}

/// An empty bitset for `n` locations (it may be longer; the extra bits stay clear).
pub(super) fn bits(n: usize) -> FixedBitSet {
    match BITS.with(|pool| pool.borrow_mut().pop()) {
        Some(mut b) => {
            b.clear();
            b.grow(n);
            b
        }
        None => FixedBitSet::with_capacity(n),
    }
}

pub(super) fn copy_bits(src: &FixedBitSet) -> FixedBitSet {
    let mut b = bits(src.len());
    b.union_with(src);
    b
}

pub(super) fn release<const K: usize>(sets: [FixedBitSet; K]) {
    BITS.with(|pool| {
        let mut pool = pool.borrow_mut();
        if pool.len() < 64 {
            pool.extend(sets);
        }
    });
}
