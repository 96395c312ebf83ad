//! Hand-built `LoweredProgram`s for unit tests of the builders (the front end is tested
//! separately; these keep the builders' tests independent of it).

use crate::ctl::Ctl;
use crate::ir::{SpecKind, TerminationRule, VarKind};
use crate::lowering::program::*;
use crate::source::Span;

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
        define_scopes: vec![],
        define_labels: vec![],
        fairness: vec![],
        step_inputs: vec![],
        calls: vec![],
        exits: vec![],
        uses_exit_value: false,
        spans: SystemSpans::default(),
    }
}

pub fn program(systems: Vec<System>, symbols: &[&str]) -> LoweredProgram {
    let flat = systems.iter().position(|s| !s.is_procedure).map(SystemId::new);
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

pub fn spec(system: u32, formula: Ctl<SpecAtom>, text: &str) -> LoweredSpec {
    LoweredSpec {
        kind: SpecKind::Ctl,
        name: None,
        system: SystemId::from_u32(system),
        formula,
        ltl: None,
        compute: None,
        text: text.into(),
        span: Span::default(),
    }
}

pub fn int(i: i64) -> Expr {
    Expr::Const(Value::Int(i))
}
pub fn sym(s: u32) -> Expr {
    Expr::Const(Value::Sym(SymId::from_u32(s)))
}
pub fn boolean(b: bool) -> Expr {
    Expr::Const(Value::Bool(b))
}
pub fn var(v: u32) -> Expr {
    Expr::Var(VarId::from_u32(v))
}
pub fn next(v: u32) -> Expr {
    Expr::Next(VarId::from_u32(v))
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
    Domain::Enum((0..n).map(|i| Value::Sym(SymId::from_u32(i))).collect())
}

/// Thesis Listing 5.1 (digest §7.11): 12 reachable states, 16 transitions.
pub fn listing_5_1() -> LoweredProgram {
    // counter : 0..6; state : {s1, s2, s3}; ready : boolean
    let mut m = system("main", &[("counter", Domain::Range { lo: 0, hi: 6 }), ("state", syms(3)), ("ready", Domain::Boolean)]);
    let (counter, state, ready) = (0, 1, 2);
    m.init_assign[state] = Some(sym(0));
    m.init_assign[counter] = Some(int(0));
    m.init_assign[ready] = Some(boolean(false));
    let inner = case(
        vec![(eq(var(1), sym(0)), set(vec![sym(1), sym(2)])), (eq(var(1), sym(1)), set(vec![sym(1)])), (eq(var(1), sym(2)), set(vec![sym(2), sym(0)]))],
        Span::new(100, 110),
    );
    m.next_assign[state] = Some(case(vec![(eq(var(0), int(2)), set(vec![sym(0)])), (boolean(true), inner)], Span::new(90, 120)));
    m.next_assign[counter] = Some(bin(BinOp::Mod, bin(BinOp::Add, var(0), int(1)), int(3)));
    m.next_assign[ready] = Some(case(vec![(eq(var(0), int(2)), not(var(2))), (boolean(true), var(2))], Span::new(130, 140)));
    let mut p = program(vec![m], &["s1", "s2", "s3"]);
    let in_state2 = bin(BinOp::In, var(1), set(vec![sym(1)]));
    let cr_reset = eq(var(0), int(0));
    let ag = Ctl::AG(Box::new(Ctl::Implies(Box::new(Ctl::Atom(SpecAtom::State(in_state2.clone()))), Box::new(Ctl::Atom(SpecAtom::State(cr_reset.clone()))))));
    let eu = Ctl::EU(Box::new(Ctl::Atom(SpecAtom::State(in_state2))), Box::new(Ctl::Atom(SpecAtom::State(cr_reset))));
    p.specs = vec![spec(0, ag, "AG (in_state2 -> cr_reset)"), spec(0, eu, "E [ in_state2 U cr_reset ]")];
    p
}

pub fn procedure(name: &str, vars: &[(&str, Domain)]) -> System {
    let mut s = system(name, vars);
    s.is_procedure = true;
    s
}

/// Thesis Listing 5.2 (digest §7.12) with labels p, q, x, y. `q` holds at the call `b2`, which
/// the thesis' listing does: a warning. No exit is ever reached (every path of each module calls
/// the other), so only the entry-side locations exist.
pub fn listing_5_2() -> LoweredProgram {
    // symbols: f1 f2 b1 b2 b3 b4 b5 = 0..6
    let mut foo = procedure("foo", &[("state", Domain::Enum(vec![Value::Sym(SymId::new(0)), Value::Sym(SymId::new(1))]))]);
    foo.uses_exit_value = true;
    foo.init_assign[0] = Some(sym(0));
    foo.next_assign[0] = Some(case(vec![(eq(var(0), sym(0)), sym(1)), (eq(var(0), sym(1)), Expr::Const(Value::Exit))], Span::new(5, 6)));
    foo.calls = vec![CallEntry { target: SystemId::new(1), condition: bin(BinOp::In, var(0), set(vec![sym(1)])), span: Span::new(30, 31) }];
    let define = |name: &str, expr: Expr| NamedExpr { name: name.into(), expr, span: Span::new(40, 41) };
    foo.defines = vec![define("p", bin(BinOp::In, var(0), set(vec![Expr::Const(Value::Exit)]))), define("q", bin(BinOp::In, var(0), set(vec![sym(0)])))];
    foo.define_labels = vec![Some(LabelId::new(0)), Some(LabelId::new(1))];
    let mut bar = procedure("bar", &[("state", Domain::Enum((2..7).map(|i| Value::Sym(SymId::new(i))).collect()))]);
    bar.uses_exit_value = true;
    bar.init_assign[0] = Some(sym(2));
    let exit = Expr::Const(Value::Exit);
    bar.next_assign[0] = Some(case(
        vec![
            (eq(var(0), sym(2)), set(vec![sym(3), sym(5)])),
            (eq(var(0), sym(3)), sym(4)),
            (eq(var(0), sym(4)), exit.clone()),
            (eq(var(0), sym(5)), sym(6)),
            (eq(var(0), sym(6)), exit.clone()),
        ],
        Span::new(7, 8),
    ));
    bar.calls = vec![CallEntry { target: SystemId::new(0), condition: bin(BinOp::In, var(0), set(vec![sym(3), sym(5)])), span: Span::new(50, 51) }];
    bar.defines = vec![
        define("q", bin(BinOp::In, var(0), set(vec![sym(2), sym(3), exit.clone()]))),
        define("x", bin(BinOp::In, var(0), set(vec![exit]))),
        define("y", bin(BinOp::In, var(0), set(vec![sym(2)]))),
    ];
    bar.define_labels = vec![Some(LabelId::new(1)), Some(LabelId::new(2)), Some(LabelId::new(3))];
    let mut p = program(vec![foo, bar], &["f1", "f2", "b1", "b2", "b3", "b4", "b5"]);
    p.labels = vec!["p".into(), "q".into(), "x".into(), "y".into()];
    p.specs = vec![
        spec(0, Ctl::EF(Box::new(Ctl::Atom(SpecAtom::Label(LabelId::new(0))))), "EF p"),
        spec(1, Ctl::Atom(SpecAtom::State(eq(var(0), sym(2)))), "state = b1"),
    ];
    p
}

/// Node `i` of an RKS component.
pub fn nd(i: u32) -> crate::explicit::rks::NodeId {
    crate::explicit::rks::NodeId::from_u32(i)
}

/// Nodes `is` of an RKS component.
pub fn nds(is: &[u32]) -> Vec<crate::explicit::rks::NodeId> {
    is.iter().map(|&i| nd(i)).collect()
}

/// A Kripke structure over states `0..n` with `edges`, initial state 0 and no propositions (for
/// the checkers' unit tests).
#[cfg(test)]
pub(crate) fn kripke(n: u32, edges: &[(u32, u32)]) -> crate::explicit::kripke::KripkeStructure {
    use crate::explicit::kripke::{KripkeStructure, StateId};
    let edges: Vec<(StateId, StateId)> = edges.iter().map(|&(s, t)| (StateId::from_u32(s), StateId::from_u32(t))).collect();
    KripkeStructure {
        num_states: n,
        initial: vec![StateId::new(0)],
        succ: crate::explicit::csr::Csr::from_edges(n as usize, &edges),
        pred: Default::default(),
        props: vec![],
        prop_names: vec![],
        values: Default::default(),
        num_vars: 0,
    }
}
