//! Lowered expressions as BDDs.
//!
//! A boolean expression becomes the BDD of the states (over current, next and input bits) where
//! it is true. Any other expression becomes a list of `(value, guard)` pairs: the expression has
//! that value where the guard holds. For single-valued expressions the guards are disjoint; sets
//! (`{a, b}`, `lo..hi`, set-valued `case` branches) give overlapping guards, which in `init`/`next`
//! assignments means nondeterministic choice. Operators are applied value by value with the
//! explicit evaluator's own operator functions (`explicit::eval::{unary, binary}`), so both
//! engines share one meaning of every operator; the price is that arithmetic enumerates value
//! pairs (fine for the small ranges of SMV models). Words are the exception: a word variable,
//! and any operator, `case` or conversion over words that is one function of the state, is a
//! vector of bit BDDs ([`super::word_bits`]; NuSMV's encoding of words), so `a + b` on 32-bit
//! words is 32 full adders; a word is enumerated value by value only where an operator needs its
//! values (`toint`, a set of words, a shift by a variable amount), up to [`MAX_WORD_CASES`]
//! values. `count(…)` is the other exception: its distribution and its comparisons with
//! constants are built over the boolean arguments directly ([`super::cardinality`]).
//!
//! Errors (a `case` with no true branch, division by zero, overflow) are not failures here: each
//! is recorded as the region of states where it happens — restricted to where the subexpression
//! is actually evaluated (`case` branches, the right operand of a short-circuit connective) — and
//! the model builder reports one if a reachable state lies in it, as the explicit builder does.
//! Known difference: `a in S` with a set-valued `a` is read as "some value of `a` is in `S`".

use super::cardinality;
use super::encoding::{Copy, Encoding};
use super::word_bits::{self, Bits};
use super::{Bdd, SymResult, SymbolicError};
use crate::explicit::eval::{EvalError, binary, unary};
use crate::lowering::program::{BinOp, Builtin, Domain, Expr, UnOp, Value, VarId, Variable};
use oxidd::BooleanFunction;
use rustc_hash::FxHashMap;

/// The symbolic value of an expression.
#[derive(Clone)]
pub(crate) enum Sym {
    /// A boolean: where it is true.
    Bool(Bdd),
    /// Values with their guards.
    Cases(Vec<(Value, Bdd)>),
    /// A word, bit by bit.
    Word(Bits),
}

/// Evaluates expressions of one system over an [`Encoding`].
pub(crate) struct SymEval<'e> {
    enc: &'e Encoding,
    vars: &'e [Variable],
    /// Where the expression being evaluated is evaluated at all (errors outside do not count).
    ctx: Bdd,
    /// Error regions with their messages.
    pub errors: Vec<(String, Bdd)>,
    var_cache: FxHashMap<(VarId, bool), Vec<(Value, Bdd)>>,
    /// Expression nodes evaluated: every [`GROWTH_CHECK_EVERY`]th looks at the manager's growth.
    evaluated: u32,
    k: word_bits::Consts,
}

/// How often [`SymEval::eval`] looks at the manager's growth ([`Encoding::check_growth`]): its
/// node count takes one lock per BDD level, which at every node took a fifth of `syncarb10`'s
/// whole run.
const GROWTH_CHECK_EVERY: u32 = 64;

/// Largest set a `lo..hi` range may produce here.
const MAX_RANGE: i64 = 1 << 16;

/// Most values a word is enumerated into where an operator needs them one by one.
pub(crate) const MAX_WORD_CASES: usize = 1 << 16;

