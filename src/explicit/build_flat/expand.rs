//! Successors of a batch of states, computed in parallel, as packed keys with their hashes.
//!
//! The breadth-first search of [`super::explore`] expands states in id order and interns each
//! successor as it is emitted. Computing the successors does not read the state table, so a
//! batch of consecutive states can be expanded first — split into contiguous chunks, one per
//! worker thread, each with its own evaluator and plan scratch — and interned afterwards in the
//! same order, one state after the other: the numbering, the edges and the errors are those of
//! the one-by-one search whatever the number of threads (the search reports a chunk's failing
//! state only after interning everything before it, as it would have). Interning a batch can
//! also prefetch the hash slots of the keys a few positions ahead, which hides most of the cache
//! misses of a large table.
//!
//! With several workers, each also looks its successors up in the table as it stands before
//! the batch (read-only, so in parallel): most successors of a breadth-first search are states
//! found earlier, whose ids are then known before the serial interning starts, which only has to
//! insert (in order) the keys that were absent. A state's id never changes once assigned, and
//! the absent keys are interned in the same order as before, so the numbering is the same.
//!
//! The states to expand are read from a [`Source`]: the table itself, or a copy of a range of
//! its packed states, which lets the next batch be expanded while the table is busy interning
//! the current one (`super::explore`'s pipeline).

use super::super::eval::Evaluator;
use super::super::eval::compiled::ops_run;
use super::super::packed_table::{Layout, PackedTable};
use super::super::step::{PackedOut, Plan, Scratch, StepError};
use crate::lowering::program::System;
use rayon::prelude::*;
use std::ops::ControlFlow;

/// The successors of consecutive states `first..first + ends.len()` (and the error of the next
/// one, if any): state `first + k`'s keys are `keys[ends[k-1]..ends[k]]` (in keys, `words` words
/// each), in emission order.
#[derive(Default)]
pub(super) struct Chunk {
    pub first: u32,
    pub keys: Vec<u64>,
    pub hashes: Vec<u64>,
    pub ends: Vec<u32>,
    /// Per key, its id in the table before the batch ([`NOT_FOUND`]: absent); empty when the
    /// batch was expanded without looking the keys up.
    pub found: Vec<u32>,
    pub failure: Option<StepError>,
    /// The expansion stopped before its range's end because the successors reached the
    /// chunk's room (see [`expand_batch`]): `ends` covers the states completed before it.
    pub truncated: bool,
}

impl Chunk {
    fn clear(&mut self) {
        self.keys.clear();
        self.hashes.clear();
        self.ends.clear();
        self.found.clear();
        self.failure = None;
        self.truncated = false;
    }

    /// Bytes its buffers hold reserved (capacity).
    pub(super) fn reserved(&self) -> u64 {
        (self.keys.capacity() * 8 + self.hashes.capacity() * 8 + self.found.capacity() * 4 + self.ends.capacity() * 4) as u64
    }

    /// Gives back memory beyond `bytes` of keys and their hashes (after a batch with many
    /// successors, so that the next batches do not keep it).
    pub(super) fn shrink_to(&mut self, bytes: usize, words: usize) {
        let keys = bytes / (8 * words + 12);
        self.keys.shrink_to(keys * words);
        self.hashes.shrink_to(keys);
        self.found.shrink_to(keys);
    }
}

/// Bytes of buffer one successor takes in a [`Chunk`] (its key, hash and id slot).
pub(super) fn bytes_per_successor(words: usize) -> u64 {
    8 * words as u64 + 12
}

/// Packed states to expand: state `first + k` is `packed[k * words..(k + 1) * words]`.
#[derive(Clone, Copy)]
pub(super) struct Source<'a> {
    pub packed: &'a [u64],
    pub first: u32,
}

impl<'a> Source<'a> {
    /// Every state of `table`.
    pub(super) fn table(table: &'a PackedTable) -> Source<'a> {
        Source { packed: table.packed_range(0..table.len()), first: 0 }
    }

    fn state(&self, s: u32, words: usize) -> &'a [u64] {
        let k = (s - self.first) as usize * words;
        &self.packed[k..k + words]
    }
}

/// [`Chunk::found`] of a key that was not in the table.
pub(super) const NOT_FOUND: u32 = u32::MAX;

