//! Atomic propositions as bitsets over explicit states.
//!
//! An atom is a boolean state predicate (a lowered [`Expr`]). Atoms of the forms `x = c`,
//! `x != c`, `x in {c1, …}`, `x` and `!x` (for a variable `x` and constants `c`) are answered from
//! an index of the states by each variable's value (built once per variable, O(states)), costing
//! one lookup per matching state; other atoms are evaluated once per state.

use super::eval::compiled::Program;
use super::eval::{EXIT_INDEX, Env, EvalError, Evaluator};
use super::state_values::StateValues;
use super::step::{DomainIndex, Frame};
use crate::lowering::program::{BinOp, Domain, Expr, System, UnOp, Value, VarId};
use fixedbitset::FixedBitSet;
use rustc_hash::FxHashMap;

/// The states to label: a row-major arena of value-index vectors, or packed values.
#[derive(Clone, Copy, Debug)]
pub(crate) enum StateSet<'a> {
    Rows { arena: &'a [u32], width: usize, count: usize },
    Packed(&'a StateValues),
}

impl StateSet<'_> {
    pub(crate) fn count(&self) -> usize {
        match self {
            StateSet::Rows { count, .. } => *count,
            StateSet::Packed(v) => v.len(),
        }
    }

    pub(crate) fn width(&self) -> usize {
        match self {
            StateSet::Rows { width, .. } => *width,
            StateSet::Packed(v) => v.width(),
        }
    }

    /// State `s`'s value indices written into `out` (`width()` long).
    #[inline]
    pub(crate) fn get_into(&self, s: usize, out: &mut [u32]) {
        match self {
            StateSet::Rows { arena, width, .. } => out.copy_from_slice(&arena[s * width..(s + 1) * width]),
            StateSet::Packed(v) => v.get_into(s as u32, out),
        }
    }

    /// The value index of variable `var` in state `s`.
    #[inline]
    pub(crate) fn value(&self, s: usize, var: usize) -> u32 {
        match self {
            StateSet::Rows { arena, width, .. } => arena[s * width + var],
            StateSet::Packed(v) => v.value(s as u32, var),
        }
    }
}

/// Labels states with atoms, caching per-variable value indexes.
pub(crate) struct AtomLabeller<'a> {
    system: &'a System,
    domains: &'a DomainIndex,
    states: StateSet<'a>,
    /// Per variable: `offsets[b]..offsets[b+1]` in `members` are the states whose value index is
    /// `b` (bucket `domain.len()` is `EXIT`).
    by_value: FxHashMap<VarId, (Vec<u32>, Vec<u32>)>,
    ev: Evaluator<'a>,
}

