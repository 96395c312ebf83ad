//! Stage 1, parsing: `.smv` text → [`ast::Program`] with byte spans, using the pest grammar in
//! `grammar/smv.pest` and pest's Pratt parser for operator precedence.
//!
//! [`parse`] never panics and never fails: it returns the program it could build and every
//! syntax diagnostic. The file is pre-scanned ([`scan`]), cut into chunks at top-level keywords
//! ([`chunks`]), and each chunk is checked for balanced brackets and then parsed by pest
//! ([`parser`]); a broken chunk is reported ([`errors`]) and skipped, so all syntax errors of a
//! file come out in one run.

pub mod ast;
mod chunks;
mod errors;
mod fast;
mod items;
pub mod parser;
mod scan;
pub mod sexpr;

use crate::diagnostics::Diagnostic;
use crate::source::{SourceFile, Span};
use ast::{Module, Program, TerminationDirective, TerminationRule};
use chunks::{Chunk, ChunkKind};
use parser::{Builder, Rule, SmvParser};
use pest::Parser;
use scan::{Tok, TokKind};

pub use chunks::MAX_NESTING;
pub use parser::{MAX_EXPR_DEPTH, MAX_INT};

/// Parses a whole file. Syntax errors are returned as diagnostics (codes `E00xx`); the program
/// holds every module header and section that parsed.
pub fn parse(file: &SourceFile) -> (Program, Vec<Diagnostic>) {
    parse_with(file, true)
}

/// [`parse`] with the hand-written fast path ([`fast`]) switched on or off. Off, every chunk
/// and item goes through pest: the reference the fast path is tested against.
pub fn parse_with(file: &SourceFile, fast_path: bool) -> (Program, Vec<Diagnostic>) {
    let text = file.text.as_str();
    let scanned = scan::scan(text);
    let mut diags = Vec::new();
    if let Some(open) = scanned.unterminated_comment {
        diags.push(
            Diagnostic::error("E0010", "unterminated block comment", open)
                .with_label_message("`/--` opened here is never closed")
                .with_help("close the comment with `--/`"),
        );
    }
    let toks = &scanned.toks;
    // The pre-scan drops the text after an unterminated `/--`, pest does not: pest only then.
    let fast = fast_path && scanned.unterminated_comment.is_none();
    let mut program = Program { modules: Vec::new(), termination: Vec::new() };
    for chunk in chunks::split(text, toks) {
        let modules_before = program.modules.len();
        parse_chunk(text, toks, &chunk, fast, &mut program, &mut diags);
        if chunk.kind == ChunkKind::Module && program.modules.len() == modules_before {
            // The header had an error (already reported): keep a module under the name written
            // after `MODULE` so that the sections that follow are not attached to the previous one.
            program.modules.push(recovered_module(text, &toks[chunk.first_tok..chunk.end_tok]));
        }
    }
    (program, diags)
}

fn parse_chunk(text: &str, toks: &[Tok], chunk: &Chunk, fast: bool, program: &mut Program, diags: &mut Vec<Diagnostic>) {
    let chunk_toks = &toks[chunk.first_tok..chunk.end_tok];
    let Some(first) = chunk_toks.first() else { return };
    let keyword = &text[first.span.range()];
    match chunk.kind {
        ChunkKind::Stray => {
            diags.push(
                Diagnostic::error("E0013", format!("expected `MODULE`, found {}", errors::describe_token(text, Some(first))), first.span)
                    .with_label_message("outside of any module")
                    .with_help("a file is a sequence of modules, each starting with `MODULE name`"),
            );
            return;
        }
        ChunkKind::Unsupported => {
            diags.push(
                Diagnostic::error("E0017", format!("`{keyword}` sections are not supported"), first.span)
                    .with_label_message("unsupported section")
                    .with_help("xmv-rs reads the NuSMV sections listed in the README"),
            );
            return;
        }
        ChunkKind::Section if program.modules.is_empty() => {
            diags.push(
                Diagnostic::error("E0013", format!("`{keyword}` section outside of any module"), first.span)
                    .with_label_message("no `MODULE` before this")
                    .with_help("start the file with `MODULE main`"),
            );
            return;
        }
        _ => {}
    }
    if let Some(kind) = items::list_kind(keyword).filter(|_| chunk.kind == ChunkKind::Section) {
        let section = items::parse_list_section(text, toks, chunk, kind, fast, diags);
        if let Some(module) = program.modules.last_mut() {
            module.span = module.span.to(section_span(&section));
            module.sections.push(section);
        }
        return;
    }
    let invalid: Vec<Diagnostic> = chunk_toks.iter().filter(|t| t.kind == TokKind::Invalid).map(|t| invalid_char(text, t)).collect();
    if !invalid.is_empty() {
        diags.extend(invalid);
        return;
    }
    match chunks::check_brackets(text, chunk_toks) {
        Ok(depth) => chunks::with_stack_for(depth, || {
            if !(fast && fast_chunk(text, chunk_toks, chunk, program)) {
                parse_checked_chunk(text, toks, chunk, program, diags)
            }
        }),
        Err(d) => diags.push(d),
    }
}

