//! The pest parser for one chunk, and the conversion of its parse tree into the AST.
//!
//! [`SmvParser`] is generated from `grammar/smv.pest`. [`Builder`] turns pest pairs into
//! [`ast`](super::ast) nodes, adding the chunk's byte offset to every span. Expressions are flat operator
//! sequences folded by pest's Pratt parser with the NuSMV 2.6 precedence table ([`pratt`]).
//! Problems found while building (integer out of range, malformed word constants, too deep expressions)
//! are pushed as diagnostics and the offending node becomes [`ExprKind::Error`].
//!
//! Depth: brackets are limited by the pre-scan ([`super::chunks::MAX_NESTING`]); operator chains
//! are limited here: an expression whose tree is deeper than [`MAX_EXPR_DEPTH`] is rejected, and
//! runs of prefix or right-associative operators (which pest's Pratt parser folds recursively)
//! are counted before folding.

use super::ast::*;
use super::chains::chain_child_depth;
use super::precedence::{Fixity, LEVELS, Operator};
use crate::diagnostics::Diagnostic;
use crate::source::Span;
use pest::iterators::Pair;
use pest::pratt_parser::{Assoc, Op, PrattParser};
use std::cell::RefCell;
use std::sync::LazyLock;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/smv.pest"]
pub(crate) struct SmvParser;

/// Deepest expression tree accepted (every operator, bracket and `case` is one level).
pub(crate) const MAX_EXPR_DEPTH: u32 = 1000;

/// Largest integer constant: NuSMV accepts −(2^31−1) … 2^31−1.
pub(crate) const MAX_INT: i64 = i32::MAX as i64;

/// NuSMV 2.6 precedence, loosest first (see README "Operator precedence"), built from the one
/// table of [`super::precedence`] that the fast path reads too.
pub(crate) fn pratt() -> &'static PrattParser<Rule> {
    static PRATT: LazyLock<PrattParser<Rule>> = LazyLock::new(|| {
        LEVELS.iter().fold(PrattParser::new(), |pratt, &(fixity, ops)| {
            let op = |o: Operator| match fixity {
                Fixity::Left => Op::infix(rule_of(o), Assoc::Left),
                Fixity::Right => Op::infix(rule_of(o), Assoc::Right),
                Fixity::Prefix => Op::prefix(rule_of(o)),
                Fixity::Postfix => Op::postfix(rule_of(o)),
            };
            let level = ops[1..].iter().fold(op(ops[0]), |level, &o| level | op(o));
            pratt.op(level)
        })
    });
    &PRATT
}

/// NuSMV 2.5.4's PSL precedence (`parser/psl/psl_grammar.y`), loosest first: `always`,
/// `never` and `G` take everything to their right, `->` and `<->` are left-associative and
/// below `eventually!`/`next`, and the prefix operators `X`, `F` and the CTL ones bind looser
/// than every boolean and arithmetic operator (`F a & b` is `F (a & b)`).
fn psl_pratt() -> &'static PrattParser<Rule> {
    static PRATT: LazyLock<PrattParser<Rule>> = LazyLock::new(|| {
        use Rule::*;
        let prefixes = |rules: &[Rule]| rules[1..].iter().fold(Op::prefix(rules[0]), |l, &r| l | Op::prefix(r));
        let lefts = |rules: &[Rule]| rules[1..].iter().fold(Op::infix(rules[0], Assoc::Left), |l, &r| l | Op::infix(r, Assoc::Left));
        PrattParser::new()
            .op(prefixes(&[psl_always, psl_never, op_G]))
            .op(lefts(&[op_implies, op_iff]))
            .op(prefixes(&[psl_eventually, psl_next]))
            .op(lefts(&[psl_before]))
            .op(lefts(&[psl_until]))
            .op(prefixes(&[psl_X, op_F, op_EX, op_AX, op_EF, op_AF, op_EG, op_AG]))
            .op(lefts(&[op_in, op_union]))
            .op(lefts(&[op_or]))
            .op(lefts(&[op_xor, op_xnor]))
            .op(lefts(&[op_and]))
            .op(lefts(&[op_eq, op_ne]))
            .op(lefts(&[op_lt, op_le, op_gt, op_ge]))
            .op(lefts(&[op_shl, op_shr]))
            .op(lefts(&[op_add, op_sub]))
            .op(lefts(&[op_mul, op_div, op_mod, op_concat]))
            .op(prefixes(&[op_not, op_neg]))
            .op(Op::postfix(dot_access) | Op::postfix(index) | Op::postfix(bit_select))
    });
    &PRATT
}

