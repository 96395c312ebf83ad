//! Expressions compiled once into a flat stack-machine program over value indices, for the
//! builder's per-state hot paths (the solver's tests and residuals, the plans' checks and
//! assignments).
//!
//! [`Program::compile`] accepts the single-valued part of the language over booleans, integers
//! and symbols: constants, current/next values of variables whose domain is boolean, an integer
//! range or an enumeration of only integers or only symbols, the boolean connectives,
//! comparisons, `+ - * / mod`, unary minus, `in` a set of constants, `?:`, `case`, `case`
//! tables, `abs`/`min`/`max`/`toint`/`bool`/`count` and shared `DEFINE` bodies. Each
//! subexpression gets a static kind (boolean, integer, symbol); an operator applied to kinds
//! the front end would have rejected, words, sets of several values, ranges and `EXITED` make
//! the whole expression uncompiled (the caller keeps the tree-walking [`super::Evaluator`]).
//! Values are `i64` codes: a boolean is 0/1, an integer itself, a symbol its id; a variable's
//! value index is decoded by its domain (an offset or a small table).
//!
//! Exactness: [`Program::run`] returns `None` whenever the tree evaluator could give an error
//! on the same vectors — a value index outside the variable's domain (`UNSET`, `EXIT`), no
//! `case` branch holding, division by zero, overflow — and the caller then evaluates the tree,
//! which reports that error (or, where the tree would have short-circuited past it, the value).
//! Otherwise the result is the one the evaluator computes: equal codes of equal kinds are equal
//! values, and every operator is the evaluator's on those values. Running allocates nothing: the
//! stack is a fixed array (programs needing more are not compiled).

use super::Frame;
use crate::lowering::program::{BinOp, Builtin, Domain, Expr, SymId, UnOp, Value, VarId, Variable};

thread_local! {
    static OPS_RUN: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The lengths of the programs this thread has run so far: a deterministic measure of the
/// evaluation work (the explicit build counts it per expansion, `--engine auto` reads it).
pub(crate) fn ops_run() -> u64 {
    OPS_RUN.with(|c| c.get())
}

/// Deepest operand stack a program may use.
const MAX_STACK: usize = 16;
/// Most operations in one program.
const MAX_OPS: usize = 1 << 14;

/// The static kind of a compiled subexpression.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Bool,
    Int,
    Sym,
}

impl Kind {
    /// The evaluator's value for a code of this kind.
    #[inline]
    pub(crate) fn value(self, code: i64) -> Value {
        match self {
            Kind::Bool => Value::Bool(code != 0),
            Kind::Int => Value::Int(code),
            Kind::Sym => Value::Sym(SymId::from_u32(code as u32)),
        }
    }
}

#[derive(Clone, Copy, Debug)]
enum Op {
    Const(i64),
    /// Push `lo + index` of `var` (from the vector being built when `vec`), if the index is
    /// below `len`.
    Load {
        var: VarId,
        vec: bool,
        lo: i64,
        len: u32,
    },
    /// Push `decode[table][index]` of `var`.
    LoadTable {
        var: VarId,
        vec: bool,
        table: u32,
    },
    Not,
    Neg,
    Bin(Bin),
    /// Pop a code; push whether it is in `sets[set]` (sorted).
    InSet(u32),
    /// `&`: if the top is false, jump (keeping it), else pop.
    AndJump(u32),
    /// `|`: if the top is true, jump (keeping it), else pop.
    OrJump(u32),
    /// `->`: if the top is false, replace it by true and jump, else pop.
    ImpliesJump(u32),
    /// Pop; jump if false.
    JumpIfFalse(u32),
    Jump(u32),
    /// Jump to `targets[table][index]` of `var` (as the evaluator reads a table's variable);
    /// `u32::MAX`: no entry and no fallback.
    Switch {
        var: VarId,
        vec: bool,
        table: u32,
    },
    /// No `case` branch holds: the evaluator's error.
    Fail,
    /// `count`'s running total: pop a boolean, add it to the total below.
    CountAdd,
    Abs,
    Min,
    Max,
    /// Integer to boolean (`bool(i)`).
    NonZero,
}

#[derive(Clone, Copy, Debug)]
enum Bin {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Xor,
    Iff,
    Add,
    Sub,
    Mul,
    Div,
    Mod,
}

