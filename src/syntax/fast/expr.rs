//! Expressions of the fast path: pest's Pratt algorithm run directly on tokens, with the
//! precedence table both parsers read ([`crate::syntax::precedence`]: same levels, same binding
//! powers, same associativity), so the trees and spans equal those of the pest path.
//!
//! Supported: identifiers, `self`, `EXIT`, `TRUE`/`FALSE`, decimal integers, `( )`, `{ , }`,
//! `case … esac`, `next( )`, `init( )`, `E [ U ]`, `A [ U ]`, `!`, unary `-`, the CTL prefix
//! operators, every binary operator except the LTL ones, `.field` and `[index]`. Anything else
//! returns `None` (the caller falls back to pest).

use super::Cursor;
use crate::source::Span;
use crate::syntax::ast::{BinaryOp, CaseBranch, CtlOp, Expr, ExprKind, UnaryOp};
use crate::syntax::chains::chain_child_depth;
use crate::syntax::parser::{MAX_EXPR_DEPTH, MAX_INT};
use crate::syntax::scan::{TokKind, is_keyword};

/// An expression with the depth of its tree, as the pest builder counts it.
pub(super) type Built = (Expr, u32);

/// Which infix operators an expression rule admits (`expr`, `until_operand`, `bound`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum OpSet {
    /// `expr`: every operator (the LTL binary ones make the fast path give up).
    Full,
    /// `until_operand`: no LTL binary operator, so `U` ends the operand.
    Ctl,
    /// `bound` of a range type: arithmetic only, so `..` ends the bound.
    Arith,
}

/// Binding powers, from the table both parsers read ([`crate::syntax::precedence`]).
mod prec {
    use crate::syntax::precedence::{Operator, binding_power};
    pub(super) const IMPLIES: u32 = binding_power(Operator::Implies);
    pub(super) const IFF: u32 = binding_power(Operator::Iff);
    pub(super) const OR: u32 = binding_power(Operator::Or);
    pub(super) const AND: u32 = binding_power(Operator::And);
    pub(super) const CTL: u32 = binding_power(Operator::EX);
    pub(super) const EQ: u32 = binding_power(Operator::Eq);
    pub(super) const IN: u32 = binding_power(Operator::In);
    pub(super) const UNION: u32 = binding_power(Operator::Union);
    pub(super) const RANGE: u32 = binding_power(Operator::Range);
    pub(super) const SHIFT: u32 = binding_power(Operator::Shl);
    pub(super) const ADD: u32 = binding_power(Operator::Add);
    pub(super) const MUL: u32 = binding_power(Operator::Mul);
    pub(super) const NEG: u32 = binding_power(Operator::Neg);
    pub(super) const CONCAT: u32 = binding_power(Operator::Concat);
    pub(super) const NOT: u32 = binding_power(Operator::Not);
    pub(super) const POSTFIX: u32 = binding_power(Operator::Dot);
}

#[derive(Clone, Copy)]
enum Led {
    Binary(BinaryOp, u32),
    Range,
    Dot,
    Index,
}

/// What the next token is, seen after a complete operand.
enum Next {
    Op(Led),
    /// Not an operator of this rule: the expression ends here.
    End,
    /// An operator the fast path does not handle.
    GiveUp,
}

impl<'t> Cursor<'t> {
    /// Parses an expression of the given rule (the whole pair sequence of `expr`, `bound`, …).
    /// Like the builder, gives up on a sequence with more than [`MAX_EXPR_DEPTH`] operators that
    /// fold recursively (prefix operators and `->`), however they nest.
    pub(crate) fn expr(&mut self, set: OpSet) -> Option<Built> {
        let outer = std::mem::replace(&mut self.folds, 0);
        let built = self.expr_bp(0, set)?;
        if self.folds > MAX_EXPR_DEPTH {
            return None;
        }
        self.folds = outer;
        Some(built)
    }

    fn expr_bp(&mut self, rbp: u32, set: OpSet) -> Option<Built> {
        self.enter()?;
        let mut lhs = self.nud(set)?;
        loop {
            let led = match self.next_op(set) {
                Next::Op(led) => led,
                Next::End => break,
                Next::GiveUp => return None,
            };
            if lbp(led) <= rbp {
                break;
            }
            lhs = self.led(lhs, led, set)?;
        }
        self.leave();
        Some(lhs)
    }

