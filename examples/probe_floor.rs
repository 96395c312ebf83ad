//! What one hash probe into a state table of gas-nq7's size costs on this machine, and whether
//! probing a batch in slot order instead of emission order helps: a table of 2^23 slots of
//! 16 bytes (`explicit::packed_table`'s layout for one-word states: the state's word and its id;
//! 134 MB) holding 6 M random 42-bit keys, probed 28 M times (gas-nq7's successor count) in
//! batches of 19,000 keys (a batch of 4,096 states), (1) in the batch's order with a prefetch
//! 0, 8, 16 or 32 keys ahead (the builder prefetches 8 ahead), (2) sorted by the top 8, 12 or 16
//! bits of their slot (a counting sort per batch) with a prefetch 16 ahead. Prints nanoseconds
//! per probe. Standalone: it copies the hash and the probe loop rather than importing them.
//!
//! `cargo run --release --example probe_floor`

use std::time::Instant;

#[derive(Clone, Copy)]
struct Slot {
    first: u64,
    id: u32,
}

const FREE: Slot = Slot { first: 0, id: u32::MAX };
const SLOT_BITS: u32 = 23;
const KEYS: usize = 6_000_000;
const PROBES: usize = 28_000_000;
const BATCH: usize = 19_000;

/// `explicit::packed_table::hash` of a one-word key.
fn hash(w: u64) -> u64 {
    let mut h = 0x9e37_79b9_7f4a_7c15u64;
    h = (h ^ w).wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 32;
    h = (h ^ (h >> 33)).wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

fn find(slots: &[Slot], key: u64, h: u64) -> Option<u32> {
    let mask = slots.len() - 1;
    let mut i = h as usize & mask;
    loop {
        let s = slots[i];
        if s.id == u32::MAX {
            return None;
        }
        if s.first == key {
            return Some(s.id);
        }
        i = (i + 1) & mask;
    }
}

fn prefetch(slots: &[Slot], h: u64) {
    let i = h as usize & (slots.len() - 1);
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint that never faults; the address is an element of `slots`.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>((&raw const slots[i]).cast::<i8>())
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = i;
}

fn lcg(x: &mut u64) -> u64 {
    *x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
    *x
}

fn main() {
    let cap = 1usize << SLOT_BITS;
    let mut slots = vec![FREE; cap];
    let mut x = 12_345u64;
    let mut keys = Vec::with_capacity(KEYS);
    for id in 0..KEYS {
        let k = lcg(&mut x) >> 22;
        keys.push(k);
        let mut i = hash(k) as usize & (cap - 1);
        while slots[i].id != u32::MAX {
            i = (i + 1) & (cap - 1);
        }
        slots[i] = Slot { first: k, id: id as u32 };
    }
    let mut y = 999u64;
    let queries: Vec<(u64, u64)> = (0..PROBES)
        .map(|_| {
            let k = keys[(lcg(&mut y) >> 33) as usize % KEYS];
            (k, hash(k))
        })
        .collect();
    let mut sum = 0u64;
    println!("| order | prefetch ahead | ns per probe |\n|---|---:|---:|");
    for ahead in [0usize, 8, 16, 32] {
        let t = Instant::now();
        for batch in queries.chunks(BATCH) {
            for (i, &(k, h)) in batch.iter().enumerate() {
                if ahead > 0
                    && let Some(&(_, ha)) = batch.get(i + ahead)
                {
                    prefetch(&slots, ha);
                }
                sum += u64::from(find(&slots, k, h).unwrap_or(0));
            }
        }
        println!("| emission | {ahead} | {:.1} |", t.elapsed().as_nanos() as f64 / PROBES as f64);
    }
    for bits in [8u32, 12, 16] {
        let t = Instant::now();
        let shift = SLOT_BITS - bits;
        let mut counts = vec![0u32; (1 << bits) + 1];
        let mut order = vec![0u32; BATCH];
        for batch in queries.chunks(BATCH) {
            counts.fill(0);
            for &(_, h) in batch {
                counts[((h as usize & (cap - 1)) >> shift) + 1] += 1;
            }
            for b in 1..counts.len() {
                counts[b] += counts[b - 1];
            }
            for (i, &(_, h)) in batch.iter().enumerate() {
                let b = (h as usize & (cap - 1)) >> shift;
                order[counts[b] as usize] = i as u32;
                counts[b] += 1;
            }
            for j in 0..batch.len() {
                if let Some(&o) = order.get(j + 16).filter(|_| j + 16 < batch.len()) {
                    prefetch(&slots, batch[o as usize].1);
                }
                let (k, h) = batch[order[j] as usize];
                sum += u64::from(find(&slots, k, h).unwrap_or(0));
            }
        }
        println!("| slot order, top {bits} bits | 16 | {:.1} |", t.elapsed().as_nanos() as f64 / PROBES as f64);
    }
    eprintln!("(checksum {sum})");
}
