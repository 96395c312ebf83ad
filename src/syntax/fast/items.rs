//! Items, sections and module headers of the fast path: the entry rules `var_item`,
//! `define_item`, `assign_item`, `call_item`, `exit_item`, the `section_chunk`s `SPEC`,
//! `CTLSPEC`, `INVARSPEC`, `INIT`, `TRANS`, `INVAR`, `FAIRNESS`, `JUSTICE`, and `module_chunk`,
//! each parsed from its whole token list (the equivalent of pest's `SOI … EOI`).
//! Types handled: `boolean`, enumerations, ranges and module instances; anything else
//! (`array`, `process`, words, `integer`, …) returns `None`.

use super::Cursor;
use super::expr::OpSet;
use crate::source::Span;
use crate::syntax::ast::*;
use crate::syntax::parser::{Item, MAX_INT, Rule};
use crate::syntax::scan::{Tok, TokKind};

/// One `…;` item of a list section, for the entry rule `rule` (`var_item`, `define_item`, …).
pub(crate) fn item(text: &str, toks: &[Tok], rule: Rule) -> Option<Item> {
    let mut c = Cursor::new(text, toks);
    let item = match rule {
        Rule::var_item => Item::Var(c.var_decl()?),
        Rule::define_item => {
            let (name, expr, span) = c.named_condition()?;
            Item::Define(Define { name, expr, span })
        }
        Rule::call_item => {
            let (target, condition, span) = c.named_condition()?;
            Item::Call(CallDecl { target, condition, span })
        }
        Rule::exit_item => {
            let (name, condition, span) = c.named_condition()?;
            Item::Exit(ExitDecl { name, condition, span })
        }
        Rule::assign_item => Item::Assign(c.assign()?),
        _ => return None,
    };
    c.at_end().then_some(item)
}

/// A `section_chunk` whose keyword is one of the constraint or CTL/invariant spec keywords;
/// `chunk_end` is the byte offset where the chunk's text ends.
pub(crate) fn section(text: &str, toks: &[Tok], chunk_end: usize) -> Option<Section> {
    let mut c = Cursor::new(text, toks);
    let kw = c.peek().filter(|t| t.kind == TokKind::Word)?;
    let keyword = c.str_of(kw);
    c.pos += 1;
    let section = match keyword {
        "SPEC" | "CTLSPEC" | "INVARSPEC" => {
            let name = match c.eat_word("NAME") {
                Some(_) => {
                    let n = c.ident()?;
                    c.eat_punct(":=")?;
                    Some(n)
                }
                None => None,
            };
            let (expr, _) = c.expr(OpSet::Full)?;
            let kind = if keyword == "INVARSPEC" { SpecKind::Invar } else { SpecKind::Ctl };
            Section::Spec(Spec { kind, keyword: kw.span, name, expr: Some(expr), compute: None, span: c.optional_semi(chunk_end) })
        }
        "INIT" | "TRANS" | "INVAR" | "FAIRNESS" | "JUSTICE" => {
            let (expr, _) = c.expr(OpSet::Full)?;
            let span = c.optional_semi(chunk_end);
            match keyword {
                "INIT" => Section::Init { expr, span },
                "TRANS" => Section::Trans { expr, span },
                "INVAR" => Section::Invar { expr, span },
                _ => Section::Fairness { expr, justice: keyword == "JUSTICE", span },
            }
        }
        _ => return None,
    };
    c.at_end().then_some(section)
}

/// `MODULE name` or `MODULE name(p1, p2, …)` → name and parameters.
pub(crate) fn module_header(text: &str, toks: &[Tok]) -> Option<(Ident, Vec<Ident>)> {
    let mut c = Cursor::new(text, toks);
    c.eat_word("MODULE")?;
    let name = c.ident()?;
    let mut params = Vec::new();
    if c.eat_punct("(").is_some() && c.eat_punct(")").is_none() {
        loop {
            params.push(c.ident()?);
            if c.eat_punct(",").is_none() {
                break;
            }
        }
        c.eat_punct(")")?;
    }
    c.at_end().then_some((name, params))
}

