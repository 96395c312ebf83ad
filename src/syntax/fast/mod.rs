//! The fast path of the parser: a hand-written recursive-descent parser over the pre-scanned
//! tokens ([`super::scan`]) for the well-formed items that make up almost all of a big model
//! (list-section items, `SPEC`/`INIT`/… sections, `MODULE` headers).
//!
//! It is an accelerator, not a second grammar: it accepts a *subset* of `grammar/smv.pest` and
//! builds exactly the AST that pest plus [`super::parser::Builder`] build for that input, spans
//! included. Whenever the input leaves that subset — a syntax error, an operator it does not
//! know (`? :`, LTL, RTCTL's `EBF 0..3`/`BU`, bit selection, built-in functions, word
//! constants), an integer out of
//! range, nesting deeper than [`MAX_FAST_DEPTH`], a declaration it does not handle (`process`
//! `array` and `word` types, `real`/`integer`, a path name such as `a.b : boolean` or `a.b := e`,
//! an array DEFINE body `[e0, e1]`), a
//! `PSLSPEC`, `COMPUTE` or `COMPASSION` section — it returns `None` and the caller parses the
//! same text with pest, which produces the output and the diagnostics. So diagnostics always
//! come from the pest path, and a successful fast parse never has any.
//!
//! Assumes the caller has already rejected invalid characters and unbalanced brackets, and does
//! not use the fast path when a block comment is unterminated (the pre-scan drops the rest of
//! the file there, pest does not). `tests/parser_fast_path.rs` checks the equivalence with the
//! pest path on the bundled specs and on random and mutated inputs, and that on the bundled
//! models it declines nothing but the constructs listed above ([`decline`] notes each decline).

mod expr;
mod items;

pub(super) use items::{item, module_header, section};

use super::scan::{Tok, TokKind, is_keyword};
use crate::source::Span;
use std::cell::RefCell;

thread_local! {
    /// The items and chunks the fast path declined on this thread (see [`declined`]).
    static DECLINED: RefCell<Vec<Span>> = const { RefCell::new(Vec::new()) };
}

/// Notes that the fast path declined the item or chunk at `span` (pest parses it instead).
pub(super) fn decline(span: Span) {
    DECLINED.with(|d| d.borrow_mut().push(span));
}

/// The declines noted on this thread since the last call (a chunk is parsed on one thread).
pub(super) fn take_declined() -> Vec<Span> {
    DECLINED.with(|d| std::mem::take(&mut *d.borrow_mut()))
}

/// Deepest recursion of the fast parser; deeper input goes to pest (which has its own limits).
pub(super) const MAX_FAST_DEPTH: u32 = 50;

/// A position in the token list of one item or section.
pub(super) struct Cursor<'t> {
    text: &'t str,
    toks: &'t [Tok],
    pos: usize,
    /// Current recursion depth (expressions within brackets, prefix operators, `->` chains).
    depth: u32,
    /// Prefix operators and `->` in the expression sequence being parsed (see [`Cursor::expr`]).
    folds: u32,
}

impl<'t> Cursor<'t> {
    pub(super) fn new(text: &'t str, toks: &'t [Tok]) -> Cursor<'t> {
        Cursor { text, toks, pos: 0, depth: 0, folds: 0 }
    }

    fn peek(&self) -> Option<Tok> {
        self.toks.get(self.pos).copied()
    }

    fn peek_at(&self, ahead: usize) -> Option<Tok> {
        self.toks.get(self.pos + ahead).copied()
    }

    fn str_of(&self, t: Tok) -> &'t str {
        &self.text[t.span.range()]
    }

    fn at_end(&self) -> bool {
        self.pos >= self.toks.len()
    }

    /// The next token if it is the punctuation `s`, consumed.
    fn eat_punct(&mut self, s: &str) -> Option<Span> {
        let t = self.peek().filter(|t| t.kind == TokKind::Punct && self.str_of(*t) == s)?;
        self.pos += 1;
        Some(t.span)
    }

    /// The next token if it is the word `s` (a keyword), consumed.
    fn eat_word(&mut self, s: &str) -> Option<Span> {
        let t = self.peek().filter(|t| t.kind == TokKind::Word && self.str_of(*t) == s)?;
        self.pos += 1;
        Some(t.span)
    }

    /// Whether the token `ahead` positions on is the punctuation `s`.
    fn punct_at(&self, ahead: usize, s: &str) -> bool {
        self.peek_at(ahead).is_some_and(|t| t.kind == TokKind::Punct && self.str_of(t) == s)
    }

    /// The next token if it is an identifier (a word that is not reserved), consumed.
    fn ident(&mut self) -> Option<crate::syntax::ast::Ident> {
        let t = self.peek().filter(|t| t.kind == TokKind::Word)?;
        let name = self.str_of(t);
        if is_keyword(name) {
            return None;
        }
        self.pos += 1;
        Some(crate::syntax::ast::Ident { name: name.to_string(), span: t.span })
    }

    /// Enters one level of recursion; `None` when the fast path should give up.
    fn enter(&mut self) -> Option<()> {
        self.depth += 1;
        (self.depth <= MAX_FAST_DEPTH).then_some(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }
}
