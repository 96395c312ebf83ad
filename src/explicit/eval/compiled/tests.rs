use super::*;
use crate::explicit::eval::{EXIT_INDEX, Env, Evaluator, UNSET};
use crate::ir::{SymId, VarKind};
use crate::source::Span;

fn vars() -> Vec<Variable> {
    let var = |name: &str, domain| Variable { name: name.into(), domain, kind: VarKind::State, span: Span::default() };
    vec![
        var("b", Domain::Boolean),
        var("n", Domain::Range { lo: -3, hi: 4 }),
        var("s", Domain::Enum(vec![Value::Sym(SymId::new(7)), Value::Sym(SymId::new(2)), Value::Sym(SymId::new(9))])),
        var("k", Domain::Enum(vec![Value::Int(0), Value::Int(5), Value::Int(-2)])),
        var("c", Domain::Boolean),
        // Mixed enumerations are left to the evaluator.
        var("m", Domain::Enum(vec![Value::Sym(SymId::new(7)), Value::Int(1)])),
    ]
}

fn bx(e: Expr) -> Box<Expr> {
    Box::new(e)
}

/// A small deterministic generator of random expressions (mostly well typed).
struct Gen(u64);

impl Gen {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }

    fn leaf(&mut self, want: Kind) -> Expr {
        let read = |g: &mut Gen, v: VarId| if g.next(3) == 0 { Expr::Next(v) } else { Expr::Var(v) };
        match want {
            Kind::Bool => match self.next(4) {
                0 => Expr::Const(Value::Bool(self.next(2) == 1)),
                1 => read(self, VarId::new(4)),
                _ => read(self, VarId::new(0)),
            },
            Kind::Int => match self.next(4) {
                0 => Expr::Const(Value::Int(self.next(9) as i64 - 4)),
                1 => read(self, VarId::new(3)),
                _ => read(self, VarId::new(1)),
            },
            Kind::Sym => match self.next(3) {
                0 => Expr::Const(Value::Sym(SymId::new([7, 2, 9, 4][self.next(4) as usize]))),
                _ => read(self, VarId::new(2)),
            },
        }
    }

    fn expr(&mut self, want: Kind, depth: u32) -> Expr {
        if depth == 0 || self.next(4) == 0 {
            return self.leaf(want);
        }
        let d = depth - 1;
        match want {
            Kind::Bool => match self.next(10) {
                0 => Expr::Unary(UnOp::Not, bx(self.expr(Kind::Bool, d))),
                1 => {
                    let op = [BinOp::And, BinOp::Or, BinOp::Implies, BinOp::Xor, BinOp::Iff][self.next(5) as usize];
                    Expr::Binary(op, bx(self.expr(Kind::Bool, d)), bx(self.expr(Kind::Bool, d)))
                }
                2 | 3 => {
                    let k = [Kind::Bool, Kind::Int, Kind::Sym][self.next(3) as usize];
                    let op = if self.next(2) == 0 { BinOp::Eq } else { BinOp::Ne };
                    Expr::Binary(op, bx(self.expr(k, d)), bx(self.expr(k, d)))
                }
                4 => {
                    let op = [BinOp::Lt, BinOp::Le, BinOp::Gt, BinOp::Ge][self.next(4) as usize];
                    Expr::Binary(op, bx(self.expr(Kind::Int, d)), bx(self.expr(Kind::Int, d)))
                }
                5 => {
                    let items = (0..self.next(4)).map(|_| Expr::Const(Value::Int(self.next(9) as i64 - 4))).collect();
                    Expr::Binary(BinOp::In, bx(self.expr(Kind::Int, d)), bx(Expr::Set(items)))
                }
                6 => Expr::Builtin(Builtin::Bool, vec![self.expr(Kind::Int, d)]),
                _ => self.choice(Kind::Bool, d),
            },
            Kind::Int => match self.next(8) {
                0 => Expr::Unary(UnOp::Neg, bx(self.expr(Kind::Int, d))),
                1 | 2 => {
                    let op = [BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Div, BinOp::Mod][self.next(5) as usize];
                    Expr::Binary(op, bx(self.expr(Kind::Int, d)), bx(self.expr(Kind::Int, d)))
                }
                3 => {
                    let f = [Builtin::Abs, Builtin::Min, Builtin::Max, Builtin::ToInt, Builtin::Count][self.next(5) as usize];
                    let args = match f {
                        Builtin::Abs => vec![self.expr(Kind::Int, d)],
                        Builtin::ToInt => vec![self.expr(Kind::Bool, d)],
                        Builtin::Count => (0..self.next(4)).map(|_| self.expr(Kind::Bool, d)).collect(),
                        _ => vec![self.expr(Kind::Int, d), self.expr(Kind::Int, d)],
                    };
                    Expr::Builtin(f, args)
                }
                _ => self.choice(Kind::Int, d),
            },
            Kind::Sym => self.choice(Kind::Sym, d),
        }
    }

    fn choice(&mut self, want: Kind, d: u32) -> Expr {
        match self.next(3) {
            0 => Expr::Ite(bx(self.expr(Kind::Bool, d)), bx(self.expr(want, d)), bx(self.expr(want, d))),
            1 => {
                let branches = (0..1 + self.next(3)).map(|_| (self.expr(Kind::Bool, d), self.expr(want, d))).collect();
                Expr::Case { branches, span: Span::default() }
            }
            _ => {
                let entries = (0..self.next(4)).map(|_| if self.next(3) == 0 { None } else { Some(self.expr(want, d)) }).collect();
                let fallback = (self.next(2) == 0).then(|| bx(self.expr(want, d)));
                Expr::Table { var: VarId::new(2), entries, fallback, span: Span::default() }
            }
        }
    }
}