impl<'e> SymEval<'e> {
    pub(crate) fn new(enc: &'e Encoding, vars: &'e [Variable]) -> SymEval<'e> {
        let k = word_bits::Consts { t: enc.t(), f: enc.f() };
        SymEval { enc, vars, ctx: enc.t(), errors: vec![], var_cache: FxHashMap::default(), evaluated: 0, k }
    }

    pub(crate) fn encoding(&self) -> &'e Encoding {
        self.enc
    }

    /// The errors recorded since the last call, as one region per message.
    pub(crate) fn take_errors(&mut self) -> Vec<(String, Bdd)> {
        std::mem::take(&mut self.errors)
    }

    /// Where a boolean expression is true.
    pub(crate) fn bool(&mut self, e: &Expr) -> SymResult<Bdd> {
        let s = self.eval(e)?;
        self.as_bool(s)
    }

    /// The values of an expression with their guards.
    pub(crate) fn cases(&mut self, e: &Expr) -> SymResult<Vec<(Value, Bdd)>> {
        let s = self.eval(e)?;
        self.as_cases(s)
    }

    fn error(&mut self, message: String, region: &Bdd) -> SymResult<()> {
        let r = region.and(&self.ctx)?;
        if r.satisfiable() {
            match self.errors.iter_mut().find(|(m, _)| *m == message) {
                Some((_, g)) => *g = g.or(&r)?,
                None => self.errors.push((message, r)),
            }
        }
        Ok(())
    }

    fn eval_error(&mut self, e: &EvalError, region: &Bdd) -> SymResult<()> {
        let message = e.describe(self.vars);
        self.error(message, region)
    }

    fn as_bool(&mut self, s: Sym) -> SymResult<Bdd> {
        match s {
            Sym::Bool(b) => Ok(b),
            s @ Sym::Word(_) => {
                let cases = self.as_cases(s)?;
                self.as_bool(Sym::Cases(cases))
            }
            Sym::Cases(cases) => {
                let mut r = self.enc.f();
                for (v, g) in cases {
                    match v {
                        Value::Bool(true) => r = r.or(&g)?,
                        Value::Bool(false) => {}
                        v => self.eval_error(&EvalError::Type { expected: "boolean", found: v }, &g)?,
                    }
                }
                Ok(r)
            }
        }
    }

    /// The values of an evaluated expression with their guards (a word enumerated).
    pub(crate) fn as_cases(&self, s: Sym) -> SymResult<Vec<(Value, Bdd)>> {
        match s {
            Sym::Bool(b) => Ok(vec![(Value::Bool(false), b.not()?), (Value::Bool(true), b)]),
            Sym::Cases(c) => Ok(c),
            Sym::Word(w) => self.word_cases(&w),
        }
    }

    /// `x = s` on the given copy of the word variable `x`, bit by bit, when `s` is a word of
    /// `x`'s type; `None` otherwise.
    pub(crate) fn word_equals(&self, v: VarId, copy: Copy, s: &Sym) -> SymResult<Option<Bdd>> {
        let (Some(x), Some(w)) = (self.var_bits(v, copy), self.to_bits(s)?) else { return Ok(None) };
        if !x.same_type(&w) {
            return Ok(None);
        }
        Ok(Some(x.eq(&w, &self.k)?))
    }

    /// The bits of a word variable (its bit pattern, whatever its width); `None` for other
    /// variables.
    fn var_bits(&self, v: VarId, copy: Copy) -> Option<Bits> {
        let Domain::Word { width, signed, .. } = &self.vars[v.index()].domain else { return None };
        let bits = (0..usize::from(*width)).map(|k| self.enc.index_bit(v, copy, k).cloned()).collect::<Option<Vec<_>>>()?;
        Some(Bits { bits, signed: *signed })
    }

    /// A symbolic value as bits: a word, or cases that are words of one type with disjoint
    /// guards (a constant, a `case` over constants); `None` otherwise (a set, other values).
    fn to_bits(&self, s: &Sym) -> SymResult<Option<Bits>> {
        let cases = match s {
            Sym::Word(w) => return Ok(Some(w.clone())),
            Sym::Bool(_) => return Ok(None),
            Sym::Cases(c) => c,
        };
        let Some(&(Value::Word { width, signed, .. }, _)) = cases.first() else { return Ok(None) };
        let mut seen = self.enc.f();
        let mut bits = vec![self.enc.f(); usize::from(width)];
        for (v, g) in cases {
            let Value::Word { bits: pattern, width: w, signed: s } = *v else { return Ok(None) };
            if w != width || s != signed || g.and(&seen)?.satisfiable() {
                return Ok(None);
            }
            seen = seen.or(g)?;
            for (i, b) in bits.iter_mut().enumerate() {
                if i < 64 && pattern >> i & 1 == 1 {
                    *b = b.or(g)?;
                }
            }
        }
        Ok(Some(Bits { bits, signed }))
    }

    /// The values a word takes where the expression is evaluated, with their guards, found bit
    /// by bit from the most significant one (only the values it can take); an error past
    /// [`MAX_WORD_CASES`] values.
    fn word_cases(&self, w: &Bits) -> SymResult<Vec<(Value, Bdd)>> {
        let width = w.width() as u8;
        let mut out = vec![];
        let mut stack = vec![(w.width(), 0u64, self.ctx.clone())];
        while let Some((i, pattern, g)) = stack.pop() {
            if i == 0 {
                if out.len() == MAX_WORD_CASES {
                    return Err(SymbolicError(format!(
                        "a {width}-bit word takes more than {MAX_WORD_CASES} values where the BDD engine needs them one by one (`toint`, a set of words, a shift by a variable amount); use --engine explicit"
                    )));
                }
                out.push((Value::Word { bits: pattern, width, signed: w.signed }, g));
                continue;
            }
            let b = &w.bits[i - 1];
            let zero = g.and(&b.not()?)?;
            let one = g.and(b)?;
            if zero.satisfiable() {
                stack.push((i - 1, pattern, zero));
            }
            if one.satisfiable() {
                stack.push((i - 1, pattern | 1 << (i - 1), one));
            }
        }
        merge(out)
    }

    /// Runs `f` with the evaluation context narrowed to `guard`.
    fn under<T>(&mut self, guard: &Bdd, f: impl FnOnce(&mut Self) -> SymResult<T>) -> SymResult<T> {
        let narrowed = self.ctx.and(guard)?;
        let saved = std::mem::replace(&mut self.ctx, narrowed);
        let r = f(self);
        self.ctx = saved;
        r
    }

    fn var_cases(&mut self, v: VarId, copy: Copy) -> SymResult<Vec<(Value, Bdd)>> {
        let key = (v, copy == Copy::Next);
        if let Some(c) = self.var_cache.get(&key) {
            return Ok(c.clone());
        }
        let domain = &self.vars[v.index()].domain;
        let cases = (0..self.enc.domain_len(v)).map(|i| Ok((domain.value(i), self.enc.value_is(v, copy, i)?))).collect::<SymResult<Vec<_>>>()?;
        self.var_cache.insert(key, cases.clone());
        Ok(cases)
    }

    pub(crate) fn eval(&mut self, e: &Expr) -> SymResult<Sym> {
        self.evaluated = self.evaluated.wrapping_add(1);
        if self.evaluated.is_multiple_of(GROWTH_CHECK_EVERY) {
            self.enc.check_growth()?;
        }
        match e {
            Expr::Const(Value::Bool(b)) => Ok(Sym::Bool(if *b { self.enc.t() } else { self.enc.f() })),
            Expr::Const(v) => Ok(Sym::Cases(vec![(*v, self.enc.t())])),
            Expr::Var(v) | Expr::Next(v) => {
                let copy = if matches!(e, Expr::Var(_)) { Copy::Cur } else { Copy::Next };
                if matches!(self.vars[v.index()].domain, Domain::Boolean) {
                    return Ok(Sym::Bool(self.enc.value_is(*v, copy, 1)?));
                }
                if let Some(bits) = self.var_bits(*v, copy) {
                    return Ok(Sym::Word(bits));
                }
                Ok(Sym::Cases(self.var_cases(*v, copy)?))
            }
            Expr::Exited => Err(SymbolicError("EXITED outside a procedure module".into())),
            // A DEFINE body shared by its uses (`lowering`): the same BDDs at every use.
            Expr::Shared(inner) => self.eval(inner),
            Expr::Unary(op, a) => match (op, self.eval(a)?) {
                (UnOp::Not, Sym::Bool(b)) => Ok(Sym::Bool(b.not()?)),
                (UnOp::Not, Sym::Word(w)) => Ok(Sym::Word(w.not()?)),
                (UnOp::Neg, Sym::Word(w)) => Ok(Sym::Word(w.neg(&self.k)?)),
                (_, s) => {
                    let mut out = vec![];
                    for (v, g) in self.as_cases(s)? {
                        match unary(*op, v) {
                            Ok(r) => out.push((r, g)),
                            Err(err) => self.eval_error(&err, &g)?,
                        }
                    }
                    Ok(Sym::Cases(merge(out)?))
                }
            },
            Expr::Binary(op, a, b) => self.binary(*op, a, b),
            Expr::Ite(c, a, b) => {
                let c = self.bool(c)?;
                let nc = c.not()?;
                let x = self.under(&c, |s| s.eval(a))?;
                let y = self.under(&nc, |s| s.eval(b))?;
                self.choose(vec![(c, x), (nc, y)])
            }
            Expr::Case { branches, .. } => {
                let mut rest = self.enc.t();
                let mut taken = vec![];
                for (cond, value) in branches {
                    if !rest.satisfiable() {
                        break;
                    }
                    let c = self.under(&rest, |s| s.bool(cond))?;
                    let take = rest.and(&c)?;
                    if take.satisfiable() {
                        let v = self.under(&take, |s| s.eval(value))?;
                        taken.push((take, v));
                    }
                    rest = rest.and(&c.not()?)?;
                }
                if rest.satisfiable() {
                    self.error("case conditions are not exhaustive".into(), &rest)?;
                }
                self.choose(taken)
            }
            Expr::Table { var, entries, fallback, .. } => {
                let len = self.enc.domain_len(*var);
                let mut consts: Vec<(Value, Bdd)> = vec![];
                let mut others = vec![];
                let mut rest = self.enc.f();
                for i in 0..len {
                    let g = self.enc.value_is(*var, Copy::Cur, i)?;
                    match entries.get(i) {
                        Some(Some(Expr::Const(v))) => consts.push((*v, g)),
                        Some(Some(entry)) => {
                            let v = self.under(&g, |s| s.eval(entry))?;
                            others.push((g, v));
                        }
                        _ => rest = rest.or(&g)?,
                    }
                }
                if rest.satisfiable() {
                    match fallback {
                        Some(f) => {
                            let v = self.under(&rest, |s| s.eval(f))?;
                            others.push((rest, v));
                        }
                        None => self.error("case conditions are not exhaustive".into(), &rest)?,
                    }
                }
                let consts = merge(consts)?;
                if !consts.is_empty() {
                    let mut guard = self.enc.f();
                    for (_, g) in &consts {
                        guard = guard.or(g)?;
                    }
                    others.push((guard, Sym::Cases(consts)));
                }
                self.choose(others)
            }
            Expr::Set(items) => {
                let mut out = vec![];
                for item in items {
                    let s = self.eval(item)?;
                    out.extend(self.as_cases(s)?);
                }
                Ok(Sym::Cases(merge(out)?))
            }
            Expr::Range(lo, hi) => {
                let (lo, hi) = (self.cases(lo)?, self.cases(hi)?);
                let mut out = vec![];
                for (l, gl) in &lo {
                    for (h, gh) in &hi {
                        let g = gl.and(gh)?;
                        if !g.satisfiable() {
                            continue;
                        }
                        match (l, h) {
                            (Value::Int(l), Value::Int(h)) if h.saturating_sub(*l) < MAX_RANGE => out.extend((*l..=*h).map(|i| (Value::Int(i), g.clone()))),
                            (Value::Int(l), Value::Int(h)) => self.eval_error(&EvalError::RangeTooLarge { lo: *l, hi: *h }, &g)?,
                            (v, _) => self.eval_error(&EvalError::Type { expected: "integer", found: *v }, &g)?,
                        }
                    }
                }
                Ok(Sym::Cases(merge(out)?))
            }
            Expr::Builtin(Builtin::Count, args) => {
                let terms = args.iter().map(|a| self.bool(a)).collect::<SymResult<Vec<_>>>()?;
                Ok(Sym::Cases(cardinality::distribution(self.enc, &terms)?))
            }
            Expr::Builtin(f, args) => {
                let mut evaluated = Vec::with_capacity(args.len());
                for a in args {
                    evaluated.push(self.eval(a)?);
                }
                if let Some(r) = self.word_builtin(*f, &evaluated)? {
                    return Ok(r);
                }
                let mut combos: Vec<(Vec<Value>, Bdd)> = vec![(vec![], self.enc.t())];
                for a in evaluated {
                    let cases = self.as_cases(a)?;
                    let mut next = vec![];
                    for (vals, g) in &combos {
                        for (v, gv) in &cases {
                            let both = g.and(gv)?;
                            if both.satisfiable() {
                                let mut vs = vals.clone();
                                vs.push(*v);
                                next.push((vs, both));
                            }
                        }
                    }
                    combos = next;
                }
                let mut out = vec![];
                for (vals, g) in combos {
                    match crate::lowering::ops::builtin(*f, &vals) {
                        Ok(v) => out.push((v, g)),
                        Err(err) => self.error(err.to_string(), &g)?,
                    }
                }
                Ok(Sym::Cases(merge(out)?))
            }
        }
    }

    /// The value of the first alternative whose guard holds (guards are disjoint).
    fn choose(&mut self, alternatives: Vec<(Bdd, Sym)>) -> SymResult<Sym> {
        if alternatives.iter().all(|(_, s)| matches!(s, Sym::Bool(_))) {
            let mut r = self.enc.f();
            for (g, s) in alternatives {
                if let Sym::Bool(b) = s {
                    r = r.or(&g.and(&b)?)?;
                }
            }
            return Ok(Sym::Bool(r));
        }
        if alternatives.iter().any(|(_, s)| matches!(s, Sym::Word(_)))
            && let Some(w) = self.choose_bits(&alternatives)?
        {
            return Ok(Sym::Word(w));
        }
        let mut out = vec![];
        for (g, s) in alternatives {
            for (v, gv) in self.as_cases(s)? {
                let both = g.and(&gv)?;
                if both.satisfiable() {
                    out.push((v, both));
                }
            }
        }
        Ok(Sym::Cases(merge(out)?))
    }

    fn binary(&mut self, op: BinOp, a: &Expr, b: &Expr) -> SymResult<Sym> {
        if let Some((args, threshold)) = cardinality::recognise(op, a, b) {
            // `count(…) OP k`: only the thresholds up to k (`symbolic::cardinality`).
            let terms = args.iter().map(|a| self.bool(a)).collect::<SymResult<Vec<_>>>()?;
            return Ok(Sym::Bool(cardinality::compare(self.enc, &terms, threshold)?));
        }
        let x = self.eval(a)?;
        if let Sym::Bool(xb) = &x {
            // Short-circuit connectives: the right operand is evaluated only where needed.
            let needed = match op {
                BinOp::And | BinOp::Implies => Some(xb.clone()),
                BinOp::Or => Some(xb.not()?),
                _ => None,
            };
            let y = match &needed {
                Some(g) => self.under(g, |s| s.eval(b))?,
                None => self.eval(b)?,
            };
            if let Sym::Bool(yb) = &y {
                let r = match op {
                    BinOp::And => xb.and(yb)?,
                    BinOp::Or => xb.or(yb)?,
                    BinOp::Implies => xb.imp(yb)?,
                    BinOp::Xor | BinOp::Ne => xb.xor(yb)?,
                    BinOp::Xnor | BinOp::Iff | BinOp::Eq => xb.equiv(yb)?,
                    _ => return self.pairwise(op, x, y),
                };
                return Ok(Sym::Bool(r));
            }
            return self.pairwise(op, x, y);
        }
        let y = self.eval(b)?;
        self.pairwise(op, x, y)
    }

    fn pairwise(&mut self, op: BinOp, x: Sym, y: Sym) -> SymResult<Sym> {
        if (matches!(x, Sym::Word(_)) || matches!(y, Sym::Word(_)))
            && let Some(r) = self.word_binary(op, &x, &y)?
        {
            return Ok(r);
        }
        let (xs, ys) = (self.as_cases(x)?, self.as_cases(y)?);
        if matches!(op, BinOp::Eq | BinOp::Ne | BinOp::In) {
            // Equality of values is structural: join on the value.
            let index: FxHashMap<Value, &Bdd> = ys.iter().map(|(v, g)| (*v, g)).collect();
            let mut eq = self.enc.f();
            for (v, g) in &xs {
                if let Some(h) = index.get(v) {
                    eq = eq.or(&g.and(h)?)?;
                }
            }
            return Ok(Sym::Bool(if op == BinOp::Ne { eq.not()? } else { eq }));
        }
        let mut out = vec![];
        for (x, gx) in &xs {
            for (y, gy) in &ys {
                let g = gx.and(gy)?;
                if !g.satisfiable() {
                    continue;
                }
                match binary(op, *x, *y) {
                    Ok(v) => out.push((v, g)),
                    Err(err) => self.eval_error(&err, &g)?,
                }
            }
        }
        Ok(Sym::Cases(merge(out)?))
    }
}

