//! CTL verdicts on cones of influence: each CTL spec whose cone ([`crate::symbolic::cone`])
//! leaves state variables out is decided on the model restricted to it ([`Reduced`]); specs with
//! the same cone share one restricted model and one set of labels (the fair states are computed
//! once per cone). The cone keeps every verdict of the whole model (the argument is in
//! `symbolic::cone`), so only verdicts come from here: a trace (a counterexample, or a witness
//! when asked for) is still built on the whole model by the caller, so that it shows every
//! variable and is the trace the whole model's labels give, whether or not a cone decided.

use super::Labels;
use crate::check::flat::formula::{Arena, Lit};
use crate::symbolic::model::SymSpec;
use crate::symbolic::reduced::Reduced;
use crate::symbolic::{SymResult, SymbolicModel};
use oxidd::BooleanFunction;

/// Verdicts of the CTL specs decided on a cone.
pub(crate) struct ConeVerdicts {
    /// Per spec: the verdict if a cone decided it.
    pub verdicts: Vec<Option<bool>>,
    /// Distinct cones used.
    pub cones: usize,
    /// Whether some state, and some initial state, has a fair path (the same on every cone and on
    /// the whole model); `None` without cones.
    pub fairness: Option<(bool, bool)>,
}

impl ConeVerdicts {
    /// No spec decided on a cone.
    pub fn none(specs: usize) -> ConeVerdicts {
        ConeVerdicts { verdicts: vec![None; specs], cones: 0, fairness: None }
    }
}

/// The CTL specs (`roots` in `arena`, one per spec) grouped by cone; each group whose cone is not
/// the whole model is decided on it.
pub(crate) fn verdicts(model: &SymbolicModel, arena: &Arena, specs: &[SymSpec], roots: &[Lit]) -> SymResult<ConeVerdicts> {
    let n = model.enc.num_vars();
    let mut groups: Vec<(Vec<bool>, Vec<usize>)> = vec![];
    for (i, spec) in specs.iter().enumerate() {
        if spec.invariant || spec.ltl.is_some() {
            continue;
        }
        let mut seeds = vec![false; n];
        spec.formula.map_atoms(&mut |&p| {
            for (s, &r) in seeds.iter_mut().zip(&model.atom_reads[p as usize]) {
                *s |= r;
            }
        });
        let cone = model.deps.cone(&seeds);
        if model.deps.is_whole(&cone) {
            continue;
        }
        match groups.iter_mut().find(|(c, _)| *c == cone) {
            Some((_, members)) => members.push(i),
            None => groups.push((cone, vec![i])),
        }
    }
    let mut out = ConeVerdicts { cones: groups.len(), ..ConeVerdicts::none(specs.len()) };
    for (cone, members) in &groups {
        let reduced = Reduced::of(model, cone)?;
        let group_roots: Vec<Lit> = members.iter().map(|&i| roots[i]).collect();
        let labels = Labels::new(model, arena, &reduced.trans, &reduced.reach, &group_roots, true)?;
        let fair_initial = reduced.init.and(&labels.fair)?;
        out.fairness.get_or_insert((labels.fair.satisfiable(), fair_initial.satisfiable()));
        for &i in members {
            let violating = fair_initial.and(&labels.lit(roots[i].negate())?)?;
            out.verdicts[i] = Some(!violating.satisfiable());
        }
    }
    Ok(out)
}