/// A compiled expression (see the module documentation).
#[derive(Clone, Debug)]
pub(crate) struct Program {
    ops: Box<[Op]>,
    decode: Box<[Box<[i64]>]>,
    sets: Box<[Box<[i64]>]>,
    /// Per `Switch`: a jump target per value index, then the fallback's.
    targets: Box<[Box<[u32]>]>,
    kind: Kind,
    /// The program as one test of one variable's value index, when it is one (see [`Mask`]).
    mask: Option<Mask>,
}

/// A condition on one variable as a bit set of the value indices where it holds (`x = c`,
/// `x != c`, `x in {…}`, a boolean `x` or `!x`, over a domain of at most 64 values).
#[derive(Clone, Copy, Debug)]
struct Mask {
    var: VarId,
    vec: bool,
    len: u32,
    holds: u64,
}

impl Program {
    /// `e` compiled for evaluation in `frame` (as [`super::Env`] reads `Var`/`Next` there), or
    /// `None` when it uses something the compiler does not handle.
    pub(crate) fn compile(vars: &[Variable], e: &Expr, frame: Frame) -> Option<Program> {
        let mut c = Compiler { vars, frame, ops: vec![], decode: vec![], sets: vec![], targets: vec![], depth: 0, max_depth: 0 };
        let kind = c.expr(e)?;
        let mut p = (c.ops.len() <= MAX_OPS && c.max_depth <= MAX_STACK).then(|| Program {
            ops: c.ops.into_boxed_slice(),
            decode: c.decode.into_boxed_slice(),
            sets: c.sets.into_boxed_slice(),
            targets: c.targets.into_boxed_slice(),
            kind,
            mask: None,
        })?;
        p.mask = p.as_mask();
        Some(p)
    }

    /// The condition as (variable, read from the vector being built?, domain size, bit set of
    /// the value indices where it holds), when it tests one variable against constants.
    pub(crate) fn one_var_mask(&self) -> Option<(VarId, bool, u32, u64)> {
        self.mask.map(|m| (m.var, m.vec, m.len, m.holds))
    }

    /// This program as a [`Mask`], if it loads one variable and tests it against constants.
    fn as_mask(&self) -> Option<Mask> {
        let (var, vec, codes): (VarId, bool, Vec<i64>) = match *self.ops.first()? {
            Op::Load { var, vec, lo, len } if len <= 64 => (var, vec, (0..i64::from(len)).map(|i| lo + i).collect()),
            Op::LoadTable { var, vec, table } => (var, vec, self.decode.get(table as usize)?.to_vec()),
            _ => return None,
        };
        if codes.len() > 64 || self.kind != Kind::Bool {
            return None;
        }
        let len = codes.len() as u32;
        let test: Box<dyn Fn(i64) -> bool> = match self.ops[1..] {
            [] => Box::new(|x| x != 0),
            [Op::Not] => Box::new(|x| x == 0),
            [Op::Const(c), Op::Bin(Bin::Eq)] => Box::new(move |x| x == c),
            [Op::Const(c), Op::Bin(Bin::Ne)] => Box::new(move |x| x != c),
            [Op::InSet(s)] => {
                let set = self.sets.get(s as usize)?;
                Box::new(move |x| set.binary_search(&x).is_ok())
            }
            _ => return None,
        };
        let mut holds = 0u64;
        for (i, &x) in codes.iter().enumerate() {
            if test(x) {
                holds |= 1 << i;
            }
        }
        Some(Mask { var, vec, len, holds })
    }

    /// A compiled boolean condition, or `None` (also for expressions of another kind).
    pub(crate) fn condition(vars: &[Variable], e: &Expr, frame: Frame) -> Option<Program> {
        Program::compile(vars, e, frame).filter(|p| p.kind == Kind::Bool)
    }

    #[cfg(test)]
    pub(crate) fn kind(&self) -> Kind {
        self.kind
    }

    /// The condition's value on `cur` (current state) and `vec` (the vector being built); `None`
    /// where the evaluator might fail (evaluate the tree instead).
    #[inline]
    pub(crate) fn holds(&self, cur: &[u32], vec: &[u32]) -> Option<bool> {
        if let Some(m) = &self.mask {
            let i = *if m.vec { vec } else { cur }.get(m.var.index())?;
            return (i < m.len).then_some(m.holds >> i & 1 != 0);
        }
        self.run(cur, vec).map(|c| c != 0)
    }

