//! `LoweredProgram`: the front end's output and the state-space builder's input.
//!
//! Everything here is resolved, typed, flattened and simplified: names are dense ids, module
//! instances and processes are flattened into one [`System`] per state machine, DEFINEs are
//! expanded, constants are folded, and `case` chains over one variable are lookup tables. A
//! [`System`] is either the flat model (NuSMV semantics) or one procedure module (a sub-structure
//! of a recursive Kripke structure). Values of a variable are encoded as the index of the value in
//! its [`Domain`]; procedure variables additionally have [`Value::Exit`].

use crate::ctl::Ctl;
use crate::ir::{SpecKind, TerminationRule};
use crate::source::Span;

pub use crate::ir::{BinOp, Builtin, Domain, ExitNameId, LabelId, MAX_TABLE_DOMAIN, SymId, SystemId, SystemSpans, UnOp, Value, VarId, Variable, WideValues};

#[derive(Clone, Debug)]
pub struct LoweredProgram {
    /// All state machines: the flat model (if any) and every procedure module.
    pub systems: Vec<System>,
    /// The flat model checked with NuSMV semantics (`main`, or the only module of the file).
    pub flat: Option<SystemId>,
    /// Names of symbolic constants, indexed by [`SymId`].
    pub symbols: Vec<String>,
    /// Global atomic propositions of procedure modules (DEFINE names), indexed by [`LabelId`].
    pub labels: Vec<String>,
    /// Names of exits (`EXIT` is always id 0), indexed by [`ExitNameId`].
    pub exit_names: Vec<String>,
    /// Checkable specifications in file order.
    pub specs: Vec<LoweredSpec>,
    /// Termination rule for procedure specs (file directive, overridable on the command line).
    pub termination: TerminationRule,
}

#[derive(Clone, Debug)]
pub struct System {
    /// Module name (`main` for the flat model).
    pub name: String,
    /// The `MODULE` header.
    pub span: Span,
    pub is_procedure: bool,
    /// Flattened variables (`proc1.state`, `a[2]`), including the `_process_selector_` input
    /// variable and `running` defines when the model has processes.
    pub vars: Vec<Variable>,
    /// Indexed by [`VarId`]: `init(x) := e` (set-valued: the allowed initial values).
    pub init_assign: Vec<Option<Expr>>,
    /// Indexed by [`VarId`]: `next(x) := e` (set-valued; may read `Next(y)` of other variables).
    pub next_assign: Vec<Option<Expr>>,
    /// Indexed by [`VarId`]: `x := e` (x is a function of the current state).
    pub invar_assign: Vec<Option<Expr>>,
    /// `INIT` constraints (conjoined).
    pub init: Vec<Expr>,
    /// `TRANS` constraints over current and next values (conjoined).
    pub trans: Vec<Expr>,
    /// `INVAR` constraints (conjoined).
    pub invar: Vec<Expr>,
    /// DEFINEs in source order with qualified names, fully expanded: printed in traces, and (for
    /// procedure modules) the labels of locations.
    pub defines: Vec<NamedExpr>,
    /// Per DEFINE, the module instance whose declaration it is (an index, equal for one
    /// instance; empty: unknown, then the instance its name is in). NuSMV groups a trace's
    /// DEFINEs by it: `left.ack := …` written in instance `e2` is printed with `e2`'s.
    pub define_scopes: Vec<u32>,
    /// Procedure modules: which global label each DEFINE is (`None` for non-boolean DEFINEs).
    pub define_labels: Vec<Option<LabelId>>,
    /// `FAIRNESS`/`JUSTICE` constraints: boolean state predicates.
    pub fairness: Vec<Expr>,
    /// Indexed by [`VarId`] (empty: none): a state variable that records the input of the step
    /// that led to the state (an input read by a FAIRNESS constraint, or `_process_selector_`
    /// when one reads `running`; `CheckedSystem::step_inputs`). NuSMV counts states without
    /// them ([`System::counts_in_state`]).
    pub step_inputs: Vec<bool>,
    /// `CALL target := condition;`
    pub calls: Vec<CallEntry>,
    /// Named exits: `EXIT name := condition;`. The implicit all-`EXIT` exit is not listed here.
    pub exits: Vec<ExitEntry>,
    /// Whether the module mentions the `EXIT` value (then the all-`EXIT` location is an exit).
    pub uses_exit_value: bool,
    /// Source locations of the assignments and constraints above (for the state-space builder's
    /// diagnostics). May be left empty (`SystemSpans::default()`): diagnostics then fall back to
    /// the variable's declaration or the `MODULE` header.
    pub spans: SystemSpans,
}

