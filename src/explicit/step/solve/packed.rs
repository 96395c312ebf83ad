//! Successors written straight into packed keys, for the solver's copy-and-change paths.
//!
//! A constraint-style model (`TRANS` as a disjunction of guarded updates with
//! `unchanged_except_…` frame conditions, NuSMV's `deadlock/gas-nq7.smv`) has successors that
//! are the current state with a few variables changed: [`super::SimplePath::changes`]. When
//! every enabled alternative of the one active conjunct is such a path, [`Solver::packed`]
//! makes each successor by copying the current state's packed key (see
//! [`crate::explicit::packed_table::Layout`]) and overwriting the changed fields, instead of
//! building a value vector per successor, copying it into a row buffer, sorting the rows and
//! packing each one. The successors are ordered and deduplicated exactly as
//! [`Solver::run`] orders them (the plain enumeration's order: slot by slot, each slot's
//! candidate order): by integer sort keys when the solver has them ([`Solver::key_fields`]; the
//! current state's key is computed once per run and each successor's is that key with its
//! changed fields replaced), else by comparing only the variables the two successors change; the
//! keys are the ones packing the vectors would give. Any other case (several active conjuncts, a path
//! with candidate slots, a value that does not fit its field) leaves the output untouched and
//! says so, and the caller runs the vector-based search.
//!
//! Assumes `cur` is a state of the model (every value within its domain) whose packed form is
//! [`PackedOut::cur_key`].

use super::{Simple, SolveScratch, Solver};
use std::ops::ControlFlow;
#[cfg(test)]
thread_local! {
    /// Tests: order successors by comparing their changes, never by integer sort keys.
    pub(crate) static NO_SORT_KEYS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}
use crate::explicit::packed_table::{Layout, hash};
use std::cmp::Ordering;

/// Where successors go as packed keys (`layout.words()` words each) and their hashes.
pub(crate) struct PackedOut<'a> {
    pub layout: &'a Layout,
    /// The current state, packed.
    pub cur_key: &'a [u64],
    /// Scratch for one successor's key.
    pub key: &'a mut [u64],
    pub keys: &'a mut Vec<u64>,
    pub hashes: &'a mut Vec<u64>,
    /// Most words `keys` may hold: [`PackedOut::push_row`] stops the enumeration there and sets
    /// `full` (the caller's memory bound; the copy-and-change paths, which emit at most
    /// `COMBO_LIMIT` successors per state, are not cut).
    pub room: usize,
    pub full: bool,
}

impl PackedOut<'_> {
    /// Appends the vector `state` packed (the vector-based paths' successors), or stops the
    /// enumeration when the keys are at their `room`.
    #[inline]
    pub(crate) fn push_row(&mut self, state: &[u32]) -> ControlFlow<()> {
        if self.keys.len() >= self.room {
            self.full = true;
            return ControlFlow::Break(());
        }
        let fits = self.layout.pack(state, self.key);
        // The plans emit value indices within each variable's domain (inputs 0), whatever the
        // input.
        assert!(fits, "a state value outside its variable's domain");
        self.keys.extend_from_slice(self.key);
        self.hashes.push(hash(self.key));
        ControlFlow::Continue(())
    }
}

/// Buffers of [`Solver::packed`] (part of [`SolveScratch`]).
#[derive(Clone, Debug, Default)]
pub(super) struct PackedScratch {
    /// Per successor, the (slot position, value index) of the variables it changes, in slot
    /// order: `changes[ends[i-1]..ends[i]]`.
    changes: Vec<(u32, u32)>,
    ends: Vec<u32>,
    order: Vec<u32>,
    keys: Vec<u64>,
    /// Per successor, its sort key ([`Solver::key_fields`]) and its number.
    sort: Vec<(u128, u32)>,
}