/// The grammar rule of an operator of [`crate::syntax::precedence`].
fn rule_of(op: Operator) -> Rule {
    use Operator as O;
    match op {
        O::Implies => Rule::op_implies,
        O::Iff => Rule::op_iff,
        O::Ite => Rule::op_ite,
        O::Or => Rule::op_or,
        O::Xor => Rule::op_xor,
        O::Xnor => Rule::op_xnor,
        O::And => Rule::op_and,
        O::Until => Rule::op_U,
        O::Since => Rule::op_S,
        O::Releases => Rule::op_V,
        O::Triggered => Rule::op_T,
        O::Next => Rule::op_X,
        O::Globally => Rule::op_G,
        O::Finally => Rule::op_F,
        O::Yesterday => Rule::op_Y,
        O::Zesterday => Rule::op_Z,
        O::Historically => Rule::op_H,
        O::Once => Rule::op_O,
        O::EX => Rule::op_EX,
        O::AX => Rule::op_AX,
        O::EF => Rule::op_EF,
        O::AF => Rule::op_AF,
        O::EG => Rule::op_EG,
        O::AG => Rule::op_AG,
        O::EBF => Rule::op_EBF,
        O::ABF => Rule::op_ABF,
        O::EBG => Rule::op_EBG,
        O::ABG => Rule::op_ABG,
        O::Eq => Rule::op_eq,
        O::Ne => Rule::op_ne,
        O::Lt => Rule::op_lt,
        O::Le => Rule::op_le,
        O::Gt => Rule::op_gt,
        O::Ge => Rule::op_ge,
        O::In => Rule::op_in,
        O::Union => Rule::op_union,
        O::Range => Rule::op_range,
        O::Shl => Rule::op_shl,
        O::Shr => Rule::op_shr,
        O::Add => Rule::op_add,
        O::Sub => Rule::op_sub,
        O::Mul => Rule::op_mul,
        O::Div => Rule::op_div,
        O::Mod => Rule::op_mod,
        O::Neg => Rule::op_neg,
        O::Concat => Rule::op_concat,
        O::Not => Rule::op_not,
        O::Dot => Rule::dot_access,
        O::Index => Rule::index,
        O::BitSelect => Rule::bit_select,
    }
}

/// One `…;` item of a list section.
pub(crate) enum Item {
    Var(VarDecl),
    Define(Define),
    Assign(Assign),
    Call(CallDecl),
    Exit(ExitDecl),
}

/// An expression with the depth of its tree; depth `POISONED` marks an error already reported.
type Built = (Expr, u32);
const POISONED: u32 = u32::MAX;

/// Converts pest pairs of one chunk into AST nodes.
pub(crate) struct Builder {
    /// Byte offset of the chunk in the file.
    base: usize,
    diags: RefCell<Vec<Diagnostic>>,
}

impl Builder {
    pub(crate) fn new(base: usize) -> Builder {
        Builder { base, diags: RefCell::new(Vec::new()) }
    }

    pub(crate) fn into_diagnostics(self) -> Vec<Diagnostic> {
        self.diags.into_inner()
    }

    fn report(&self, d: Diagnostic) {
        self.diags.borrow_mut().push(d);
    }

    fn span(&self, p: &Pair<Rule>) -> Span {
        let s = p.as_span();
        Span::new(self.base + s.start(), self.base + s.end())
    }

    fn ident(&self, p: &Pair<Rule>) -> Ident {
        Ident { name: p.as_str().to_string(), span: self.span(p) }
    }

