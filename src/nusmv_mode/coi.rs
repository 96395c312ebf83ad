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
    let deps = dependencies(system);
    let mut fairness = vec![false; system.vars.len()];
    system.fairness.iter().for_each(|e| mark_reads(e, &mut fairness));
    (program.specs.iter()).map(|s| if s.system == flat { cone_size(system, &deps, &fairness, s) } else { 0 }).collect()
}

/// Per variable, the variables it depends on.
fn dependencies(system: &System) -> Vec<Vec<usize>> {
    let n = system.vars.len();
    let mut deps: Vec<Vec<bool>> = vec![vec![false; n]; n];
    for (v, row) in deps.iter_mut().enumerate() {
        for e in [&system.init_assign[v], &system.next_assign[v], &system.invar_assign[v]].into_iter().flatten() {
            mark_reads(e, row);
        }
    }
    let mut conjuncts = vec![];
    for e in system.init.iter().chain(&system.invar).chain(&system.trans) {
        split_and(e, &mut conjuncts);
    }
    for c in conjuncts {
        let mut read = vec![false; n];
        mark_reads(c, &mut read);
        for v in (0..n).filter(|&v| read[v]) {
            deps[v].iter_mut().zip(&read).for_each(|(d, &r)| *d |= r);
        }
    }
    deps.into_iter().map(|row| (0..n).filter(|&w| row[w]).collect()).collect()
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

fn cone_size(system: &System, deps: &[Vec<usize>], fairness: &[bool], spec: &LoweredSpec) -> usize {
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
    let mut stack: Vec<usize> = (0..system.vars.len()).filter(|&v| seen[v]).collect();
    while let Some(v) = stack.pop() {
        for &w in &deps[v] {
            if !std::mem::replace(&mut seen[w], true) {
                stack.push(w);
            }
        }
    }
    seen.iter().filter(|&&s| s).count()
}
