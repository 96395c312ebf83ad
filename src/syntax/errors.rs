//! Turning pest's syntax errors into user-facing diagnostics.
//!
//! pest reports the furthest position it reached and the grammar rules it tried there. This
//! module names the token found at that position (from the pre-scan) and translates the rules
//! into user terms ("an expression", "`;`", "a type", …), then picks the most helpful form:
//! a keyword used as a name (E0008), a missing `;` (E0002), or the general
//! "expected …, found …" (E0001).

use super::parser::Rule;
use super::scan::{Tok, TokKind, is_keyword};
use crate::diagnostics::Diagnostic;
use crate::source::Span;

/// What the parser expected, in user terms, most specific first.
fn describe_rule(rule: Rule) -> Option<&'static str> {
    use Rule::*;
    Some(match rule {
        semi => "`;`",
        colon => "`:`",
        assign_op => "`:=`",
        comma => "`,`",
        lparen | module_params | call_args => "`(`",
        rparen => "`)`",
        lbrack => "`[`",
        rbrack => "`]`",
        lbrace => "`{`",
        rbrace => "`}`",
        dotdot => "`..`",
        k_esac => "`esac`",
        k_of => "`of`",
        k_U => "`U`",
        compute_body | k_MIN | k_MAX => "`MIN [from, to]` or `MAX [from, to]`",
        case_branch => "a case branch `condition : value;`",
        var_decl => "a variable declaration `name : type;`",
        define => "a definition `name := expression;`",
        assign | init_target | next_target | plain_target | var_ref => "an assignment `next(x) := expression;`",
        call_decl => "a call `module := condition;`",
        exit_decl => "an exit `name := condition;`",
        boolean_type | array_type | enum_type | process_type | instance_type | range_type | word_type | unsupported_type => "a type",
        enum_int => "an enumeration value",
        ident | decl_name => "an identifier",
        EOI => "a section keyword",
        psl_until | psl_before => "an operator",
        r if is_infix(r) => "an operator",
        r if is_expression_start(r) => "an expression",
        _ => return None,
    })
}

fn is_expression_start(rule: Rule) -> bool {
    use Rule::*;
    matches!(
        rule,
        expr | until_operand
            | bound
            | paren
            | psl_expr
            | psl_paren
            | psl_forall
            | case_expr
            | set_expr
            | next_expr
            | init_expr
            | func_call
            | func_name
            | until_e
            | until_a
            | word_lit
            | int_lit
            | k_TRUE
            | k_FALSE
            | k_self
            | k_EXIT
            | k_case
            | k_next
            | k_init
            | k_E
            | k_A
            | op_not
            | op_neg
            | op_EX
            | op_AX
            | op_EF
            | op_AF
            | op_EG
            | op_AG
            | op_X
            | op_G
            | op_F
            | op_Y
            | op_Z
            | op_H
            | op_O
    )
}

fn is_infix(rule: Rule) -> bool {
    use Rule::*;
    matches!(
        rule,
        op_implies
            | op_iff
            | op_ite
            | op_or
            | op_xor
            | op_xnor
            | op_and
            | op_U
            | op_S
            | op_V
            | op_T
            | op_eq
            | op_ne
            | op_lt
            | op_le
            | op_gt
            | op_ge
            | op_in
            | op_union
            | op_range
            | op_shl
            | op_shr
            | op_add
            | op_sub
            | op_mul
            | op_div
            | op_mod
            | op_concat
            | dot_access
            | index
            | bit_select
    )
}

/// The user-facing list of expected things, deduplicated, in a fixed order.
pub(super) fn expected_list(positives: &[Rule]) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for &r in positives {
        if let Some(d) = describe_rule(r).filter(|d| !out.contains(d)) {
            out.push(d);
        }
    }
    // An expression can be an identifier: say "an expression" only.
    if out.contains(&"an expression") {
        out.retain(|d| *d != "an identifier");
    }
    const ORDER: &[&str] = &["`;`", "`:`", "`:=`", "`,`", "`(`", "`)`", "`[`", "`]`", "`{`", "`}`", "`..`"];
    out.sort_by_key(|d| (d.starts_with('`') && !ORDER.contains(d), ORDER.iter().position(|o| o == d).unwrap_or(usize::MAX), *d == "a section keyword"));
    out
}