/// One worker's evaluators and buffers.
pub(super) struct Expander<'p> {
    next: &'p Plan<'p>,
    inputs: &'p Plan<'p>,
    layout: &'p Layout,
    ev: Evaluator<'p>,
    ev_inputs: Evaluator<'p>,
    scratch: Scratch,
    scratch_inputs: Scratch,
    zeros: Vec<u32>,
    cur: Vec<u32>,
    /// The state being expanded, packed.
    cur_key: Vec<u64>,
    key: Vec<u64>,
    /// Compiled operations run by [`Expander::expand`] so far.
    ops: u64,
    /// Plan steps one state's expansion may take (0: no limit; [`Expander::limit_steps_per_state`]).
    per_state: u64,
}

impl<'p> Expander<'p> {
    pub(super) fn new(system: &'p System, next: &'p Plan<'p>, inputs: &'p Plan<'p>, layout: &'p Layout) -> Expander<'p> {
        let width = system.vars.len();
        Expander {
            next,
            inputs,
            layout,
            ev: Evaluator::new(&system.vars),
            ev_inputs: Evaluator::new(&system.vars),
            scratch: Scratch::default(),
            scratch_inputs: Scratch::default(),
            zeros: vec![0; width],
            cur: vec![0; width],
            cur_key: vec![0; layout.words()],
            key: vec![0; layout.words()],
            ops: 0,
            per_state: 0,
        }
    }

    /// Stops the expansions once their plans have taken more than `limit` steps (each plan's
    /// buffers count their own).
    pub(super) fn limit_steps(&mut self, limit: u64) {
        self.scratch.limit_steps(limit);
        self.scratch_inputs.limit_steps(limit);
    }

    /// Stops an expansion once it has taken more than `limit` plan steps for one state (each of
    /// the plans' buffers counts its own): unlike [`Expander::limit_steps`], whether a state passes
    /// it does not depend on how the states are split among the workers.
    pub(super) fn limit_steps_per_state(&mut self, limit: u64) {
        self.per_state = limit;
    }

    /// Plan runs, slot candidates tried (`step::Scratch::steps`) and compiled operations run
    /// (`eval::compiled::ops_run`) so far.
    pub(super) fn steps(&self) -> u64 {
        self.scratch.steps() + self.scratch_inputs.steps()
    }

    /// Compiled operations run (`eval::compiled::ops_run`) and expression nodes evaluated by
    /// the tree evaluators so far.
    pub(super) fn evaluated(&self) -> (u64, u64) {
        (self.ops, self.ev.nodes() + self.ev_inputs.nodes())
    }

    /// Expands states `range` of `source` into `out` (cleared first), stopping at the first error
    /// or before the state whose successors would take the keys past `room` words; with
    /// `look_up`, also fills [`Chunk::found`] from that table.
    fn expand(&mut self, source: Source<'_>, range: std::ops::Range<u32>, out: &mut Chunk, look_up: Option<&PackedTable>, room: usize) {
        out.first = range.start;
        out.clear();
        let ops = ops_run();
        self.expand_range(source, range, out, room);
        self.ops += ops_run() - ops;
        if let Some(table) = look_up {
            look_up_keys(table, self.layout.words(), out);
        }
    }

    fn expand_range(&mut self, source: Source<'_>, range: std::ops::Range<u32>, out: &mut Chunk, room: usize) {
        let words = self.layout.words();
        for s in range {
            let packed = source.state(s, words);
            self.layout.unpack(packed, &mut self.cur);
            self.cur_key.copy_from_slice(packed);
            if self.per_state != 0 {
                self.scratch.limit_steps(self.scratch.steps() + self.per_state);
                self.scratch_inputs.limit_steps(self.scratch_inputs.steps() + self.per_state);
            }
            match self.successors(out, room) {
                Ok(true) => {}
                Ok(false) => {
                    // Full: drop this state's partial successors; the next batch starts with it.
                    let done = out.ends.last().map_or(0, |&e| e as usize);
                    out.keys.truncate(done * self.layout.words());
                    out.hashes.truncate(done);
                    out.truncated = true;
                    return;
                }
                Err(e) => {
                    out.failure = Some(e);
                    return;
                }
            }
            out.ends.push(out.hashes.len() as u32);
        }
    }

    /// Appends the successors of `self.cur` to `out`: `Ok(false)` when they reached `room` words
    /// of keys first (the enumeration stopped there).
    fn successors(&mut self, out: &mut Chunk, room: usize) -> Result<bool, StepError> {
        let Expander { next, inputs, layout, ev, ev_inputs, scratch, scratch_inputs, zeros, cur, cur_key, key, .. } = self;
        let mut failure: Option<StepError> = None;
        let mut packed = PackedOut { layout, cur_key, key, keys: &mut out.keys, hashes: &mut out.hashes, room, full: false };
        let outer = inputs.run(scratch_inputs, ev_inputs, cur, cur, None, &mut |with_inputs| {
            if failure.is_some() || packed.full {
                return ControlFlow::Break(());
            }
            if let Err(e) = next.run_packed(scratch, ev, with_inputs, zeros, &mut packed) {
                failure = Some(e);
                return ControlFlow::Break(());
            }
            if packed.full { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
        });
        let full = packed.full;
        match outer.err().or(failure) {
            Some(e) => Err(e),
            None => Ok(!full),
        }
    }
}

