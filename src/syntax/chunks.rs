//! Cutting a scanned file into chunks, and the bracket checks done before pest sees a chunk.
//!
//! A chunk starts at a top-level keyword (`MODULE`, `TERMINATION`, or a section keyword such as
//! `VAR`, `ASSIGN`, `SPEC`, `CALL`) and runs to the next one. Section keywords never occur inside
//! an expression, except `EXIT`, which is also a value: `EXIT` starts a section only when the next
//! token is a plain identifier (`EXIT done := …`), which a value never is. Each chunk is parsed on
//! its own, so a syntax error costs one chunk and the rest of the file is still checked.
//!
//! [`check_brackets`] verifies that `( ) [ ] { }` and `case … esac` nest properly inside a chunk
//! and that nesting stays below [`MAX_NESTING`], so that the recursive pest parse and the AST
//! consumers cannot run out of stack.

use super::scan::{Tok, TokKind, is_keyword};
use crate::diagnostics::Diagnostic;
use crate::source::Span;

/// Deepest bracket / `case` nesting accepted in one chunk.
pub const MAX_NESTING: usize = 10_000;

/// Runs `f` (a pest parse and AST build of a chunk nested `depth` deep) on a stack large
/// enough for that depth: pest and the builder recurse a few KiB per nesting level in debug
/// builds. Shallow chunks (almost all) run on the caller's stack; a fresh stack costs time.
pub(super) fn with_stack_for<T>(depth: usize, f: impl FnOnce() -> T) -> T {
    const PER_LEVEL: usize = 48 << 10;
    let needed = (depth + 8) * PER_LEVEL;
    stacker::maybe_grow(needed, needed * 2, f)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ChunkKind {
    /// `TERMINATION trap;`
    Termination,
    /// `MODULE name(params)`
    Module,
    /// A section of a module, introduced by a keyword the grammar knows.
    Section,
    /// A NuSMV section xmv-rs does not support (`MDEFINE`, `PREDICATES`, …).
    Unsupported,
    /// `ISA module` (see `syntax::isa`).
    Isa,
    /// Tokens before the first keyword of the file.
    Stray,
}

#[derive(Clone, Debug)]
pub(super) struct Chunk {
    pub kind: ChunkKind,
    /// Byte range of the chunk's text: from its keyword to the next chunk's keyword.
    pub start: usize,
    pub end: usize,
    /// Index range into the token list.
    pub first_tok: usize,
    pub end_tok: usize,
}

const SECTION_KEYWORDS: &[&str] = &[
    "VAR",
    "IVAR",
    "FROZENVAR",
    "DEFINE",
    "CONSTANTS",
    "ASSIGN",
    "INIT",
    "TRANS",
    "INVAR",
    "FAIRNESS",
    "JUSTICE",
    "COMPASSION",
    "SPEC",
    "CTLSPEC",
    "INVARSPEC",
    "LTLSPEC",
    "PSLSPEC",
    "COMPUTE",
    "CALL",
];
const UNSUPPORTED_SECTIONS: &[&str] = &["MDEFINE", "PREDICATES", "PRED", "MIRROR", "CONSTRAINT"];

fn chunk_kind_at(text: &str, toks: &[Tok], i: usize) -> Option<ChunkKind> {
    let t = toks[i];
    if t.kind != TokKind::Word {
        return None;
    }
    let word = &text[t.span.range()];
    // Every chunk keyword starts with a capital; most identifiers do not.
    if !word.as_bytes().first().is_some_and(u8::is_ascii_uppercase) {
        return None;
    }
    match word {
        "MODULE" => Some(ChunkKind::Module),
        "TERMINATION" => Some(ChunkKind::Termination),
        "ISA" => Some(ChunkKind::Isa),
        "EXIT" => {
            let next = toks.get(i + 1)?;
            let next_word = &text[next.span.range()];
            (next.kind == TokKind::Word && !is_keyword(next_word)).then_some(ChunkKind::Section)
        }
        w if SECTION_KEYWORDS.contains(&w) => Some(ChunkKind::Section),
        w if UNSUPPORTED_SECTIONS.contains(&w) => Some(ChunkKind::Unsupported),
        _ => None,
    }
}

/// Cuts the token list into chunks covering the whole text.
pub(super) fn split(text: &str, toks: &[Tok]) -> Vec<Chunk> {
    let mut chunks: Vec<Chunk> = Vec::new();
    for i in 0..toks.len() {
        let Some(kind) = chunk_kind_at(text, toks, i) else {
            if i == 0 {
                chunks.push(Chunk { kind: ChunkKind::Stray, start: 0, end: 0, first_tok: 0, end_tok: 0 });
            }
            continue;
        };
        let start = toks[i].span.start as usize;
        if let Some(prev) = chunks.last_mut() {
            prev.end = start;
            prev.end_tok = i;
        }
        chunks.push(Chunk { kind, start, end: 0, first_tok: i, end_tok: 0 });
    }
    if let Some(last) = chunks.last_mut() {
        last.end = text.len();
        last.end_tok = toks.len();
    }
    if let Some(first) = chunks.first_mut().filter(|c| c.kind == ChunkKind::Stray) {
        first.start = toks.first().map_or(0, |t| t.span.start as usize);
    }
    chunks
}

fn closer_of(open: &str) -> &'static str {
    match open {
        "(" => ")",
        "[" => "]",
        "{" => "}",
        _ => "esac",
    }
}