impl SymEval<'_> {
    /// Alternatives with disjoint guards that are all words of one type, chosen bit by bit;
    /// `None` when some alternative is not.
    fn choose_bits(&self, alternatives: &[(Bdd, Sym)]) -> SymResult<Option<Bits>> {
        let mut out: Option<Bits> = None;
        for (g, s) in alternatives {
            let Some(w) = self.to_bits(s)? else { return Ok(None) };
            let acc = match out {
                None => Bits { bits: vec![self.enc.f(); w.width()], signed: w.signed },
                Some(acc) if acc.same_type(&w) => acc,
                Some(_) => return Ok(None),
            };
            out = Some(Bits::mux(g, &w, &acc)?);
        }
        Ok(out)
    }

    /// A binary operator with a word operand, bit by bit; `None` when the operands are not
    /// words of the types the operator needs (the value-by-value evaluation then decides).
    fn word_binary(&mut self, op: BinOp, x: &Sym, y: &Sym) -> SymResult<Option<Sym>> {
        let k = self.k.clone();
        if let BinOp::Shl | BinOp::Shr = op {
            let Some(a) = self.to_bits(x)? else { return Ok(None) };
            let mut out = Bits::constant(&k, 0, a.width() as u8, a.signed);
            for (amount, g) in self.as_cases(y.clone())? {
                let n = match amount {
                    Value::Int(i) => i128::from(i),
                    Value::Word { bits, width, signed: true } => i128::from(crate::ir::words::sign_extend(bits, width)),
                    Value::Word { bits, .. } => i128::from(bits),
                    v => {
                        self.eval_error(&EvalError::Type { expected: "integer", found: v }, &g)?;
                        continue;
                    }
                };
                if !(0..=a.width() as i128).contains(&n) {
                    self.eval_error(&EvalError::ShiftOutOfRange, &g)?;
                    continue;
                }
                out = Bits::mux(&g, &a.shift(op == BinOp::Shl, n as usize, &k), &out)?;
            }
            return Ok(Some(Sym::Word(out)));
        }
        let (a, b) = (self.to_bits(x)?, self.to_bits(y)?);
        if let BinOp::Eq | BinOp::Ne | BinOp::In = op {
            // One side a word, the other values (a set, or words of another type): the join on
            // the value, one comparison with a constant per value.
            let (w, other) = match (&a, &b) {
                (Some(a), Some(b)) if a.same_type(b) => {
                    let eq = a.eq(b, &k)?;
                    return Ok(Some(Sym::Bool(if op == BinOp::Ne { eq.not()? } else { eq })));
                }
                (Some(w), _) if matches!(x, Sym::Word(_)) => (w, y),
                (_, Some(w)) if matches!(y, Sym::Word(_)) => (w, x),
                _ => return Ok(None),
            };
            let mut eq = self.enc.f();
            for (v, g) in self.as_cases(other.clone())? {
                if let Value::Word { bits, width, signed } = v
                    && usize::from(width) == w.width()
                    && signed == w.signed
                {
                    eq = eq.or(&g.and(&w.eq(&Bits::constant(&k, bits, width, signed), &k)?)?)?;
                }
            }
            return Ok(Some(Sym::Bool(if op == BinOp::Ne { eq.not()? } else { eq })));
        }
        let (Some(a), Some(b)) = (a, b) else { return Ok(None) };
        if op == BinOp::Concat {
            return Ok((a.width() + b.width() <= 64).then(|| Sym::Word(Bits::concat(&a, &b))));
        }
        if !a.same_type(&b) {
            return Ok(None);
        }
        let word = |w: Bits| Ok(Some(Sym::Word(w)));
        let boolean = |b: Bdd| Ok(Some(Sym::Bool(b)));
        match op {
            BinOp::Add => word(a.add(&b, &k)?),
            BinOp::Sub => word(a.sub(&b, &k)?),
            BinOp::Mul => word(a.mul(&b, &k)?),
            BinOp::Div | BinOp::Mod => {
                let zero = b.is_zero(&k)?;
                self.eval_error(&EvalError::DivisionByZero, &zero)?;
                word(a.divide(&b, op == BinOp::Div, &k)?)
            }
            BinOp::And => word(a.bitwise(&b, |x, y| Ok(x.and(y)?))?),
            BinOp::Or => word(a.bitwise(&b, |x, y| Ok(x.or(y)?))?),
            BinOp::Xor => word(a.bitwise(&b, |x, y| Ok(x.xor(y)?))?),
            BinOp::Xnor | BinOp::Iff => word(a.bitwise(&b, |x, y| Ok(x.equiv(y)?))?),
            BinOp::Implies => word(a.bitwise(&b, |x, y| Ok(x.imp(y)?))?),
            BinOp::Lt => boolean(a.less(&b, &k)?),
            BinOp::Gt => boolean(b.less(&a, &k)?),
            BinOp::Le => boolean(b.less(&a, &k)?.not()?),
            BinOp::Ge => boolean(a.less(&b, &k)?.not()?),
            _ => Ok(None),
        }
    }

    /// The word built-ins on a word argument (`word1` on a boolean), bit by bit; `None` for the
    /// others (`toint`, `abs`, …), which take the argument's values.
    fn word_builtin(&self, f: Builtin, args: &[Sym]) -> SymResult<Option<Sym>> {
        let k = &self.k;
        if let (Builtin::Word1, [Sym::Bool(b)]) = (f, args) {
            return Ok(Some(Sym::Word(Bits { bits: vec![b.clone()], signed: false })));
        }
        let [arg] = args else { return Ok(None) };
        if !matches!(arg, Sym::Word(_)) {
            return Ok(None);
        }
        let Some(w) = self.to_bits(arg)? else { return Ok(None) };
        Ok(match f {
            Builtin::Resize(to) if to >= 1 => Some(Sym::Word(w.resize(to, k))),
            Builtin::Signed => Some(Sym::Word(w.reinterpret(true))),
            Builtin::Unsigned => Some(Sym::Word(w.reinterpret(false))),
            Builtin::Select(hi, lo) => w.select(hi, lo).map(Sym::Word),
            Builtin::Bool if w.width() == 1 => Some(Sym::Bool(w.bits[0].clone())),
            _ => None,
        })
    }
}

/// Joins the guards of equal values (sorted by value, so the result does not depend on hashing).
pub(crate) fn merge(mut cases: Vec<(Value, Bdd)>) -> SymResult<Vec<(Value, Bdd)>> {
    cases.sort_by_key(|c| c.0);
    let mut out: Vec<(Value, Bdd)> = Vec::with_capacity(cases.len());
    for (v, g) in cases {
        match out.last_mut() {
            Some((w, h)) if *w == v => *h = h.or(&g)?,
            _ => out.push((v, g)),
        }
    }
    Ok(out)
}