    /// Pairs that carry meaning (named punctuation and keywords are skipped).
    fn meaningful<'i>(p: Pair<'i, Rule>) -> impl Iterator<Item = Pair<'i, Rule>> {
        p.into_inner().filter(|c| !is_token(c.as_rule()))
    }

    // ------------------------------------------------------------------ top level

    /// `TERMINATION rule;` → the rule name and its span.
    pub(crate) fn termination(&self, chunk: Pair<Rule>) -> Option<Ident> {
        chunk.into_inner().find(|p| p.as_rule() == Rule::ident).map(|p| self.ident(&p))
    }

    /// `MODULE name(params)` → name and parameters.
    pub(crate) fn module_header(&self, chunk: Pair<Rule>) -> (Ident, Vec<Ident>) {
        let mut name = None;
        let mut params = Vec::new();
        for p in chunk.into_inner() {
            match p.as_rule() {
                Rule::ident => name = Some(self.ident(&p)),
                Rule::module_params => params = p.into_inner().filter(|q| q.as_rule() == Rule::ident).map(|q| self.ident(&q)).collect(),
                _ => {}
            }
        }
        let name = name.unwrap_or(Ident { name: String::new(), span: Span::new(self.base, self.base) });
        (name, params)
    }

    /// `section_chunk` → the section.
    pub(crate) fn section_chunk(&self, chunk: Pair<Rule>) -> Option<Section> {
        let section = chunk.into_inner().find(|p| p.as_rule() != Rule::EOI)?;
        Some(self.section(section))
    }

    fn section(&self, p: Pair<Rule>) -> Section {
        let span = self.span(&p);
        match p.as_rule() {
            Rule::constants_section => {
                let names = children(p, Rule::ident).map(|q| self.ident(&q)).collect();
                Section::Constants { names, span }
            }
            Rule::init_section => Section::Init { expr: self.single_expr(p), span },
            Rule::trans_section => Section::Trans { expr: self.single_expr(p), span },
            Rule::invar_section => Section::Invar { expr: self.single_expr(p), span },
            Rule::fairness_section => {
                let justice = p.clone().into_inner().next().is_some_and(|k| k.as_rule() == Rule::k_JUSTICE);
                Section::Fairness { expr: self.single_expr(p), justice, span }
            }
            Rule::compassion_section => {
                let mut it = children(p, Rule::expr);
                let pe = it.next().expect("grammar: COMPASSION has two expressions");
                let qe = it.next().expect("grammar: COMPASSION has two expressions");
                Section::Compassion { p: self.expr(pe), q: self.expr(qe), span }
            }
            Rule::spec_section => Section::Spec(self.spec(p)),
            other => unreachable!("grammar: {other:?} is not a section"),
        }
    }

    /// One item of a list section (`var_item`, `define_item`, …).
    pub(crate) fn item(&self, chunk: Pair<Rule>) -> Option<Item> {
        let p = chunk.into_inner().find(|p| p.as_rule() != Rule::EOI)?;
        let span = self.span(&p);
        Some(match p.as_rule() {
            Rule::var_decl => Item::Var(self.var_decl(p)),
            Rule::define => {
                let mut it = Self::meaningful(p);
                let name = self.ident(&it.next().expect("grammar: name"));
                let body = it.next().expect("grammar: body");
                let expr = if body.as_rule() == Rule::array_expr { self.array_expr(body) } else { self.expr(body) };
                Item::Define(Define { name, expr, span })
            }
            Rule::assign => Item::Assign(self.assign(p)),
            Rule::call_decl => {
                let (target, condition) = self.named_condition(p);
                Item::Call(CallDecl { target, condition, span })
            }
            Rule::exit_decl => {
                let (name, condition) = self.named_condition(p);
                Item::Exit(ExitDecl { name, condition, span })
            }
            other => unreachable!("grammar: {other:?} is not a section item"),
        })
    }

    /// `[e0, e1, …]` or `[[…], […]]`: an array DEFINE's body.
    fn array_expr(&self, p: Pair<Rule>) -> Expr {
        let span = self.span(&p);
        let elems = Self::meaningful(p).map(|q| if q.as_rule() == Rule::array_expr { self.array_expr(q) } else { self.expr(q) }).collect();
        Expr { kind: ExprKind::Array(elems), span }
    }

    fn single_expr(&self, p: Pair<Rule>) -> Expr {
        match p.into_inner().find(|q| q.as_rule() == Rule::expr) {
            Some(e) => self.expr(e),
            None => unreachable!("grammar: section has an expression"),
        }
    }

    fn named_condition(&self, p: Pair<Rule>) -> (Ident, Expr) {
        let mut it = Self::meaningful(p);
        let name = self.ident(&it.next().expect("grammar: name"));
        let cond = self.expr(it.next().expect("grammar: condition"));
        (name, cond)
    }

    fn var_decl(&self, p: Pair<Rule>) -> VarDecl {
        let span = self.span(&p);
        let mut it = Self::meaningful(p);
        let name = self.ident(&it.next().expect("grammar: var name"));
        let ty = self.type_spec(it.next().expect("grammar: var type"));
        VarDecl { name, ty, span }
    }

    fn type_spec(&self, p: Pair<Rule>) -> TypeSpec {
        let span = self.span(&p);
        match p.as_rule() {
            Rule::boolean_type => TypeSpec::Boolean(span),
            Rule::range_type => {
                let mut it = Self::meaningful(p);
                let lo = self.expr(it.next().expect("grammar: lower bound"));
                let hi = self.expr(it.next().expect("grammar: upper bound"));
                TypeSpec::Range { lo, hi, span }
            }
            Rule::array_type => {
                let mut it = Self::meaningful(p);
                let lo = self.expr(it.next().expect("grammar: lower bound"));
                let hi = self.expr(it.next().expect("grammar: upper bound"));
                let elem = Box::new(self.type_spec(it.next().expect("grammar: element type")));
                TypeSpec::Array { lo, hi, elem, span }
            }
            Rule::enum_type => {
                let values = Self::meaningful(p).map(|v| self.enum_value(v)).collect();
                TypeSpec::Enum { values, span }
            }
            Rule::instance_type | Rule::process_type => {
                let process = p.as_rule() == Rule::process_type;
                let mut module = None;
                let mut args = Vec::new();
                for q in p.into_inner() {
                    match q.as_rule() {
                        Rule::ident => module = Some(self.ident(&q)),
                        Rule::call_args => args = self.expr_list(q),
                        _ => {}
                    }
                }
                let module = module.expect("grammar: instance names a module");
                TypeSpec::Instance { module, args, process, span }
            }
            Rule::word_type => {
                let signed = p.clone().into_inner().any(|q| q.as_rule() == Rule::word_sign && q.as_str() == "signed");
                let width = p.into_inner().find(|q| q.as_rule() == Rule::expr).expect("grammar: word width");
                TypeSpec::Word { signed, width: Box::new(self.expr(width)), span }
            }
            Rule::unsupported_type => TypeSpec::Unsupported { what: p.as_str().split_whitespace().collect::<Vec<_>>().join(" "), span },
            other => unreachable!("grammar: {other:?} is not a type"),
        }
    }

    fn enum_value(&self, p: Pair<Rule>) -> EnumValue {
        let span = self.span(&p);
        match p.as_rule() {
            Rule::enum_int => match self.int_value(p.as_str(), span) {
                Some(v) => EnumValue::Int(v, span),
                None => EnumValue::Int(0, span),
            },
            _ => EnumValue::Symbol(self.ident(&p)),
        }
    }

    fn assign(&self, p: Pair<Rule>) -> Assign {
        let span = self.span(&p);
        let mut it = Self::meaningful(p);
        let target_pair = it.next().expect("grammar: assignment target");
        let kind = match target_pair.as_rule() {
            Rule::init_target => AssignKind::Init,
            Rule::next_target => AssignKind::Next,
            _ => AssignKind::Invariant,
        };
        let var_ref = target_pair.into_inner().find(|q| q.as_rule() == Rule::var_ref).expect("grammar: var_ref");
        let target = self.expr(var_ref);
        let value = self.expr(it.next().expect("grammar: assigned value"));
        Assign { kind, target, value, span }
    }

    fn spec(&self, p: Pair<Rule>) -> Spec {
        let span = self.span(&p);
        let mut inner = p.into_inner();
        let kw = inner.next().expect("grammar: spec keyword");
        let keyword = self.span(&kw);
        let kind = match kw.as_rule() {
            Rule::k_INVARSPEC => SpecKind::Invar,
            Rule::k_LTLSPEC => SpecKind::Ltl,
            Rule::k_PSLSPEC => SpecKind::Psl,
            Rule::k_COMPUTE => SpecKind::Compute,
            _ => SpecKind::Ctl,
        };
        let mut name = None;
        let mut expr = None;
        let mut compute = None;
        for q in inner {
            match q.as_rule() {
                Rule::spec_name => name = q.into_inner().find(|r| r.as_rule() == Rule::ident).map(|r| self.ident(&r)),
                Rule::expr => expr = Some(self.expr(q)),
                Rule::psl_body => expr = q.into_inner().find(|r| r.as_rule() == Rule::psl_expr).map(|r| self.psl(r).0),
                Rule::compute_body => compute = Some(self.compute(q)),
                _ => {}
            }
        }
        Spec { kind, keyword, name, expr, compute, span }
    }

    /// `MIN [from, to]` / `MAX [from, to]`.
    fn compute(&self, p: Pair<Rule>) -> Compute<Expr> {
        let mut it = Self::meaningful(p);
        let extremum = match it.next().map(|q| q.as_rule()) {
            Some(Rule::k_MAX) => Extremum::Max,
            _ => Extremum::Min,
        };
        let mut exprs = it.filter(|q| q.as_rule() == Rule::expr).map(|q| self.expr(q));
        let from = exprs.next().expect("grammar: COMPUTE's first formula");
        let to = exprs.next().expect("grammar: COMPUTE's second formula");
        Compute { extremum, from, to }
    }

    fn expr_list(&self, p: Pair<Rule>) -> Vec<Expr> {
        Self::meaningful(p).map(|e| self.expr(e)).collect()
    }

    // ------------------------------------------------------------------ expressions

    /// Any expression rule (`expr`, `until_operand`, `bound`, `var_ref`) → an AST expression.
    pub(crate) fn expr(&self, p: Pair<Rule>) -> Expr {
        self.build(p).0
    }

    fn build(&self, p: Pair<Rule>) -> Built {
        let span = self.span(&p);
        let pairs = p.into_inner();
        if let Some(op) = pairs.clone().filter(|q| folds_recursively(q.as_rule())).nth(MAX_EXPR_DEPTH as usize) {
            return self.too_deep(span, self.span(&op));
        }
        pratt()
            .map_primary(|q| self.primary(q))
            .map_prefix(|op, rhs| self.prefix(op, rhs))
            .map_infix(|lhs, op, rhs| self.infix(lhs, op, rhs))
            .map_postfix(|lhs, op| self.postfix(lhs, op))
            .parse(pairs)
    }

    /// A PSL expression (`psl_expr`) with [`psl_pratt`]'s precedence. PSL's own operators become
    /// [`ExprKind::Ltl`] nodes named as NuSMV prints them (`always`, `never`, `eventually!`,
    /// `next`, `next!`, `until!_`, …; PSL's `X`/`X!` are `X(`/`X!(` to keep them apart from
    /// LTL's ` X `), `forall i in S : p` an `Ltl("forall", [i, S, p])` with `S` a set, a range
    /// or `boolean`; `G`, `F`, the CTL operators and the boolean ones are the usual nodes.
    fn psl(&self, p: Pair<Rule>) -> Built {
        let span = self.span(&p);
        let pairs = p.into_inner();
        if let Some(op) = pairs.clone().filter(|q| folds_recursively(q.as_rule()) || is_psl_prefix(q.as_rule())).nth(MAX_EXPR_DEPTH as usize) {
            return self.too_deep(span, self.span(&op));
        }
        psl_pratt()
            .map_primary(|q| match q.as_rule() {
                Rule::psl_paren => {
                    let span = self.span(&q);
                    let inner = q.into_inner().find(|r| r.as_rule() == Rule::psl_expr).expect("grammar: psl paren");
                    let (mut e, d) = self.psl(inner);
                    e.span = span;
                    (e, d)
                }
                Rule::psl_forall => {
                    let span = self.span(&q);
                    let mut it = Self::meaningful(q);
                    let _ = it.next(); // `forall`
                    let var = it.next().expect("grammar: forall variable");
                    let var = self.leaf(ExprKind::Name(var.as_str().to_string()), self.span(&var)).0;
                    let values = it.find(|r| r.as_rule() == Rule::psl_values).expect("grammar: forall values");
                    let vspan = self.span(&values);
                    let parts: Vec<Pair<Rule>> =
                        values.into_inner().filter(|r| matches!(r.as_rule(), Rule::k_boolean | Rule::set_expr | Rule::int_lit)).collect();
                    let values = match parts.as_slice() {
                        [b] if b.as_rule() == Rule::k_boolean => Expr { kind: ExprKind::Name("boolean".into()), span: vspan },
                        [set] if set.as_rule() == Rule::set_expr => self.primary(set.clone()).0,
                        [lo, hi] => {
                            let int = |q: &Pair<Rule>| self.primary(q.clone()).0;
                            Expr { kind: ExprKind::Range(Box::new(int(lo)), Box::new(int(hi))), span: vspan }
                        }
                        _ => unreachable!("grammar: forall values"),
                    };
                    let body = it.find(|r| r.as_rule() == Rule::psl_expr).expect("grammar: forall body");
                    let (body, d) = self.psl(body);
                    self.node(ExprKind::Ltl("forall".into(), vec![var, values, body]), span, head(span, 6), &[d])
                }
                _ => self.primary(q),
            })
            .map_prefix(|op, rhs| match op.as_rule() {
                Rule::psl_X => {
                    let name = format!("{}(", op.as_str());
                    let anchor = self.span(&op);
                    let span = anchor.to(rhs.0.span);
                    self.node(ExprKind::Ltl(name, vec![rhs.0]), span, anchor, &[rhs.1])
                }
                _ => self.prefix(op, rhs),
            })
            .map_infix(|lhs, op, rhs| self.infix(lhs, op, rhs))
            .map_postfix(|lhs, op| self.postfix(lhs, op))
            .parse(pairs)
    }

    /// Reports an expression deeper than the limit; `anchor` is the operator that crossed it.
    fn too_deep(&self, span: Span, anchor: Span) -> Built {
        self.report(
            Diagnostic::error("E0011", "expression nested too deeply", anchor)
                .with_label_message(format!("more than {MAX_EXPR_DEPTH} levels of operators"))
                .with_help("split the expression into several DEFINEs, or use `x in {…}` instead of long chains of `|`"),
        );
        (Expr { kind: ExprKind::Error, span }, POISONED)
    }

    /// Combines children into a node one level deeper, unless a child is poisoned or the
    /// node would be too deep.
    /// `anchor` is the node's operator or opening keyword: where "too deep" is reported.
    fn node(&self, kind: ExprKind, span: Span, anchor: Span, child_depths: &[u32]) -> Built {
        let max = child_depths.iter().copied().max().unwrap_or(0);
        if max == POISONED {
            return (Expr { kind: ExprKind::Error, span }, POISONED);
        }
        if max + 1 > MAX_EXPR_DEPTH {
            return self.too_deep(span, anchor);
        }
        (Expr { kind, span }, max + 1)
    }

    fn leaf(&self, kind: ExprKind, span: Span) -> Built {
        (Expr { kind, span }, 1)
    }

    fn primary(&self, p: Pair<Rule>) -> Built {
        let span = self.span(&p);
        match p.as_rule() {
            Rule::paren => {
                let inner = p.into_inner().find(|q| q.as_rule() == Rule::expr).expect("grammar: paren");
                let (mut e, d) = self.build(inner);
                e.span = span;
                (e, d)
            }
            Rule::int_lit => match self.int_value(p.as_str(), span) {
                Some(v) => self.leaf(ExprKind::Int(v), span),
                None => self.leaf(ExprKind::Error, span),
            },
            Rule::word_lit => match super::words::parse_word_lit(p.as_str()) {
                Ok(w) => self.leaf(ExprKind::Word { bits: w.bits, width: w.width, signed: w.signed }, span),
                Err(msg) => {
                    self.report(Diagnostic::error("E0014", format!("bad word constant `{}`", p.as_str()), span).with_label_message(msg).with_help(
                        "word constants are `0[u|s](b|o|d|h)[width]_digits`, e.g. `0ud8_5`, `0sb4_1010`, `0h_ff`; the value must fit in 1..64 bits",
                    ));
                    self.leaf(ExprKind::Error, span)
                }
            },
            Rule::k_TRUE => self.leaf(ExprKind::Bool(true), span),
            Rule::k_FALSE => self.leaf(ExprKind::Bool(false), span),
            Rule::k_self | Rule::k_EXIT | Rule::ident => self.leaf(ExprKind::Name(p.as_str().to_string()), span),
            Rule::case_expr => {
                let mut branches = Vec::new();
                let mut depths = Vec::new();
                for b in Self::meaningful(p) {
                    let bspan = self.span(&b);
                    let mut it = Self::meaningful(b);
                    let (condition, dc) = self.build(it.next().expect("grammar: case condition"));
                    let (value, dv) = self.build(it.next().expect("grammar: case value"));
                    depths.extend([dc, dv]);
                    branches.push(CaseBranch { condition, value, span: bspan });
                }
                self.node(ExprKind::Case(branches), span, head(span, 4), &depths)
            }
            Rule::set_expr => {
                let (items, depths) = self.build_list(p);
                self.node(ExprKind::Set(items), span, head(span, 1), &depths)
            }
            Rule::next_expr | Rule::init_expr => {
                let is_next = p.as_rule() == Rule::next_expr;
                let inner = p.into_inner().find(|q| q.as_rule() == Rule::expr).expect("grammar: next/init");
                let (e, d) = self.build(inner);
                let kind = if is_next { ExprKind::Next(Box::new(e)) } else { ExprKind::Init(Box::new(e)) };
                self.node(kind, span, head(span, 4), &[d])
            }
            Rule::func_call => {
                let mut it = p.into_inner();
                let name = self.ident(&it.next().expect("grammar: function name"));
                let anchor = name.span;
                let (args, depths): (Vec<Expr>, Vec<u32>) = it.filter(|q| q.as_rule() == Rule::expr).map(|q| self.build(q)).unzip();
                self.node(ExprKind::Call(name, args), span, anchor, &depths)
            }
            Rule::until_e | Rule::until_a => {
                let universal = p.as_rule() == Rule::until_a;
                let parts: Vec<Pair<Rule>> = p.into_inner().collect();
                let bound = parts.iter().find(|q| q.as_rule() == Rule::time_bound).map(|q| self.time_bound(q.clone()));
                let mut it = parts.into_iter().filter(|q| q.as_rule() == Rule::until_operand);
                let (lhs, dl) = self.build(it.next().expect("grammar: until lhs"));
                let (rhs, dr) = self.build(it.next().expect("grammar: until rhs"));
                self.node(ExprKind::Until { universal, lhs: Box::new(lhs), rhs: Box::new(rhs), bound }, span, head(span, 1), &[dl, dr])
            }
            other => unreachable!("grammar: {other:?} is not a primary expression"),
        }
    }

    /// The `lo..hi` of an RTCTL operator. The literals were matched as `[+-]?digits`; one
    /// beyond the range of `i64` reads as `i64::MAX`, which the resolver rejects as any bound
    /// past NuSMV's integers.
    fn time_bound(&self, p: Pair<Rule>) -> TimeBound {
        let mut ints = p.into_inner().filter(|q| q.as_rule() == Rule::bound_int).map(|q| {
            let t = q.as_str().trim_start_matches('+');
            t.parse::<i64>().unwrap_or(if t.starts_with('-') { i64::MIN } else { i64::MAX })
        });
        let lo = ints.next().expect("grammar: bound lo");
        let hi = ints.next().expect("grammar: bound hi");
        TimeBound { lo, hi }
    }

    fn build_list(&self, p: Pair<Rule>) -> (Vec<Expr>, Vec<u32>) {
        Self::meaningful(p).map(|q| self.build(q)).unzip()
    }

    fn prefix(&self, op: Pair<Rule>, (rhs, d): Built) -> Built {
        let anchor = self.span(&op);
        let span = anchor.to(rhs.span);
        let r = Box::new(rhs);
        let kind = match op.as_rule() {
            Rule::op_not => ExprKind::Unary(UnaryOp::Not, r),
            Rule::op_neg => ExprKind::Unary(UnaryOp::Neg, r),
            Rule::op_EX => ExprKind::Ctl(CtlOp::EX, r),
            Rule::op_AX => ExprKind::Ctl(CtlOp::AX, r),
            Rule::op_EF => ExprKind::Ctl(CtlOp::EF, r),
            Rule::op_AF => ExprKind::Ctl(CtlOp::AF, r),
            Rule::op_EG => ExprKind::Ctl(CtlOp::EG, r),
            Rule::op_AG => ExprKind::Ctl(CtlOp::AG, r),
            rule @ (Rule::op_EBF | Rule::op_ABF | Rule::op_EBG | Rule::op_ABG) => {
                let bound = self.time_bound(op.into_inner().find(|q| q.as_rule() == Rule::time_bound).expect("grammar: RTCTL bound"));
                let op = match rule {
                    Rule::op_EBF => CtlOp::EBF(bound),
                    Rule::op_ABF => CtlOp::ABF(bound),
                    Rule::op_EBG => CtlOp::EBG(bound),
                    _ => CtlOp::ABG(bound),
                };
                ExprKind::Ctl(op, r)
            }
            _ => ExprKind::Ltl(op.as_str().to_string(), vec![*r]),
        };
        self.node(kind, span, anchor, &[d])
    }

    fn infix(&self, (lhs, dl): Built, op: Pair<Rule>, (rhs, dr): Built) -> Built {
        let span = lhs.span.to(rhs.span);
        let anchor = self.span(&op);
        let (l, r) = (Box::new(lhs), Box::new(rhs));
        let kind = match op.as_rule() {
            Rule::op_range => ExprKind::Range(l, r),
            Rule::op_ite => {
                let middle = op.into_inner().find(|q| q.as_rule() == Rule::expr).expect("grammar: ?: middle");
                let (m, dm) = self.build(middle);
                return self.node(ExprKind::Ite(l, Box::new(m), r), span, anchor, &[dl, dm, dr]);
            }
            rule => match binary_op(rule) {
                Some(b) => {
                    // A chain of one associative operator counts as one level (see `chains`).
                    let (dl, dr) = (chain_child_depth(b, &l, dl), chain_child_depth(b, &r, dr));
                    return self.node(ExprKind::Binary(b, l, r), span, anchor, &[dl, dr]);
                }
                None => ExprKind::Ltl(op.as_str().to_string(), vec![*l, *r]),
            },
        };
        self.node(kind, span, anchor, &[dl, dr])
    }

    fn postfix(&self, (lhs, dl): Built, op: Pair<Rule>) -> Built {
        let anchor = self.span(&op);
        let span = lhs.span.to(anchor);
        match op.as_rule() {
            Rule::dot_access => {
                let field = op.into_inner().find(|q| matches!(q.as_rule(), Rule::ident | Rule::int_lit)).expect("grammar: field");
                let field = self.ident(&field);
                self.node(ExprKind::Dot(Box::new(lhs), field), span, anchor, &[dl])
            }
            Rule::index => {
                let e = op.into_inner().find(|q| q.as_rule() == Rule::expr).expect("grammar: index");
                let (i, di) = self.build(e);
                self.node(ExprKind::Index(Box::new(lhs), Box::new(i)), span, anchor, &[dl, di])
            }
            _ => {
                let mut bounds = op.into_inner().filter(|q| q.as_rule() == Rule::expr);
                let (hi, dh) = self.build(bounds.next().expect("grammar: bit selection high bound"));
                let (lo, dlo) = self.build(bounds.next().expect("grammar: bit selection low bound"));
                self.node(ExprKind::BitSelect(Box::new(lhs), Box::new(hi), Box::new(lo)), span, anchor, &[dl, dh, dlo])
            }
        }
    }

    /// Parses a decimal literal (optionally with a leading `-`) within NuSMV's range.
    fn int_value(&self, text: &str, span: Span) -> Option<i64> {
        let (neg, digits) = match text.strip_prefix('-') {
            Some(d) => (true, d),
            None => (false, text),
        };
        let value = digits.parse::<i64>().ok().filter(|v| *v <= MAX_INT);
        match value {
            Some(v) => Some(if neg { -v } else { v }),
            None => {
                self.report(
                    Diagnostic::error("E0009", format!("integer constant `{text}` is out of range"), span)
                        .with_label_message("does not fit in 32 bits")
                        .with_help(format!("integer constants must lie between -{MAX_INT} and {MAX_INT}")),
                );
                None
            }
        }
    }
}

