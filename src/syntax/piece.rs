//! Parsing one chunk on its own: a module header, a section, or a `TERMINATION` directive,
//! through the fast path ([`super::fast`]) when it applies and pest otherwise.
//!
//! A chunk's result does not depend on the other chunks except through `module_before` (whether
//! a `MODULE` chunk comes earlier in the file), so chunks can be parsed in any order or in
//! parallel; [`super::parse_with`] assembles the pieces in file order.

use super::ast::{self, Module, Section, TerminationDirective, TerminationRule};
use super::chunks::{self, Chunk, ChunkKind};
use super::parser::{Builder, Rule, SmvParser};
use super::scan::{Tok, TokKind};
use super::{errors, fast, invalid_char, items, last_token_end, pest_error, section_span};
use crate::diagnostics::Diagnostic;
use crate::source::Span;
use pest::Parser;

/// What one chunk contributes to the program.
pub(super) enum Piece {
    /// Nothing (an error, already reported, or a stray or unsupported chunk).
    Nothing,
    Module(Module),
    /// A section of the last module, and the span that module's span is extended to.
    Section(Section, Span),
    Termination(TerminationDirective),
    /// `ISA module`: the module and the span of the whole line.
    Isa(ast::Ident, Span),
}

/// Parses one chunk; `module_before` tells whether a `MODULE` chunk comes earlier in the file.
pub(super) fn parse_chunk(text: &str, toks: &[Tok], chunk: &Chunk, module_before: bool, fast: bool, diags: &mut Vec<Diagnostic>) -> Piece {
    let chunk_toks = &toks[chunk.first_tok..chunk.end_tok];
    let Some(first) = chunk_toks.first() else { return Piece::Nothing };
    let keyword = &text[first.span.range()];
    match chunk.kind {
        ChunkKind::Stray => {
            diags.push(
                Diagnostic::error("E0013", format!("expected `MODULE`, found {}", errors::describe_token(text, Some(first))), first.span)
                    .with_label_message("outside of any module")
                    .with_help("a file is a sequence of modules, each starting with `MODULE name`"),
            );
            return Piece::Nothing;
        }
        ChunkKind::Unsupported => {
            diags.push(
                Diagnostic::error("E0017", format!("`{keyword}` sections are not supported"), first.span)
                    .with_label_message("unsupported section")
                    .with_help("xmv-rs reads the NuSMV sections listed in the README"),
            );
            return Piece::Nothing;
        }
        ChunkKind::Isa => return isa_chunk(text, chunk_toks, module_before, diags),
        ChunkKind::Section if !module_before => {
            diags.push(
                Diagnostic::error("E0013", format!("`{keyword}` section outside of any module"), first.span)
                    .with_label_message("no `MODULE` before this")
                    .with_help("start the file with `MODULE main`"),
            );
            return Piece::Nothing;
        }
        _ => {}
    }
    if let Some(kind) = items::list_kind(keyword).filter(|_| chunk.kind == ChunkKind::Section) {
        let section = items::parse_list_section(text, toks, chunk, kind, fast, diags);
        let span = section_span(&section);
        return Piece::Section(section, span);
    }
    let invalid: Vec<Diagnostic> = chunk_toks.iter().filter(|t| t.kind == TokKind::Invalid).map(|t| invalid_char(text, t)).collect();
    if !invalid.is_empty() {
        diags.extend(invalid);
        return Piece::Nothing;
    }
    match chunks::check_brackets(text, chunk_toks) {
        Ok(depth) => chunks::with_stack_for(depth, || match fast.then(|| fast_chunk(text, chunk_toks, chunk)).flatten() {
            Some(piece) => piece,
            None => {
                if fast && matches!(chunk.kind, ChunkKind::Module | ChunkKind::Section) {
                    fast::decline(Span::new(chunk.start, last_token_end(chunk_toks)));
                }
                parse_checked_chunk(text, toks, chunk, module_before, diags)
            }
        }),
        Err(d) => {
            diags.push(d);
            Piece::Nothing
        }
    }
}

/// A module header or a section parsed by the fast path; `None` when the chunk needs pest.
fn fast_chunk(text: &str, chunk_toks: &[Tok], chunk: &Chunk) -> Option<Piece> {
    let span = Span::new(chunk.start, last_token_end(chunk_toks));
    match chunk.kind {
        ChunkKind::Module => {
            let (name, params) = fast::module_header(text, chunk_toks)?;
            Some(Piece::Module(Module { name, params, sections: Vec::new(), span }))
        }
        ChunkKind::Section => Some(Piece::Section(fast::section(text, chunk_toks, chunk.end)?, span)),
        _ => None,
    }
}

