//! What flattening produces for one system: the instance tree (each instance's members in
//! NuSMV's single namespace), the flattened variables with their types, the DEFINE slots and
//! arrays. Built by [`super::instances`]; read by constant evaluation ([`super::consteval`]),
//! path lookup ([`super::paths`]) and the resolver ([`super::resolve`]).

use crate::ir::id::IdVec;
use crate::ir::{BinOp, Domain, SymId, Value, VarId, Variable};
use crate::semantics::checked::{DefineId, TExpr, TKind};
use crate::semantics::modules::ModId;
use crate::semantics::types::Ty;
use crate::source::Span;
use crate::syntax::ast::Expr;
use rustc_hash::{FxHashMap, FxHashSet};
use std::borrow::Cow;

crate::index_type! {
    /// A module instance of one system's instance tree (index into [`Flattened::instances`]; the
    /// root is 0, parents come before their children).
    pub(crate) struct InstId;
}

impl InstId {
    /// The system's root instance (`main`, or the procedure module).
    pub(crate) const ROOT: InstId = InstId::from_u32(0);
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Member {
    Var(VarId),
    Define(DefineId),
    Instance(InstId),
    Array(u32),
    /// The i-th formal parameter: resolved as the actual in the parent instance.
    Param(usize),
    /// A declaration whose error was already reported.
    Broken,
}

pub(crate) struct Instance<'a> {
    pub module: ModId,
    /// `""` for the root, else the dotted instance path.
    pub path: String,
    pub parent: Option<InstId>,
    pub args: &'a [Expr],
    /// Keyed by the names as written (borrowed from the parse tree where possible).
    pub members: FxHashMap<Cow<'a, str>, (Member, Span)>,
    /// Process index: 0 = the root (`main`), k = the k-th process instance.
    pub process: u32,
}

pub(crate) enum DefBody<'a> {
    Ast(&'a Expr),
    /// `running` of process k: `_process_selector_ = <name of k>`.
    Running(u32),
}

pub(crate) struct DefineSlot<'a> {
    pub name: String,
    pub inst: InstId,
    pub body: DefBody<'a>,
    pub span: Span,
}

pub(crate) struct ArrayInfo {
    pub lo: i64,
    pub elems: Vec<Member>,
}

pub(crate) struct Flattened<'a> {
    pub instances: IdVec<InstId, Instance<'a>>,
    pub vars: Vec<Variable>,
    pub var_ty: Vec<Ty>,
    pub var_inst: Vec<InstId>,
    pub defines: IdVec<DefineId, DefineSlot<'a>>,
    pub arrays: Vec<ArrayInfo>,
    /// Process instances, index k-1 for process k (process 0 is the root).
    pub processes: Vec<InstId>,
    pub selector: Option<VarId>,
    /// The selector is a state variable (see the module comment).
    pub selector_in_state: bool,
    /// Symbolic constants visible in this system (enum values and CONSTANTS of its modules).
    pub symbols: FxHashMap<Cow<'a, str>, SymId>,
    /// Symbolic constants declared per module (for the variable/constant ambiguity check).
    pub module_symbols: FxHashMap<ModId, FxHashSet<&'a str>>,
    /// Some member is named by a path (`x[3]`, `a.b` where `a` is no instance): uses of dotted
    /// and indexed names look for it first (see [`super::paths`]).
    pub has_compound: bool,
}

impl<'a> Flattened<'a> {
    pub(crate) fn qualified(&self, inst: InstId, name: &str) -> String {
        let path = &self.instances[inst].path;
        if path.is_empty() { name.to_string() } else { format!("{path}.{name}") }
    }
    /// `_process_selector_ = <process k>`: process k is running (`None` without processes).
    pub(crate) fn running(&self, k: u32, span: Span) -> Option<TExpr> {
        let sel = self.selector?;
        let sym = self.symbols.get(self.process_name(k).as_str()).copied()?;
        let lhs = TExpr::new(TKind::Var(sel), Ty::Sym, span);
        let rhs = TExpr::new(TKind::Const(Value::Sym(sym)), Ty::Sym, span);
        Some(TExpr::new(TKind::Binary(BinOp::Eq, Box::new(lhs), Box::new(rhs)), Ty::Bool, span))
    }
    pub(crate) fn process_name(&self, k: u32) -> String {
        if k == 0 { "main".to_string() } else { self.instances[self.processes[k as usize - 1]].path.clone() }
    }
}

/// The type of a variable with this domain.
pub(crate) fn domain_type(d: &Domain) -> Ty {
    match d {
        Domain::Boolean => Ty::Bool,
        Domain::Range { .. } => Ty::Int,
        Domain::Word { width, signed, .. } => Ty::Word { width: *width, signed: *signed },
        Domain::Enum(vs) => {
            let ints = vs.iter().any(|v| matches!(v, Value::Int(_)));
            let syms = vs.iter().any(|v| matches!(v, Value::Sym(_)));
            match (ints, syms) {
                (true, true) => Ty::IntSym,
                (true, false) => Ty::Int,
                _ => Ty::Sym,
            }
        }
    }
}