fn binary_op(rule: Rule) -> Option<BinaryOp> {
    Some(match rule {
        Rule::op_implies => BinaryOp::Implies,
        Rule::op_iff => BinaryOp::Iff,
        Rule::op_or => BinaryOp::Or,
        Rule::op_xor => BinaryOp::Xor,
        Rule::op_xnor => BinaryOp::Xnor,
        Rule::op_and => BinaryOp::And,
        Rule::op_eq => BinaryOp::Eq,
        Rule::op_ne => BinaryOp::Ne,
        Rule::op_lt => BinaryOp::Lt,
        Rule::op_le => BinaryOp::Le,
        Rule::op_gt => BinaryOp::Gt,
        Rule::op_ge => BinaryOp::Ge,
        Rule::op_in => BinaryOp::In,
        Rule::op_union => BinaryOp::Union,
        Rule::op_shl => BinaryOp::Shl,
        Rule::op_shr => BinaryOp::Shr,
        Rule::op_add => BinaryOp::Add,
        Rule::op_sub => BinaryOp::Sub,
        Rule::op_mul => BinaryOp::Mul,
        Rule::op_div => BinaryOp::Div,
        Rule::op_mod => BinaryOp::Mod,
        Rule::op_concat => BinaryOp::Concat,
        _ => return None,
    })
}

