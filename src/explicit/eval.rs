//! Evaluation of lowered expressions ([`Expr`]) on explicit states, with NuSMV semantics.
//!
//! A state is a slice of value indices, one per variable of the system (the index of the value in
//! the variable's [`crate::lowering::program::Domain`], or [`EXIT_INDEX`] for a procedure variable
//! that has exited). An expression evaluates to one value or to a set of values (`{a, b}`,
//! `lo..hi`, set-valued `case` branches), the latter meaning nondeterministic choice.
//!
//! Semantics: `/` truncates toward zero, `mod` is C's `%` (sign of the dividend), division by zero
//! and integer overflow are errors, `case` takes the first branch whose condition holds and having
//! none is an error, `a in S` holds when every value of `a` is in `S`, arithmetic on sets is
//! applied element-wise. Errors are returned as [`EvalError`] data; the caller knows the state and
//! the enclosing assignment or constraint and turns them into diagnostics.
//!
//! Performance: single values never touch the heap. Sets live on a value stack owned by the
//! [`Evaluator`] and reused across evaluations, so steady-state evaluation allocates nothing
//! (except for arithmetic on sets, which is rare).

use crate::lowering::program::{BinOp, Builtin, ExitNameId, Expr, UnOp, Value, VarId, Variable};
use crate::lowering::words::{self, WordError};
use crate::source::Span;

/// How `Var` and `Next` are read while evaluating an expression of a plan (`step::Plan`): in an
/// initial state, in a transition (`next` reads the successor), or in an `INVAR` over the
/// successor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Frame {
    Init,
    Trans,
    NextInvar,
}

/// The value index of `EXIT` in a state vector (procedure variables only).
pub(crate) const EXIT_INDEX: u32 = u32::MAX;
/// The value index of a not-yet-computed slot of a partial state vector.
pub(crate) const UNSET: u32 = u32::MAX - 1;

/// Largest set a `lo..hi` range expression may produce.
const MAX_RANGE_SET: i64 = 1 << 20;

/// What an expression is evaluated against.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Env<'a> {
    /// Current values (`Var`).
    pub cur: &'a [u32],
    /// Next values (`Next`), when evaluating a transition.
    pub next: Option<&'a [u32]>,
    /// The value of `EXITED`, when evaluating a call state's return.
    pub exited: Option<ExitNameId>,
}

