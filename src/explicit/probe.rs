//! The linear-probing loop shared by the state tables ([`super::state_table::StateTable`],
//! [`super::packed_table::PackedTable`]).
//!
//! Both keep an open-addressing array of slots whose length is a power of two, with at least one
//! free slot at all times (their load factors stay below 1), so a probe always ends.

/// Where the key with hash `h` is: `Ok(i)` if slot `i` holds it (`is_key`), else `Err(i)` with
/// `i` the free slot (`is_free`) where it would go; probes from `h` modulo the length, one slot
/// at a time. Always inlined: it is the interning's inner loop, and its closures compare keys
/// (when rustc left it out of line, gas-nq7's first 400,000 states took 2.6 % more
/// instructions).
#[inline(always)]
pub(crate) fn probe<S: Copy>(slots: &[S], h: u64, is_free: impl Fn(S) -> bool, is_key: impl Fn(S) -> bool) -> Result<usize, usize> {
    let mask = slots.len() - 1;
    let mut i = h as usize & mask;
    loop {
        let slot = slots[i];
        if is_free(slot) {
            return Err(i);
        }
        if is_key(slot) {
            return Ok(i);
        }
        i = (i + 1) & mask;
    }
}

/// The free slot where a key with hash `h` goes when it is known to be absent (rehashing).
#[inline]
pub(crate) fn free_slot<S: Copy>(slots: &[S], h: u64, is_free: impl Fn(S) -> bool) -> usize {
    match probe(slots, h, is_free, |_| false) {
        Ok(i) | Err(i) => i,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_keys_and_free_slots_wrapping_around() {
        const FREE: u32 = u32::MAX;
        let slots = [7, FREE, 5, 6];
        assert_eq!(probe(&slots, 2, |s| s == FREE, |s| s == 6), Ok(3));
        assert_eq!(probe(&slots, 3, |s| s == FREE, |s| s == 7), Ok(0));
        assert_eq!(probe(&slots, 2, |s| s == FREE, |s| s == 9), Err(1));
        assert_eq!(free_slot(&slots, 6, |s| s == FREE), 1);
    }
}
