//! Normalisation of one constraint conjunct into guarded alternatives, for [`super::solve`].
//!
//! A constraint `c` of a plan (a `TRANS`, `INIT` or `INVAR` conjunct, `DEFINE`s already expanded)
//! becomes a list of [`Alt`]ernatives whose union is `c`: each is a conjunction of
//!
//! - *tests*: conditions that read no variable the plan assigns (in a transition: the current
//!   state and the inputs), decided before any value is chosen; `x = c` tests are kept as
//!   `(variable, value index)` pairs so that alternatives can be indexed by them;
//! - *bindings*: `v = e`, `v != e`, `v in S` where `v` is a variable the plan assigns (`next(x)`
//!   in a transition, `x` in an initial state) and `e` reads only the current state and variables
//!   assigned before `v` (`next(x) = next(y)` binds whichever comes later);
//! - a *residual*: conjuncts of any other form, checked as soon as what they read is assigned.
//!
//! Rules: `|` chains are split into alternatives, `&` chains multiply their factors' alternatives
//! (a factor whose product would exceed [`PRODUCT_LIMIT`] stays whole as a residual), `g -> b`,
//! `g ? a : b` and `case` with conditions `g` that are tests become alternatives guarded by the
//! test (a `case` by "its first true condition is branch k"), `case` tables over a current
//! variable by that variable's value, `count(l1, …, ln) = 0` and `= 1` over literals `li` that are
//! bindings become the alternatives "all false" and "exactly `li` true". Chains of thousands of
//! `|`/`&` terms are walked with explicit stacks; other nesting goes through `stacker`.
//!
//! Assumes the conjunct cannot fail (see [`super::fallible`]): alternatives evaluate its parts in
//! another order and on fewer candidate vectors than plain evaluation would.

use super::{DomainIndex, Frame, reads};
use crate::lowering::program::{BinOp, Builtin, Domain, Expr, System, UnOp, Value, VarId};

/// Largest number of alternatives a conjunction `a & b` may multiply out to.
pub(super) const PRODUCT_LIMIT: usize = 4096;
/// Largest number of alternatives of one conjunct before the decomposition gives up.
const TOTAL_LIMIT: usize = 1 << 18;
/// Largest `count(…)` argument list expanded into alternatives.
const COUNT_LIMIT: usize = 64;

