//! Checks every spec of a built flat model ([`FlatModel`]) in file order: `SPEC`/`CTLSPEC` by
//! fair CTL labelling, `INVARSPEC` by reachability (fairness ignored, as in NuSMV).

use super::{CheckOptions, check_ctl, check_invariants};
use crate::ctl::Ctl;
use crate::explicit::build_flat::FlatModel;
use crate::explicit::kripke::PropId;
use crate::lowering::program::LoweredProgram;
use crate::report::trace::SpecOutcome;
use crate::syntax::ast::SpecKind;

pub struct FlatResults {
    /// One outcome per entry of `FlatModel::specs`, same order.
    pub outcomes: Vec<SpecOutcome>,
    /// No state is fair: NuSMV warns "Fair states set of the finite state machine is empty" and
    /// every CTL spec is vacuously true.
    pub fair_states_empty: bool,
    /// No initial state is fair (CTL specs vacuously true).
    pub no_fair_initial_state: bool,
    pub distinct_subformulas: usize,
}

pub fn check_flat_model(program: &LoweredProgram, model: &FlatModel, options: &CheckOptions) -> FlatResults {
    let is_invar = |i: usize| matches!(program.specs.get(model.specs[i].spec).map(|s| s.kind), Some(SpecKind::Invar));
    let (mut ctl_idx, mut inv_idx) = (Vec::new(), Vec::new());
    for i in 0..model.specs.len() {
        if is_invar(i) { inv_idx.push(i) } else { ctl_idx.push(i) }
    }
    let pick = |idx: &[usize]| -> Vec<Ctl<PropId>> { idx.iter().map(|&i| model.specs[i].formula.clone()).collect() };
    let ctl = check_ctl(&model.kripke, &pick(&ctl_idx), &model.fairness, options);
    let inv = check_invariants(&model.kripke, &pick(&inv_idx), options.traces);
    let mut outcomes: Vec<Option<SpecOutcome>> = vec![None; model.specs.len()];
    for (i, o) in ctl_idx.into_iter().zip(ctl.verdicts).chain(inv_idx.into_iter().zip(inv)) {
        outcomes[i] = Some(o);
    }
    FlatResults {
        outcomes: outcomes.into_iter().map(|o| o.expect("every spec is CTL or an invariant")).collect(),
        fair_states_empty: ctl.fair_states_empty,
        no_fair_initial_state: ctl.no_fair_initial_state,
        distinct_subformulas: ctl.distinct_subformulas,
    }
}
