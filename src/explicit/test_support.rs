//! Hand-built `LoweredProgram`s for unit tests of the builders (the front end is tested
//! separately; these keep the builders' tests independent of it).

use crate::ctl::Ctl;
use crate::lowering::program::*;
use crate::source::Span;
use crate::syntax::ast::{SpecKind, TerminationRule, VarKind};

pub fn system(name: &str, vars: &[(&str, Domain)]) -> System {
    let n = vars.len();
    System {
        name: name.into(),
        span: Span::new(0, 6),
        is_procedure: false,
        vars: vars.iter().map(|(v, d)| Variable { name: v.to_string(), domain: d.clone(), kind: VarKind::State, span: Span::default() }).collect(),
        init_assign: vec![None; n],
        next_assign: vec![None; n],
        invar_assign: vec![None; n],
        init: vec![],
        trans: vec![],
        invar: vec![],
        defines: vec![],
        define_labels: vec![],
        fairness: vec![],
        calls: vec![],
        exits: vec![],
        uses_exit_value: false,
        spans: SystemSpans::default(),
    }
}

pub fn program(systems: Vec<System>, symbols: &[&str]) -> LoweredProgram {
    let flat = systems.iter().position(|s| !s.is_procedure).map(|i| i as SystemId);
    LoweredProgram {
        systems,
        flat,
        symbols: symbols.iter().map(|s| s.to_string()).collect(),
        labels: vec![],
        exit_names: vec!["EXIT".into()],
        specs: vec![],
        termination: TerminationRule::Trap,
    }
}

pub fn spec(system: SystemId, formula: Ctl<SpecAtom>, text: &str) -> LoweredSpec {
    LoweredSpec { kind: SpecKind::Ctl, name: None, system, formula, text: text.into(), span: Span::default() }
}

pub fn int(i: i64) -> Expr {
    Expr::Const(Value::Int(i))
}
pub fn sym(s: SymId) -> Expr {
    Expr::Const(Value::Sym(s))
}
pub fn boolean(b: bool) -> Expr {
    Expr::Const(Value::Bool(b))
}
pub fn var(v: VarId) -> Expr {
    Expr::Var(v)
}
pub fn next(v: VarId) -> Expr {
    Expr::Next(v)
}
pub fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    Expr::Binary(op, Box::new(a), Box::new(b))
}
pub fn eq(a: Expr, b: Expr) -> Expr {
    bin(BinOp::Eq, a, b)
}
pub fn not(a: Expr) -> Expr {
    Expr::Unary(UnOp::Not, Box::new(a))
}
pub fn set(items: Vec<Expr>) -> Expr {
    Expr::Set(items)
}
pub fn case(branches: Vec<(Expr, Expr)>, span: Span) -> Expr {
    Expr::Case { branches, span }
}
pub fn syms(n: u32) -> Domain {
    Domain::Enum((0..n).map(Value::Sym).collect())
}