    /// The condition's value in `env` (as the evaluator would read it: `Var` from `env.cur`,
    /// `Next` from `env.next`); `None` where the evaluator might fail.
    #[inline]
    pub(crate) fn holds_in(&self, env: &super::Env) -> Option<bool> {
        self.holds(env.cur, env.next.unwrap_or(env.cur))
    }

    /// The expression's value in `env`; `None` where the evaluator might fail.
    #[inline]
    pub(crate) fn value_in(&self, env: &super::Env) -> Option<Value> {
        self.value(env.cur, env.next.unwrap_or(env.cur))
    }

    /// The expression's value on `cur` and `vec`; `None` where the evaluator might fail.
    #[inline]
    pub(crate) fn value(&self, cur: &[u32], vec: &[u32]) -> Option<Value> {
        self.run(cur, vec).map(|c| self.kind.value(c))
    }

    /// The expression's code on `cur` and `vec`; `None` where the evaluator might fail. Counts
    /// the program's length into [`ops_run`].
    pub(crate) fn run(&self, cur: &[u32], vec: &[u32]) -> Option<i64> {
        OPS_RUN.with(|c| c.set(c.get() + self.ops.len() as u64));
        self.run_ops(cur, vec)
    }

    fn run_ops(&self, cur: &[u32], vec: &[u32]) -> Option<i64> {
        let mut stack = [0i64; MAX_STACK];
        let mut sp = 0usize;
        let mut pc = 0usize;
        let ops = &*self.ops;
        let index = |var: VarId, from_vec: bool| -> u32 {
            let from = if from_vec { vec } else { cur };
            from.get(var.index()).copied().unwrap_or(u32::MAX)
        };
        while let Some(&op) = ops.get(pc) {
            pc += 1;
            match op {
                Op::Const(c) => {
                    *stack.get_mut(sp)? = c;
                    sp += 1;
                }
                Op::Load { var, vec, lo, len } => {
                    let i = index(var, vec);
                    if i >= len {
                        return None;
                    }
                    *stack.get_mut(sp)? = lo + i64::from(i);
                    sp += 1;
                }
                Op::LoadTable { var, vec, table } => {
                    let i = index(var, vec);
                    *stack.get_mut(sp)? = *self.decode.get(table as usize)?.get(i as usize)?;
                    sp += 1;
                }
                Op::Not => {
                    let t = stack.get_mut(sp.checked_sub(1)?)?;
                    *t = i64::from(*t == 0);
                }
                Op::Neg => {
                    let t = stack.get_mut(sp.checked_sub(1)?)?;
                    *t = t.checked_neg()?;
                }
                Op::NonZero => {
                    let t = stack.get_mut(sp.checked_sub(1)?)?;
                    *t = i64::from(*t != 0);
                }
                Op::Abs => {
                    let t = stack.get_mut(sp.checked_sub(1)?)?;
                    *t = t.checked_abs()?;
                }
                Op::Bin(b) => {
                    sp = sp.checked_sub(1)?;
                    let y = *stack.get(sp)?;
                    let t = stack.get_mut(sp.checked_sub(1)?)?;
                    let x = *t;
                    *t = match b {
                        Bin::Eq => i64::from(x == y),
                        Bin::Ne => i64::from(x != y),
                        Bin::Lt => i64::from(x < y),
                        Bin::Le => i64::from(x <= y),
                        Bin::Gt => i64::from(x > y),
                        Bin::Ge => i64::from(x >= y),
                        Bin::Xor => i64::from((x != 0) != (y != 0)),
                        Bin::Iff => i64::from((x != 0) == (y != 0)),
                        Bin::Add => x.checked_add(y)?,
                        Bin::Sub => x.checked_sub(y)?,
                        Bin::Mul => x.checked_mul(y)?,
                        Bin::Div => x.checked_div(y)?,
                        Bin::Mod => x.checked_rem(y)?,
                    };
                }
                Op::Min | Op::Max => {
                    sp = sp.checked_sub(1)?;
                    let y = *stack.get(sp)?;
                    let t = stack.get_mut(sp.checked_sub(1)?)?;
                    *t = if matches!(op, Op::Min) { (*t).min(y) } else { (*t).max(y) };
                }
                Op::InSet(s) => {
                    let t = stack.get_mut(sp.checked_sub(1)?)?;
                    *t = i64::from(self.sets.get(s as usize)?.binary_search(t).is_ok());
                }
                Op::AndJump(to) => {
                    if *stack.get(sp.checked_sub(1)?)? == 0 {
                        pc = to as usize;
                    } else {
                        sp -= 1;
                    }
                }
                Op::OrJump(to) => {
                    if *stack.get(sp.checked_sub(1)?)? != 0 {
                        pc = to as usize;
                    } else {
                        sp -= 1;
                    }
                }
                Op::ImpliesJump(to) => {
                    let t = stack.get_mut(sp.checked_sub(1)?)?;
                    if *t == 0 {
                        *t = 1;
                        pc = to as usize;
                    } else {
                        sp -= 1;
                    }
                }
                Op::JumpIfFalse(to) => {
                    sp = sp.checked_sub(1)?;
                    if *stack.get(sp)? == 0 {
                        pc = to as usize;
                    }
                }
                Op::Jump(to) => pc = to as usize,
                Op::Switch { var, vec, table } => {
                    let i = index(var, vec);
                    // As the evaluator: an unset variable is an error; a value without an entry
                    // (including `EXIT`) takes the fallback.
                    if i == super::UNSET {
                        return None;
                    }
                    let targets = self.targets.get(table as usize)?;
                    let fallback = *targets.last()?;
                    let to = match targets.get(i as usize) {
                        Some(&t) if (i as usize) < targets.len() - 1 && t != u32::MAX => t,
                        _ => fallback,
                    };
                    if to == u32::MAX {
                        return None;
                    }
                    pc = to as usize;
                }
                Op::Fail => return None,
                Op::CountAdd => {
                    sp = sp.checked_sub(1)?;
                    let b = *stack.get(sp)?;
                    let t = stack.get_mut(sp.checked_sub(1)?)?;
                    *t += i64::from(b != 0);
                }
            }
        }
        if sp == 1 { Some(stack[0]) } else { None }
    }
}