/// Every vector over the variables' domains, plus some with unset or `EXIT` values.
fn vectors() -> Vec<Vec<u32>> {
    let lens = [2u32, 8, 3, 3, 2, 2];
    let mut out = vec![];
    let total: u32 = lens.iter().product();
    for mut k in 0..total {
        let mut v = vec![];
        for &l in &lens {
            v.push(k % l);
            k /= l;
        }
        out.push(v);
    }
    for special in [UNSET, EXIT_INDEX] {
        for i in 0..lens.len() {
            let mut v = vec![1, 3, 1, 2, 0, 1];
            v[i] = special;
            out.push(v);
        }
    }
    out
}

/// Whether every value index is within its variable's domain.
fn within(v: &[u32]) -> bool {
    v.iter().zip([2u32, 8, 3, 3, 2, 2]).all(|(&x, len)| x < len)
}

/// Compiled results equal the evaluator's wherever the program gives one; the program gives
/// one whenever the evaluator succeeds without reading an invalid value.
#[test]
fn random_expressions_agree_with_the_evaluator() {
    let vars = vars();
    let mut ev = Evaluator::new(&vars);
    let vectors = vectors();
    let mut g = Gen(12345);
    let (mut compiled, mut answered) = (0, 0);
    for round in 0..600 {
        let want = [Kind::Bool, Kind::Int, Kind::Sym][round % 3];
        let e = g.expr(want, 4);
        for frame in [Frame::Trans, Frame::Init] {
            let Some(p) = Program::compile(&vars, &e, frame) else { continue };
            compiled += 1;
            assert_eq!(p.kind(), want, "{e:?}");
            for (i, cur) in vectors.iter().enumerate() {
                let vec = &vectors[(i * 7 + 3) % vectors.len()];
                let env = if frame == Frame::Trans { Env { cur, next: Some(vec), exited: None } } else { Env::state(vec) };
                let tree = ev.value(&e, &env);
                if want == Kind::Bool {
                    assert_eq!(p.holds(cur, vec), p.value(cur, vec).map(|v| v == Value::Bool(true)), "{e:?} on {cur:?} / {vec:?}");
                }
                match p.value(cur, vec) {
                    Some(v) => {
                        answered += 1;
                        assert_eq!(tree, Ok(v), "{e:?} on {cur:?} / {vec:?} in {frame:?}");
                    }
                    None => {
                        if within(cur) && within(vec) {
                            // Only errors (non-exhaustive case, division by zero) may be left
                            // to the evaluator on valid vectors.
                            assert!(tree.is_err(), "{e:?} on {cur:?} / {vec:?}: {tree:?}");
                        }
                    }
                }
            }
        }
    }
    assert!(compiled > 600, "{compiled} compiled");
    assert!(answered > 100_000, "{answered} answered");
}

#[test]
fn unsupported_forms_are_not_compiled() {
    let vars = vars();
    let c = |e: &Expr| Program::compile(&vars, e, Frame::Trans).is_some();
    assert!(!c(&Expr::Var(VarId::new(5))), "mixed enumeration");
    assert!(!c(&Expr::Exited));
    assert!(!c(&Expr::Set(vec![Expr::Const(Value::Int(1)), Expr::Const(Value::Int(2))])));
    assert!(!c(&Expr::Binary(BinOp::Eq, bx(Expr::Var(VarId::new(0))), bx(Expr::Var(VarId::new(1))))), "boolean = integer");
    assert!(!c(&Expr::Binary(BinOp::Lt, bx(Expr::Var(VarId::new(0))), bx(Expr::Var(VarId::new(4))))), "ordering on booleans");
    assert!(Program::compile(&vars, &Expr::Next(VarId::new(0)), Frame::Init).is_none(), "next outside a transition");
    assert!(c(&Expr::Binary(BinOp::Eq, bx(Expr::Var(VarId::new(2))), bx(Expr::Next(VarId::new(2))))));
    assert!(Program::condition(&vars, &Expr::Var(VarId::new(1)), Frame::Trans).is_none(), "not a condition");
}

#[test]
fn unset_reads_and_failing_cases_defer_to_the_evaluator() {
    let vars = vars();
    let e = Expr::Binary(BinOp::And, bx(Expr::Var(VarId::new(0))), bx(Expr::Next(VarId::new(4))));
    let p = Program::condition(&vars, &e, Frame::Trans).expect("compiles");
    assert_eq!(p.holds(&[1, 0, 0, 0, 0, 0], &[0, 0, 0, 0, 1, 0]), Some(true));
    // Short-circuit: the unset next value is not read.
    assert_eq!(p.holds(&[0, 0, 0, 0, 0, 0], &[0, 0, 0, 0, UNSET, 0]), Some(false));
    assert_eq!(p.holds(&[1, 0, 0, 0, 0, 0], &[0, 0, 0, 0, UNSET, 0]), None);
    let case = Expr::Case { branches: vec![(Expr::Var(VarId::new(0)), Expr::Const(Value::Int(1)))], span: Span::default() };
    let p = Program::compile(&vars, &case, Frame::Trans).expect("compiles");
    assert_eq!(p.value(&[1, 0, 0, 0, 0, 0], &[]), Some(Value::Int(1)));
    assert_eq!(p.value(&[0, 0, 0, 0, 0, 0], &[]), None);
}