    /// A prefix operator applied to its operand, or a primary expression.
    fn nud(&mut self, set: OpSet) -> Option<Built> {
        let t = self.peek()?;
        let s = self.str_of(t);
        let prefix = match (t.kind, s) {
            (TokKind::Punct, "!") => Some((prec::NOT, None)),
            (TokKind::Punct, "-") => Some((prec::NEG, None)),
            (TokKind::Word, "EX") => Some((prec::CTL, Some(CtlOp::EX))),
            (TokKind::Word, "AX") => Some((prec::CTL, Some(CtlOp::AX))),
            (TokKind::Word, "EF") => Some((prec::CTL, Some(CtlOp::EF))),
            (TokKind::Word, "AF") => Some((prec::CTL, Some(CtlOp::AF))),
            (TokKind::Word, "EG") => Some((prec::CTL, Some(CtlOp::EG))),
            (TokKind::Word, "AG") => Some((prec::CTL, Some(CtlOp::AG))),
            _ => None,
        };
        let Some((p, ctl)) = prefix else { return self.primary() };
        self.pos += 1;
        self.folds += 1;
        let anchor = t.span;
        let (rhs, d) = self.expr_bp(p - 1, set)?;
        let span = anchor.to(rhs.span);
        let r = Box::new(rhs);
        let kind = match (ctl, s) {
            (Some(op), _) => ExprKind::Ctl(op, r),
            (None, "!") => ExprKind::Unary(UnaryOp::Not, r),
            (None, _) => ExprKind::Unary(UnaryOp::Neg, r),
        };
        node(kind, span, &[d])
    }

    fn next_op(&self, set: OpSet) -> Next {
        let Some(t) = self.peek() else { return Next::End };
        let s = self.str_of(t);
        let op = match t.kind {
            TokKind::Punct => match s {
                "." => return Next::Op(Led::Dot),
                "[" => return Next::Op(Led::Index),
                "?" if set != OpSet::Arith => return Next::GiveUp,
                ".." if set != OpSet::Arith => return Next::Op(Led::Range),
                _ => match punct_op(s) {
                    Some(op) => op,
                    None => return Next::End,
                },
            },
            TokKind::Word => match s {
                "in" => BinaryOp::In,
                "mod" => BinaryOp::Mod,
                "union" => BinaryOp::Union,
                "xor" => BinaryOp::Xor,
                "xnor" => BinaryOp::Xnor,
                "U" | "S" | "V" | "T" if set == OpSet::Full => return Next::GiveUp,
                _ => return Next::End,
            },
            _ => return Next::End,
        };
        if set == OpSet::Arith && !is_arith(op) {
            return Next::End;
        }
        Next::Op(Led::Binary(op, binary_prec(op)))
    }

    /// `.field` and `[index]` postfixes applied to `base` (an assignment target).
    pub(crate) fn postfixes(&mut self, mut base: Built) -> Option<Built> {
        while let Next::Op(led @ (Led::Dot | Led::Index)) = self.next_op(OpSet::Full) {
            base = self.led(base, led, OpSet::Full)?;
        }
        Some(base)
    }