impl Cursor<'_> {
    /// The span from token `first` to the last consumed token.
    fn span_since(&self, first: usize) -> Span {
        let last = self.pos.saturating_sub(1).max(first);
        self.toks[first].span.to(self.toks[last].span)
    }

    /// The span of a pest rule ending in `… ~ x?`: when `x` is absent, pest has already
    /// skipped the white space and comments after the last token, up to the next token.
    fn span_with_skip(&self, first: usize, chunk_end: usize) -> Span {
        let end = self.peek().map_or(chunk_end, |t| t.span.start as usize);
        Span::new(self.toks[first].span.start as usize, end)
    }

    /// A section's optional final `;` and the section's span (see [`Self::span_with_skip`]).
    fn optional_semi(&mut self, chunk_end: usize) -> Span {
        match self.eat_punct(";") {
            Some(_) => self.span_since(0),
            None => self.span_with_skip(0, chunk_end),
        }
    }

    /// `name := expression;` (DEFINE, CALL, EXIT).
    fn named_condition(&mut self) -> Option<(Ident, Expr, Span)> {
        let name = self.ident()?;
        self.eat_punct(":=")?;
        let (expr, _) = self.expr(OpSet::Full)?;
        self.eat_punct(";")?;
        Some((name, expr, self.span_since(0)))
    }

    /// `init(x) := e;`, `next(x) := e;` or `x := e;` with `x` a `var_ref`.
    fn assign(&mut self) -> Option<Assign> {
        let kind = match self.peek().map(|t| self.str_of(t)) {
            Some("init") => AssignKind::Init,
            Some("next") => AssignKind::Next,
            _ => AssignKind::Invariant,
        };
        let target = if kind == AssignKind::Invariant {
            self.var_ref()?
        } else {
            self.pos += 1;
            self.eat_punct("(")?;
            let target = self.var_ref()?;
            self.eat_punct(")")?;
            target
        };
        self.eat_punct(":=")?;
        let (value, _) = self.expr(OpSet::Full)?;
        self.eat_punct(";")?;
        Some(Assign { kind, target, value, span: self.span_since(0) })
    }

    /// `var_ref`: an identifier or `self`, then `.field` and `[index]` postfixes.
    fn var_ref(&mut self) -> Option<Expr> {
        let first = self.peek().filter(|t| t.kind == TokKind::Word)?;
        let name = self.str_of(first);
        if name != "self" {
            self.ident()?;
        } else {
            self.pos += 1;
        }
        let base = (Expr { kind: ExprKind::Name(name.to_string()), span: first.span }, 1);
        Some(self.postfixes(base)?.0)
    }

    /// `name : type;`
    fn var_decl(&mut self) -> Option<VarDecl> {
        let name = self.ident()?;
        self.eat_punct(":")?;
        let ty = self.type_spec()?;
        self.eat_punct(";")?;
        Some(VarDecl { name, ty, span: self.span_since(0) })
    }

    fn type_spec(&mut self) -> Option<TypeSpec> {
        let t = self.peek()?;
        let start = self.pos;
        match (t.kind, self.str_of(t)) {
            (TokKind::Word, "boolean") => {
                self.pos += 1;
                Some(TypeSpec::Boolean(t.span))
            }
            (TokKind::Punct, "{") => self.enum_type(),
            // `clock` is not reserved but is `unsupported_type`, tried before ranges/instances.
            (TokKind::Word, "clock") => None,
            (TokKind::Word, _) => {
                let (depth, folds) = (self.depth, self.folds);
                if let Some(range) = self.range_type() {
                    return Some(range);
                }
                (self.pos, self.depth, self.folds) = (start, depth, folds);
                self.instance_type()
            }
            _ => self.range_type(),
        }
    }

    /// `lo .. hi` with arithmetic bounds.
    fn range_type(&mut self) -> Option<TypeSpec> {
        let start = self.pos;
        let (lo, _) = self.expr(OpSet::Arith)?;
        self.eat_punct("..")?;
        let (hi, _) = self.expr(OpSet::Arith)?;
        // `bound` ends in `(arith_infix ~ term)*`: its span takes the skip after the last term.
        let end = self.peek()?.span.start as usize;
        Some(TypeSpec::Range { lo, hi, span: Span::new(self.toks[start].span.start as usize, end) })
    }

    /// `module` or `module(args)`.
    fn instance_type(&mut self) -> Option<TypeSpec> {
        let start = self.pos;
        let module = self.ident()?;
        let mut args = Vec::new();
        if self.eat_punct("(").is_none() {
            // `ident ~ call_args?` without arguments: the span takes the skip after the name.
            let end = self.peek()?.span.start as usize;
            let span = Span::new(self.toks[start].span.start as usize, end);
            return Some(TypeSpec::Instance { module, args, process: false, span });
        }
        if self.eat_punct(")").is_none() {
            loop {
                args.push(self.expr(OpSet::Full)?.0);
                if self.eat_punct(",").is_none() {
                    break;
                }
            }
            self.eat_punct(")")?;
        }
        Some(TypeSpec::Instance { module, args, process: false, span: self.span_since(start) })
    }

    /// `{v1, v2, …}` with symbols, `EXIT` and (possibly negative) integers.
    fn enum_type(&mut self) -> Option<TypeSpec> {
        let start = self.pos;
        self.eat_punct("{")?;
        let mut values = Vec::new();
        loop {
            values.push(self.enum_value()?);
            if self.eat_punct(",").is_none() {
                break;
            }
        }
        self.eat_punct("}")?;
        Some(TypeSpec::Enum { values, span: self.span_since(start) })
    }

    fn enum_value(&mut self) -> Option<EnumValue> {
        let t = self.peek()?;
        match (t.kind, self.str_of(t)) {
            (TokKind::Word, "EXIT") => {
                self.pos += 1;
                Some(EnumValue::Symbol(Ident { name: "EXIT".to_string(), span: t.span }))
            }
            (TokKind::Word, _) => self.ident().map(EnumValue::Symbol),
            (TokKind::Number, digits) => {
                let v = enum_int(digits)?;
                self.pos += 1;
                Some(EnumValue::Int(v, t.span))
            }
            // `enum_int` is atomic: the `-` must touch the digits.
            (TokKind::Punct, "-") => {
                let d = self.peek_at(1).filter(|d| d.kind == TokKind::Number && d.span.start == t.span.end)?;
                let v = enum_int(self.str_of(d))?;
                self.pos += 2;
                Some(EnumValue::Int(-v, t.span.to(d.span)))
            }
            _ => None,
        }
    }
}

/// The value of an all-digit token within NuSMV's range.
fn enum_int(digits: &str) -> Option<i64> {
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse::<i64>().ok().filter(|v| *v <= MAX_INT)
}
