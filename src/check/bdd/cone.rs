//! CTL verdicts on cones of influence (and the cones of the LTL specs, [`ltl_cones`], which
//! `super::ltl` decides on): each CTL spec whose cone ([`crate::symbolic::cone`])
//! leaves state variables out is decided on the model restricted to it ([`Reduced`]); specs with
//! the same cone share one restricted model and one set of labels (the fair states are computed
//! once per cone). The cone keeps every verdict of the whole model (the argument is in
//! `symbolic::cone`), so only verdicts come from here: a trace (a counterexample, or a witness
//! when asked for) is still built on the whole model by the caller, so that it shows every
//! variable and is the trace the whole model's labels give, whether or not a cone decided.

use super::Labels;
use crate::check::flat::formula::{Arena, Lit};
use crate::ir::PropId;
use crate::symbolic::model::SymSpec;
use crate::symbolic::model::SymSpec as Spec;
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
    pub(super) fn none(specs: usize) -> ConeVerdicts {
        ConeVerdicts { verdicts: vec![None; specs], cones: 0, fairness: None }
    }
}

/// The cone of influence of a spec (the variables its atoms read, closed as `symbolic::cone`
/// says), or `None` when it is the whole model.
fn cone_of(model: &SymbolicModel, atoms: impl IntoIterator<Item = PropId>) -> Option<Vec<bool>> {
    let mut seeds = vec![false; model.enc.num_vars()];
    for p in atoms {
        for (s, &r) in seeds.iter_mut().zip(&model.atom_reads[p.index()]) {
            *s |= r;
        }
    }
    let cone = model.deps.cone(&seeds);
    (!model.deps.is_whole(&cone)).then_some(cone)
}

/// The cones of influence of the LTL specs that leave variables out: per spec, the index of its
/// cone in the returned models (specs with the same cone share one).
pub(crate) fn ltl_cones(model: &SymbolicModel, specs: &[Spec]) -> SymResult<(Vec<Option<usize>>, Vec<Reduced>)> {
    let mut cones: Vec<Vec<bool>> = vec![];
    let mut of_spec = vec![None; specs.len()];
    for (i, spec) in specs.iter().enumerate() {
        let Some(f) = &spec.ltl else { continue };
        let Some(cone) = cone_of(model, f.atoms().into_iter().copied()) else { continue };
        of_spec[i] = Some(cones.iter().position(|c| *c == cone).unwrap_or_else(|| {
            cones.push(cone);
            cones.len() - 1
        }));
    }
    let reduced = cones.iter().map(|c| Reduced::of(model, c)).collect::<SymResult<Vec<_>>>()?;
    Ok((of_spec, reduced))
}

/// The CTL specs (`roots` in `arena`, one per spec) grouped by cone; each group whose cone is not
/// the whole model is decided on it.
pub(crate) fn verdicts(model: &SymbolicModel, arena: &Arena, specs: &[SymSpec], roots: &[Lit]) -> SymResult<ConeVerdicts> {
    let mut groups: Vec<(Vec<bool>, Vec<usize>)> = vec![];
    for (i, spec) in specs.iter().enumerate() {
        if spec.invariant || spec.ltl.is_some() || spec.compute.is_some() {
            continue;
        }
        let mut atoms = vec![];
        spec.formula.map_atoms(&mut |&p| atoms.push(p));
        let Some(cone) = cone_of(model, atoms) else { continue };
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