fn join_alternatives(items: &[&str]) -> String {
    match items {
        [] => "something else".to_string(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// How the token at a syntax error is named in the message.
pub(super) fn describe_token(text: &str, tok: Option<&Tok>) -> String {
    let Some(t) = tok else { return "end of file".to_string() };
    let s = &text[t.span.range()];
    match t.kind {
        TokKind::Word if is_keyword(s) => format!("keyword `{s}`"),
        TokKind::Word => format!("identifier `{s}`"),
        TokKind::Number => format!("number `{s}`"),
        TokKind::Punct => format!("`{s}`"),
        TokKind::Invalid => format!("character `{s}`"),
    }
}

/// A syntax error at byte `pos` of the file, where the parser tried `positives`.
/// `toks` is the whole file's token list; `chunk_end` is where the chunk being parsed ends.
pub(super) fn syntax_error(text: &str, toks: &[Tok], pos: usize, chunk_end: usize, positives: &[Rule]) -> Diagnostic {
    let idx = toks.partition_point(|t| (t.span.start as usize) < pos);
    let found = toks.get(idx);
    let prev = idx.checked_sub(1).and_then(|i| toks.get(i));
    let at_chunk_end = found.is_none_or(|t| t.span.start as usize >= chunk_end);
    let found_desc = describe_token(text, found);
    let found_span = found.map_or(Span::new(text.len(), text.len()), |t| t.span);
    let expected = expected_list(positives);

    if let Some(t) = found.filter(|t| t.kind == TokKind::Word && !at_chunk_end) {
        let word = &text[t.span.range()];
        if is_keyword(word) && expected.contains(&"an identifier") {
            return Diagnostic::error("E0008", format!("`{word}` is a keyword and cannot be used as a name"), t.span)
                .with_label_message("reserved word")
                .with_help(format!("rename it, e.g. `{word}_`; the reserved words are listed in the README"));
        }
    }

    let on_later_line = |a: &Tok, b: Option<&Tok>| b.is_none_or(|b| text[a.span.end as usize..b.span.start as usize].contains('\n'));
    let found_text = found.map_or("", |t| &text[t.span.range()]);
    let missing_semicolon = expected.contains(&"`;`");
    if let Some(p) = prev.filter(|p| missing_semicolon && (at_chunk_end || on_later_line(p, found) || found_text == "esac")) {
        let after = &text[p.span.range()];
        return Diagnostic::error("E0002", format!("expected `;`, found {found_desc}"), Span::new(p.span.end as usize, p.span.end as usize))
            .with_label_message("expected `;` here")
            .with_secondary(found_span, "unexpected token")
            .with_help(format!("add `;` after `{after}`"));
    }

    if let Some(d) = bounded_operator(text, prev, found) {
        return d;
    }

    let message = format!("expected {}, found {found_desc}", join_alternatives(&expected));
    let mut d = match prev.filter(|_| at_chunk_end) {
        // The section ended early: point just after its last token, where something is missing.
        Some(p) => Diagnostic::error("E0001", message, Span::new(p.span.end as usize, p.span.end as usize))
            .with_label_message(format!("expected {} here", join_alternatives(&expected)))
            .with_secondary(found_span, "the next section starts here"),
        None => Diagnostic::error("E0001", message, found_span).with_label_message(format!("unexpected {found_desc}")),
    };
    if found_text == "=" && expected.contains(&"`:=`") {
        d = d.with_help("assignments and definitions use `:=`; `=` compares");
    } else if found_text == ":=" && expected.contains(&"an operator") {
        d = d.with_help("`:=` assigns only in ASSIGN, DEFINE, CALL and EXIT sections; use `=` to compare");
    }
    d
}

/// Bounded temporal operators. RTCTL's (`ABF 0..3 p`, `EBG`, `A [ p BU 0..3 q ]`) are read,
/// so a parse error at one is a malformed range (E0019); the interval LTL operators of later
/// tools (`G [0, 3] p`) are not NuSMV 2.5.4's and xmv-rs does not read them (E0018).
fn bounded_operator(text: &str, prev: Option<&Tok>, found: Option<&Tok>) -> Option<Diagnostic> {
    let found = found?;
    let word = &text[found.span.range()];
    let prev_word = prev.map_or("", |p| &text[p.span.range()]);
    if matches!(word, "ABF" | "EBF" | "ABG" | "EBG" | "BU") || matches!(prev_word, "ABF" | "EBF" | "ABG" | "EBG" | "BU") {
        let (op, span) = if matches!(word, "ABF" | "EBF" | "ABG" | "EBG" | "BU") { (word, found.span) } else { (prev_word, found.span) };
        return Some(
            Diagnostic::error("E0019", format!("`{op}` needs a range of steps `lo..hi`"), span)
                .with_label_message("expected integer bounds such as `0..3` here")
                .with_help("RTCTL's bounded operators take two integer literals: `EBF 0..3 p`, `ABG 1..2 p`, `A [ p BU 0..3 q ]`"),
        );
    }
    let (op, span) = if word == "[" && matches!(prev_word, "G" | "F" | "X" | "H" | "O" | "Y" | "Z" | "U" | "S" | "V" | "T") {
        (prev_word, prev.map_or(found.span, |p| p.span.to(found.span)))
    } else {
        return None;
    };
    Some(
        Diagnostic::error("E0018", format!("bounded temporal operator `{op}` is not supported"), span)
            .with_label_message("a bounded operator")
            .with_help("NuSMV 2.5.4's LTL has no bounded operators; unfold the bound with nested `X`, e.g. `G [0, 2] p` as `p & X p & X X p`, or use RTCTL in a CTLSPEC (`ABG 0..2 p`)"),
    )
}
