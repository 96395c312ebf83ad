//! `CheckedProgram`: the output of name resolution and typing, the input of lowering.
//!
//! Names are resolved to dense ids, module instances and processes are flattened into one
//! [`CheckedSystem`] per state machine (the flat model and each procedure module), every
//! expression is typed ([`TExpr`]), DEFINE references are kept as [`TKind::Define`] (acyclic:
//! cycles were rejected) so lowering can expand them once and specifications can recognise
//! labels. Nothing here is simplified yet; that is lowering's job.

use crate::ir::id::IdVec;
use crate::ir::{BinOp, Builtin, LabelId, SystemId, SystemSpans, UnOp, Value, VarId, Variable};
use crate::semantics::types::Ty;
use crate::source::Span;
use crate::syntax::ast::{CtlOp, SpecKind, TerminationRule, TimeBound};

crate::index_type! {
    /// A DEFINE of one system, in declaration order (index into [`CheckedSystem::defines`] and
    /// the flattening's DEFINE slots).
    pub struct DefineId;
}

#[derive(Clone, Debug)]
pub struct CheckedProgram {
    pub systems: Vec<CheckedSystem>,
    pub flat: Option<SystemId>,
    /// Symbolic constants, indexed by `SymId`.
    pub symbols: Vec<String>,
    /// Global labels of procedure modules, indexed by `LabelId`.
    pub labels: Vec<String>,
    /// Exit names; id 0 is always `EXIT`.
    pub exit_names: Vec<String>,
    pub specs: Vec<CheckedSpec>,
    pub termination: TerminationRule,
}

#[derive(Clone, Debug)]
pub struct CheckedSystem {
    pub name: String,
    pub span: Span,
    pub is_procedure: bool,
    pub vars: Vec<Variable>,
    pub init_assign: Vec<Option<TExpr>>,
    pub next_assign: Vec<Option<TExpr>>,
    pub invar_assign: Vec<Option<TExpr>>,
    pub init: Vec<TExpr>,
    pub trans: Vec<TExpr>,
    pub invar: Vec<TExpr>,
    pub fairness: Vec<TExpr>,
    pub defines: IdVec<DefineId, CheckedDefine>,
    pub calls: Vec<CheckedCall>,
    pub exits: Vec<CheckedExit>,
    pub uses_exit_value: bool,
    /// Indexed by variable: an input variable read by a FAIRNESS constraint, made a state
    /// variable holding the input of the step that led to the state (as NuSMV's fairness sets
    /// over inputs mean), and `_process_selector_` when a FAIRNESS constraint reads `running`.
    /// `TRANS` and `next()` right-hand sides read it as `next(i)`.
    pub step_inputs: Vec<bool>,
    /// Whether some `INIT` constraint applies (then a procedure's entry is decided by the builder).
    pub has_init_constraints: bool,
    /// Statement spans, parallel to the assignment and constraint lists.
    pub spans: SystemSpans,
}

#[derive(Clone, Debug)]
pub struct CheckedDefine {
    /// Qualified name (`proc1.running`).
    pub name: String,
    pub expr: TExpr,
    pub span: Span,
    /// The module instance whose declaration this is (an index, equal for one instance):
    /// `left.ack := …` in instance `e2` is `e1.ack`, declared in `e2`.
    pub scope: u32,
    /// For top-level boolean DEFINEs of procedure modules: the global label.
    pub label: Option<LabelId>,
}

#[derive(Clone, Debug)]
pub struct CheckedCall {
    pub target: SystemId,
    pub condition: TExpr,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct CheckedExit {
    pub name: crate::ir::ExitNameId,
    pub condition: TExpr,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct CheckedSpec {
    pub kind: SpecKind,
    pub name: Option<String>,
    pub system: SystemId,
    /// The formula (`COMPUTE`: `TRUE`, unused).
    pub expr: TExpr,
    /// `COMPUTE`: its two formulas, resolved as CTL specs are.
    pub compute: Option<crate::ir::Compute<TExpr>>,
    /// The formula as NuSMV prints it, with ` IN inst` for specs of sub-module instances.
    pub text: String,
    pub span: Span,
    /// Checked as LTL: `LTLSPEC`, and a `PSLSPEC` in PSL's foundation language
    /// ([`crate::semantics::psl`]); other specs are CTL, invariants or COMPUTE by their kind.
    pub linear: bool,
}

/// A resolved, typed expression.
#[derive(Clone, Debug, PartialEq)]
pub struct TExpr {
    pub kind: TKind,
    pub ty: Ty,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TKind {
    Const(Value),
    Var(VarId),
    Define(DefineId),
    /// `next(e)`; `e` contains no further `next`.
    Next(Box<TExpr>),
    Exited,
    /// In a spec of a procedure module: a label defined only in other procedure modules (labels
    /// are global); it never holds in this module's own locations.
    ForeignLabel(String),
    Unary(UnOp, Box<TExpr>),
    Binary(BinOp, Box<TExpr>, Box<TExpr>),
    Ite(Box<TExpr>, Box<TExpr>, Box<TExpr>),
    Case(Vec<(TExpr, TExpr)>),
    /// `{a, b}` and `a union b`
    Set(Vec<TExpr>),
    Range(Box<TExpr>, Box<TExpr>),
    Builtin(Builtin, Vec<TExpr>),
    Ctl(CtlOp, Box<TExpr>),
    Until {
        universal: bool,
        lhs: Box<TExpr>,
        rhs: Box<TExpr>,
        /// RTCTL's `BU lo..hi`, checked by the resolver (`0 <= lo <= hi <= MAX_TIME_BOUND`).
        bound: Option<TimeBound>,
    },
    /// An LTL operator (in `LTLSPEC` only) and its one or two operands.
    Ltl(crate::ltl::LtlOp, Vec<TExpr>),
    /// Already reported; lowering never sees it (errors stop the pipeline before lowering).
    Error,
}

impl TExpr {
    pub(crate) fn new(kind: TKind, ty: Ty, span: Span) -> TExpr {
        TExpr { kind, ty, span }
    }
    pub(crate) fn error(span: Span) -> TExpr {
        TExpr { kind: TKind::Error, ty: Ty::Error, span }
    }
    /// Calls `f` on every direct subexpression.
    pub(crate) fn for_each_child<'s>(&'s self, mut f: impl FnMut(&'s TExpr)) {
        match &self.kind {
            TKind::Const(_) | TKind::Var(_) | TKind::Define(_) | TKind::Exited | TKind::ForeignLabel(_) | TKind::Error => {}
            TKind::Next(a) | TKind::Unary(_, a) | TKind::Ctl(_, a) => f(a),
            TKind::Binary(_, a, b) | TKind::Range(a, b) | TKind::Until { lhs: a, rhs: b, .. } => {
                f(a);
                f(b)
            }
            TKind::Ite(a, b, c) => {
                f(a);
                f(b);
                f(c)
            }
            TKind::Case(bs) => bs.iter().for_each(|(c, v)| {
                f(c);
                f(v)
            }),
            TKind::Set(xs) | TKind::Builtin(_, xs) | TKind::Ltl(_, xs) => xs.iter().for_each(f),
        }
    }
}