/// Monitor names start with this; `%` cannot occur in an SMV identifier.
pub const MONITOR_PREFIX: &str = "%invarspec-monitor-";

/// Whether `var` is an invariant monitor added by [`crate::lowering::invar_monitor`] (hidden
/// from traces).
pub fn is_monitor(var: &Variable) -> bool {
    var.name.starts_with(MONITOR_PREFIX)
}

impl System {
    /// Whether variable `v` is part of the state as NuSMV counts states (`-r`): not an input,
    /// not a [recorded step input](System::step_inputs), not an invariant monitor
    /// ([`crate::lowering::invar_monitor`]).
    pub(crate) fn counts_in_state(&self, v: VarId) -> bool {
        let var = &self.vars[v.index()];
        var.kind != crate::ir::VarKind::Input && self.step_inputs.get(v.index()) != Some(&true) && !is_monitor(var)
    }

    /// The state variables left out of NuSMV's count ([`System::counts_in_state`]): recorded
    /// step inputs and monitors.
    pub(crate) fn uncounted_state_vars(&self) -> impl Iterator<Item = VarId> + '_ {
        (0..self.vars.len()).map(VarId::new).filter(|&v| self.vars[v.index()].kind != crate::ir::VarKind::Input && !self.counts_in_state(v))
    }

    /// Whether some state variable is left out of NuSMV's count.
    pub(crate) fn has_uncounted_state(&self) -> bool {
        self.uncounted_state_vars().next().is_some()
    }
}

#[derive(Clone, Debug)]
pub struct NamedExpr {
    pub name: String,
    pub expr: Expr,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct CallEntry {
    pub target: SystemId,
    pub condition: Expr,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct ExitEntry {
    pub name: ExitNameId,
    pub condition: Expr,
    pub span: Span,
}

/// A lowered expression. Evaluates to one value or (for `Set`, set-valued `Table`/`Case`
/// branches, `Range`) a set of values, which in `init`/`next` means nondeterministic choice.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Const(Value),
    /// Current value of a variable.
    Var(VarId),
    /// Next-state value of a variable (in `TRANS` and in `next(x) :=` right-hand sides).
    Next(VarId),
    /// At a call state: the name of the exit through which the callee returned.
    Exited,
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `c ? a : b`
    Ite(Box<Expr>, Box<Expr>, Box<Expr>),
    /// First branch whose condition holds; no branch holding is a model-construction error
    /// pointing at `span`.
    Case {
        branches: Vec<(Expr, Expr)>,
        span: Span,
    },
    /// A `case` over one variable compiled to a table indexed by the variable's value index
    /// (`Value::Exit` has no entry). `None` entries fall through to `fallback`; a missing
    /// fallback is a non-exhaustive `case` at `span`.
    Table {
        var: VarId,
        entries: Vec<Option<Expr>>,
        fallback: Option<Box<Expr>>,
        span: Span,
    },
    /// `{e1, e2, …}` and `a union b`
    Set(Vec<Expr>),
    /// `lo .. hi` as a set of integers
    Range(Box<Expr>, Box<Expr>),
    /// `abs`, `min`, `max`, `toint`, `bool`, `count`
    Builtin(Builtin, Vec<Expr>),
    /// A large DEFINE body, shared by all its uses instead of copied into each (see
    /// `lowering::expr::SHARE_MIN_NODES`): evaluates as the expression it holds.
    Shared(std::sync::Arc<Expr>),
}

impl Expr {
    /// The expression with the [`Expr::Shared`] wrappers of large DEFINE bodies taken off, for
    /// matching its structure (a label `p := state in {s1, …, s200}` is shared by its uses).
    pub(crate) fn unshared(&self) -> &Expr {
        let mut e = self;
        while let Expr::Shared(inner) = e {
            e = inner;
        }
        e
    }

