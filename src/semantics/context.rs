//! Where an expression is written decides what it may contain: `next`, input variables, CTL
//! operators, `EXITED`. A [`Ctx`] carries those permissions through name resolution.

#[derive(Clone, Copy, Debug)]
pub(crate) struct Ctx {
    /// Shown in messages: "not allowed {where_}" (e.g. `in INIT`).
    pub where_: &'static str,
    pub next: bool,
    pub input: bool,
    pub ctl: bool,
    /// LTL operators (`LTLSPEC`).
    pub ltl: bool,
    pub exited: bool,
    /// Inside `next(...)`.
    pub in_next: bool,
    /// A specification: names of labels defined in other procedure modules are allowed.
    pub spec: bool,
    /// Inside `next(...)`, an input variable named directly reads the input of the step, as
    /// outside it (`INVARSPEC` of a flat model, as NuSMV 2.5.4 reads it; not through DEFINEs).
    pub next_input: bool,
}

const NONE: Ctx = Ctx { where_: "", next: false, input: false, ctl: false, ltl: false, exited: false, in_next: false, spec: false, next_input: false };

impl Ctx {
    pub(crate) const DEFINE: Ctx = Ctx { where_: "in a DEFINE", next: true, input: true, exited: true, ..NONE };
    pub(crate) const INIT: Ctx = Ctx { where_: "in INIT", ..NONE };
    pub(crate) const INVAR: Ctx = Ctx { where_: "in INVAR", ..NONE };
    pub(crate) const TRANS: Ctx = Ctx { where_: "in TRANS", next: true, input: true, exited: true, ..NONE };
    pub(crate) const INIT_RHS: Ctx = Ctx { where_: "in an `init()` assignment", ..NONE };
    pub(crate) const NEXT_RHS: Ctx = Ctx { where_: "in a `next()` assignment", next: true, input: true, exited: true, ..NONE };
    pub(crate) const INVAR_RHS: Ctx = Ctx { where_: "in an invariant assignment `x := e`", ..NONE };
    pub(crate) const TARGET: Ctx = Ctx { where_: "in an assignment target", input: true, ..NONE };
    pub(crate) const SPEC: Ctx = Ctx { where_: "in a CTL specification", ctl: true, spec: true, ..NONE };
    pub(crate) const LTLSPEC: Ctx = Ctx { where_: "in LTLSPEC", ltl: true, spec: true, ..NONE };
    /// `LTLSPEC` of a flat model: as in NuSMV 2.5.4, it may read input variables (directly or
    /// through DEFINEs), each the input of the step leaving the state (`lowering::invar_monitor`);
    /// `next()` stays forbidden (NuSMV 2.5.4: "unexpected 'next' operator").
    pub(crate) const LTLSPEC_FLAT: Ctx = Ctx { where_: "in LTLSPEC", ltl: true, spec: true, input: true, ..NONE };
    pub(crate) const INVARSPEC: Ctx = Ctx { where_: "in INVARSPEC", spec: true, ..NONE };
    /// `INVARSPEC` of a flat model: as in NuSMV 2.5.4, it may read input variables and `next()`
    /// (directly or through DEFINEs); it then constrains every transition from a reachable
    /// state (`lowering::invar_monitor`). `next(i)` of an input variable `i` is `i`, the input
    /// of that transition (NuSMV 2.5.4: `INVARSPEC next(i) = i` is true); through a DEFINE it
    /// stays an error (NuSMV: "\"next\" expression contains input variables").
    pub(crate) const INVARSPEC_FLAT: Ctx = Ctx { where_: "in INVARSPEC", spec: true, next: true, input: true, next_input: true, ..NONE };
    /// Input variables are allowed: see `CheckedSystem::step_inputs`.
    pub(crate) const FAIRNESS: Ctx = Ctx { where_: "in FAIRNESS", input: true, ..NONE };
    pub(crate) const CALL: Ctx = Ctx { where_: "in a CALL condition", ..NONE };
    pub(crate) const EXIT: Ctx = Ctx { where_: "in an EXIT condition", ..NONE };
}