struct Compiler<'v> {
    vars: &'v [Variable],
    frame: Frame,
    ops: Vec<Op>,
    decode: Vec<Box<[i64]>>,
    sets: Vec<Box<[i64]>>,
    targets: Vec<Box<[u32]>>,
    depth: usize,
    max_depth: usize,
}

/// The code and kind of a constant.
fn constant(v: Value) -> Option<(i64, Kind)> {
    match v {
        Value::Bool(b) => Some((i64::from(b), Kind::Bool)),
        Value::Int(i) => Some((i, Kind::Int)),
        Value::Sym(s) => Some((i64::from(s.as_u32()), Kind::Sym)),
        _ => None,
    }
}

impl Compiler<'_> {
    fn emit(&mut self, op: Op, pushes: isize) -> Option<usize> {
        if self.ops.len() >= MAX_OPS {
            return None;
        }
        self.depth = self.depth.checked_add_signed(pushes)?;
        self.max_depth = self.max_depth.max(self.depth);
        self.ops.push(op);
        Some(self.ops.len() - 1)
    }

    fn here(&self) -> u32 {
        self.ops.len() as u32
    }

    fn patch(&mut self, at: usize, to: u32) {
        self.ops[at] = match self.ops[at] {
            Op::AndJump(_) => Op::AndJump(to),
            Op::OrJump(_) => Op::OrJump(to),
            Op::ImpliesJump(_) => Op::ImpliesJump(to),
            Op::JumpIfFalse(_) => Op::JumpIfFalse(to),
            Op::Jump(_) => Op::Jump(to),
            op => op,
        };
    }

    /// Emits a load of `var` (from the vector being built when `vec`).
    fn load(&mut self, var: VarId, vec: bool) -> Option<Kind> {
        match &self.vars.get(var.index())?.domain {
            Domain::Boolean => self.emit(Op::Load { var, vec, lo: 0, len: 2 }, 1).map(|_| Kind::Bool),
            Domain::Range { lo, hi } => {
                let len = u32::try_from(hi.checked_sub(*lo)?.checked_add(1)?).ok()?;
                self.emit(Op::Load { var, vec, lo: *lo, len }, 1).map(|_| Kind::Int)
            }
            Domain::Enum(values) => {
                let coded: Vec<(i64, Kind)> = values.iter().map(|&v| constant(v)).collect::<Option<_>>()?;
                let kind = coded.first().map_or(Kind::Sym, |c| c.1);
                if kind == Kind::Bool || coded.iter().any(|c| c.1 != kind) {
                    return None;
                }
                let table = self.decode.len() as u32;
                self.decode.push(coded.into_iter().map(|c| c.0).collect());
                self.emit(Op::LoadTable { var, vec, table }, 1).map(|_| kind)
            }
            Domain::Word { .. } => None,
        }
    }

    /// Where `Var` reads from in this frame: the vector being built outside transitions.
    fn var_in_vec(&self) -> bool {
        self.frame != Frame::Trans
    }

    fn expr(&mut self, e: &Expr) -> Option<Kind> {
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.expr_inner(e))
    }

    fn expect(&mut self, e: &Expr, kind: Kind) -> Option<()> {
        (self.expr(e)? == kind).then_some(())
    }

    fn expr_inner(&mut self, e: &Expr) -> Option<Kind> {
        match e {
            Expr::Const(v) => {
                let (code, kind) = constant(*v)?;
                self.emit(Op::Const(code), 1)?;
                Some(kind)
            }
            Expr::Var(v) => self.load(*v, self.var_in_vec()),
            // `next` outside a transition is always the evaluator's error.
            Expr::Next(v) if self.frame == Frame::Trans => self.load(*v, true),
            Expr::Unary(UnOp::Not, a) => {
                self.expect(a, Kind::Bool)?;
                self.emit(Op::Not, 0)?;
                Some(Kind::Bool)
            }
            Expr::Unary(UnOp::Neg, a) => {
                self.expect(a, Kind::Int)?;
                self.emit(Op::Neg, 0)?;
                Some(Kind::Int)
            }
            Expr::Binary(op, a, b) => self.binary(*op, a, b),
            Expr::Ite(c, a, b) => {
                self.expect(c, Kind::Bool)?;
                let skip = self.emit(Op::JumpIfFalse(0), -1)?;
                let kind = self.expr(a)?;
                let end = self.emit(Op::Jump(0), 0)?;
                // The other branch starts from the depth before the first one's value.
                self.depth -= 1;
                let h = self.here();
                self.patch(skip, h);
                self.expect(b, kind)?;
                let h = self.here();
                self.patch(end, h);
                Some(kind)
            }
            Expr::Case { branches, .. } => {
                let mut ends = vec![];
                let mut kind: Option<Kind> = None;
                for (cond, value) in branches {
                    self.expect(cond, Kind::Bool)?;
                    let skip = self.emit(Op::JumpIfFalse(0), -1)?;
                    let k = self.expr(value)?;
                    if kind.is_some_and(|x| x != k) {
                        return None;
                    }
                    kind = Some(k);
                    ends.push(self.emit(Op::Jump(0), 0)?);
                    self.depth -= 1;
                    let h = self.here();
                    self.patch(skip, h);
                }
                self.emit(Op::Fail, 0)?;
                self.depth += 1;
                let h = self.here();
                for at in ends {
                    self.patch(at, h);
                }
                kind
            }
            Expr::Table { var, entries, fallback, .. } => {
                let table = self.targets.len() as u32;
                self.targets.push(Box::new([]));
                self.emit(Op::Switch { var: *var, vec: self.var_in_vec(), table }, 0)?;
                let mut targets = vec![u32::MAX; entries.len() + 1];
                let mut ends = vec![];
                let mut kind: Option<Kind> = None;
                let items = entries.iter().enumerate().filter_map(|(i, x)| x.as_ref().map(|x| (i, x))).chain(fallback.as_deref().map(|f| (entries.len(), f)));
                for (i, x) in items {
                    targets[i] = self.here();
                    let k = self.expr(x)?;
                    if kind.is_some_and(|y| y != k) {
                        return None;
                    }
                    kind = Some(k);
                    ends.push(self.emit(Op::Jump(0), 0)?);
                    self.depth -= 1;
                }
                self.depth += 1;
                let h = self.here();
                for at in ends {
                    self.patch(at, h);
                }
                self.targets[table as usize] = targets.into_boxed_slice();
                kind
            }
            Expr::Set(items) if items.len() == 1 => self.expr(&items[0]),
            Expr::Builtin(f, args) => self.builtin(*f, args),
            Expr::Shared(inner) => self.expr(inner),
            _ => None,
        }
    }

    fn binary(&mut self, op: BinOp, a: &Expr, b: &Expr) -> Option<Kind> {
        match op {
            BinOp::And | BinOp::Or | BinOp::Implies => {
                self.expect(a, Kind::Bool)?;
                let jump = match op {
                    BinOp::And => Op::AndJump(0),
                    BinOp::Or => Op::OrJump(0),
                    _ => Op::ImpliesJump(0),
                };
                let at = self.emit(jump, -1)?;
                self.expect(b, Kind::Bool)?;
                let h = self.here();
                self.patch(at, h);
                Some(Kind::Bool)
            }
            BinOp::In => {
                let Expr::Set(items) = b else {
                    // A single-valued right-hand side is `=`.
                    let ka = self.expr(a)?;
                    (self.expr(b)? == ka).then_some(())?;
                    self.emit(Op::Bin(Bin::Eq), -1)?;
                    return Some(Kind::Bool);
                };
                let kind = self.expr(a)?;
                let mut set = vec![];
                for item in items {
                    let Expr::Const(v) = item else { return None };
                    // A constant of another kind is never equal to the value.
                    if let Some((code, k)) = constant(*v)
                        && k == kind
                    {
                        set.push(code);
                    }
                }
                set.sort_unstable();
                set.dedup();
                let s = self.sets.len() as u32;
                self.sets.push(set.into_boxed_slice());
                self.emit(Op::InSet(s), 0)?;
                Some(Kind::Bool)
            }
            _ => {
                let ka = self.expr(a)?;
                let kb = self.expr(b)?;
                if ka != kb {
                    return None;
                }
                let (bin, result) = match (op, ka) {
                    (BinOp::Eq, _) => (Bin::Eq, Kind::Bool),
                    (BinOp::Ne, _) => (Bin::Ne, Kind::Bool),
                    (BinOp::Xor, Kind::Bool) => (Bin::Xor, Kind::Bool),
                    (BinOp::Xnor | BinOp::Iff, Kind::Bool) => (Bin::Iff, Kind::Bool),
                    (BinOp::Lt, Kind::Int) => (Bin::Lt, Kind::Bool),
                    (BinOp::Le, Kind::Int) => (Bin::Le, Kind::Bool),
                    (BinOp::Gt, Kind::Int) => (Bin::Gt, Kind::Bool),
                    (BinOp::Ge, Kind::Int) => (Bin::Ge, Kind::Bool),
                    (BinOp::Add, Kind::Int) => (Bin::Add, Kind::Int),
                    (BinOp::Sub, Kind::Int) => (Bin::Sub, Kind::Int),
                    (BinOp::Mul, Kind::Int) => (Bin::Mul, Kind::Int),
                    (BinOp::Div, Kind::Int) => (Bin::Div, Kind::Int),
                    (BinOp::Mod, Kind::Int) => (Bin::Mod, Kind::Int),
                    _ => return None,
                };
                self.emit(Op::Bin(bin), -1)?;
                Some(result)
            }
        }
    }

    fn builtin(&mut self, f: Builtin, args: &[Expr]) -> Option<Kind> {
        match (f, args) {
            (Builtin::Abs, [a]) => {
                self.expect(a, Kind::Int)?;
                self.emit(Op::Abs, 0)?;
                Some(Kind::Int)
            }
            (Builtin::Min | Builtin::Max, [a, b]) => {
                self.expect(a, Kind::Int)?;
                self.expect(b, Kind::Int)?;
                self.emit(if f == Builtin::Min { Op::Min } else { Op::Max }, -1)?;
                Some(Kind::Int)
            }
            // A boolean's code is already 0/1, an integer's itself.
            (Builtin::ToInt, [a]) => match self.expr(a)? {
                Kind::Bool | Kind::Int => Some(Kind::Int),
                Kind::Sym => None,
            },
            (Builtin::Bool, [a]) => match self.expr(a)? {
                Kind::Bool => Some(Kind::Bool),
                Kind::Int => {
                    self.emit(Op::NonZero, 0)?;
                    Some(Kind::Bool)
                }
                Kind::Sym => None,
            },
            // A running total, so that many arguments need no deeper stack than one.
            (Builtin::Count, args) => {
                self.emit(Op::Const(0), 1)?;
                for a in args {
                    self.expect(a, Kind::Bool)?;
                    self.emit(Op::CountAdd, -1)?;
                }
                Some(Kind::Int)
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests;
