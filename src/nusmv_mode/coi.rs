//! The size of a property's cone of influence as NuSMV 2.5.4 computes it (`Prop_compute_cone`,
//! `compileCone.c`), by which its interactive `check_*` commands without `-n` order the
//! properties they check (`use_coi_size_sorting`, on by default; smaller cones first, ties in
//! index order). Batch mode checks in index order and does not use it.
//!
//! NuSMV's cone: the variables the property reads plus those of every `FAIRNESS`/`JUSTICE`
//! constraint, closed under each variable's dependencies, which are the variables its
//! `init()`/`next()`/`:=` assignments read and those of every conjunct (top-level `&` split) of
//! an `INIT`, `INVAR` or `TRANS` constraint that mentions it. DEFINEs are inlined in the lowered
//! expressions, so their variables count as NuSMV's `Formula_GetDependencies` counts them.
//! Assumes a flat system; the specs of procedure modules get size 0 (NuSMV has none).

use crate::ctl::Ctl;
use crate::ir::BinOp;
use crate::lowering::program::{Expr, LoweredProgram, LoweredSpec, SpecAtom, System};
use crate::symbolic::cone::mark_reads;

/// The cone size of every spec of `program`, by spec index.
pub(crate) fn cone_sizes(program: &LoweredProgram) -> Vec<usize> {
    let Some(flat) = program.flat else { return vec![0; program.specs.len()] };
    let system = &program.systems[flat.index()];
    let deps = Dependencies::of(system);
    let mut fairness = vec![false; system.vars.len()];
    system.fairness.iter().for_each(|e| mark_reads(e, &mut fairness));
    (program.specs.iter()).map(|s| if s.system == flat { cone_size(system, &deps, &fairness, s) } else { 0 }).collect()
}

/// A variable's dependencies, as two lists: the variables its assignments read, and the
/// constraint conjuncts that mention it (each of whose variables it depends on). Kept apart so
/// that the size is that of the model, not the square of its variable count.
struct Dependencies {
    assigned: Vec<Vec<usize>>,
    conjuncts_of: Vec<Vec<usize>>,
    conjunct_vars: Vec<Vec<usize>>,
}

impl Dependencies {
    fn of(system: &System) -> Dependencies {
        let n = system.vars.len();
        let assigned = (0..n)
            .map(|v| {
                let mut vars = vec![];
                for e in [&system.init_assign[v], &system.next_assign[v], &system.invar_assign[v]].into_iter().flatten() {
                    collect_vars(e, &mut vars);
                }
                vars
            })
            .collect();
        let mut conjuncts = vec![];
        for e in system.init.iter().chain(&system.invar).chain(&system.trans) {
            split_and(e, &mut conjuncts);
        }
        let mut conjuncts_of = vec![vec![]; n];
        let conjunct_vars: Vec<Vec<usize>> = (conjuncts.iter().enumerate())
            .map(|(c, e)| {
                let mut vars = vec![];
                collect_vars(e, &mut vars);
                vars.sort_unstable();
                vars.dedup();
                vars.iter().for_each(|&v| conjuncts_of[v].push(c));
                vars
            })
            .collect();
        Dependencies { assigned, conjuncts_of, conjunct_vars }
    }
}

/// Appends the variables `e` reads (current or next copy), as [`mark_reads`] marks them.
fn collect_vars(e: &Expr, out: &mut Vec<usize>) {
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        if let Expr::Var(v) | Expr::Next(v) | Expr::Table { var: v, .. } = e {
            out.push(v.index());
        }
        e.push_children(&mut stack);
    }
}

fn split_and<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    match e {
        Expr::Binary(BinOp::And, a, b) => {
            split_and(a, out);
            split_and(b, out);
        }
        _ => out.push(e),
    }
}

fn cone_size(system: &System, deps: &Dependencies, fairness: &[bool], spec: &LoweredSpec) -> usize {
    let mut seen = fairness.to_vec();
    let mut atom = |a: &SpecAtom| {
        if let SpecAtom::State(e) = a {
            mark_reads(e, &mut seen);
        }
    };
    let formulas: Vec<&Ctl<SpecAtom>> = std::iter::once(&spec.formula).chain(spec.compute.iter().flat_map(|c| [&c.from, &c.to])).collect();
    for f in formulas {
        f.map_atoms(&mut atom);
    }
    if let Some(l) = &spec.ltl {
        l.map_atoms(&mut atom);
    }
    let mut conjunct_seen = vec![false; deps.conjunct_vars.len()];
    let mut stack: Vec<usize> = (0..system.vars.len()).filter(|&v| seen[v]).collect();
    while let Some(v) = stack.pop() {
        let mut visit = |w: usize| {
            if !std::mem::replace(&mut seen[w], true) {
                stack.push(w);
            }
        };
        deps.assigned[v].iter().for_each(|&w| visit(w));
        for &c in &deps.conjuncts_of[v] {
            if !std::mem::replace(&mut conjunct_seen[c], true) {
                deps.conjunct_vars[c].iter().for_each(|&w| visit(w));
            }
        }
    }
    seen.iter().filter(|&&s| s).count()
}
