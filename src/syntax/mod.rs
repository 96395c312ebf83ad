//! Stage 1, parsing: `.smv` text → [`ast::Program`] with byte spans, using the pest grammar in
//! `grammar/smv.pest` and pest's Pratt parser for operator precedence.
//!
//! [`parse`] never panics and never fails: it returns the program it could build and every
//! syntax diagnostic. The file is pre-scanned ([`scan`]), cut into chunks at top-level keywords
//! ([`chunks`]), and each chunk is checked for balanced brackets and then parsed by pest
//! ([`parser`]); a broken chunk is reported ([`errors`]) and skipped, so all syntax errors of a
//! file come out in one run.

pub mod ast;
pub(crate) mod chains;
mod chunks;
mod errors;
mod fast;
pub(crate) mod isa;
mod items;
pub(crate) mod parser;
mod piece;
pub(crate) mod precedence;
mod scan;
pub mod sexpr;
pub(crate) mod words;

use crate::diagnostics::Diagnostic;
use crate::source::{SourceFile, Span};
use ast::{Module, Program};
use chunks::{Chunk, ChunkKind};
use parser::Rule;
use piece::Piece;
pub(crate) use scan::KEYWORDS;
use scan::{Tok, TokKind};

/// Files with fewer chunks are parsed on one thread.
const PARALLEL_MIN_CHUNKS: usize = 64;

pub use chunks::MAX_NESTING;

/// Parses a whole file. Syntax errors are returned as diagnostics (codes `E00xx`); the program
/// holds every module header and section that parsed.
pub fn parse(file: &SourceFile) -> (Program, Vec<Diagnostic>) {
    parse_with(file, true)
}

/// [`parse`] with the hand-written fast path ([`fast`]) switched on or off. Off, every chunk
/// and item goes through pest: the reference the fast path is tested against.
pub fn parse_with(file: &SourceFile, fast_path: bool) -> (Program, Vec<Diagnostic>) {
    let (program, diags, _) = parse_counting(file, fast_path);
    (program, diags)
}

/// The spans of the module headers, sections and list items that the fast path declined (pest
/// parsed them), in file order: `tests/parser_fast_path.rs` checks that it declines only what it
/// is documented not to handle.
pub fn fast_path_declines(file: &SourceFile) -> Vec<Span> {
    parse_counting(file, true).2
}

fn parse_counting(file: &SourceFile, fast_path: bool) -> (Program, Vec<Diagnostic>, Vec<Span>) {
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
    // Chunks are parsed independently (in parallel on big files); what depends on the chunks
    // before — is there a module yet? — is decided from the chunk kinds up front.
    let mut module_seen = false;
    let jobs: Vec<(Chunk, bool)> = (chunks::split(text, toks).into_iter())
        .map(|c| {
            let module_before = module_seen;
            module_seen |= c.kind == ChunkKind::Module;
            (c, module_before)
        })
        .collect();
    let pieces = crate::par::map_ordered(&jobs, PARALLEL_MIN_CHUNKS, |(chunk, module_before)| {
        let mut chunk_diags = Vec::new();
        fast::take_declined();
        let piece = piece::parse_chunk(text, toks, chunk, *module_before, fast, &mut chunk_diags);
        (piece, chunk_diags, fast::take_declined())
    });
    let mut program = Program { modules: Vec::new(), termination: Vec::new(), included: Vec::new() };
    let mut isa_refs = Vec::new();
    let mut declined = Vec::new();
    for ((chunk, _), (piece, mut chunk_diags, mut chunk_declined)) in jobs.iter().zip(pieces) {
        diags.append(&mut chunk_diags);
        declined.append(&mut chunk_declined);
        match piece {
            Piece::Module(m) => program.modules.push(m),
            Piece::Section(section, span) => {
                if let Some(module) = program.modules.last_mut() {
                    module.span = module.span.to(span);
                    module.sections.push(section);
                }
            }
            Piece::Termination(t) => program.termination.push(t),
            Piece::Isa(target, span) => {
                if let Some(module) = program.modules.len().checked_sub(1) {
                    let position = program.modules[module].sections.len();
                    program.modules[module].span = program.modules[module].span.to(span);
                    isa_refs.push(isa::IsaRef { module, position, target, span });
                }
            }
            Piece::Nothing if chunk.kind == ChunkKind::Module => {
                // The header had an error (already reported): keep a module under the name written
                // after `MODULE` so that the sections that follow are not attached to the previous one.
                program.modules.push(recovered_module(text, &toks[chunk.first_tok..chunk.end_tok]));
            }
            Piece::Nothing => {}
        }
    }
    isa::expand(&mut program, isa_refs, &mut diags);
    chains::balance_program(&mut program);
    (program, diags, declined)
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

fn section_span(s: &ast::Section) -> Span {
    use ast::Section::*;
    match s {
        Var { span, .. }
        | Define { span, .. }
        | Constants { span, .. }
        | Assign { span, .. }
        | Init { span, .. }
        | Trans { span, .. }
        | Invar { span, .. }
        | Fairness { span, .. }
        | Compassion { span, .. }
        | Call { span, .. }
        | Exit { span, .. } => *span,
        Spec(spec) => spec.span,
    }
}

fn invalid_char(text: &str, t: &Tok) -> Diagnostic {
    let s = &text[t.span.range()];
    if s == "\"" {
        // The scanner makes a closed `"…"` one name; this one is never closed.
        return Diagnostic::error("E0012", "unterminated double-quoted name", t.span)
            .with_label_message("no closing `\"` after this one")
            .with_help("close the name with `\"`: `\"a b\"` is one identifier, quotes included, as in NuSMV");
    }
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
