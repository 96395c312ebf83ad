//! List sections (`VAR`, `IVAR`, `FROZENVAR`, `DEFINE`, `ASSIGN`, `CALL`, `EXIT`) parsed one item
//! at a time.
//!
//! The items of such a section end with `;` outside any `case … esac` (a `;` never occurs inside
//! brackets otherwise). Each item gets its own bracket check and pest parse, so one broken item is
//! reported and skipped while the following items are still parsed and checked.

use super::ast::{Section, VarKind};
use super::chunks::{Chunk, check_brackets, with_stack_for};
use super::parser::{Builder, Item, Rule, SmvParser};
use super::scan::{Tok, TokKind};
use crate::diagnostics::Diagnostic;
use crate::source::Span;
use pest::Parser;

#[derive(Clone, Copy)]
pub(super) enum ListKind {
    Var(VarKind),
    Define,
    Assign,
    Call,
    Exit,
}

/// The list section a keyword introduces, if any.
pub(super) fn list_kind(keyword: &str) -> Option<ListKind> {
    Some(match keyword {
        "VAR" => ListKind::Var(VarKind::State),
        "IVAR" => ListKind::Var(VarKind::Input),
        "FROZENVAR" => ListKind::Var(VarKind::Frozen),
        "DEFINE" => ListKind::Define,
        "ASSIGN" => ListKind::Assign,
        "CALL" => ListKind::Call,
        "EXIT" => ListKind::Exit,
        _ => return None,
    })
}

/// Token index ranges of the items after the section keyword (the last may lack its `;`).
fn split_items(text: &str, toks: &[Tok]) -> Vec<(usize, usize)> {
    let mut items = Vec::new();
    let mut case_depth = 0usize;
    let mut start = 0;
    for (i, t) in toks.iter().enumerate() {
        let s = &text[t.span.range()];
        match (t.kind, s) {
            (TokKind::Word, "case") => case_depth += 1,
            (TokKind::Word, "esac") => case_depth = case_depth.saturating_sub(1),
            (TokKind::Punct, ";") if case_depth == 0 => {
                items.push((start, i + 1));
                start = i + 1;
            }
            _ => {}
        }
    }
    if start < toks.len() {
        items.push((start, toks.len()));
    }
    items
}

/// Parses a list-section chunk whose keyword is `toks[chunk.first_tok]`.
pub(super) fn parse_list_section(text: &str, toks: &[Tok], chunk: &Chunk, kind: ListKind, fast: bool, diags: &mut Vec<Diagnostic>) -> Section {
    let keyword_tok = toks[chunk.first_tok];
    let item_toks = &toks[chunk.first_tok + 1..chunk.end_tok];
    let span = Span::new(chunk.start, item_toks.last().unwrap_or(&keyword_tok).span.end as usize);
    let rule = match kind {
        ListKind::Var(_) => Rule::var_item,
        ListKind::Define => Rule::define_item,
        ListKind::Assign => Rule::assign_item,
        ListKind::Call => Rule::call_item,
        ListKind::Exit => Rule::exit_item,
    };
    let mut items = Vec::new();
    for (a, b) in split_items(text, item_toks) {
        let group = &item_toks[a..b];
        if let Some(item) = parse_item(text, toks, group, rule, fast, diags) {
            items.push(item);
        }
    }
    macro_rules! collect {
        ($variant:ident) => {
            items.into_iter().filter_map(|i| if let Item::$variant(x) = i { Some(x) } else { None }).collect()
        };
    }
    match kind {
        ListKind::Var(kind) => Section::Var { kind, decls: collect!(Var), span },
        ListKind::Define => Section::Define { defs: collect!(Define), span },
        ListKind::Assign => Section::Assign { assigns: collect!(Assign), span },
        ListKind::Call => Section::Call { calls: collect!(Call), span },
        ListKind::Exit => Section::Exit { exits: collect!(Exit), span },
    }
}

fn parse_item(text: &str, all_toks: &[Tok], group: &[Tok], rule: Rule, fast: bool, diags: &mut Vec<Diagnostic>) -> Option<Item> {
    let (first, last) = (group.first()?, group.last()?);
    let invalid: Vec<Diagnostic> = group.iter().filter(|t| t.kind == TokKind::Invalid).map(|t| super::invalid_char(text, t)).collect();
    if !invalid.is_empty() {
        diags.extend(invalid);
        return None;
    }
    let depth = match check_brackets(text, group) {
        Ok(depth) => depth,
        Err(d) => {
            diags.push(d);
            return None;
        }
    };
    let (start, end) = (first.span.start as usize, last.span.end as usize);
    with_stack_for(depth, || match fast.then(|| super::fast::item(text, group, rule)).flatten() {
        Some(item) => Some(item),
        None => {
            if fast {
                super::fast::decline(Span::new(start, end));
            }
            parse_checked_item(text, all_toks, start, end, rule, diags)
        }
    })
}

fn parse_checked_item(text: &str, all_toks: &[Tok], start: usize, end: usize, rule: Rule, diags: &mut Vec<Diagnostic>) -> Option<Item> {
    match SmvParser::parse(rule, &text[start..end]) {
        Ok(mut pairs) => {
            let builder = Builder::new(start);
            let item = pairs.next().and_then(|p| builder.item(p));
            diags.extend(builder.into_diagnostics());
            item
        }
        Err(e) => {
            diags.push(super::pest_error(text, all_toks, start, end, e));
            None
        }
    }
}