/// Expands states `range` of `source` into `chunks` (one per expander, contiguous ranges in
/// order; unused chunks are left empty), in parallel when there are several expanders, which
/// then also look their successors up in `look_up` (the table as it stands) when given. The
/// successors' buffers of all chunks together stay within about `room` bytes (each chunk gets
/// its share): a chunk whose next state would pass its share stops before it
/// ([`Chunk::truncated`]), so a model with many successors per state cannot grow these buffers
/// past the memory budget, whatever the batch size.
pub(super) fn expand_batch(
    expanders: &mut [Expander<'_>],
    chunks: &mut Vec<Chunk>,
    source: Source<'_>,
    look_up: Option<&PackedTable>,
    range: std::ops::Range<u32>,
    room: u64,
) {
    let n = range.end - range.start;
    let workers = (expanders.len() as u32).min(n.div_ceil(MIN_PER_WORKER)).max(1);
    chunks.resize_with(expanders.len().max(1), Chunk::default);
    let per = n.div_ceil(workers);
    let bounds = |t: u32| (range.start + (t * per).min(n))..(range.start + ((t + 1) * per).min(n));
    let words = expanders[0].layout.words();
    let share = |parts: u32| usize::try_from(room / u64::from(parts) / bytes_per_successor(words)).unwrap_or(usize::MAX).saturating_mul(words);
    if workers == 1 {
        expanders[0].expand(source, range.clone(), &mut chunks[0], None, share(1));
        // Unused chunks hold nothing (not even the keys of an earlier parallel batch: the
        // successors generated are counted over all chunks).
        for c in &mut chunks[1..] {
            c.clear();
        }
        return;
    }
    let room = share(workers);
    (expanders.par_iter_mut().zip(chunks.par_iter_mut()).enumerate()).for_each(|(t, (ex, out))| ex.expand(source, bounds(t as u32), out, look_up, room));
}

/// Fills `out.found` with each key's id in `table` (prefetching the recent array's entries
/// twice as far ahead as the slots, see `intern_batch`).
fn look_up_keys(table: &PackedTable, words: usize, out: &mut Chunk) {
    let Chunk { keys, hashes, found, .. } = out;
    found.reserve(hashes.len());
    for (i, &h) in hashes.iter().enumerate() {
        if let Some(&far) = hashes.get(i + 2 * LOOK_AHEAD) {
            table.prefetch_recent(far);
        }
        if let Some(&ahead) = hashes.get(i + LOOK_AHEAD) {
            table.prefetch(ahead, &keys[(i + LOOK_AHEAD) * words..(i + LOOK_AHEAD + 1) * words]);
        }
        found.push(table.find_hashed(&keys[i * words..(i + 1) * words], h).unwrap_or(NOT_FOUND));
    }
}

/// How many keys ahead [`look_up_keys`] prefetches hash slots.
const LOOK_AHEAD: usize = 8;

/// Fewest states per worker worth a parallel split.
const MIN_PER_WORKER: u32 = 64;
