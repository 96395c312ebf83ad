//! Which of a list of state conditions hold in a state, answered by lookups where possible.
//!
//! The exit and `CALL` conditions of a procedure module are tested at every one of its locations;
//! in control-flow models they are `pc = c` or `pc in {…}`, one per exit or callee, so testing
//! them one by one is quadratic in the size of the module. A [`ConditionIndex`] maps each value
//! of a variable to the conditions of the form `x = c`, `x != c` or `x in {c1, …}` that hold for
//! it ([`super::atoms::value_pattern`]); only the other conditions are evaluated, in list order.
//!
//! Those three forms never fail to evaluate (on `EXIT` too), so answering them by lookup gives
//! the same answers, and the same first error, as evaluating every condition in order.

use super::atoms::value_pattern;
use super::eval::EXIT_INDEX;
use super::step::DomainIndex;
use crate::lowering::program::{BinOp, Expr, System, VarId};
use smallvec::SmallVec;

/// Conditions `0..len` of one list, indexed by value where they have a lookup form.
#[derive(Clone, Debug, Default)]
pub(crate) struct ConditionIndex {
    len: usize,
    /// Per variable with lookup conditions: `offsets[b]..offsets[b + 1]` in `conditions` are the
    /// (ascending) conditions holding when the variable's value is in bucket `b` (the last
    /// bucket is `EXIT`).
    by_value: Vec<(VarId, Vec<u32>, Vec<u32>)>,
    /// The conditions that must be evaluated, ascending.
    evaluated: Vec<u32>,
}

impl ConditionIndex {
    pub(crate) fn new<'e>(system: &System, domains: &DomainIndex, conditions: impl IntoIterator<Item = &'e Expr>) -> ConditionIndex {
        let mut index = ConditionIndex::default();
        let mut patterns: Vec<(VarId, Vec<(usize, u32)>)> = vec![];
        for (i, condition) in conditions.into_iter().enumerate() {
            index.len += 1;
            let lookup = matches!(condition.unshared(), Expr::Binary(BinOp::Eq | BinOp::Ne | BinOp::In, ..));
            match value_pattern(system, domains, condition).filter(|_| lookup) {
                Some((var, buckets)) => {
                    let at = match patterns.iter().position(|(v, _)| *v == var) {
                        Some(at) => at,
                        None => {
                            patterns.push((var, vec![]));
                            patterns.len() - 1
                        }
                    };
                    patterns[at].1.extend(buckets.into_iter().map(|b| (b, i as u32)));
                }
                None => index.evaluated.push(i as u32),
            }
        }
        for (var, mut pairs) in patterns {
            let buckets = system.vars[var.index()].domain.len() + 1;
            pairs.sort_unstable();
            let mut offsets = vec![0u32; buckets + 1];
            for &(b, _) in &pairs {
                offsets[b.min(buckets - 1) + 1] += 1;
            }
            for b in 0..buckets {
                offsets[b + 1] += offsets[b];
            }
            index.by_value.push((var, offsets, pairs.into_iter().map(|(_, c)| c).collect()));
        }
        index
    }

    /// Calls `holds(i)` for every condition `i` that holds in `state`, in ascending order;
    /// `evaluate(i)` answers the conditions without a lookup form. The first error of either
    /// stops the scan.
    pub(crate) fn for_each_holding<E>(
        &self,
        state: &[u32],
        mut evaluate: impl FnMut(usize) -> Result<bool, E>,
        mut holds: impl FnMut(usize) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut found: SmallVec<[u32; 8]> = SmallVec::new();
        for (var, offsets, conditions) in &self.by_value {
            let buckets = offsets.len() - 1;
            let b = match state.get(var.index()) {
                Some(&EXIT_INDEX) => buckets - 1,
                Some(&idx) => (idx as usize).min(buckets - 1),
                None => continue,
            };
            found.extend_from_slice(&conditions[offsets[b] as usize..offsets[b + 1] as usize]);
        }
        if self.by_value.len() > 1 {
            found.sort_unstable();
        }
        if self.evaluated.is_empty() {
            return found.iter().try_for_each(|&i| holds(i as usize));
        }
        let mut looked_up = found.iter().peekable();
        for i in 0..self.len as u32 {
            let hit = if looked_up.next_if_eq(&&i).is_some() {
                true
            } else if self.evaluated.binary_search(&i).is_ok() {
                evaluate(i as usize)?
            } else {
                false
            };
            if hit {
                holds(i as usize)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explicit::test_support::{procedure, syms};
    use crate::ir::SymId;
    use crate::lowering::program::{Domain, Value};

    fn system() -> System {
        procedure("p", &[("pc", syms(5)), ("b", Domain::Boolean)])
    }

    fn holding(index: &ConditionIndex, state: &[u32], evaluate: impl Fn(usize) -> bool) -> Vec<usize> {
        let mut out = vec![];
        index
            .for_each_holding::<()>(
                state,
                |i| Ok(evaluate(i)),
                |i| {
                    out.push(i);
                    Ok(())
                },
            )
            .ok();
        out
    }

    #[test]
    fn lookups_and_evaluated_conditions_come_out_in_list_order() {
        let s = system();
        let d = DomainIndex::new(&s);
        let pc = || Box::new(Expr::Var(VarId::new(0)));
        let sym = |i| Box::new(Expr::Const(Value::Sym(SymId::new(i))));
        let conditions = [
            Expr::Binary(BinOp::Eq, pc(), sym(1)),
            Expr::Var(VarId::new(1)), // evaluated
            Expr::Binary(BinOp::In, pc(), Box::new(Expr::Set(vec![Expr::Const(Value::Sym(SymId::new(1))), Expr::Const(Value::Sym(SymId::new(3)))]))),
            Expr::Binary(BinOp::Ne, pc(), sym(3)),
            Expr::Binary(BinOp::Eq, Box::new(Expr::Var(VarId::new(1))), Box::new(Expr::Const(Value::Bool(true)))),
            Expr::Binary(BinOp::Eq, pc(), Box::new(Expr::Const(Value::Exit))),
        ];
        let index = ConditionIndex::new(&s, &d, &conditions);
        assert_eq!(index.evaluated, vec![1]);
        assert_eq!(holding(&index, &[1, 0], |_| true), vec![0, 1, 2, 3]);
        assert_eq!(holding(&index, &[3, 1], |_| false), vec![2, 4]);
        assert_eq!(holding(&index, &[EXIT_INDEX, 1], |_| false), vec![3, 4, 5]);
    }

    #[test]
    fn the_first_error_stops_the_scan() {
        let s = system();
        let d = DomainIndex::new(&s);
        let conditions =
            [Expr::Var(VarId::new(1)), Expr::Binary(BinOp::Eq, Box::new(Expr::Var(VarId::new(0))), Box::new(Expr::Const(Value::Sym(SymId::new(0)))))];
        let index = ConditionIndex::new(&s, &d, &conditions);
        let mut seen = vec![];
        let r = index.for_each_holding(
            &[0, 0],
            |_| Err("boom"),
            |i| {
                seen.push(i);
                Ok(())
            },
        );
        assert_eq!((r, seen), (Err("boom"), vec![]));
    }
}
