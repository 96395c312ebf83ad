//! The cone of influence of a spec in a flat system: the variables whose values can matter to the
//! spec's verdict, as NuSMV's `-coi` computes it, widened so that the verdict stays exact under
//! NuSMV's default (full-model) fair semantics.
//!
//! NuSMV's cone starts from the variables the spec reads and closes them under the dependencies
//! of their `init()`/`next()`/`:=` assignments and of the `INIT`/`TRANS`/`INVAR` conjuncts that
//! mention them. That alone is not exact for fair CTL on the whole model: a constraint over
//! variables outside the cone can remove initial states or block transitions (deadlocks, which
//! are not fair paths), and a fairness constraint outside the cone restricts which paths count.
//! So the cone here starts, besides the spec's variables, from the variables of every `TRANS` and
//! `INVAR` conjunct and every `FAIRNESS`/`JUSTICE` constraint (`Dependencies::base`). What stays
//! outside then is only constrained by assignments and domains, which are total: from every
//! reachable state, every step of the cone's variables (and inputs) extends to the outside
//! variables (an out-of-range or failing assignment is an error region that the model build
//! reports on the whole model, and the transition through it exists). The cone's initial and
//! reachable states are the projections of the whole model's (`symbolic::reduced`), so `INIT`
//! conjuncts need not join. Hence a reachable state of the whole model satisfies a spec iff its
//! projection does in the cone's model: its paths project onto the cone's paths from there and
//! every such path lifts back, deadlocks and fair states included — every verdict is the whole
//! model's.
//!
//! Input variables are in the cone when a part of it reads them. Spec atoms read inputs at their
//! first value (see `symbolic::model`), so the inputs an atom names do not seed the cone.

use crate::ir::VarKind;
use crate::lowering::program::{Expr, System, VarId};

/// The dependency graph of a system's variables, for cones of influence.
#[derive(Clone, Debug)]
pub(crate) struct Dependencies {
    /// Per variable: the variables its `init`, `next` and `:=` assignments read (both copies).
    deps: Vec<Vec<VarId>>,
    /// The variables every cone contains: those of `TRANS`, `INVAR` and fairness constraints.
    base: Vec<bool>,
    /// Which variables are state variables (not `IVAR`).
    state: Vec<bool>,
}

/// Marks the variables `e` reads (current or next copy) in `out`.
pub(crate) fn mark_reads(e: &Expr, out: &mut [bool]) {
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        match e {
            Expr::Var(v) | Expr::Next(v) | Expr::Table { var: v, .. } => out[v.index()] = true,
            _ => {}
        }
        e.push_children(&mut stack);
    }
}

/// The variables `e` reads: current copies, next copies.
pub(crate) fn reads(system: &System, e: &Expr) -> (Vec<bool>, Vec<bool>) {
    let n = system.vars.len();
    let (mut cur, mut next) = (vec![false; n], vec![false; n]);
    collect_reads(e, &mut cur, &mut next);
    (cur, next)
}

fn collect_reads(e: &Expr, cur: &mut [bool], next: &mut [bool]) {
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        match e {
            Expr::Var(v) | Expr::Table { var: v, .. } => cur[v.index()] = true,
            Expr::Next(v) => next[v.index()] = true,
            _ => {}
        }
        e.push_children(&mut stack);
    }
}

impl Dependencies {
    pub(crate) fn of(system: &System) -> Dependencies {
        let n = system.vars.len();
        let mut deps = Vec::with_capacity(n);
        let mut mark = vec![false; n];
        for v in 0..n {
            mark.fill(false);
            let assignments = [&system.init_assign[v], &system.next_assign[v], &system.invar_assign[v]];
            for e in assignments.into_iter().flatten() {
                mark_reads(e, &mut mark);
            }
            deps.push((0..n).filter(|&w| mark[w] && w != v).map(VarId::new).collect());
        }
        let mut base = vec![false; n];
        for e in system.trans.iter().chain(&system.invar).chain(&system.fairness) {
            mark_reads(e, &mut base);
        }
        let state = system.vars.iter().map(|v| v.kind != VarKind::Input).collect();
        Dependencies { deps, base, state }
    }