impl Solver<'_> {
    /// The successors of the enabled alternatives `ss.enabled[range]` (the one active
    /// conjunct's) appended to `out`, when each is a copy-and-change path: `false` (and `out`
    /// unchanged) otherwise.
    pub(super) fn packed(&self, ss: &mut SolveScratch, cur: &[u32], out: &mut PackedOut<'_>) -> bool {
        let (s, e) = ss.ranges[0];
        let enabled = &ss.enabled[s as usize..e as usize];
        let changes_of = |a: u32| self.simple[a as usize].as_ref().and_then(|p| p.changes.as_deref());
        if !enabled.iter().all(|&a| changes_of(a).is_some()) {
            return false;
        }
        let words = out.layout.words();
        let ps = &mut ss.packed;
        ps.changes.clear();
        ps.ends.clear();
        ps.keys.clear();
        for &a in enabled {
            let Some(changes) = changes_of(a) else { return false };
            let mark = ps.changes.len();
            let start = ps.keys.len();
            ps.keys.extend_from_slice(out.cur_key);
            let mut ok = true;
            for &(var, op) in changes {
                let here = cur[var.index()];
                let value = match op {
                    Simple::Keep => continue,
                    Simple::KeepIf(c) if here == c => continue,
                    Simple::KeepIfSame(y) if cur[y.index()] == here => continue,
                    Simple::Const(c) => c,
                    Simple::Copy { from, len } if cur[from.index()] < len => cur[from.index()],
                    _ => {
                        ok = false;
                        break;
                    }
                };
                if value != here {
                    if !out.layout.set(&mut ps.keys[start..], var.index(), value) {
                        return false;
                    }
                    ps.changes.push((self.pos_of_var[var.index()], value));
                }
            }
            if ok {
                ps.ends.push(ps.changes.len() as u32);
            } else {
                ps.keys.truncate(start);
                ps.changes.truncate(mark);
            }
        }
        if self.emit_by_keys(ps, cur, words, out) {
            return true;
        }
        let count = ps.ends.len();
        ps.order.clear();
        ps.order.extend(0..count as u32);
        let (changes, ends) = (&ps.changes, &ps.ends);
        let of = |i: u32| {
            let i = i as usize;
            let from = if i == 0 { 0 } else { ends[i - 1] as usize };
            &changes[from..ends[i] as usize]
        };
        let cmp = |a: u32, b: u32| self.compare_changes(of(a), of(b), cur);
        ps.order.sort_unstable_by(|&a, &b| cmp(a, b));
        let mut last: Option<u32> = None;
        for &i in &ps.order {
            if last.is_some_and(|l| cmp(l, i) == Ordering::Equal) {
                continue;
            }
            let key = &ps.keys[i as usize * words..(i as usize + 1) * words];
            out.keys.extend_from_slice(key);
            out.hashes.push(hash(key));
            last = Some(i);
        }
        true
    }

    /// Appends the successors in `ps` to `out` sorted and deduplicated by their integer sort
    /// keys; `false` (nothing appended) when the solver has no key fields or a value does not
    /// fit its field.
    fn emit_by_keys(&self, ps: &mut PackedScratch, cur: &[u32], words: usize, out: &mut PackedOut<'_>) -> bool {
        let Some(fields) = self.key_fields.as_deref() else { return false };
        #[cfg(test)]
        if NO_SORT_KEYS.with(std::cell::Cell::get) {
            return false;
        }
        let rank = |pos: usize, x: u32| match &self.rank[pos] {
            Some(r) => r.get(x as usize).copied(),
            None => Some(x),
        };
        // The current state's key over the fields some successor changes: the others are the
        // same in every successor, so leaving them out keeps the order (and costs a pass over the
        // changes instead of one over every slot).
        let mut base = 0u128;
        let mut in_base = 0u128;
        for &(pos, _) in &ps.changes {
            let pos = pos as usize;
            if pos >= 128 {
                // (Not with 128 or more slots: key fields then include empty ones.)
                return false;
            }
            if in_base >> pos & 1 != 0 {
                continue;
            }
            in_base |= 1 << pos;
            let Some(&(var, shift, bound)) = fields.get(pos) else { return false };
            let x = cur[var.index()];
            match rank(pos, x) {
                Some(r) if x < bound => base |= u128::from(r) << shift,
                _ => return false,
            }
        }
        ps.sort.clear();
        let mut from = 0usize;
        for (i, &end) in ps.ends.iter().enumerate() {
            let mut key = base;
            for &(pos, value) in &ps.changes[from..end as usize] {
                let Some(&(var, shift, bound)) = fields.get(pos as usize) else { return false };
                let (Some(old), Some(new)) = (rank(pos as usize, cur[var.index()]), rank(pos as usize, value)) else { return false };
                if value >= bound {
                    return false;
                }
                // The field holds `old`'s rank: replace it.
                key = key - (u128::from(old) << shift) + (u128::from(new) << shift);
            }
            ps.sort.push((key, i as u32));
            from = end as usize;
        }
        // Keys are distinct exactly for distinct successors; equal keys: keep the first.
        ps.sort.sort_unstable();
        let mut last: Option<u128> = None;
        for &(key, i) in &ps.sort {
            if last == Some(key) {
                continue;
            }
            let packed = &ps.keys[i as usize * words..(i as usize + 1) * words];
            out.keys.extend_from_slice(packed);
            out.hashes.push(hash(packed));
            last = Some(key);
        }
        true
    }

    /// [`Solver::compare`] of two successors of `cur` given by the variables they change
    /// ((slot position, value index), in slot order): the first slot where they differ is one
    /// that either changes.
    fn compare_changes(&self, a: &[(u32, u32)], b: &[(u32, u32)], cur: &[u32]) -> Ordering {
        let (mut i, mut j) = (0, 0);
        while i < a.len() || j < b.len() {
            let pa = a.get(i).map_or(u32::MAX, |c| c.0);
            let pb = b.get(j).map_or(u32::MAX, |c| c.0);
            let pos = pa.min(pb);
            let here = cur[self.slot_vars[pos as usize].index()];
            let x = if pa == pos { a[i].1 } else { here };
            let y = if pb == pos { b[j].1 } else { here };
            i += usize::from(pa == pos);
            j += usize::from(pb == pos);
            if x != y {
                return match &self.rank[pos as usize] {
                    Some(r) => r.get(x as usize).cmp(&r.get(y as usize)),
                    None => x.cmp(&y),
                };
            }
        }
        Ordering::Equal
    }
}