/// Adds a module header or a section parsed by the fast path; `false` (nothing added) when the
/// chunk needs pest.
fn fast_chunk(text: &str, chunk_toks: &[Tok], chunk: &Chunk, program: &mut Program) -> bool {
    let span = Span::new(chunk.start, last_token_end(chunk_toks));
    match chunk.kind {
        ChunkKind::Module => match fast::module_header(text, chunk_toks) {
            Some((name, params)) => program.modules.push(Module { name, params, sections: Vec::new(), span }),
            None => return false,
        },
        ChunkKind::Section => match (fast::section(text, chunk_toks, chunk.end), program.modules.last_mut()) {
            (Some(section), Some(module)) => {
                module.sections.push(section);
                module.span = module.span.to(span);
            }
            _ => return false,
        },
        _ => return false,
    }
    true
}

/// Parses a chunk whose brackets are balanced and not too deep, and adds it to the program.
fn parse_checked_chunk(text: &str, toks: &[Tok], chunk: &Chunk, program: &mut Program, diags: &mut Vec<Diagnostic>) {
    let rule = match chunk.kind {
        ChunkKind::Termination => Rule::termination_chunk,
        ChunkKind::Module => Rule::module_chunk,
        _ => Rule::section_chunk,
    };
    let pair = match SmvParser::parse(rule, &text[chunk.start..chunk.end]) {
        Ok(mut pairs) => match pairs.next() {
            Some(p) => p,
            None => return,
        },
        Err(e) => {
            diags.push(pest_error(text, toks, chunk.start, chunk.end, e));
            return;
        }
    };
    let builder = Builder::new(chunk.start);
    let chunk_span = Span::new(chunk.start, last_token_end(&toks[chunk.first_tok..chunk.end_tok]));
    match chunk.kind {
        ChunkKind::Termination => {
            if let Some(rule_name) = builder.termination(pair) {
                termination(program, rule_name, chunk_span, diags);
            }
        }
        ChunkKind::Module => {
            let (name, params) = builder.module_header(pair);
            program.modules.push(Module { name, params, sections: Vec::new(), span: chunk_span });
        }
        _ => {
            if let (Some(section), Some(module)) = (builder.section_chunk(pair), program.modules.last_mut()) {
                module.sections.push(section);
                module.span = module.span.to(chunk_span);
            }
        }
    }
    diags.extend(builder.into_diagnostics());
}

fn recovered_module(text: &str, header: &[Tok]) -> Module {
    let keyword = header[0].span;
    let name = match header.get(1) {
        Some(t) if t.kind == TokKind::Word => ast::Ident { name: text[t.span.range()].to_string(), span: t.span },
        _ => ast::Ident { name: String::new(), span: Span::new(keyword.end as usize, keyword.end as usize) },
    };
    let span = keyword.to(name.span);
    Module { name, params: Vec::new(), sections: Vec::new(), span }
}

fn last_token_end(toks: &[Tok]) -> usize {
    toks.last().map_or(0, |t| t.span.end as usize)
}

fn termination(program: &mut Program, rule_name: ast::Ident, span: Span, diags: &mut Vec<Diagnostic>) {
    if !program.modules.is_empty() {
        diags.push(
            Diagnostic::error("E0015", "`TERMINATION` must come before the first `MODULE`", span)
                .with_label_message("directive after a module")
                .with_help("move this line to the top of the file"),
        );
        return;
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
            return;
        }
    };
    program.termination.push(TerminationDirective { rule, span });
}

fn section_span(s: &ast::Section) -> Span {
    use ast::Section::*;
    match s {
        Var { span, .. } | Define { span, .. } | Constants { span, .. } | Assign { span, .. } | Init { span, .. }
        | Trans { span, .. } | Invar { span, .. } | Fairness { span, .. } | Compassion { span, .. } | Call { span, .. }
        | Exit { span, .. } => *span,
        Spec(spec) => spec.span,
    }
}

fn invalid_char(text: &str, t: &Tok) -> Diagnostic {
    let s = &text[t.span.range()];
    let mut d = Diagnostic::error("E0012", format!("invalid character `{s}`"), t.span).with_label_message("not part of the SMV language");
    if !s.is_ascii() {
        d = d.with_help("identifiers use ASCII letters, digits and `_ $ # -`; non-ASCII text may appear only in comments");
    }
    d
}

fn is_stack_limit(e: &pest::error::Error<Rule>) -> bool {
    matches!(&e.variant, pest::error::ErrorVariant::CustomError { message } if message.contains("limit reached"))
}

/// Converts a pest error from parsing `text[start..end]`.
fn pest_error(text: &str, toks: &[Tok], start: usize, end: usize, e: pest::error::Error<Rule>) -> Diagnostic {
    let rel = match e.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    };
    if is_stack_limit(&e) {
        // Only reachable if `chunks::with_stack_for` reserved too little for the nesting depth.
        let at = Span::new(start, start);
        return Diagnostic::error("E0011", "expression nested too deeply", at)
            .with_label_message("the parser ran out of stack in this section")
            .with_help("split the expression into several DEFINEs");
    }
    let positives = match &e.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => positives.clone(),
        pest::error::ErrorVariant::CustomError { .. } => Vec::new(),
    };
    errors::syntax_error(text, toks, start + rel, end, &positives)
}
