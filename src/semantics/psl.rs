//! `PSLSPEC` bodies before resolution: replicators expanded and the logic a spec is checked in.
//!
//! NuSMV 2.5.4 checks a PSL property in one of two ways (`prop/PropDb.c`,
//! `parser/psl/pslConv.c`): a property in PSL's foundation language (`always`, `never`,
//! `eventually!`, `next`, `X`, `F`, `G`, `until`, `before`, boolean operators; a propositional
//! one included) as LTL, and one in the optional branching extension (`AG`, `EF`, `A [ … U … ]`,
//! …, over propositions) as CTL; a property that mixes the two is not supported. xmv-rs does
//! the same: [`prepare`] expands `forall i in S : p` into the conjunction of `p` with `i`
//! replaced by each value of `S` (NuSMV's `PslNode_remove_forall_replicators`) and says which
//! logic the result is checked in, or why it cannot be. The parser has already refused SEREs
//! (those bodies stay text, skipped with W0001); the text printed for a spec is the body as
//! written, not the expansion.
//!
//! Assumes the body was parsed by `psl_expr` (PSL operators as `ExprKind::Ltl` nodes named as
//! NuSMV prints them, see `syntax::parser::Builder::psl`).

use crate::syntax::ast::{CaseBranch, Expr, ExprKind};

/// The logic a PSL spec is checked in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PslLogic {
    /// Foundation language (and propositional): LTL.
    Ltl,
    /// Optional branching extension: CTL.
    Ctl,
}

/// Why a PSL body cannot be checked: a message and a help line (E0235; NuSMV refuses such a
/// file too: "expected 'FL Property', got 'OBE Property'").
pub(crate) type Refusal = (String, &'static str);

/// The body with its replicators expanded, and its logic; `Err` when NuSMV would not check it
/// either.
pub(crate) fn prepare(body: &Expr) -> Result<(Expr, PslLogic), Refusal> {
    let expanded = expand(body).map_err(|why| (why, "a `forall` replicator ranges over integer, boolean or symbolic constants: `forall i in {1, 2} : p`, `forall i in {0:3} : p`, `forall b in boolean : p`"))?;
    let (fl, ctl) = (has(&expanded, &|k| matches!(k, ExprKind::Ltl(..))), has(&expanded, &|k| matches!(k, ExprKind::Ctl(..) | ExprKind::Until { .. })));
    match (fl, ctl) {
        (_, false) => Ok((expanded, PslLogic::Ltl)),
        (false, true) => Ok((expanded, PslLogic::Ctl)),
        (true, true) => Err((
            "this PSL property mixes linear operators with CTL operators".into(),
            "NuSMV checks a PSL property either in the foundation language (`always`, `never`, `eventually!`, `next`, `until`, `before`, `X`, `F`, `G`) or with CTL operators only (`AG`, `EF`, `A [ … U … ]`, …): split it into two PSLSPECs",
        )),
    }
}

/// Whether `pred` holds at some node of `e`.
fn has(e: &Expr, pred: &dyn Fn(&ExprKind) -> bool) -> bool {
    if pred(&e.kind) {
        return true;
    }
    let mut found = false;
    each_child(e, &mut |c| found = found || has(c, pred));
    found
}

fn each_child<'e>(e: &'e Expr, f: &mut dyn FnMut(&'e Expr)) {
    match &e.kind {
        ExprKind::Bool(_) | ExprKind::Int(_) | ExprKind::Word { .. } | ExprKind::Name(_) | ExprKind::Error => {}
        ExprKind::Dot(a, _) | ExprKind::Unary(_, a) | ExprKind::Next(a) | ExprKind::Init(a) | ExprKind::Ctl(_, a) => f(a),
        ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) | ExprKind::Range(a, b) => {
            f(a);
            f(b);
        }
        ExprKind::Until { lhs, rhs, .. } => {
            f(lhs);
            f(rhs);
        }
        ExprKind::BitSelect(a, b, c) | ExprKind::Ite(a, b, c) => {
            f(a);
            f(b);
            f(c);
        }
        ExprKind::Case(branches) => branches.iter().for_each(|b| {
            f(&b.condition);
            f(&b.value);
        }),
        ExprKind::Set(xs) | ExprKind::Array(xs) | ExprKind::Call(_, xs) | ExprKind::Ltl(_, xs) => xs.iter().for_each(f),
    }
}

/// `e` with every `forall` replaced by the conjunction of its instances.
fn expand(e: &Expr) -> Result<Expr, String> {
    if let ExprKind::Ltl(op, args) = &e.kind
        && op == "forall"
        && let [var, values, body] = args.as_slice()
    {
        let ExprKind::Name(var) = &var.kind else { return Err("a `forall` replicator's variable is not a name".into()) };
        let body = expand(body)?;
        let values = replicator_values(values)?;
        let mut instances = values.iter().map(|v| substitute(&body, var, v));
        let Some(first) = instances.next() else { return Ok(Expr { kind: ExprKind::Bool(true), span: e.span }) };
        return Ok(instances.fold(first, |acc, x| Expr { kind: ExprKind::Binary(crate::syntax::ast::BinaryOp::And, Box::new(acc), Box::new(x)), span: e.span }));
    }
    map_children(e, &mut |c| expand(c))
}

