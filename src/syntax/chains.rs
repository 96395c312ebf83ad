//! Long chains of one associative boolean operator (`a | b | c | …`, `&`, `xor`, `xnor`), as
//! translators emit them (NuSMV's `examples/deadlock` models have transition relations that are
//! disjunctions of thousands of terms).
//!
//! The parsers ([`super::parser`] and [`super::fast`]) count a chain as one level of the
//! expression-depth limit ([`chain_child_depth`]), however long it is and however it is
//! bracketed (`a | (b | (c | …))` too). [`balance_program`] then rebuilds every chain of more
//! than [`BALANCE_MIN_OPERANDS`] operands as a balanced tree, so the later recursive passes
//! (resolution, lowering, evaluation) see a depth of about log2(n) instead of n. Shorter chains
//! are left as parsed, so specifications print exactly as NuSMV prints them; a balanced chain
//! prints nested to the left ([`balanced_operands`], `semantics::print`), which is NuSMV's
//! grouping unless the source bracketed it otherwise.

use super::ast::{BinaryOp, Expr, ExprKind, Program, Section, TypeSpec};

/// Chains with more operands are balanced.
pub(crate) const BALANCE_MIN_OPERANDS: usize = 64;

/// Operators whose chains are balanced and counted as one level.
pub(crate) fn is_chain_op(op: BinaryOp) -> bool {
    matches!(op, BinaryOp::And | BinaryOp::Or | BinaryOp::Xor | BinaryOp::Xnor)
}

/// The depth a child of a `Binary(op, …)` node counts with: a child that is itself a node of the
/// same chain operator adds no level (the parent's level is the chain's level).
pub(crate) fn chain_child_depth(op: BinaryOp, child: &Expr, depth: u32) -> u32 {
    match &child.kind {
        ExprKind::Binary(c, ..) if *c == op && is_chain_op(op) && depth != u32::MAX => depth.saturating_sub(1),
        _ => depth,
    }
}

/// Balances every long chain in every expression of the program.
pub(crate) fn balance_program(program: &mut Program) {
    for m in &mut program.modules {
        for s in &mut m.sections {
            match s {
                Section::Var { decls, .. } => {
                    for d in decls {
                        if let TypeSpec::Instance { args, .. } = &mut d.ty {
                            args.iter_mut().for_each(balance);
                        }
                    }
                }
                Section::Define { defs, .. } => defs.iter_mut().for_each(|d| balance(&mut d.expr)),
                Section::Assign { assigns, .. } => assigns.iter_mut().for_each(|a| balance(&mut a.value)),
                Section::Init { expr, .. } | Section::Trans { expr, .. } | Section::Invar { expr, .. } | Section::Fairness { expr, .. } => balance(expr),
                Section::Compassion { p, q, .. } => {
                    balance(p);
                    balance(q);
                }
                Section::Spec(spec) => spec.formulas_mut().for_each(balance),
                Section::Call { calls, .. } => calls.iter_mut().for_each(|c| balance(&mut c.condition)),
                Section::Exit { exits, .. } => exits.iter_mut().for_each(|e| balance(&mut e.condition)),
                _ => {}
            }
        }
    }
}

/// Calls `f` on each operand of the chain of `op` rooted at `e` (on `e` itself if it is not a
/// node of that chain), in order, without recursion.
fn for_each_operand<'a>(op: BinaryOp, e: &'a Expr, mut f: impl FnMut(&'a Expr)) {
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        match &e.kind {
            ExprKind::Binary(o, l, r) if *o == op => {
                stack.push(r);
                stack.push(l);
            }
            _ => f(e),
        }
    }
}

/// Number of operands of the chain rooted at `e` (1 if `e` is not a chain node).
fn chain_len(op: BinaryOp, e: &Expr) -> usize {
    let mut n = 0;
    for_each_operand(op, e, |_| n += 1);
    n
}

/// The operands of the chain of `op` rooted at `e`, in order, when there are more than
/// [`BALANCE_MIN_OPERANDS`] (a chain [`balance`] has rebuilt, or one built after parsing);
/// `None` for shorter chains (counted without collecting them).
pub(crate) fn balanced_operands(op: BinaryOp, e: &Expr) -> Option<Vec<&Expr>> {
    if chain_len(op, e) <= BALANCE_MIN_OPERANDS {
        return None;
    }
    let mut out = vec![];
    for_each_operand(op, e, |x| out.push(x));
    Some(out)
}

/// Balances the long chains of one expression; iterative over chains, recursive only through
/// other operators (whose depth the parser limits).
pub(crate) fn balance(root: &mut Expr) {
    let mut work: Vec<&mut Expr> = vec![root];
    while let Some(e) = work.pop() {
        if let ExprKind::Binary(op, ..) = e.kind
            && is_chain_op(op)
            && chain_len(op, e) > BALANCE_MIN_OPERANDS
        {
            let span = e.span;
            let taken = std::mem::replace(e, Expr { kind: ExprKind::Error, span });
            *e = balanced(op, operands(op, taken));
            // Queue the operands (the leaves of the new tree).
            let mut spine: Vec<&mut Expr> = vec![e];
            while let Some(n) = spine.pop() {
                if matches!(n.kind, ExprKind::Binary(o, ..) if o == op) {
                    if let ExprKind::Binary(_, l, r) = &mut n.kind {
                        spine.push(r);
                        spine.push(l);
                    }
                } else {
                    work.push(n);
                }
            }
            continue;
        }
        match &mut e.kind {
            ExprKind::Dot(a, _) | ExprKind::Unary(_, a) | ExprKind::Next(a) | ExprKind::Init(a) | ExprKind::Ctl(_, a) => work.push(a),
            ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) | ExprKind::Range(a, b) | ExprKind::Until { lhs: a, rhs: b, .. } => {
                work.push(a);
                work.push(b);
            }
            ExprKind::Ite(a, b, c) => {
                work.push(a);
                work.push(b);
                work.push(c);
            }
            ExprKind::Case(branches) => {
                for b in branches {
                    work.push(&mut b.condition);
                    work.push(&mut b.value);
                }
            }
            ExprKind::Set(items) | ExprKind::Array(items) | ExprKind::Call(_, items) | ExprKind::Ltl(_, items) => work.extend(items.iter_mut()),
            _ => {}
        }
    }
}

/// The operands of a chain, left to right, without recursion.
fn operands(op: BinaryOp, e: Expr) -> Vec<Expr> {
    let mut out = vec![];
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        match e.kind {
            ExprKind::Binary(o, l, r) if o == op => {
                stack.push(*r);
                stack.push(*l);
            }
            kind => out.push(Expr { kind, span: e.span }),
        }
    }
    out
}

/// A balanced tree of `op` over `items` (at least one); recursion depth log2(n).
fn balanced(op: BinaryOp, mut items: Vec<Expr>) -> Expr {
    if items.len() == 1 {
        return items.pop().unwrap_or(Expr { kind: ExprKind::Error, span: crate::source::Span::new(0, 0) });
    }
    let right = items.split_off(items.len() / 2);
    let (l, r) = (balanced(op, items), balanced(op, right));
    let span = l.span.to(r.span);
    Expr { kind: ExprKind::Binary(op, Box::new(l), Box::new(r)), span }
}
