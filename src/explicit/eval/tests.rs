use super::*;
use crate::ir::{ExitNameId, SymId, VarKind};
use crate::lowering::program::Domain;

fn vars() -> Vec<Variable> {
    let var = |name: &str, domain| Variable { name: name.into(), domain, kind: VarKind::State, span: Span::default() };
    vec![
        var("b", Domain::Boolean),
        var("n", Domain::Range { lo: -3, hi: 7 }),
        var("s", Domain::Enum(vec![Value::Sym(SymId::new(0)), Value::Sym(SymId::new(1)), Value::Int(5)])),
    ]
}

fn int(i: i64) -> Expr {
    Expr::Const(Value::Int(i))
}
fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    Expr::Binary(op, Box::new(a), Box::new(b))
}
fn set(items: Vec<Expr>) -> Expr {
    Expr::Set(items)
}

fn eval_value(e: &Expr, cur: &[u32]) -> Result<Value, EvalError> {
    let vars = vars();
    Evaluator::new(&vars).value(e, &Env::state(cur))
}

fn eval_values(e: &Expr, cur: &[u32]) -> Result<Vec<Value>, EvalError> {
    let vars = vars();
    let mut out = vec![];
    Evaluator::new(&vars).values(e, &Env::state(cur), &mut out).map(|_| out)
}

#[test]
fn division_truncates_toward_zero_and_mod_is_c_remainder() {
    let st = [0, 0, 0];
    assert_eq!(eval_value(&bin(BinOp::Div, int(-7), int(2)), &st), Ok(Value::Int(-3)));
    assert_eq!(eval_value(&bin(BinOp::Div, int(7), int(-2)), &st), Ok(Value::Int(-3)));
    assert_eq!(eval_value(&bin(BinOp::Mod, int(-7), int(5)), &st), Ok(Value::Int(-2)));
    assert_eq!(eval_value(&bin(BinOp::Mod, int(7), int(-5)), &st), Ok(Value::Int(2)));
    assert_eq!(eval_value(&bin(BinOp::Mod, int(7), int(0)), &st), Err(EvalError::DivisionByZero));
    assert_eq!(eval_value(&bin(BinOp::Div, int(1), int(0)), &st), Err(EvalError::DivisionByZero));
    assert_eq!(eval_value(&bin(BinOp::Mul, int(i64::MAX), int(2)), &st), Err(EvalError::Overflow));
}

#[test]
fn variables_read_their_domain_values() {
    // b = TRUE, n = -3 + 4 = 1, s = 5
    let st = [1, 4, 2];
    assert_eq!(eval_value(&Expr::Var(VarId::new(0)), &st), Ok(Value::Bool(true)));
    assert_eq!(eval_value(&Expr::Var(VarId::new(1)), &st), Ok(Value::Int(1)));
    assert_eq!(eval_value(&Expr::Var(VarId::new(2)), &st), Ok(Value::Int(5)));
    assert_eq!(eval_value(&Expr::Var(VarId::new(2)), &[1, 4, EXIT_INDEX]), Ok(Value::Exit));
    assert_eq!(eval_value(&Expr::Var(VarId::new(2)), &[1, 4, UNSET]), Err(EvalError::Unset(VarId::new(2))));
    assert_eq!(eval_value(&Expr::Next(VarId::new(2)), &st), Err(EvalError::NextUnavailable(VarId::new(2))));
    let vars = vars();
    let env = Env { cur: &st, next: Some(&[0, 0, 1]), exited: Some(ExitNameId::from_u32(3)) };
    let mut ev = Evaluator::new(&vars);
    assert_eq!(ev.value(&Expr::Next(VarId::new(2)), &env), Ok(Value::Sym(SymId::new(1))));
    assert_eq!(ev.value(&Expr::Exited, &env), Ok(Value::ExitName(ExitNameId::from_u32(3))));
    assert_eq!(eval_value(&Expr::Exited, &st), Err(EvalError::ExitedUnavailable));
}

#[test]
fn sets_union_range_and_membership() {
    let st = [0, 3, 0]; // n = 0
    let s = set(vec![int(3), Expr::Var(VarId::new(1)), set(vec![int(1), int(3)])]);
    assert_eq!(eval_values(&s, &st), Ok(vec![Value::Int(0), Value::Int(1), Value::Int(3)]));
    assert_eq!(eval_value(&s, &st), Err(EvalError::SetWhereValueNeeded));
    let r = Expr::Range(Box::new(int(2)), Box::new(int(4)));
    assert_eq!(eval_values(&r, &st), Ok(vec![Value::Int(2), Value::Int(3), Value::Int(4)]));
    assert_eq!(eval_value(&bin(BinOp::In, Expr::Var(VarId::new(1)), r.clone()), &st), Ok(Value::Bool(false)));
    assert_eq!(eval_value(&bin(BinOp::In, int(3), r.clone()), &st), Ok(Value::Bool(true)));
    // subset semantics
    assert_eq!(eval_value(&bin(BinOp::In, set(vec![int(2), int(4)]), r.clone()), &st), Ok(Value::Bool(true)));
    assert_eq!(eval_value(&bin(BinOp::In, set(vec![int(2), int(5)]), r.clone()), &st), Ok(Value::Bool(false)));
    // element-wise arithmetic
    assert_eq!(eval_values(&bin(BinOp::Add, r, int(10)), &st), Ok(vec![Value::Int(12), Value::Int(13), Value::Int(14)]));
    // singleton set is a value
    assert_eq!(eval_value(&set(vec![int(4), int(4)]), &st), Ok(Value::Int(4)));
}