/// A condition on the values the plan does not assign.
#[derive(Clone, Copy, Debug)]
pub(super) enum Test<'p> {
    /// The variable's value has this index.
    Is {
        var: VarId,
        idx: u32,
    },
    Holds(&'p Expr),
    Fails(&'p Expr),
    /// The first true condition of `case` selector `sel` is branch `branch`.
    Select {
        sel: u32,
        branch: u32,
    },
    /// The variable's value has no entry in the table (its fallback applies).
    NoEntry {
        var: VarId,
        entries: &'p [Option<Expr>],
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Rel {
    Eq,
    Ne,
    In,
}

/// The right-hand side of a binding.
#[derive(Clone, Copy, Debug)]
pub(super) enum Operand<'p> {
    /// A constant, as a value index of the bound variable (`None`: not in its domain).
    Index(Option<u32>),
    /// The value index of another variable with the same domain: of the current state
    /// (`next: false`, or in the vector being built outside transitions) or of the next one.
    Copy {
        var: VarId,
        next: bool,
    },
    Expr(&'p Expr),
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Bind<'p> {
    /// Position of the bound variable's slot in the plan.
    pub pos: u32,
    pub var: VarId,
    pub rel: Rel,
    pub rhs: Operand<'p>,
}

#[derive(Clone, Debug, Default)]
pub(super) struct Alt<'p> {
    pub tests: Vec<Test<'p>>,
    pub binds: Vec<Bind<'p>>,
    pub residual: Vec<&'p Expr>,
}

impl Alt<'_> {
    /// Holds whenever its tests do.
    pub(super) fn is_trivial(&self) -> bool {
        self.binds.is_empty() && self.residual.is_empty()
    }
}

/// What the decomposition needs to know about the plan.
pub(super) struct Decomposer<'a, 'p> {
    pub system: &'p System,
    pub domains: &'p DomainIndex,
    pub frame: Frame,
    /// Position of each variable's slot in the plan (`usize::MAX`: not assigned by the plan).
    pub pos_of_var: &'a [usize],
    /// `case` selectors: the branches of each.
    pub selectors: &'a mut Vec<&'p [(Expr, Expr)]>,
    created: usize,
}

impl<'a, 'p> Decomposer<'a, 'p> {
    pub(super) fn new(system: &'p System, domains: &'p DomainIndex, frame: Frame, pos_of_var: &'a [usize], selectors: &'a mut Vec<&'p [(Expr, Expr)]>) -> Self {
        Decomposer { system, domains, frame, pos_of_var, selectors, created: 0 }
    }

    /// The alternatives of `e`, or `None` if there would be too many.
    pub(super) fn decompose(&mut self, e: &'p Expr) -> Option<Vec<Alt<'p>>> {
        self.created = 0;
        let alts = self.alts(e);
        (self.created <= TOTAL_LIMIT).then_some(alts)
    }

    /// `e` split into conjuncts, each as its alternatives: `g -> (a & b)` with `g` a test becomes
    /// `g -> a` and `g -> b` (the alternatives "`g` fails" and those of `a`, resp. `b`), so that
    /// a conjunction of guarded blocks does not multiply out. `None` if there would be too many
    /// alternatives.
    pub(super) fn pieces(&mut self, e: &'p Expr) -> Option<Vec<Vec<Alt<'p>>>> {
        let mut out = vec![];
        let mut work: Vec<(Vec<&'p Expr>, &'p Expr)> = vec![(vec![], e)];
        while let Some((guards, x)) = work.pop() {
            match x {
                Expr::Binary(BinOp::And, ..) if !guards.is_empty() => {
                    for f in chain(x, BinOp::And).into_iter().rev() {
                        work.push((guards.clone(), f));
                    }
                }
                Expr::Binary(BinOp::Implies, a, b) if self.last_read(a).is_none() => {
                    let mut g = guards;
                    g.push(a);
                    work.push((g, b));
                }
                _ => {
                    let mut alts: Vec<Alt<'p>> = guards.iter().map(|g| Alt { tests: vec![self.test(g, false)], ..Alt::default() }).collect();
                    alts.extend(self.decompose(x)?);
                    out.push(alts);
                }
            }
        }
        Some(out)
    }

    /// The largest slot position `e` reads, `None` if it reads none (a test).
    fn last_read(&self, e: &Expr) -> Option<usize> {
        let mut vars = vec![];
        reads(e, self.frame, &mut vars);
        vars.into_iter().map(|v| self.pos_of_var.get(v.index()).copied().unwrap_or(usize::MAX)).filter(|&p| p != usize::MAX).max()
    }

    /// `e` is directly a variable the plan assigns (in this frame): it and its slot position.
    fn slot_var(&self, e: &Expr) -> Option<(VarId, usize)> {
        let v = match (e, self.frame) {
            (Expr::Next(v), Frame::Trans) => *v,
            (Expr::Var(v), Frame::Init | Frame::NextInvar) => *v,
            _ => return None,
        };
        let p = *self.pos_of_var.get(v.index())?;
        (p != usize::MAX).then_some((v, p))
    }

    fn alts(&mut self, e: &'p Expr) -> Vec<Alt<'p>> {
        let out = stacker::maybe_grow(64 * 1024, 2 * 1024 * 1024, || self.alts_inner(e));
        self.created += out.len();
        out
    }

    fn alts_inner(&mut self, e: &'p Expr) -> Vec<Alt<'p>> {
        if self.created > TOTAL_LIMIT {
            return self.whole(e);
        }
        match e {
            Expr::Const(Value::Bool(true)) => vec![Alt::default()],
            Expr::Const(Value::Bool(false)) => vec![],
            Expr::Binary(BinOp::Or, ..) => {
                let mut out = vec![];
                for d in chain(e, BinOp::Or) {
                    out.extend(self.alts(d));
                    if self.created + out.len() > TOTAL_LIMIT {
                        return self.whole(e);
                    }
                }
                out
            }
            Expr::Binary(BinOp::And, ..) => {
                let mut acc = vec![Alt::default()];
                for f in chain(e, BinOp::And) {
                    let mut fa = self.alts(f);
                    if acc.len().saturating_mul(fa.len()) > PRODUCT_LIMIT {
                        fa = self.whole(f);
                    }
                    acc = product(acc, fa);
                    if acc.is_empty() {
                        break;
                    }
                }
                acc
            }
            Expr::Binary(BinOp::Implies, a, b) if self.last_read(a).is_none() => {
                let mut out = vec![Alt { tests: vec![self.test(a, false)], ..Alt::default() }];
                out.extend(self.alts(b));
                out
            }
            Expr::Ite(c, a, b) if self.last_read(c).is_none() => {
                let mut out = guarded(self.alts(a), self.test(c, true));
                out.extend(guarded(self.alts(b), self.test(c, false)));
                out
            }
            Expr::Case { branches, .. }
                if matches!(branches.last(), Some((Expr::Const(Value::Bool(true)), _))) && branches.iter().all(|(c, _)| self.last_read(c).is_none()) =>
            {
                let sel = self.selectors.len() as u32;
                self.selectors.push(branches);
                let mut out = vec![];
                for (k, (_, v)) in branches.iter().enumerate() {
                    out.extend(guarded(self.alts(v), Test::Select { sel, branch: k as u32 }));
                }
                out
            }
            Expr::Table { var, entries, fallback, .. } if self.frame == Frame::Trans => {
                let mut out = vec![];
                for (k, entry) in entries.iter().enumerate() {
                    if let Some(x) = entry {
                        out.extend(guarded(self.alts(x), Test::Is { var: *var, idx: k as u32 }));
                    }
                }
                if let Some(f) = fallback {
                    out.extend(guarded(self.alts(f), Test::NoEntry { var: *var, entries }));
                }
                out
            }
            _ => self.atom(e),
        }
    }

    /// `e` as one alternative: a test if it reads nothing the plan assigns, else a residual.
    fn whole(&mut self, e: &'p Expr) -> Vec<Alt<'p>> {
        if self.last_read(e).is_none() { vec![Alt { tests: vec![self.test(e, true)], ..Alt::default() }] } else { residual(e) }
    }

    /// A test that `e` holds (`positive`) or fails.
    fn test(&self, e: &'p Expr, positive: bool) -> Test<'p> {
        let is = |var: VarId, value: Value| -> Option<Test<'p>> {
            let idx = self.domains.index_of(self.system, var, value)?;
            Some(Test::Is { var, idx })
        };
        let found = match e {
            Expr::Binary(BinOp::Eq, a, b) if positive => match (&**a, &**b) {
                (Expr::Var(v), Expr::Const(c)) | (Expr::Const(c), Expr::Var(v)) => is(*v, *c),
                _ => None,
            },
            Expr::Var(v) if self.is_boolean(*v) => is(*v, Value::Bool(positive)),
            Expr::Unary(UnOp::Not, a) => match &**a {
                Expr::Var(v) if self.is_boolean(*v) => is(*v, Value::Bool(!positive)),
                _ => None,
            },
            _ => None,
        };
        found.unwrap_or(if positive { Test::Holds(e) } else { Test::Fails(e) })
    }

    fn is_boolean(&self, v: VarId) -> bool {
        self.system.vars.get(v.index()).is_some_and(|x| x.domain == Domain::Boolean)
    }

    /// A conjunct that is not a connective: a test, a binding, a `count`, or a residual.
    fn atom(&mut self, e: &'p Expr) -> Vec<Alt<'p>> {
        if self.last_read(e).is_none() {
            if let Test::Is { .. } = self.test(e, true) {
                return vec![Alt { tests: vec![self.test(e, true)], ..Alt::default() }];
            }
            return vec![Alt { tests: vec![Test::Holds(e)], ..Alt::default() }];
        }
        if let Some(b) = self.literal(e) {
            return vec![Alt { binds: vec![b], ..Alt::default() }];
        }
        if let Expr::Binary(BinOp::Eq, a, b) = e {
            let counted = match (&**a, &**b) {
                (Expr::Builtin(Builtin::Count, args), Expr::Const(Value::Int(k))) | (Expr::Const(Value::Int(k)), Expr::Builtin(Builtin::Count, args)) => {
                    self.count(args, *k)
                }
                _ => None,
            };
            if let Some(alts) = counted {
                return alts;
            }
        }
        if let Expr::Unary(UnOp::Not, a) = e
            && let Expr::Unary(UnOp::Not, inner) = &**a
        {
            return self.alts(inner);
        }
        residual(e)
    }

    /// `e` as a single binding, if it is one.
    fn literal(&self, e: &'p Expr) -> Option<Bind<'p>> {
        match e {
            Expr::Binary(BinOp::Eq | BinOp::Iff | BinOp::Xnor, a, b) => self.bind(a, b, Rel::Eq),
            Expr::Binary(BinOp::Ne | BinOp::Xor, a, b) => self.bind(a, b, Rel::Ne),
            Expr::Binary(BinOp::In, a, b) => {
                let (x, p) = self.slot_var(a)?;
                self.before(b, p).then_some(Bind { pos: p as u32, var: x, rel: Rel::In, rhs: Operand::Expr(b) })
            }
            Expr::Unary(UnOp::Not, a) => match &**a {
                Expr::Binary(BinOp::Eq | BinOp::Iff | BinOp::Xnor, a, b) => self.bind(a, b, Rel::Ne),
                Expr::Binary(BinOp::Ne | BinOp::Xor, a, b) => self.bind(a, b, Rel::Eq),
                x => {
                    let (v, p) = self.slot_var(x).filter(|(v, _)| self.is_boolean(*v))?;
                    Some(Bind { pos: p as u32, var: v, rel: Rel::Eq, rhs: Operand::Index(Some(0)) })
                }
            },
            x => {
                let (v, p) = self.slot_var(x).filter(|(v, _)| self.is_boolean(*v))?;
                Some(Bind { pos: p as u32, var: v, rel: Rel::Eq, rhs: Operand::Index(Some(1)) })
            }
        }
    }

    /// Whether everything `e` reads is assigned before slot position `p`.
    fn before(&self, e: &Expr, p: usize) -> bool {
        self.last_read(e).is_none_or(|q| q < p)
    }

    /// `a rel b` as a binding of whichever side is a variable assigned after what the other
    /// side reads.
    fn bind(&self, a: &'p Expr, b: &'p Expr, rel: Rel) -> Option<Bind<'p>> {
        let make = |(x, p): (VarId, usize), rhs: &'p Expr| Bind { pos: p as u32, var: x, rel, rhs: self.operand(x, rhs) };
        if let Some(xp) = self.slot_var(a)
            && self.before(b, xp.1)
        {
            return Some(make(xp, b));
        }
        let yp = self.slot_var(b)?;
        self.before(a, yp.1).then(|| make(yp, a))
    }

    fn operand(&self, x: VarId, e: &'p Expr) -> Operand<'p> {
        let domain = |v: VarId| self.system.vars.get(v.index()).map(|x| &x.domain);
        match e {
            Expr::Const(c) => Operand::Index(self.domains.index_of(self.system, x, *c)),
            Expr::Var(v) if domain(*v) == domain(x) => Operand::Copy { var: *v, next: false },
            Expr::Next(v) if domain(*v) == domain(x) => Operand::Copy { var: *v, next: true },
            _ => Operand::Expr(e),
        }
    }

    /// `count(args) = k` for `k` 0 or 1 and literal arguments.
    fn count(&self, args: &'p [Expr], k: i64) -> Option<Vec<Alt<'p>>> {
        if args.len() > COUNT_LIMIT || !(0..=1).contains(&k) {
            return None;
        }
        let lits: Vec<Bind<'p>> = args.iter().map(|a| self.literal(a).filter(|b| b.rel != Rel::In)).collect::<Option<_>>()?;
        let negate = |b: &Bind<'p>| Bind { rel: if b.rel == Rel::Eq { Rel::Ne } else { Rel::Eq }, ..*b };
        if k == 0 {
            return Some(vec![Alt { binds: lits.iter().map(negate).collect(), ..Alt::default() }]);
        }
        Some(
            (0..lits.len())
                .map(|i| Alt { binds: lits.iter().enumerate().map(|(j, b)| if i == j { *b } else { negate(b) }).collect(), ..Alt::default() })
                .collect(),
        )
    }
}

fn residual(e: &Expr) -> Vec<Alt<'_>> {
    vec![Alt { residual: vec![e], ..Alt::default() }]
}

fn guarded<'p>(mut alts: Vec<Alt<'p>>, test: Test<'p>) -> Vec<Alt<'p>> {
    for a in &mut alts {
        a.tests.insert(0, test);
    }
    alts
}

/// Every alternative of `a` combined with every alternative of `b`.
fn product<'p>(a: Vec<Alt<'p>>, b: Vec<Alt<'p>>) -> Vec<Alt<'p>> {
    if let [single] = b.as_slice() {
        let mut a = a;
        for x in &mut a {
            x.tests.extend_from_slice(&single.tests);
            x.binds.extend_from_slice(&single.binds);
            x.residual.extend_from_slice(&single.residual);
        }
        return a;
    }
    let mut out = Vec::with_capacity(a.len() * b.len());
    for x in &a {
        for y in &b {
            let mut z = x.clone();
            z.tests.extend_from_slice(&y.tests);
            z.binds.extend_from_slice(&y.binds);
            z.residual.extend_from_slice(&y.residual);
            out.push(z);
        }
    }
    out
}

/// The operands of a chain of `op` (any nesting), left to right, without recursion.
fn chain(e: &Expr, op: BinOp) -> Vec<&Expr> {
    let mut out = vec![];
    let mut stack = vec![e];
    while let Some(x) = stack.pop() {
        match x {
            Expr::Binary(o, a, b) if *o == op => {
                stack.push(b);
                stack.push(a);
            }
            _ => out.push(x),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explicit::test_support::*;

    fn decompose<'p>(m: &'p System, domains: &'p DomainIndex, e: &'p Expr) -> (Vec<Alt<'p>>, usize) {
        let pos: Vec<usize> = (0..m.vars.len()).collect();
        let mut selectors = vec![];
        let alts = Decomposer::new(m, domains, Frame::Trans, &pos, &mut selectors).decompose(e).expect("not too many");
        (alts, selectors.len())
    }

    #[test]
    fn guarded_updates_with_unchanged_parts() {
        // (pc = 0 & next(pc) = 1 & next(y) = y) | (pc = 1 & next(pc) = 0 & y = next(y) & next(b))
        let m = system("main", &[("pc", Domain::Range { lo: 0, hi: 1 }), ("y", syms(3)), ("b", Domain::Boolean)]);
        let d = DomainIndex::new(&m);
        let g0 = bin(BinOp::And, bin(BinOp::And, eq(var(0), int(0)), eq(next(0), int(1))), eq(next(1), var(1)));
        let g1 = bin(BinOp::And, bin(BinOp::And, bin(BinOp::And, eq(var(0), int(1)), eq(next(0), int(0))), eq(var(1), next(1))), next(2));
        let e = bin(BinOp::Or, g0, g1);
        let (alts, _) = decompose(&m, &d, &e);
        assert_eq!(alts.len(), 2);
        let v = VarId::new;
        assert!(matches!(alts[0].tests[..], [Test::Is { var, idx: 0 }] if var == v(0)));
        assert!(matches!(alts[1].tests[..], [Test::Is { var, idx: 1 }] if var == v(0)));
        assert!(matches!(
            alts[0].binds[..],
            [Bind { var: a, rel: Rel::Eq, rhs: Operand::Index(Some(1)), .. }, Bind { var: b, rhs: Operand::Copy { var: c, next: false }, .. }]
                if (a, b, c) == (v(0), v(1), v(1))
        ));
        assert!(matches!(alts[1].binds[2], Bind { var, rel: Rel::Eq, rhs: Operand::Index(Some(1)), .. } if var == v(2)));
        assert!(alts.iter().all(|a| a.residual.is_empty()));
    }

    #[test]
    fn guarded_conjunctions_split_into_pieces() {
        // a -> (next(b) & (c -> next(c))): two conjuncts, not a product
        let m = system("main", &[("a", Domain::Boolean), ("b", Domain::Boolean), ("c", Domain::Boolean)]);
        let d = DomainIndex::new(&m);
        let e = bin(BinOp::Implies, var(0), bin(BinOp::And, next(1), bin(BinOp::Implies, var(2), next(2))));
        let pos: Vec<usize> = (0..3).collect();
        let mut selectors = vec![];
        let pieces = Decomposer::new(&m, &d, Frame::Trans, &pos, &mut selectors).pieces(&e).expect("not too many");
        assert_eq!(pieces.len(), 2);
        assert_eq!(pieces[0].len(), 2);
        assert!(pieces[0][0].is_trivial() && matches!(pieces[0][1].binds[..], [Bind { var, .. }] if var == VarId::new(1)));
        assert_eq!(pieces[1].len(), 3);
        assert!(matches!(pieces[1][1].tests[..], [Test::Is { var, idx: 0 }] if var == VarId::new(2)));
        assert!(matches!(pieces[1][2].binds[..], [Bind { var, .. }] if var == VarId::new(2)));
    }

    #[test]
    fn deep_chains_do_not_overflow_the_stack() {
        let m = system("main", &[("x", Domain::Range { lo: 0, hi: 9 })]);
        let d = DomainIndex::new(&m);
        let term = |i: i64| bin(BinOp::And, eq(var(0), int(i % 10)), eq(next(0), int((i + 1) % 10)));
        let mut left = term(0);
        let mut right = term(0);
        for i in 1..20_000 {
            left = bin(BinOp::Or, left, term(i));
            right = bin(BinOp::Or, term(i), right);
        }
        assert_eq!(decompose(&m, &d, &left).0.len(), 20_000);
        assert_eq!(decompose(&m, &d, &right).0.len(), 20_000);
        std::mem::forget(left); // dropping a 20 000-deep Box chain recursively could itself overflow
        std::mem::forget(right);
    }

    #[test]
    fn case_implication_and_count() {
        let m = system("main", &[("a", Domain::Boolean), ("b", Domain::Boolean), ("c", Domain::Boolean)]);
        let d = DomainIndex::new(&m);
        // case a : next(b); TRUE : !next(b); esac
        let e = case(vec![(var(0), next(1)), (boolean(true), not(next(1)))], Default::default());
        let (alts, selectors) = decompose(&m, &d, &e);
        assert_eq!((alts.len(), selectors), (2, 1));
        assert!(matches!(alts[1].tests[..], [Test::Select { sel: 0, branch: 1 }]));
        // a -> next(c) = b: the test !a, or the binding
        let e = bin(BinOp::Implies, var(0), eq(next(2), var(1)));
        let (alts, _) = decompose(&m, &d, &e);
        assert_eq!(alts.len(), 2);
        assert!(alts[0].is_trivial() && matches!(alts[0].tests[..], [Test::Is { var, idx: 0 }] if var == VarId::new(0)));
        // count(next(a) != a, next(b) != b, next(c) != c) = 1: three alternatives of three bindings
        let args = (0..3).map(|v| bin(BinOp::Ne, next(v), var(v))).collect();
        let e = eq(Expr::Builtin(Builtin::Count, args), int(1));
        let (alts, _) = decompose(&m, &d, &e);
        assert_eq!(alts.len(), 3);
        for (i, a) in alts.iter().enumerate() {
            let rels: Vec<Rel> = a.binds.iter().map(|b| b.rel).collect();
            let want: Vec<Rel> = (0..3).map(|j| if i == j { Rel::Ne } else { Rel::Eq }).collect();
            assert_eq!(rels, want);
        }
        // a residual: next(a) & next(b) | next(c) -> next(a) ... mixed forms stay whole
        let e = bin(BinOp::Implies, next(2), next(0));
        let (alts, _) = decompose(&m, &d, &e);
        assert_eq!(alts.len(), 1);
        assert_eq!(alts[0].residual.len(), 1);
    }
}