/// Checks delimiter balance and nesting depth of one chunk's tokens: the deepest nesting, or
/// the first problem found.
pub(super) fn check_brackets(text: &str, toks: &[Tok]) -> Result<usize, Diagnostic> {
    let mut stack: Vec<Tok> = Vec::new();
    let mut deepest = 0;
    for &t in toks {
        // Only `( [ { ) ] } ;` and `case`/`esac` matter: other tokens are skipped by length.
        let len = (t.span.end - t.span.start) as usize;
        let relevant = match t.kind {
            TokKind::Punct => len == 1,
            TokKind::Word => len == 4,
            _ => false,
        };
        if !relevant {
            continue;
        }
        let s = &text[t.span.range()];
        let is_open = match t.kind {
            TokKind::Punct => matches!(s, "(" | "[" | "{"),
            TokKind::Word => s == "case",
            _ => false,
        };
        let is_close = match t.kind {
            TokKind::Punct => matches!(s, ")" | "]" | "}"),
            TokKind::Word => s == "esac",
            _ => false,
        };
        if t.kind == TokKind::Punct && s == ";" {
            // `;` ends a declaration or a case branch; it never occurs directly inside brackets.
            if let Some(open) = stack.last().filter(|o| &text[o.span.range()] != "case") {
                let open_s = &text[open.span.range()];
                let expected = closer_of(open_s);
                return Err(Diagnostic::error("E0003", format!("unclosed delimiter `{open_s}`"), open.span)
                    .with_label_message("opened here and never closed")
                    .with_secondary(t.span, format!("expected `{expected}` before this `;`"))
                    .with_help(format!("add the missing `{expected}`")));
            }
        }
        if is_open {
            stack.push(t);
            deepest = deepest.max(stack.len());
            if stack.len() > MAX_NESTING {
                return Err(Diagnostic::error("E0011", "expression nested too deeply", t.span)
                    .with_label_message(format!("more than {MAX_NESTING} levels of brackets or `case`"))
                    .with_help("split the expression into several DEFINEs"));
            }
        } else if is_close {
            let Some(open) = stack.pop() else {
                return Err(unmatched_closer(s, t.span));
            };
            let open_s = &text[open.span.range()];
            let expected = closer_of(open_s);
            if expected != s {
                return Err(mismatch(open_s, open.span, s, t.span, expected));
            }
        }
    }
    match stack.pop() {
        Some(open) => Err(unclosed(&text[open.span.range()], open.span, toks.last().map_or(open.span, |t| t.span))),
        None => Ok(deepest),
    }
}

fn unmatched_closer(s: &str, span: Span) -> Diagnostic {
    if s == "esac" {
        Diagnostic::error("E0007", "`esac` without a matching `case`", span)
            .with_label_message("no `case` is open here")
            .with_help("remove this `esac`, or add the missing `case`")
    } else {
        Diagnostic::error("E0004", format!("unexpected closing delimiter `{s}`"), span)
            .with_label_message("nothing is open here")
            .with_help(format!("remove this `{s}`, or add the missing opening delimiter"))
    }
}

fn mismatch(open: &str, open_span: Span, close: &str, close_span: Span, expected: &str) -> Diagnostic {
    let d = if open == "case" {
        Diagnostic::error("E0006", format!("`case` is not closed: expected `esac`, found `{close}`"), close_span)
            .with_help("end the `case` with `esac` before this delimiter")
    } else {
        Diagnostic::error("E0005", format!("mismatched delimiter: `{open}` closed by `{close}`"), close_span)
            .with_help(format!("write `{expected}` to close the `{open}`"))
    };
    d.with_label_message(format!("expected `{expected}`")).with_secondary(open_span, "opened here")
}

fn unclosed(open: &str, open_span: Span, last: Span) -> Diagnostic {
    let end = Span::new(last.end as usize, last.end as usize);
    if open == "case" {
        Diagnostic::error("E0006", "`case` without `esac`", open_span)
            .with_label_message("this `case` is never closed")
            .with_secondary(end, "expected `esac` here")
            .with_help("add `esac;` after the last branch")
    } else {
        Diagnostic::error("E0003", format!("unclosed delimiter `{open}`"), open_span)
            .with_label_message("opened here and never closed")
            .with_secondary(end, format!("expected `{}` here", closer_of(open)))
            .with_help(format!("add the missing `{}`", closer_of(open)))
    }
}
