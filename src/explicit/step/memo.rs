//! Memoised evaluation of a plan's assignments and checks, keyed by the values they read.
//!
//! An assignment's candidates (or a check's verdict) are a function of the value indices of the
//! variables its expression reads — current values for `Var`, the vector being built for `Next`
//! in a transition frame (see [`super::Frame`]). When the product of those variables' domain
//! sizes is small, a dense table indexed by their mixed-radix combination caches each result
//! the first time that combination is met; every later state with the same combination costs a
//! few multiplications and one load instead of a tree walk. A typical control-flow
//! `next(state) := case state = … & abp & tag = … : …` reads three small variables: a table of
//! a few dozen entries serves every state.
//!
//! Exactness: evaluation is deterministic given the values read, so a cached result is the
//! result evaluation would give. Errors are never cached (the expression is evaluated again and
//! fails the same way, with the same partial vector in the error), nor are combinations holding
//! a value index outside the domain (`UNSET`, `EXIT`). Expressions reading `EXITED`, and plans
//! of procedure modules, are not memoised. The tables live in the per-thread [`super::Scratch`]
//! and are allocated on first use; their total size is capped ([`TOTAL_ENTRIES`]).

use super::Frame;
use crate::lowering::program::{Expr, System, VarId};

/// Largest table for one expression (entries).
const MAX_ENTRIES: usize = 1 << 16;
/// Largest total of the tables of one plan (entries).
pub(super) const TOTAL_ENTRIES: usize = 1 << 22;

/// How to index an expression's table: (variable, read from the current state?, stride, domain
/// size) per variable read.
#[derive(Clone, Debug)]
pub(super) struct MemoKey {
    parts: Vec<(VarId, bool, u32, u32)>,
    size: usize,
    /// Which table of the plan.
    pub table: u32,
}

impl MemoKey {
    /// The key of `e` evaluated in `frame`, if its table would have at most [`MAX_ENTRIES`]
    /// entries (`table` is set by the caller).
    pub(super) fn of(system: &System, e: &Expr, frame: Frame) -> Option<MemoKey> {
        let mut read: Vec<(VarId, bool)> = vec![];
        if !collect(e, frame, &mut read) {
            return None;
        }
        read.sort_unstable();
        read.dedup();
        let mut parts = Vec::with_capacity(read.len());
        let mut size = 1usize;
        for (v, from_cur) in read {
            let len = system.vars.get(v.index())?.domain.len();
            if len == 0 || len > MAX_ENTRIES {
                return None;
            }
            parts.push((v, from_cur, size as u32, len as u32));
            size = size.checked_mul(len).filter(|&s| s <= MAX_ENTRIES)?;
        }
        Some(MemoKey { parts, size, table: 0 })
    }

    pub(super) fn size(&self) -> usize {
        self.size
    }

    /// The table entry for the values in `cur` (current state) and `vec` (the vector being
    /// built); `None` when a value read is not a domain index.
    #[inline]
    pub(super) fn index(&self, cur: &[u32], vec: &[u32]) -> Option<usize> {
        let mut k = 0usize;
        for &(v, from_cur, stride, len) in &self.parts {
            let x = *if from_cur { cur } else { vec }.get(v.index())?;
            if x >= len {
                return None;
            }
            k += x as usize * stride as usize;
        }
        Some(k)
    }
}

/// The variables `e` reads in `frame` (with where from); `false` if it reads `EXITED`.
fn collect(e: &Expr, frame: Frame, out: &mut Vec<(VarId, bool)>) -> bool {
    let trans = frame == Frame::Trans;
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        match e {
            Expr::Exited => return false,
            // `Var` reads the current state in a transition, the vector being built otherwise.
            Expr::Var(v) => out.push((*v, trans)),
            // Outside a transition `next` is unavailable: an error, never cached.
            Expr::Next(v) => out.push((*v, false)),
            // The evaluator reads a table's variable from `env.cur`.
            Expr::Table { var, .. } => out.push((*var, trans)),
            _ => {}
        }
        e.push_children(&mut stack);
    }
    true
}