/// Operators that pest's Pratt parser folds by recursion: prefix operators and the
/// right-associative `->` and `? :`. Runs of them are counted before folding.
/// PSL's prefix operators (counted with [`folds_recursively`] before folding).
fn is_psl_prefix(rule: Rule) -> bool {
    matches!(rule, Rule::psl_always | Rule::psl_never | Rule::psl_eventually | Rule::psl_next | Rule::psl_X)
}

fn folds_recursively(rule: Rule) -> bool {
    use Rule::*;
    matches!(rule, op_not | op_neg | op_EX | op_AX | op_EF | op_AF | op_EG | op_AG | op_X | op_G | op_F | op_Y | op_Z | op_H | op_O | op_implies | op_ite)
}

/// The first `len` bytes of a span (an opening keyword or bracket).
fn head(span: Span, len: u32) -> Span {
    Span { start: span.start, end: (span.start + len).min(span.end) }
}

/// The children of `p` produced by `rule`.
fn children(p: Pair<'_, Rule>, rule: Rule) -> impl Iterator<Item = Pair<'_, Rule>> {
    p.into_inner().filter(move |q| q.as_rule() == rule)
}

/// Named punctuation and keyword tokens: present in the parse tree only for error messages.
pub(crate) fn is_token(rule: Rule) -> bool {
    use Rule::*;
    matches!(
        rule,
        semi | colon
            | assign_op
            | comma
            | lparen
            | rparen
            | lbrack
            | rbrack
            | lbrace
            | rbrace
            | dotdot
            | k_MODULE
            | k_TERMINATION
            | k_VAR
            | k_IVAR
            | k_FROZENVAR
            | k_DEFINE
            | k_CONSTANTS
            | k_ASSIGN
            | k_INIT
            | k_TRANS
            | k_INVAR
            | k_FAIRNESS
            | k_JUSTICE
            | k_COMPASSION
            | k_SPEC
            | k_CTLSPEC
            | k_INVARSPEC
            | k_LTLSPEC
            | k_PSLSPEC
            | k_COMPUTE
            | k_NAME
            | k_CALL
            | k_boolean
            | k_array
            | k_of
            | k_process
            | k_case
            | k_esac
            | k_next
            | k_init
            | k_E
            | k_A
            | k_U
            | EOI
    )
}