    /// The cone of `seeds` (a mask of variables): the base, the seeds, closed under dependencies.
    pub(crate) fn cone(&self, seeds: &[bool]) -> Vec<bool> {
        let mut cone = vec![false; self.deps.len()];
        let mut stack: Vec<usize> = (0..self.deps.len()).filter(|&v| self.base[v] || seeds.get(v).copied().unwrap_or(false)).collect();
        while let Some(v) = stack.pop() {
            if cone[v] {
                continue;
            }
            cone[v] = true;
            stack.extend(self.deps[v].iter().map(|&w| w.index()).filter(|&w| !cone[w]));
        }
        cone
    }

    /// Whether `cone` holds every state variable (then it is the whole model).
    pub(crate) fn is_whole(&self, cone: &[bool]) -> bool {
        self.state.iter().zip(cone).all(|(&s, &c)| !s || c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explicit::test_support;
    use crate::lowering::program::{BinOp, Domain, Value};

    fn system(vars: &[(&str, VarKind)]) -> System {
        let named: Vec<(&str, Domain)> = vars.iter().map(|(n, _)| (*n, Domain::Boolean)).collect();
        let mut s = test_support::system("main", &named);
        for (v, (_, kind)) in s.vars.iter_mut().zip(vars) {
            v.kind = *kind;
        }
        s
    }

    fn mask(n: usize, on: &[usize]) -> Vec<bool> {
        (0..n).map(|v| on.contains(&v)).collect()
    }

    #[test]
    fn cone_closes_over_assignments_and_keeps_constraints_and_fairness() {
        // a := next depends on b; b on input i; c on d (outside a's cone); e in INVAR; f in FAIRNESS.
        let mut s = system(&[
            ("a", VarKind::State),
            ("b", VarKind::State),
            ("i", VarKind::Input),
            ("c", VarKind::State),
            ("d", VarKind::State),
            ("e", VarKind::State),
            ("f", VarKind::State),
            ("g", VarKind::State),
        ]);
        s.next_assign[0] = Some(Expr::Var(VarId::new(1)));
        s.next_assign[1] = Some(Expr::Binary(BinOp::And, Box::new(Expr::Var(VarId::new(2))), Box::new(Expr::Next(VarId::new(0)))));
        s.init_assign[3] = Some(Expr::Var(VarId::new(4)));
        s.invar.push(Expr::Var(VarId::new(5)));
        s.fairness.push(Expr::Var(VarId::new(6)));
        s.invar_assign[6] = Some(Expr::Var(VarId::new(7)));
        s.init_assign[0] = Some(Expr::Const(Value::Bool(false)));
        // INIT conjuncts do not join (the cone's initial states are the model's, projected).
        s.init.push(Expr::Var(VarId::new(4)));
        let deps = Dependencies::of(&s);
        // a's cone: a, b, i (b reads i and next(a)), e (INVAR), f and g (fairness and its `:=`).
        assert_eq!(deps.cone(&mask(8, &[0])), mask(8, &[0, 1, 2, 5, 6, 7]));
        // c's cone adds d, through c's init assignment.
        assert_eq!(deps.cone(&mask(8, &[3])), mask(8, &[3, 4, 5, 6, 7]));
        assert!(!deps.is_whole(&deps.cone(&mask(8, &[0]))));
        assert!(deps.is_whole(&deps.cone(&mask(8, &[0, 3]))));
        // No seed: the base alone.
        assert_eq!(deps.cone(&mask(8, &[])), mask(8, &[5, 6, 7]));
    }

    #[test]
    fn trans_conjuncts_join_every_cone() {
        let mut s = system(&[("x", VarKind::State), ("y", VarKind::State), ("z", VarKind::State)]);
        s.trans.push(Expr::Binary(BinOp::Eq, Box::new(Expr::Next(VarId::new(1))), Box::new(Expr::Var(VarId::new(1)))));
        s.next_assign[1] = None;
        s.next_assign[0] = Some(Expr::Var(VarId::new(0)));
        let deps = Dependencies::of(&s);
        assert_eq!(deps.cone(&mask(3, &[0])), mask(3, &[0, 1]));
        assert_eq!(deps.cone(&mask(3, &[2])), mask(3, &[1, 2]));
    }
}