#[test]
fn case_first_match_and_non_exhaustive() {
    let span = Span::new(10, 20);
    let case = Expr::Case {
        branches: vec![
            (bin(BinOp::Gt, Expr::Var(VarId::new(1)), int(2)), int(100)),
            (bin(BinOp::Gt, Expr::Var(VarId::new(1)), int(0)), set(vec![int(1), int(2)])),
            (bin(BinOp::Gt, Expr::Var(VarId::new(1)), int(-1)), int(0)),
        ],
        span,
    };
    assert_eq!(eval_value(&case, &[0, 7, 0]), Ok(Value::Int(100))); // n = 4
    assert_eq!(eval_values(&case, &[0, 5, 0]), Ok(vec![Value::Int(1), Value::Int(2)])); // n = 2
    assert_eq!(eval_value(&case, &[0, 3, 0]), Ok(Value::Int(0))); // n = 0
    assert_eq!(eval_value(&case, &[0, 0, 0]), Err(EvalError::NonExhaustiveCase { span }));
}

#[test]
fn table_lookup_with_fallback_and_exit() {
    let span = Span::new(1, 2);
    let table = Expr::Table { var: VarId::new(2), entries: vec![Some(int(10)), None, Some(int(12))], fallback: None, span };
    assert_eq!(eval_value(&table, &[0, 0, 0]), Ok(Value::Int(10)));
    assert_eq!(eval_value(&table, &[0, 0, 2]), Ok(Value::Int(12)));
    assert_eq!(eval_value(&table, &[0, 0, 1]), Err(EvalError::NonExhaustiveCase { span }));
    assert_eq!(eval_value(&table, &[0, 0, EXIT_INDEX]), Err(EvalError::NonExhaustiveCase { span }));
    let with_fallback = Expr::Table { var: VarId::new(2), entries: vec![Some(int(10))], fallback: Some(Box::new(int(-1))), span };
    assert_eq!(eval_value(&with_fallback, &[0, 0, 1]), Ok(Value::Int(-1)));
    assert_eq!(eval_value(&with_fallback, &[0, 0, EXIT_INDEX]), Ok(Value::Int(-1)));
}

#[test]
fn connectives_short_circuit_and_builtins() {
    let st = [1, 3, 0];
    // FALSE & <error> is FALSE; TRUE | <error> is TRUE.
    let err = bin(BinOp::Eq, Expr::Exited, Expr::Const(Value::ExitName(ExitNameId::EXIT)));
    let f = Expr::Const(Value::Bool(false));
    let t = Expr::Const(Value::Bool(true));
    assert_eq!(eval_value(&bin(BinOp::And, f.clone(), err.clone()), &st), Ok(Value::Bool(false)));
    assert_eq!(eval_value(&bin(BinOp::Or, t.clone(), err.clone()), &st), Ok(Value::Bool(true)));
    assert_eq!(eval_value(&bin(BinOp::Implies, f.clone(), err.clone()), &st), Ok(Value::Bool(true)));
    assert_eq!(eval_value(&bin(BinOp::And, t.clone(), err), &st), Err(EvalError::ExitedUnavailable));
    assert_eq!(eval_value(&bin(BinOp::Xor, t.clone(), f.clone()), &st), Ok(Value::Bool(true)));
    assert_eq!(eval_value(&bin(BinOp::Iff, t.clone(), f.clone()), &st), Ok(Value::Bool(false)));
    let abs = Expr::Builtin(Builtin::Abs, vec![int(-4)]);
    assert_eq!(eval_value(&abs, &st), Ok(Value::Int(4)));
    let count = Expr::Builtin(Builtin::Count, vec![t.clone(), f, Expr::Var(VarId::new(0))]);
    assert_eq!(eval_value(&count, &st), Ok(Value::Int(2)));
    assert_eq!(eval_value(&Expr::Builtin(Builtin::ToInt, vec![t]), &st), Ok(Value::Int(1)));
    assert_eq!(eval_value(&Expr::Builtin(Builtin::Max, vec![int(2), int(9)]), &st), Ok(Value::Int(9)));
    let ite = Expr::Ite(Box::new(Expr::Var(VarId::new(0))), Box::new(int(1)), Box::new(int(2)));
    assert_eq!(eval_value(&ite, &st), Ok(Value::Int(1)));
}

#[test]
fn evaluator_stack_is_empty_after_errors() {
    let vars = vars();
    let mut ev = Evaluator::new(&vars);
    let e = set(vec![int(1), bin(BinOp::Div, int(1), int(0))]);
    let mut out = vec![];
    assert_eq!(ev.values(&e, &Env::state(&[0, 0, 0]), &mut out), Err(EvalError::DivisionByZero));
    assert!(ev.stack.is_empty());
}