/// Marks a candidate-table entry that holds its one candidate itself ([`Memo::tables`]).
const SINGLE: u32 = 1 << 31;

/// Cached results of one plan (per thread).
#[derive(Clone, Debug, Default)]
pub(crate) struct Memo {
    /// The plan the tables belong to.
    plan: u64,
    /// Per table: 0 = not computed; for checks 1 = false, 2 = true; for candidate lists
    /// [`SINGLE`] | the value index when there is one candidate below [`SINGLE`] (the common
    /// case: no second load from `pool`, whose lines are rarely in cache), else 1 + the
    /// position of the list in `pool` (its length, then its value indices).
    tables: Vec<Vec<u32>>,
    pool: Vec<u32>,
}

impl Memo {
    /// Starts using the tables for plan `id` (clearing them if they belong to another plan).
    #[inline]
    pub(super) fn bind(&mut self, id: u64, tables: usize) {
        if self.plan != id {
            self.plan = id;
            self.tables.clear();
            self.tables.resize_with(tables, Vec::new);
            self.pool.clear();
        }
    }

    #[inline]
    fn entry(&mut self, key: &MemoKey, k: usize) -> &mut u32 {
        let t = &mut self.tables[key.table as usize];
        if t.is_empty() {
            t.resize(key.size, 0);
        }
        &mut t[k]
    }

    /// The cached verdict of a check at entry `k`.
    #[inline]
    pub(super) fn verdict(&mut self, key: &MemoKey, k: usize) -> Option<bool> {
        match *self.entry(key, k) {
            0 => None,
            x => Some(x == 2),
        }
    }

    pub(super) fn set_verdict(&mut self, key: &MemoKey, k: usize, holds: bool) {
        *self.entry(key, k) = 1 + u32::from(holds);
    }

    /// The cached candidates at entry `k`, appended to `out`; `false` if not computed.
    #[inline]
    pub(super) fn candidates(&mut self, key: &MemoKey, k: usize, out: &mut Vec<u32>) -> bool {
        match *self.entry(key, k) {
            0 => false,
            x if x & SINGLE != 0 => {
                out.push(x & !SINGLE);
                true
            }
            x => {
                let at = x as usize - 1;
                let len = self.pool[at] as usize;
                out.extend_from_slice(&self.pool[at + 1..at + 1 + len]);
                true
            }
        }
    }

    pub(super) fn set_candidates(&mut self, key: &MemoKey, k: usize, values: &[u32]) {
        if let [v] = values
            && v & SINGLE == 0
        {
            *self.entry(key, k) = SINGLE | v;
            return;
        }
        let at = self.pool.len();
        if at + values.len() + 1 >= SINGLE as usize {
            return;
        }
        self.pool.push(values.len() as u32);
        self.pool.extend_from_slice(values);
        *self.entry(key, k) = at as u32 + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidate_lists_of_every_length_read_back_as_stored() {
        let key = MemoKey { parts: vec![], size: 5, table: 0 };
        let mut memo = Memo::default();
        memo.bind(1, 1);
        let lists: [&[u32]; 5] = [&[], &[7], &[SINGLE - 1], &[3, 1, 2], &[SINGLE + 4]];
        for (k, values) in lists.iter().enumerate() {
            let mut out = vec![];
            assert!(!memo.candidates(&key, k, &mut out));
            memo.set_candidates(&key, k, values);
        }
        for (k, values) in lists.iter().enumerate() {
            let mut out = vec![9];
            assert!(memo.candidates(&key, k, &mut out));
            assert_eq!(out[1..], values[..], "entry {k}");
        }
        // Only the lists that are not one small value took room in the pool.
        assert_eq!(memo.pool.len(), 1 + 4 + 2);
    }
}