impl<'a> AtomLabeller<'a> {
    pub(crate) fn new(system: &'a System, domains: &'a DomainIndex, states: StateSet<'a>) -> AtomLabeller<'a> {
        AtomLabeller { system, domains, states, by_value: FxHashMap::default(), ev: Evaluator::new(&system.vars) }
    }

    /// The states satisfying `atom`, or the first state where evaluating it fails.
    pub(crate) fn label(&mut self, atom: &Expr) -> Result<FixedBitSet, (usize, EvalError)> {
        if let Some(bits) = self.structural(atom, 0) {
            return Ok(bits);
        }
        let mut bits = FixedBitSet::with_capacity(self.states.count());
        let mut row = vec![0u32; self.states.width()];
        // Compiled once (as a state on its own: `Var` only, `next` left to the evaluator);
        // where it gives up, the tree evaluator decides (and reports the error).
        let prog = Program::condition(&self.system.vars, atom, Frame::Init);
        for s in 0..self.states.count() {
            self.states.get_into(s, &mut row);
            if let Some(holds) = prog.as_ref().and_then(|p| p.holds(&row, &row)) {
                if holds {
                    bits.insert(s);
                }
                continue;
            }
            match self.ev.bool(atom, &Env::state(&row)) {
                Ok(true) => bits.insert(s),
                Ok(false) => {}
                Err(e) => return Err((s, e)),
            }
        }
        Ok(bits)
    }

    /// The states satisfying `e` when it is a boolean combination (`! & | -> <-> xor xnor`) of
    /// value patterns and constants: answered from the value index with set operations, no
    /// per-state evaluation (and no evaluation error is possible). `None` otherwise.
    fn structural(&mut self, e: &Expr, depth: usize) -> Option<FixedBitSet> {
        const MAX_DEPTH: usize = 64;
        if depth > MAX_DEPTH {
            return None;
        }
        let e = e.unshared();
        if let Some((var, buckets)) = value_pattern(self.system, self.domains, e) {
            self.ensure_index(var);
            let mut bits = FixedBitSet::with_capacity(self.states.count());
            let (offsets, members) = &self.by_value[&var];
            for b in buckets {
                for &s in &members[offsets[b] as usize..offsets[b + 1] as usize] {
                    bits.insert(s as usize);
                }
            }
            return Some(bits);
        }
        match e {
            Expr::Const(Value::Bool(b)) => {
                let mut bits = FixedBitSet::with_capacity(self.states.count());
                bits.set_range(.., *b);
                Some(bits)
            }
            Expr::Unary(UnOp::Not, a) => {
                let mut bits = self.structural(a, depth + 1)?;
                bits.toggle_range(..);
                Some(bits)
            }
            Expr::Binary(op @ (BinOp::And | BinOp::Or | BinOp::Implies | BinOp::Iff | BinOp::Xor | BinOp::Xnor), a, b) => {
                let mut x = self.structural(a, depth + 1)?;
                let y = self.structural(b, depth + 1)?;
                match op {
                    BinOp::And => x.intersect_with(&y),
                    BinOp::Or => x.union_with(&y),
                    BinOp::Implies => {
                        x.toggle_range(..);
                        x.union_with(&y);
                    }
                    BinOp::Xor => x.symmetric_difference_with(&y),
                    _ => {
                        x.symmetric_difference_with(&y);
                        x.toggle_range(..);
                    }
                }
                Some(x)
            }
            _ => None,
        }
    }

    fn ensure_index(&mut self, var: VarId) {
        if self.by_value.contains_key(&var) {
            return;
        }
        let len = self.system.vars[var.index()].domain.len();
        let bucket = |idx: u32| if idx == EXIT_INDEX { len } else { (idx as usize).min(len) };
        let mut offsets = vec![0u32; len + 2];
        for s in 0..self.states.count() {
            offsets[bucket(self.states.value(s, var.index())) + 1] += 1;
        }
        for b in 0..=len {
            offsets[b + 1] += offsets[b];
        }
        let mut fill = offsets.clone();
        let mut members = vec![0u32; self.states.count()];
        for s in 0..self.states.count() {
            let b = bucket(self.states.value(s, var.index()));
            members[fill[b] as usize] = s as u32;
            fill[b] += 1;
        }
        self.by_value.insert(var, (offsets, members));
    }
}

/// `Some((x, buckets))` when `atom` holds exactly in the states whose value of `x` is in one of
/// `buckets` (bucket `i` < the domain's length: value index `i`; bucket = the length: `EXIT`, in
/// procedure modules). The patterns are `x = c`, `x != c`, `x in {c1, …}`, `x` and `!x`.
pub(crate) fn value_pattern(system: &System, domains: &DomainIndex, atom: &Expr) -> Option<(VarId, Vec<usize>)> {
    let buckets_of = |var: VarId, values: &[Value]| -> Option<Vec<usize>> {
        // An enumeration's values are written in the file: an index over them is as large as
        // the text, whatever their number (a control-flow model's `pc` has one per location).
        let len = match &system.vars.get(var.index())?.domain {
            Domain::Enum(values) => values.len(),
            domain => domain.table_len()?,
        };
        let mut bs: Vec<usize> = values
            .iter()
            .filter_map(|&v| match v {
                Value::Exit => system.is_procedure.then_some(len),
                _ => domains.index_of(system, var, v).map(|i| i as usize),
            })
            .collect();
        bs.sort_unstable();
        bs.dedup();
        Some(bs)
    };
    let consts = |e: &Expr| -> Option<Vec<Value>> {
        match e {
            Expr::Const(v) => Some(vec![*v]),
            Expr::Set(items) => items.iter().map(|i| if let Expr::Const(v) = i { Some(*v) } else { None }).collect(),
            _ => None,
        }
    };
    match atom.unshared() {
        Expr::Var(x) => Some((*x, buckets_of(*x, &[Value::Bool(true)])?)),
        Expr::Unary(UnOp::Not, inner) => match inner.unshared() {
            Expr::Var(x) => Some((*x, buckets_of(*x, &[Value::Bool(false)])?)),
            _ => None,
        },
        Expr::Binary(op @ (BinOp::Eq | BinOp::Ne), a, b) => {
            let (x, c) = match (a.unshared(), b.unshared()) {
                (Expr::Var(x), Expr::Const(c)) | (Expr::Const(c), Expr::Var(x)) => (*x, *c),
                _ => return None,
            };
            let eq = buckets_of(x, &[c])?;
            if *op == BinOp::Eq {
                Some((x, eq))
            } else {
                let all = system.vars[x.index()].domain.len() + system.is_procedure as usize;
                Some((x, (0..all).filter(|b| !eq.contains(b)).collect()))
            }
        }
        Expr::Binary(BinOp::In, a, b) => match a.unshared() {
            Expr::Var(x) => Some((*x, buckets_of(*x, &consts(b.unshared())?)?)),
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explicit::test_support::*;
    use std::sync::Arc;

    /// Per-state evaluation of `atom` (what [`AtomLabeller::label`] does without a pattern).
    fn evaluated(system: &System, rows: &[u32], width: usize, atom: &Expr) -> FixedBitSet {
        let mut ev = Evaluator::new(&system.vars);
        let mut bits = FixedBitSet::with_capacity(rows.len() / width);
        for (s, row) in rows.chunks(width).enumerate() {
            bits.set(s, ev.bool(atom, &Env::state(row)).expect("the atoms cannot fail"));
        }
        bits
    }

    /// Regression: a large DEFINE label (`p := state in {s1, …}`, shared by its uses as
    /// [`Expr::Shared`]) over an enumeration of more than 2^16 values (a control-flow model's
    /// `pc`) was evaluated state by state; it is answered from the value index, with the same
    /// states as evaluating it.
    #[test]
    fn shared_labels_over_wide_enumerations_are_answered_from_the_value_index() {
        let n = (1usize << 16) + 5;
        let domain = syms(n as u32);
        let sys = system("main", &[("pc", domain), ("b", Domain::Boolean)]);
        let domains = DomainIndex::new(&sys);
        let width = 2;
        let rows: Vec<u32> = (0..3000u32).flat_map(|s| [(s * 37) % n as u32, s % 2]).collect();
        let members: Vec<Expr> = (0..200u32).map(|i| sym(i * 331 % n as u32)).collect();
        let in_set = bin(BinOp::In, var(0), set(members));
        let atoms = [
            Expr::Shared(Arc::new(in_set.clone())),
            not(Expr::Shared(Arc::new(in_set.clone()))),
            bin(BinOp::And, Expr::Shared(Arc::new(in_set.clone())), var(1)),
            bin(BinOp::Ne, var(0), sym(n as u32 - 1)),
        ];
        for atom in &atoms {
            let mut labeller = AtomLabeller::new(&sys, &domains, StateSet::Rows { arena: &rows, width, count: rows.len() / width });
            let structural = labeller.structural(atom, 0).expect("answered from the value index");
            assert_eq!(structural, evaluated(&sys, &rows, width, atom), "{atom:?}");
            assert_eq!(labeller.label(atom).ok(), Some(structural));
        }
        // A range that wide gets no index (its values are not written in the file).
        let wide = system("main", &[("x", Domain::Range { lo: 0, hi: 1 << 20 })]);
        assert!(value_pattern(&wide, &DomainIndex::new(&wide), &eq(var(0), int(3))).is_none());
    }
}