/// Parses a chunk whose brackets are balanced and not too deep with pest.
fn parse_checked_chunk(text: &str, toks: &[Tok], chunk: &Chunk, module_before: bool, diags: &mut Vec<Diagnostic>) -> Piece {
    let rule = match chunk.kind {
        ChunkKind::Termination => Rule::termination_chunk,
        ChunkKind::Module => Rule::module_chunk,
        _ => Rule::section_chunk,
    };
    let pair = match SmvParser::parse(rule, &text[chunk.start..chunk.end]) {
        Ok(mut pairs) => match pairs.next() {
            Some(p) => p,
            None => return Piece::Nothing,
        },
        Err(e) => {
            diags.push(pest_error(text, toks, chunk.start, chunk.end, e));
            return Piece::Nothing;
        }
    };
    let builder = Builder::new(chunk.start);
    let chunk_span = Span::new(chunk.start, last_token_end(&toks[chunk.first_tok..chunk.end_tok]));
    let piece = match chunk.kind {
        ChunkKind::Termination => match builder.termination(pair) {
            Some(rule_name) => termination(module_before, rule_name, chunk_span, diags),
            None => Piece::Nothing,
        },
        ChunkKind::Module => {
            let (name, params) = builder.module_header(pair);
            Piece::Module(Module { name, params, sections: Vec::new(), span: chunk_span })
        }
        _ => match builder.section_chunk(pair) {
            Some(ast::Section::Spec(spec)) if spec.kind == ast::SpecKind::Psl && spec.expr.is_none() && !beyond_psl_subset(&text[chunk.start..chunk.end]) => {
                // Not PSL that xmv-rs skips (W0001 later) but a malformed body: NuSMV's "PSL
                // parse error", here with the place.
                if let Err(e) = SmvParser::parse(Rule::psl_chunk, &text[chunk.start..chunk.end]) {
                    diags.push(pest_error(text, toks, chunk.start, chunk.end, e));
                }
                Piece::Nothing
            }
            Some(section) => Piece::Section(section, chunk_span),
            None => Piece::Nothing,
        },
    };
    diags.extend(builder.into_diagnostics());
    piece
}

/// Whether a PSLSPEC's text uses PSL that NuSMV 2.5.4 reads and xmv-rs does not check (SEREs
/// and the operators around them): such a body is kept as text and skipped with W0001, any
/// other body that `psl_body` does not read is a syntax error.
fn beyond_psl_subset(text: &str) -> bool {
    const WORDS: &[&str] = &["within", "whilenot", "next_a", "next_e", "next_event", "abort", "rose", "fell", "prev", "forany"];
    text.contains('{') && !text.contains(" in {") && !text.contains(" in{")
        || ["|->", "|=>", "<>->", "[*", "[+]", "[=", "[->", "&&", "||"].iter().any(|op| text.contains(op))
        || text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '!')).any(|w| WORDS.contains(&w.trim_end_matches(['!', '_'])))
}

fn termination(module_before: bool, rule_name: ast::Ident, span: Span, diags: &mut Vec<Diagnostic>) -> Piece {
    if module_before {
        diags.push(
            Diagnostic::error("E0015", "`TERMINATION` must come before the first `MODULE`", span)
                .with_label_message("directive after a module")
                .with_help("move this line to the top of the file"),
        );
        return Piece::Nothing;
    }
    let rule = match rule_name.name.as_str() {
        "trap" => TerminationRule::Trap,
        "loop" => TerminationRule::Loop,
        other => {
            diags.push(
                Diagnostic::error("E0015", format!("unknown termination rule `{other}`"), rule_name.span)
                    .with_label_message("expected `trap` or `loop`")
                    .with_help("write `TERMINATION trap;` (Finis 2012, the default) or `TERMINATION loop;` (RSMCheck)"),
            );
            return Piece::Nothing;
        }
    };
    Piece::Termination(TerminationDirective { rule, span })
}

/// `ISA name` (no `;`, as in NuSMV's grammar): the included module's name.
fn isa_chunk(text: &str, toks: &[Tok], module_before: bool, diags: &mut Vec<Diagnostic>) -> Piece {
    let keyword = toks[0].span;
    if !module_before {
        diags.push(
            Diagnostic::error("E0013", "`ISA` outside of any module", keyword)
                .with_label_message("no `MODULE` before this")
                .with_help("start the file with `MODULE main`"),
        );
        return Piece::Nothing;
    }
    match toks {
        [_, name] if name.kind == TokKind::Word && !super::scan::is_keyword(&text[name.span.range()]) => {
            Piece::Isa(ast::Ident { name: text[name.span.range()].to_string(), span: name.span }, keyword.to(name.span))
        }
        _ => {
            let found = toks.get(1);
            let at = found.map_or(Span::new(keyword.end as usize, keyword.end as usize), |t| t.span);
            diags.push(
                Diagnostic::error("E0001", format!("expected a module name after `ISA`, found {}", errors::describe_token(text, found)), at)
                    .with_label_message("expected `ISA module-name`")
                    .with_help("`ISA` takes one module name and nothing else (no `;`)"),
            );
            Piece::Nothing
        }
    }
}