/// The values a replicator ranges over: a set of constants, `{lo:hi}`, or `boolean`.
fn replicator_values(values: &Expr) -> Result<Vec<Expr>, String> {
    let constant = |x: &Expr| matches!(x.kind, ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Name(_) | ExprKind::Word { .. });
    match &values.kind {
        ExprKind::Name(b) if b == "boolean" => Ok([false, true].map(|b| Expr { kind: ExprKind::Bool(b), span: values.span }).to_vec()),
        ExprKind::Range(lo, hi) => match (&lo.kind, &hi.kind) {
            (ExprKind::Int(lo), ExprKind::Int(hi)) if hi - lo < 1 << 16 => {
                Ok((*lo..=*hi).map(|i| Expr { kind: ExprKind::Int(i), span: values.span }).collect())
            }
            _ => Err("a `forall` replicator's range has more than 65,536 values".into()),
        },
        ExprKind::Set(items) if items.iter().all(constant) => Ok(items.clone()),
        _ => Err("a `forall` replicator ranges over something other than constants".into()),
    }
}

/// `e` with the name `var` replaced by `value` (not inside a replicator that binds `var` again).
fn substitute(e: &Expr, var: &str, value: &Expr) -> Expr {
    match &e.kind {
        ExprKind::Name(n) if n == var => Expr { kind: value.kind.clone(), span: e.span },
        ExprKind::Ltl(op, args) if op == "forall" && matches!(args.first().map(|a| &a.kind), Some(ExprKind::Name(n)) if n == var) => e.clone(),
        _ => map_children(e, &mut |c| Ok::<Expr, String>(substitute(c, var, value))).unwrap_or_else(|_| e.clone()),
    }
}

/// `e` with `f` applied to each direct child.
fn map_children(e: &Expr, f: &mut dyn FnMut(&Expr) -> Result<Expr, String>) -> Result<Expr, String> {
    let mut b = |x: &Expr| f(x).map(Box::new);
    let kind = match &e.kind {
        ExprKind::Bool(_) | ExprKind::Int(_) | ExprKind::Word { .. } | ExprKind::Name(_) | ExprKind::Error => e.kind.clone(),
        ExprKind::Dot(a, field) => ExprKind::Dot(b(a)?, field.clone()),
        ExprKind::Index(a, i) => ExprKind::Index(b(a)?, b(i)?),
        ExprKind::BitSelect(a, h, l) => ExprKind::BitSelect(b(a)?, b(h)?, b(l)?),
        ExprKind::Unary(op, a) => ExprKind::Unary(*op, b(a)?),
        ExprKind::Binary(op, x, y) => ExprKind::Binary(*op, b(x)?, b(y)?),
        ExprKind::Ite(c, t, el) => ExprKind::Ite(b(c)?, b(t)?, b(el)?),
        ExprKind::Case(branches) => ExprKind::Case(
            branches.iter().map(|br| Ok(CaseBranch { condition: *b(&br.condition)?, value: *b(&br.value)?, span: br.span })).collect::<Result<_, String>>()?,
        ),
        ExprKind::Set(xs) => ExprKind::Set(xs.iter().map(|x| b(x).map(|x| *x)).collect::<Result<_, _>>()?),
        ExprKind::Array(xs) => ExprKind::Array(xs.iter().map(|x| b(x).map(|x| *x)).collect::<Result<_, _>>()?),
        ExprKind::Range(x, y) => ExprKind::Range(b(x)?, b(y)?),
        ExprKind::Next(a) => ExprKind::Next(b(a)?),
        ExprKind::Init(a) => ExprKind::Init(b(a)?),
        ExprKind::Call(name, xs) => ExprKind::Call(name.clone(), xs.iter().map(|x| b(x).map(|x| *x)).collect::<Result<_, _>>()?),
        ExprKind::Ctl(op, a) => ExprKind::Ctl(*op, b(a)?),
        ExprKind::Until { universal, lhs, rhs, bound } => ExprKind::Until { universal: *universal, lhs: b(lhs)?, rhs: b(rhs)?, bound: *bound },
        ExprKind::Ltl(op, xs) => ExprKind::Ltl(op.clone(), xs.iter().map(|x| b(x).map(|x| *x)).collect::<Result<_, _>>()?),
    };
    Ok(Expr { kind, span: e.span })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn psl(text: &str) -> Expr {
        let source = format!("MODULE main\nVAR a : boolean; x : 0..3;\nPSLSPEC {text};\n");
        let file = crate::source::SourceFile::new("psl.smv", source);
        let (program, diags) = crate::syntax::parse(&file);
        assert!(diags.is_empty(), "{diags:?}");
        let spec = program.modules.into_iter().flat_map(|m| m.sections).find_map(|s| match s {
            crate::syntax::ast::Section::Spec(spec) => spec.expr,
            _ => None,
        });
        spec.expect("a parsed PSL body")
    }

    #[test]
    fn logics_follow_nusmv() {
        assert_eq!(prepare(&psl("always a")).map(|p| p.1), Ok(PslLogic::Ltl));
        assert_eq!(prepare(&psl("a & x = 1")).map(|p| p.1), Ok(PslLogic::Ltl));
        assert_eq!(prepare(&psl("AG EF a")).map(|p| p.1), Ok(PslLogic::Ctl));
        assert!(prepare(&psl("always AG a")).is_err());
    }

    #[test]
    fn replicators_expand_to_conjunctions() {
        let (e, _) = prepare(&psl("forall i in {0:2} : x != i")).expect("expands");
        assert_eq!(crate::semantics::print::formula(&e), "((x != 0 & x != 1) & x != 2)");
        let (e, _) = prepare(&psl("forall i in boolean : a = i")).expect("expands");
        assert_eq!(crate::semantics::print::formula(&e), "(a = FALSE & a = TRUE)");
    }
}