    /// Whether the expression reads `next()` anywhere.
    pub(crate) fn reads_next(&self) -> bool {
        self.any(|e| matches!(e, Expr::Next(_)))
    }

    /// Whether `holds` is true of this expression or any subexpression (shared bodies included;
    /// iterative: the expression may be deep).
    pub(crate) fn any(&self, holds: impl Fn(&Expr) -> bool) -> bool {
        let mut stack = vec![self];
        while let Some(e) = stack.pop() {
            if holds(e) {
                return true;
            }
            e.push_children(&mut stack);
        }
        false
    }

    /// Pushes the direct subexpressions onto `out` (operands left to right, `case` condition
    /// before value, table entries then fallback, a shared body as itself): the one list of
    /// children that the iterative walkers of later stages pop from.
    pub(crate) fn push_children<'a>(&'a self, out: &mut Vec<&'a Expr>) {
        match self {
            Expr::Const(_) | Expr::Var(_) | Expr::Next(_) | Expr::Exited => {}
            Expr::Unary(_, a) => out.push(a),
            Expr::Binary(_, a, b) | Expr::Range(a, b) => out.extend([&**a, &**b]),
            Expr::Ite(c, a, b) => out.extend([&**c, &**a, &**b]),
            Expr::Case { branches, .. } => out.extend(branches.iter().flat_map(|(c, v)| [c, v])),
            Expr::Table { entries, fallback, .. } => {
                out.extend(entries.iter().flatten());
                out.extend(fallback.as_deref());
            }
            Expr::Set(items) | Expr::Builtin(_, items) => out.extend(items.iter()),
            Expr::Shared(inner) => out.push(inner),
        }
    }

    /// True if the expression reads (the current or next value of) a variable satisfying `pred`.
    pub(crate) fn reads_var(&self, pred: &dyn Fn(VarId) -> bool) -> bool {
        match self {
            Expr::Const(_) | Expr::Exited => false,
            Expr::Var(v) | Expr::Next(v) => pred(*v),
            Expr::Unary(_, a) => a.reads_var(pred),
            Expr::Binary(_, a, b) | Expr::Range(a, b) => a.reads_var(pred) || b.reads_var(pred),
            Expr::Ite(c, a, b) => c.reads_var(pred) || a.reads_var(pred) || b.reads_var(pred),
            Expr::Case { branches, .. } => branches.iter().any(|(c, e)| c.reads_var(pred) || e.reads_var(pred)),
            Expr::Table { var, entries, fallback, .. } => {
                pred(*var) || entries.iter().flatten().any(|e| e.reads_var(pred)) || fallback.as_ref().is_some_and(|e| e.reads_var(pred))
            }
            Expr::Set(items) | Expr::Builtin(_, items) => items.iter().any(|e| e.reads_var(pred)),
            Expr::Shared(e) => e.reads_var(pred),
        }
    }
}

/// An atomic proposition of a specification.
#[derive(Clone, Debug, PartialEq)]
pub enum SpecAtom {
    /// A boolean state predicate of the spec's system (flat models; also procedure modules,
    /// where it is evaluated in the spec's module and is false in every other module).
    State(Expr),
    /// A global label of procedure modules (a DEFINE name shared across modules).
    Label(LabelId),
}

#[derive(Clone, Debug)]
pub struct LoweredSpec {
    /// `Ctl`, `Invar`, `Ltl` and (of flat models) `Compute` reach this stage; the others are warned about and dropped.
    pub kind: SpecKind,
    pub name: Option<String>,
    /// The system the spec belongs to: the flat model, or the initial procedure module.
    pub system: SystemId,
    /// For `Invar` specs: `AG atom` is stored as the atom only, in `formula` as `Ctl::Atom`.
    pub formula: Ctl<SpecAtom>,
    /// For `Ltl` specs: the formula (`formula` is then `Ctl::True`, unused).
    pub ltl: Option<crate::ltl::Ltl<SpecAtom>>,
    /// For `Compute` specs: `MIN`/`MAX` and its two CTL formulas (`formula` is then `Ctl::True`, unused).
    pub compute: Option<crate::ir::Compute<Ctl<SpecAtom>>>,
    /// The formula printed as NuSMV prints it (`AG (x = 1 -> AF y)`), for verdict lines.
    pub text: String,
    pub span: Span,
}