    /// An infix or postfix operator applied to `lhs`.
    fn led(&mut self, (lhs, dl): Built, led: Led, set: OpSet) -> Option<Built> {
        let op_tok = self.peek()?;
        self.pos += 1;
        match led {
            Led::Binary(op, p) => {
                // `->` is the one right-associative operator parsed here (`?:` makes the fast
                // path give up; `precedence` tests that these are the table's only two).
                let rbp = if op == BinaryOp::Implies {
                    self.folds += 1;
                    p - 1
                } else {
                    p
                };
                let (rhs, dr) = self.expr_bp(rbp, set)?;
                let span = lhs.span.to(rhs.span);
                let (dl, dr) = (chain_child_depth(op, &lhs, dl), chain_child_depth(op, &rhs, dr));
                node(ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)), span, &[dl, dr])
            }
            Led::Range => {
                let (rhs, dr) = self.expr_bp(prec::RANGE, set)?;
                let span = lhs.span.to(rhs.span);
                node(ExprKind::Range(Box::new(lhs), Box::new(rhs)), span, &[dl, dr])
            }
            Led::Dot => {
                let field = self.ident()?;
                let span = lhs.span.to(op_tok.span.to(field.span));
                node(ExprKind::Dot(Box::new(lhs), field), span, &[dl])
            }
            Led::Index => {
                let (i, di) = self.expr(OpSet::Full)?;
                let close = self.eat_punct("]")?;
                let span = lhs.span.to(op_tok.span.to(close));
                node(ExprKind::Index(Box::new(lhs), Box::new(i)), span, &[dl, di])
            }
        }
    }

    /// `primary` of the grammar, for the alternatives the fast path handles.
    fn primary(&mut self) -> Option<Built> {
        let t = self.peek()?;
        let s = self.str_of(t);
        let span = t.span;
        match t.kind {
            TokKind::Word if !is_keyword(s) => {
                self.pos += 1;
                leaf(ExprKind::Name(s.to_string()), span)
            }
            TokKind::Word => match s {
                "TRUE" | "FALSE" => {
                    self.pos += 1;
                    leaf(ExprKind::Bool(s == "TRUE"), span)
                }
                "self" | "EXIT" => {
                    self.pos += 1;
                    leaf(ExprKind::Name(s.to_string()), span)
                }
                "case" => self.case_expr(),
                "next" | "init" if self.punct_at(1, "(") => {
                    self.pos += 2;
                    let (e, d) = self.expr(OpSet::Full)?;
                    let close = self.eat_punct(")")?;
                    let kind = if s == "next" { ExprKind::Next(Box::new(e)) } else { ExprKind::Init(Box::new(e)) };
                    node(kind, span.to(close), &[d])
                }
                "E" | "A" if self.punct_at(1, "[") => {
                    self.pos += 2;
                    let (lhs, dl) = self.expr(OpSet::Ctl)?;
                    self.eat_word("U")?;
                    let (rhs, dr) = self.expr(OpSet::Ctl)?;
                    let close = self.eat_punct("]")?;
                    let kind = ExprKind::Until { universal: s == "A", lhs: Box::new(lhs), rhs: Box::new(rhs), bound: None };
                    node(kind, span.to(close), &[dl, dr])
                }
                _ => None,
            },
            TokKind::Number => {
                let v = s.parse::<i64>().ok().filter(|v| *v <= MAX_INT && s.bytes().all(|b| b.is_ascii_digit()))?;
                self.pos += 1;
                leaf(ExprKind::Int(v), span)
            }
            TokKind::Punct => match s {
                "(" => {
                    self.pos += 1;
                    let (mut e, d) = self.expr(OpSet::Full)?;
                    let close = self.eat_punct(")")?;
                    e.span = span.to(close);
                    Some((e, d))
                }
                "{" => {
                    self.pos += 1;
                    let mut items = Vec::new();
                    let mut depths = Vec::new();
                    loop {
                        let (e, d) = self.expr(OpSet::Full)?;
                        items.push(e);
                        depths.push(d);
                        if self.eat_punct(",").is_none() {
                            break;
                        }
                    }
                    let close = self.eat_punct("}")?;
                    node(ExprKind::Set(items), span.to(close), &depths)
                }
                _ => None,
            },
            TokKind::Invalid => None,
        }
    }

    /// `case c : v; … esac` (at least one branch).
    fn case_expr(&mut self) -> Option<Built> {
        let start = self.eat_word("case")?;
        let mut branches = Vec::new();
        let mut depths = Vec::new();
        loop {
            let first = self.peek()?;
            if first.kind == TokKind::Word && self.str_of(first) == "esac" {
                break;
            }
            let (condition, dc) = self.expr(OpSet::Full)?;
            self.eat_punct(":")?;
            let (value, dv) = self.expr(OpSet::Full)?;
            let semi = self.eat_punct(";")?;
            depths.extend([dc, dv]);
            branches.push(CaseBranch { condition, value, span: first.span.to(semi) });
        }
        if branches.is_empty() {
            return None;
        }
        let end = self.eat_word("esac")?;
        node(ExprKind::Case(branches), start.to(end), &depths)
    }
}

fn lbp(led: Led) -> u32 {
    match led {
        Led::Binary(_, p) => p,
        Led::Range => prec::RANGE,
        Led::Dot | Led::Index => prec::POSTFIX,
    }
}

fn punct_op(s: &str) -> Option<BinaryOp> {
    Some(match s {
        "=" => BinaryOp::Eq,
        "&" => BinaryOp::And,
        "|" => BinaryOp::Or,
        "->" => BinaryOp::Implies,
        "<->" => BinaryOp::Iff,
        "<<" => BinaryOp::Shl,
        ">>" => BinaryOp::Shr,
        "!=" => BinaryOp::Ne,
        "<=" => BinaryOp::Le,
        ">=" => BinaryOp::Ge,
        "<" => BinaryOp::Lt,
        ">" => BinaryOp::Gt,
        "+" => BinaryOp::Add,
        "-" => BinaryOp::Sub,
        "*" => BinaryOp::Mul,
        "/" => BinaryOp::Div,
        "::" => BinaryOp::Concat,
        _ => return None,
    })
}

/// `arith_infix` of the grammar.
fn is_arith(op: BinaryOp) -> bool {
    use BinaryOp::*;
    matches!(op, Shl | Shr | Add | Sub | Mul | Div | Concat | Mod)
}

fn binary_prec(op: BinaryOp) -> u32 {
    use BinaryOp::*;
    match op {
        Implies => prec::IMPLIES,
        Iff => prec::IFF,
        Or | Xor | Xnor => prec::OR,
        And => prec::AND,
        Eq | Ne | Lt | Le | Gt | Ge => prec::EQ,
        In => prec::IN,
        Union => prec::UNION,
        Shl | Shr => prec::SHIFT,
        Add | Sub => prec::ADD,
        Mul | Div | Mod => prec::MUL,
        Concat => prec::CONCAT,
    }
}

fn leaf(kind: ExprKind, span: Span) -> Option<Built> {
    Some((Expr { kind, span }, 1))
}

/// A node one level deeper than its deepest child; `None` past the builder's depth limit
/// (pest then reports it).
fn node(kind: ExprKind, span: Span, child_depths: &[u32]) -> Option<Built> {
    let d = child_depths.iter().copied().max().unwrap_or(0) + 1;
    (d <= MAX_EXPR_DEPTH).then_some((Expr { kind, span }, d))
}