impl<'a> Env<'a> {
    /// A state on its own: `Next` and `EXITED` are unavailable.
    pub(crate) fn state(cur: &'a [u32]) -> Env<'a> {
        Env { cur, next: None, exited: None }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum EvalError {
    /// No branch of the `case` (or table) at `span` holds.
    NonExhaustiveCase {
        span: Span,
    },
    DivisionByZero,
    Overflow,
    /// An operator got a value of the wrong type (the front end should have rejected this).
    Type {
        expected: &'static str,
        found: Value,
    },
    /// A set of several values where one value is needed (a condition, an operand of `&`).
    SetWhereValueNeeded,
    /// `lo..hi` with more than 2^20 values.
    RangeTooLarge {
        lo: i64,
        hi: i64,
    },
    /// `next(x)` outside a transition, or of a variable not computed yet.
    NextUnavailable(VarId),
    /// A variable read before it was computed (cyclic or unordered assignments).
    Unset(VarId),
    /// `EXITED` read outside the return of a call.
    ExitedUnavailable,
    /// A word shifted by a negative amount or by more than its width.
    ShiftOutOfRange,
}

/// A word operation's error; `found` is the operand reported when it had the wrong kind.
fn word_error(e: WordError, found: Value) -> EvalError {
    match e {
        WordError::DivisionByZero => EvalError::DivisionByZero,
        WordError::ShiftOutOfRange => EvalError::ShiftOutOfRange,
        WordError::Overflow => EvalError::Overflow,
        WordError::BadOperand => EvalError::Type { expected: "word", found },
    }
}

/// The operand to blame for a bad word operation: the first that is not a word.
fn non_word(x: Value, y: Value) -> Value {
    if matches!(x, Value::Word { .. }) { y } else { x }
}

impl EvalError {
    /// A one-line description (the caller adds the state and the location).
    pub(crate) fn describe(&self, vars: &[Variable]) -> String {
        let name = |v: &VarId| vars.get(v.index()).map_or("?", |x| x.name.as_str()).to_string();
        match self {
            EvalError::NonExhaustiveCase { .. } => "case conditions are not exhaustive".into(),
            EvalError::DivisionByZero => "division by zero".into(),
            EvalError::Overflow => "integer overflow".into(),
            EvalError::Type { expected, found } => format!("expected a {expected} value, found {found:?}"),
            EvalError::SetWhereValueNeeded => "a set of values is used where a single value is needed".into(),
            EvalError::RangeTooLarge { lo, hi } => format!("the range {lo}..{hi} has more than 2^20 values"),
            EvalError::NextUnavailable(v) => format!("next({}) is not available here", name(v)),
            EvalError::Unset(v) => format!("{} is read before it is computed", name(v)),
            EvalError::ExitedUnavailable => "EXITED is only defined when a call returns".into(),
            EvalError::ShiftOutOfRange => "a word shift amount outside 0..width".into(),
        }
    }
}

/// Result of evaluating a subexpression: a value, or a set stored on the value stack from the
/// given position to its top.
#[derive(Clone, Copy, Debug)]
enum Ev {
    One(Value),
    Many(usize),
}

/// Evaluates expressions over the variables of one system. Reuse one evaluator per thread.
#[derive(Clone, Debug)]
pub(crate) struct Evaluator<'s> {
    vars: &'s [Variable],
    stack: Vec<Value>,
    /// Expression nodes evaluated so far (a deterministic measure of the work, read by the
    /// explicit build for `--engine auto`).
    nodes: u64,
}

impl<'s> Evaluator<'s> {
    pub(crate) fn new(vars: &'s [Variable]) -> Evaluator<'s> {
        Evaluator { vars, stack: Vec::new(), nodes: 0 }
    }

    /// Expression nodes evaluated so far.
    pub(crate) fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The value of a single-valued expression (a set with one element counts as that element).
    pub(crate) fn value(&mut self, e: &Expr, env: &Env) -> Result<Value, EvalError> {
        let base = self.stack.len();
        let r = self.eval(e, env).and_then(|ev| self.single(ev));
        self.stack.truncate(base);
        r
    }

    /// The value of a boolean condition.
    pub(crate) fn bool(&mut self, e: &Expr, env: &Env) -> Result<bool, EvalError> {
        as_bool(self.value(e, env)?)
    }

    /// All values of a possibly set-valued expression, sorted and without duplicates, into `out`
    /// (cleared first).
    pub(crate) fn values(&mut self, e: &Expr, env: &Env, out: &mut Vec<Value>) -> Result<(), EvalError> {
        out.clear();
        let base = self.stack.len();
        let r = self.eval(e, env).map(|ev| match ev {
            Ev::One(v) => out.push(v),
            Ev::Many(start) => out.extend_from_slice(&self.stack[start..]),
        });
        self.stack.truncate(base);
        r
    }

    fn var_value(&self, v: VarId, idx: u32) -> Result<Value, EvalError> {
        match idx {
            EXIT_INDEX => Ok(Value::Exit),
            UNSET => Err(EvalError::Unset(v)),
            i => Ok(self.vars[v.index()].domain.value(i as usize)),
        }
    }

    /// Collapses a result to one value; pops a set from the stack.
    fn single(&mut self, ev: Ev) -> Result<Value, EvalError> {
        match ev {
            Ev::One(v) => Ok(v),
            Ev::Many(start) => {
                let r = match self.stack[start..] {
                    [v] => Ok(v),
                    _ => Err(EvalError::SetWhereValueNeeded),
                };
                self.stack.truncate(start);
                r
            }
        }
    }

    fn scalar(&mut self, e: &Expr, env: &Env) -> Result<Value, EvalError> {
        let ev = self.eval(e, env)?;
        self.single(ev)
    }

    fn scalar_bool(&mut self, e: &Expr, env: &Env) -> Result<bool, EvalError> {
        as_bool(self.scalar(e, env)?)
    }

    /// Sorts and deduplicates the set at `start..`; a singleton becomes `One`.
    fn finish_set(&mut self, start: usize) -> Ev {
        let set = &mut self.stack[start..];
        set.sort_unstable();
        let mut kept = 0;
        for i in 0..set.len() {
            if kept == 0 || set[i] != set[kept - 1] {
                set[kept] = set[i];
                kept += 1;
            }
        }
        self.stack.truncate(start + kept);
        if kept == 1 {
            let v = self.stack[start];
            self.stack.truncate(start);
            Ev::One(v)
        } else {
            Ev::Many(start)
        }
    }

    /// The values of an evaluated operand as an owned list (slow path for set arithmetic).
    fn take_values(&mut self, ev: Ev) -> Vec<Value> {
        match ev {
            Ev::One(v) => vec![v],
            Ev::Many(start) => self.stack.split_off(start),
        }
    }

    fn eval(&mut self, e: &Expr, env: &Env) -> Result<Ev, EvalError> {
        self.nodes += 1;
        match e {
            Expr::Const(v) => Ok(Ev::One(*v)),
            Expr::Var(v) => {
                let idx = env.cur.get(v.index()).copied().unwrap_or(UNSET);
                self.var_value(*v, idx).map(Ev::One)
            }
            Expr::Next(v) => {
                let next = env.next.ok_or(EvalError::NextUnavailable(*v))?;
                match next.get(v.index()).copied().unwrap_or(UNSET) {
                    UNSET => Err(EvalError::NextUnavailable(*v)),
                    idx => self.var_value(*v, idx).map(Ev::One),
                }
            }
            Expr::Exited => env.exited.map(|x| Ev::One(Value::ExitName(x))).ok_or(EvalError::ExitedUnavailable),
            Expr::Unary(op, a) => match self.eval(a, env)? {
                Ev::One(v) => unary(*op, v).map(Ev::One),
                many => {
                    let vals = self.take_values(many);
                    let start = self.stack.len();
                    for v in vals {
                        self.stack.push(unary(*op, v)?);
                    }
                    Ok(self.finish_set(start))
                }
            },
            Expr::Binary(op, a, b) => self.binary(*op, a, b, env),
            Expr::Ite(c, a, b) => {
                if self.scalar_bool(c, env)? {
                    self.eval(a, env)
                } else {
                    self.eval(b, env)
                }
            }
            Expr::Case { branches, span } => {
                for (cond, value) in branches {
                    if self.scalar_bool(cond, env)? {
                        return self.eval(value, env);
                    }
                }
                Err(EvalError::NonExhaustiveCase { span: *span })
            }
            Expr::Table { var, entries, fallback, span } => {
                let idx = env.cur.get(var.index()).copied().unwrap_or(UNSET);
                if idx == UNSET {
                    return Err(EvalError::Unset(*var));
                }
                match entries.get(idx as usize) {
                    Some(Some(entry)) => self.eval(entry, env),
                    _ => match fallback {
                        Some(f) => self.eval(f, env),
                        None => Err(EvalError::NonExhaustiveCase { span: *span }),
                    },
                }
            }
            Expr::Set(items) => {
                let start = self.stack.len();
                for item in items {
                    // A set-valued item leaves its values on the stack, right where they belong.
                    if let Ev::One(v) = self.eval(item, env)? {
                        self.stack.push(v);
                    }
                }
                Ok(self.finish_set(start))
            }
            Expr::Range(lo, hi) => {
                let lo = as_int(self.scalar(lo, env)?)?;
                let hi = as_int(self.scalar(hi, env)?)?;
                if hi.saturating_sub(lo) >= MAX_RANGE_SET {
                    return Err(EvalError::RangeTooLarge { lo, hi });
                }
                let start = self.stack.len();
                self.stack.extend((lo..=hi).map(Value::Int));
                Ok(self.finish_set(start))
            }
            Expr::Builtin(f, args) => self.builtin(*f, args, env).map(Ev::One),
            Expr::Shared(inner) => self.eval(inner, env),
        }
    }

    fn binary(&mut self, op: BinOp, a: &Expr, b: &Expr, env: &Env) -> Result<Ev, EvalError> {
        match op {
            // Short-circuit connectives on single booleans (so `pc = c & EXITED = ok` is fine
            // outside call states).
            // Words: bitwise, both operands evaluated.
            BinOp::And | BinOp::Or | BinOp::Implies => match self.scalar(a, env)? {
                Value::Bool(x) => {
                    let decided = match op {
                        BinOp::And => (!x).then_some(false),
                        BinOp::Or => x.then_some(true),
                        _ => (!x).then_some(true),
                    };
                    match decided {
                        Some(v) => Ok(Ev::One(Value::Bool(v))),
                        None => Ok(Ev::One(Value::Bool(self.scalar_bool(b, env)?))),
                    }
                }
                x => {
                    let y = self.scalar(b, env)?;
                    Ok(Ev::One(words::binary(op, x, y).map_err(|e| word_error(e, non_word(x, y)))?))
                }
            },
            BinOp::In => {
                // Fast path: a value in a literal set of constants (the usual `pc in {…}`).
                if let Expr::Set(items) = b
                    && items.iter().all(|i| matches!(i, Expr::Const(_)))
                {
                    let member = |v: &Value| items.iter().any(|i| matches!(i, Expr::Const(c) if c == v));
                    let holds = match self.eval(a, env)? {
                        Ev::One(v) => member(&v),
                        Ev::Many(start) => {
                            let all = self.stack[start..].iter().all(member);
                            self.stack.truncate(start);
                            all
                        }
                    };
                    return Ok(Ev::One(Value::Bool(holds)));
                }
                let lhs = self.eval(a, env)?;
                let lhs = match lhs {
                    Ev::One(v) => Ok(v),
                    many => Err(self.take_values(many)),
                };
                let rhs = self.eval(b, env)?;
                let set: &[Value] = match &rhs {
                    Ev::One(v) => std::slice::from_ref(v),
                    Ev::Many(start) => &self.stack[*start..],
                };
                let holds = match &lhs {
                    Ok(v) => set.contains(v),
                    Err(vals) => vals.iter().all(|v| set.contains(v)),
                };
                if let Ev::Many(start) = rhs {
                    self.stack.truncate(start);
                }
                Ok(Ev::One(Value::Bool(holds)))
            }
            _ => {
                let xs = match self.eval(a, env)? {
                    Ev::One(x) => match self.eval(b, env)? {
                        Ev::One(y) => return binary(op, x, y).map(Ev::One),
                        many => {
                            let ys = self.take_values(many);
                            return self.lift(op, &[x], &ys);
                        }
                    },
                    many => self.take_values(many),
                };
                let y = self.eval(b, env)?;
                let ys = self.take_values(y);
                self.lift(op, &xs, &ys)
            }
        }
    }

    /// A binary operator applied element-wise to two sets (slow path).
    fn lift(&mut self, op: BinOp, xs: &[Value], ys: &[Value]) -> Result<Ev, EvalError> {
        let start = self.stack.len();
        for &x in xs {
            for &y in ys {
                self.stack.push(binary(op, x, y)?);
            }
        }
        Ok(self.finish_set(start))
    }

    fn builtin(&mut self, f: Builtin, args: &[Expr], env: &Env) -> Result<Value, EvalError> {
        let arg = |i: usize, this: &mut Self| -> Result<Value, EvalError> {
            match args.get(i) {
                Some(e) => this.scalar(e, env),
                None => Err(EvalError::Type { expected: "function argument", found: Value::Bool(false) }),
            }
        };
        match f {
            Builtin::Resize(_) | Builtin::Signed | Builtin::Unsigned | Builtin::Word1 | Builtin::Select(..) => {
                let v = arg(0, self)?;
                words::builtin(f, &[v]).map_err(|e| word_error(e, v))
            }
            Builtin::Abs => as_int(arg(0, self)?)?.checked_abs().map(Value::Int).ok_or(EvalError::Overflow),
            Builtin::Min => Ok(Value::Int(as_int(arg(0, self)?)?.min(as_int(arg(1, self)?)?))),
            Builtin::Max => Ok(Value::Int(as_int(arg(0, self)?)?.max(as_int(arg(1, self)?)?))),
            Builtin::ToInt => match arg(0, self)? {
                Value::Bool(b) => Ok(Value::Int(b as i64)),
                Value::Int(i) => Ok(Value::Int(i)),
                v @ Value::Word { .. } => words::builtin(f, &[v]).map_err(|e| word_error(e, v)),
                v => Err(EvalError::Type { expected: "boolean or integer", found: v }),
            },
            Builtin::Bool => match arg(0, self)? {
                Value::Bool(b) => Ok(Value::Bool(b)),
                Value::Int(i) => Ok(Value::Bool(i != 0)),
                v @ Value::Word { .. } => words::builtin(f, &[v]).map_err(|e| word_error(e, v)),
                v => Err(EvalError::Type { expected: "boolean or integer", found: v }),
            },
            Builtin::Count => {
                let mut n = 0;
                for i in 0..args.len() {
                    n += as_bool(arg(i, self)?)? as i64;
                }
                Ok(Value::Int(n))
            }
        }
    }
}

pub(crate) fn as_bool(v: Value) -> Result<bool, EvalError> {
    match v {
        Value::Bool(b) => Ok(b),
        v => Err(EvalError::Type { expected: "boolean", found: v }),
    }
}

fn as_int(v: Value) -> Result<i64, EvalError> {
    match v {
        Value::Int(i) => Ok(i),
        v => Err(EvalError::Type { expected: "integer", found: v }),
    }
}

/// A procedure variable that is `EXIT` is a value unlike every number: arithmetic on it gives
/// `EXIT` and ordering comparisons are false, as `=` with a number is (so a label such as
/// `n + 1 > 2` is false, and its negation true, at the module's all-`EXIT` location).
fn with_exit(op: BinOp) -> Option<Value> {
    match op {
        BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Mod | BinOp::Shl | BinOp::Shr => Some(Value::Exit),
        BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => Some(Value::Bool(false)),
        _ => None,
    }
}

pub(crate) fn unary(op: UnOp, v: Value) -> Result<Value, EvalError> {
    if op == UnOp::Neg && v == Value::Exit {
        return Ok(Value::Exit);
    }
    if let Value::Word { .. } = v {
        return words::unary(op, v).map_err(|e| word_error(e, v));
    }
    match op {
        UnOp::Not => Ok(Value::Bool(!as_bool(v)?)),
        UnOp::Neg => as_int(v)?.checked_neg().map(Value::Int).ok_or(EvalError::Overflow),
    }
}

pub(crate) fn binary(op: BinOp, x: Value, y: Value) -> Result<Value, EvalError> {
    if (x == Value::Exit || y == Value::Exit)
        && let Some(v) = with_exit(op)
    {
        return Ok(v);
    }
    if let Value::Word { .. } = x {
        return words::binary(op, x, y).map_err(|e| word_error(e, non_word(x, y)));
    }
    let bools = |f: fn(bool, bool) -> bool| Ok(Value::Bool(f(as_bool(x)?, as_bool(y)?)));
    let ints = |f: fn(i64, i64) -> Option<i64>| f(as_int(x)?, as_int(y)?).map(Value::Int).ok_or(EvalError::Overflow);
    let cmp = |f: fn(&i64, &i64) -> bool| Ok(Value::Bool(f(&as_int(x)?, &as_int(y)?)));
    match op {
        BinOp::And => bools(|a, b| a && b),
        BinOp::Or => bools(|a, b| a || b),
        BinOp::Implies => bools(|a, b| !a || b),
        BinOp::Xor => bools(|a, b| a != b),
        BinOp::Xnor | BinOp::Iff => bools(|a, b| a == b),
        BinOp::Eq => Ok(Value::Bool(x == y)),
        BinOp::Ne => Ok(Value::Bool(x != y)),
        BinOp::Lt => cmp(i64::lt),
        BinOp::Le => cmp(i64::le),
        BinOp::Gt => cmp(i64::gt),
        BinOp::Ge => cmp(i64::ge),
        BinOp::Add => ints(i64::checked_add),
        BinOp::Sub => ints(i64::checked_sub),
        BinOp::Mul => ints(i64::checked_mul),
        BinOp::Div | BinOp::Mod => {
            let (a, b) = (as_int(x)?, as_int(y)?);
            if b == 0 {
                return Err(EvalError::DivisionByZero);
            }
            // Rust's `/` truncates toward zero and `%` takes the dividend's sign, as in C.
            let r = if op == BinOp::Div { a.checked_div(b) } else { a.checked_rem(b) };
            r.map(Value::Int).ok_or(EvalError::Overflow)
        }
        BinOp::Shl | BinOp::Shr => {
            let (a, b) = (as_int(x)?, as_int(y)?);
            let shift = u32::try_from(b).ok().filter(|&s| s < 63).ok_or(EvalError::Overflow)?;
            let r = if op == BinOp::Shl { a.checked_mul(1i64 << shift) } else { Some(a >> shift) };
            r.map(Value::Int).ok_or(EvalError::Overflow)
        }
        // `in` is handled by the evaluator (it needs the whole right-hand set).
        BinOp::In => Ok(Value::Bool(x == y)),
        BinOp::Concat => Err(EvalError::Type { expected: "word", found: x }),
    }
}

pub(crate) mod compiled;
#[cfg(test)]
mod tests;
