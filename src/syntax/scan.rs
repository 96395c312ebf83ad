//! A light lexical pre-scan of an `.smv` file, run before pest.
//!
//! It splits the text into tokens (words, numbers, punctuation, invalid characters; comments and
//! white space are dropped) with byte spans. The token list is used to cut the file into chunks
//! at section keywords ([`crate::syntax::chunks`]), to check bracket and `case`/`esac` balance
//! and nesting depth before pest recurses, and to name the token found at a syntax error.
//! It never fails: an unterminated `/--` comment is recorded and the rest of the file is dropped.
//! Assumes the lexical rules of `grammar/smv.pest` (identifiers `[A-Za-z_][A-Za-z0-9_$#-]*`
//! where `-` does not start `--` or `->`).

use crate::source::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokKind {
    /// An identifier or keyword.
    Word,
    /// Digits, possibly followed by identifier characters (`12`, `0ud8_11`).
    Number,
    /// Operators and punctuation (`;`, `:=`, `->`, …).
    Punct,
    /// A character that cannot start any token (`@`, `%`, non-ASCII, …).
    Invalid,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tok {
    pub kind: TokKind,
    pub span: Span,
}

#[derive(Debug, Default)]
pub struct Scan {
    pub toks: Vec<Tok>,
    /// The opening `/--` of a block comment that is never closed.
    pub unterminated_comment: Option<Span>,
}

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

/// Identifier character at `i` (looks ahead one byte for the `-` rule).
fn is_ident_char_at(bytes: &[u8], i: usize) -> bool {
    match bytes[i] {
        b if b.is_ascii_alphanumeric() => true,
        b'_' | b'$' | b'#' => true,
        b'-' => !matches!(bytes.get(i + 1), Some(b'-') | Some(b'>')),
        _ => false,
    }
}

const PUNCT3: &[&str] = &["<->"];
const PUNCT2: &[&str] = &["->", ":=", "::", "..", "!=", "<=", ">=", "<<", ">>"];
const PUNCT1: &[u8] = b"()[]{};:,.+-*/=<>!&|?";

/// Tokenizes `text`.
pub fn scan(text: &str) -> Scan {
    let bytes = text.as_bytes();
    let mut out = Scan::default();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let rest = &bytes[i..];
        if b.is_ascii_whitespace() {
            i += 1;
        } else if rest.starts_with(b"/--") {
            match find(&bytes[i + 3..], b"--/") {
                Some(k) => i += 3 + k + 3,
                None => {
                    out.unterminated_comment = Some(Span::new(i, i + 3));
                    return out;
                }
            }
        } else if rest.starts_with(b"--") {
            while i < bytes.len() && bytes[i] != b'\n' && bytes[i] != b'\r' {
                i += 1;
            }
        } else if is_ident_start(b) || b.is_ascii_digit() {
            let start = i;
            i += 1;
            while i < bytes.len() && is_ident_char_at(bytes, i) {
                i += 1;
            }
            let kind = if b.is_ascii_digit() { TokKind::Number } else { TokKind::Word };
            out.toks.push(Tok { kind, span: Span::new(start, i) });
        } else if let Some(p) = PUNCT3.iter().chain(PUNCT2).find(|p| rest.starts_with(p.as_bytes())) {
            out.toks.push(Tok { kind: TokKind::Punct, span: Span::new(i, i + p.len()) });
            i += p.len();
        } else if PUNCT1.contains(&b) {
            out.toks.push(Tok { kind: TokKind::Punct, span: Span::new(i, i + 1) });
            i += 1;
        } else {
            // One whole character (the text is valid UTF-8, so `i` is a character boundary).
            let len = text[i..].chars().next().map_or(1, char::len_utf8);
            out.toks.push(Tok { kind: TokKind::Invalid, span: Span::new(i, i + len) });
            i += len;
        }
    }
    out
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// The reserved words of the language (NuSMV 2.6 plus `CALL`, `EXIT`, `TERMINATION`); must agree
/// with the `keyword` rule of the grammar.
pub const KEYWORDS: &[&str] = &[
    "MODULE", "DEFINE", "MDEFINE", "CONSTANTS", "VAR", "IVAR", "FROZENVAR", "INVARSPEC", "INVAR", "INIT",
    "TRANS", "CTLSPEC", "SPEC", "LTLSPEC", "PSLSPEC", "COMPUTE", "NAME", "FAIRNESS", "JUSTICE",
    "COMPASSION", "ISA", "ASSIGN", "CONSTRAINT", "SIMPWFF", "CTLWFF", "LTLWFF", "PSLWFF", "COMPWFF",
    "IN", "MIN", "MAX", "MIRROR", "PREDICATES", "PRED", "process", "array", "of", "boolean", "integer",
    "real", "word1", "word", "bool", "signed", "unsigned", "extend", "resize", "sizeof", "uwconst",
    "swconst", "EBF", "ABF", "EBG", "ABG", "BU", "EX", "AX", "EF", "AF", "EG", "AG", "case", "esac",
    "mod", "next", "init", "union", "in", "xnor", "xor", "self", "TRUE", "FALSE", "count", "abs", "max",
    "min", "toint", "CALL", "EXIT", "TERMINATION", "A", "E", "F", "G", "H", "O", "S", "T", "U", "V",
    "X", "Y", "Z",
];

pub fn is_keyword(word: &str) -> bool {
    KEYWORDS.contains(&word)
}
