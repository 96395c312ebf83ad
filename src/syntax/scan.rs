//! A light lexical pre-scan of an `.smv` file, run before pest.
//!
//! It splits the text into tokens (words, numbers, punctuation, invalid characters; comments and
//! white space are dropped) with byte spans. The token list is used to cut the file into chunks
//! at section keywords ([`crate::syntax::chunks`]), to check bracket and `case`/`esac` balance
//! and nesting depth before pest recurses, and to name the token found at a syntax error.
//! It never fails: an unterminated `/--` comment is recorded and the rest of the file is dropped.
//! Assumes the lexical rules of `grammar/smv.pest` (identifiers `[A-Za-z_][A-Za-z0-9_$#-]*`
//! where `-` does not start `--` or `->`, or `"…"` within one line without a `"` inside).

use crate::source::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum TokKind {
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
pub(super) struct Tok {
    pub kind: TokKind,
    pub span: Span,
}

#[derive(Debug, Default)]
pub(super) struct Scan {
    pub toks: Vec<Tok>,
    /// The opening `/--` of a block comment that is never closed.
    pub unterminated_comment: Option<Span>,
}

const PUNCT1: &[u8] = b"()[]{};:,.+-*/=<>!&|?";

/// Byte classes (bit sets), one table lookup per byte of the file.
const WHITE: u8 = 1;
/// Starts an identifier: `[A-Za-z_]`.
const IDENT_START: u8 = 2;
/// Continues an identifier, `-` aside (see [`ident_end`]): `[A-Za-z0-9_$#]`.
const IDENT_CHAR: u8 = 4;
const PUNCT: u8 = 8;

static CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        let mut c = 0;
        if b.is_ascii_whitespace() {
            c |= WHITE;
        }
        if b.is_ascii_alphabetic() || b == b'_' {
            c |= IDENT_START;
        }
        if b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b == b'#' {
            c |= IDENT_CHAR;
        }
        let mut k = 0;
        while k < PUNCT1.len() {
            if PUNCT1[k] == b {
                c |= PUNCT;
            }
            k += 1;
        }
        table[i] = c;
        i += 1;
    }
    table
};

fn class(b: u8) -> u8 {
    CLASS[b as usize]
}

/// The end of the identifier or number continuing at `i`: identifier characters, and `-` where
/// it does not start `--` or `->`.
fn ident_end(bytes: &[u8], mut i: usize) -> usize {
    while let Some(&b) = bytes.get(i) {
        if class(b) & IDENT_CHAR != 0 || (b == b'-' && !matches!(bytes.get(i + 1), Some(b'-' | b'>'))) {
            i += 1;
        } else {
            break;
        }
    }
    i
}

/// The length of the operator or punctuation at the start of `rest`, if any: the longest of
/// `<->`, then `-> := :: .. != <= >= << >>`, then one of [`PUNCT1`] (the tests check this
/// against the lists).
fn punct_len(rest: &[u8]) -> Option<usize> {
    let second = rest.get(1).copied();
    let len = match (rest[0], second) {
        (b'<', Some(b'-')) if rest.get(2) == Some(&b'>') => 3,
        (b'-', Some(b'>')) | (b':', Some(b'=' | b':')) | (b'.', Some(b'.')) | (b'!', Some(b'=')) => 2,
        (b'<', Some(b'=' | b'<')) | (b'>', Some(b'=' | b'>')) => 2,
        (b, _) if class(b) & PUNCT != 0 => 1,
        _ => return None,
    };
    Some(len)
}

/// Files at least this long are scanned in pieces, in parallel.
const PARALLEL_MIN_BYTES: usize = 1 << 18;
/// Number of pieces of a file scanned in parallel.
const PIECES: usize = 8;

/// Tokenizes `text`.
///
/// A big file without block comments is cut into pieces after newlines and the pieces are
/// scanned in parallel: no token or `--` comment contains a newline, so the sequential scan is
/// at the start of a token at every such cut, and the pieces' tokens are exactly its tokens.
pub(super) fn scan(text: &str) -> Scan {
    if text.len() < PARALLEL_MIN_BYTES || !crate::par::is_parallel() || text.contains("/--") {
        let mut out = Scan::default();
        scan_range(text, 0, text.len(), &mut out);
        return out;
    }
    scan_in_pieces(text)
}

/// [`scan`] of a file without block comments, in [`PIECES`] pieces cut after newlines.
fn scan_in_pieces(text: &str) -> Scan {
    let mut cuts = vec![0];
    for k in 1..PIECES {
        let at = (text.len() * k / PIECES).max(*cuts.last().unwrap_or(&0));
        let cut = text.as_bytes()[at..].iter().position(|&b| b == b'\n').map_or(text.len(), |p| at + p + 1);
        cuts.push(cut);
    }
    cuts.push(text.len());
    let ranges: Vec<(usize, usize)> = cuts.windows(2).map(|w| (w[0], w[1])).filter(|(a, b)| a < b).collect();
    let pieces = crate::par::map_ordered(&ranges, 2, |&(start, end)| {
        let mut piece = Scan::default();
        scan_range(text, start, end, &mut piece);
        piece.toks
    });
    let mut out = Scan { toks: Vec::with_capacity(pieces.iter().map(Vec::len).sum()), unterminated_comment: None };
    for toks in pieces {
        out.toks.extend_from_slice(&toks);
    }
    out
}

/// Tokenizes `text[start..end]` into `out` (spans relative to `text`).
fn scan_range(text: &str, start: usize, end: usize, out: &mut Scan) {
    let bytes = &text.as_bytes()[..end];
    // The imported Java models have one token per 10 bytes: reserving one per 8 keeps a big
    // file's token list from being copied over and over while it grows.
    out.toks.reserve((end - start) / 8);
    let mut i = start;
    while i < bytes.len() {
        let b = bytes[i];
        let c = class(b);
        if c & WHITE != 0 {
            i += 1;
        } else if c & IDENT_START != 0 || b.is_ascii_digit() {
            let start = i;
            i = ident_end(bytes, i + 1);
            let kind = if b.is_ascii_digit() { TokKind::Number } else { TokKind::Word };
            out.toks.push(Tok { kind, span: Span::new(start, i) });
        } else if let (b'"', Some(k)) = (b, bytes[i + 1..].iter().position(|&q| matches!(q, b'"' | b'\n' | b'\r')).filter(|&k| bytes[i + 1 + k] == b'"')) {
            // A double-quoted name (NuSMV's `\"[^\"]*\"` within one line), quotes included: one word.
            out.toks.push(Tok { kind: TokKind::Word, span: Span::new(i, i + k + 2) });
            i += k + 2;
        } else if bytes[i..].starts_with(b"/--") {
            match find(&bytes[i + 3..], b"--/") {
                Some(k) => i += 3 + k + 3,
                None => {
                    out.unterminated_comment = Some(Span::new(i, i + 3));
                    return;
                }
            }
        } else if bytes[i..].starts_with(b"--") {
            i += bytes[i..].iter().position(|&b| b == b'\n' || b == b'\r').unwrap_or(bytes.len() - i);
        } else if let Some(len) = punct_len(&bytes[i..]) {
            out.toks.push(Tok { kind: TokKind::Punct, span: Span::new(i, i + len) });
            i += len;
        } else {
            // One whole character (the text is valid UTF-8, so `i` is a character boundary).
            let len = text[i..].chars().next().map_or(1, char::len_utf8);
            out.toks.push(Tok { kind: TokKind::Invalid, span: Span::new(i, i + len) });
            i += len;
        }
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// The reserved words of the language (NuSMV 2.6 plus `CALL`, `EXIT`, `TERMINATION`); must agree
/// with the `keyword` rule of the grammar.
pub(crate) const KEYWORDS: &[&str] = &[
    "MODULE",
    "DEFINE",
    "MDEFINE",
    "CONSTANTS",
    "VAR",
    "IVAR",
    "FROZENVAR",
    "INVARSPEC",
    "INVAR",
    "INIT",
    "TRANS",
    "CTLSPEC",
    "SPEC",
    "LTLSPEC",
    "PSLSPEC",
    "COMPUTE",
    "NAME",
    "FAIRNESS",
    "JUSTICE",
    "COMPASSION",
    "ISA",
    "ASSIGN",
    "CONSTRAINT",
    "SIMPWFF",
    "CTLWFF",
    "LTLWFF",
    "COMPWFF",
    "IN",
    "MIN",
    "MAX",
    "MIRROR",
    "PREDICATES",
    "PRED",
    "process",
    "array",
    "of",
    "boolean",
    "integer",
    "real",
    "word1",
    "word",
    "bool",
    "signed",
    "unsigned",
    "extend",
    "resize",
    "sizeof",
    "uwconst",
    "swconst",
    "EBF",
    "ABF",
    "EBG",
    "ABG",
    "BU",
    "EX",
    "AX",
    "EF",
    "AF",
    "EG",
    "AG",
    "case",
    "esac",
    "mod",
    "next",
    "init",
    "union",
    "in",
    "xnor",
    "xor",
    "self",
    "TRUE",
    "FALSE",
    "count",
    "toint",
    "CALL",
    "EXIT",
    "TERMINATION",
    "A",
    "E",
    "F",
    "G",
    "H",
    "O",
    "S",
    "T",
    "U",
    "V",
    "X",
    "Y",
    "Z",
];

/// Length of the longest keyword (`TERMINATION`).
const MAX_KEYWORD_LEN: usize = 11;

/// Called for every identifier of the file: a length test, then one hash lookup.
pub(super) fn is_keyword(word: &str) -> bool {
    static SET: std::sync::OnceLock<rustc_hash::FxHashSet<&'static str>> = std::sync::OnceLock::new();
    word.len() <= MAX_KEYWORD_LEN && SET.get_or_init(|| KEYWORDS.iter().copied().collect()).contains(word)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PUNCT3: &[&str] = &["<->"];
    const PUNCT2: &[&str] = &["->", ":=", "::", "..", "!=", "<=", ">=", "<<", ">>"];

    /// `punct_len` is the longest match over the three punctuation lists.
    #[test]
    fn punct_len_is_the_longest_listed_match() {
        let chars = b"()[]{};:,.+-*/=<>!&|?ab ";
        for &a in chars {
            for &b in chars {
                for &c in chars {
                    let rest = [a, b, c];
                    let expected =
                        (PUNCT3.iter().chain(PUNCT2)).find(|p| rest.starts_with(p.as_bytes())).map(|p| p.len()).or_else(|| PUNCT1.contains(&a).then_some(1));
                    assert_eq!(punct_len(&rest), expected, "{:?}", std::str::from_utf8(&rest));
                    assert_eq!(
                        punct_len(&rest[..2]),
                        (PUNCT2.iter().find(|p| rest[..2].starts_with(p.as_bytes())).map(|p| p.len())).or_else(|| PUNCT1.contains(&a).then_some(1))
                    );
                }
            }
        }
    }

    #[test]
    fn a_big_file_scanned_in_pieces_gives_the_sequential_tokens() {
        let line = "  x-y := a->b <-> c--d; -- comment: (\r\n  é @ 12ab $z #w e-\n{1, 2}..3 != 4 :: <=>=<< >>\n";
        let text = line.repeat(PARALLEL_MIN_BYTES / line.len() + 7);
        let mut sequential = Scan::default();
        scan_range(&text, 0, text.len(), &mut sequential);
        let pieces = scan_in_pieces(&text);
        assert!(sequential.toks.len() > 10_000);
        assert_eq!(scan(&text).toks, sequential.toks);
        assert_eq!(pieces.toks, sequential.toks);
        assert_eq!(pieces.unterminated_comment, None);
        // With a block comment the file is scanned in one piece (comments may span lines).
        let commented = format!("{text}/-- a\nb --/ x");
        let mut whole = Scan::default();
        scan_range(&commented, 0, commented.len(), &mut whole);
        assert_eq!(scan(&commented).toks, whole.toks);
    }

    #[test]
    fn keywords_are_recognized_and_nothing_else() {
        for k in KEYWORDS {
            assert!(is_keyword(k), "{k}");
        }
        assert!(KEYWORDS.iter().all(|k| k.len() <= MAX_KEYWORD_LEN));
        for w in ["pc", "Module", "TERMINATIONS", "cpDEFAULT_1", "x", "", "esac_", "EXITED"] {
            assert!(!is_keyword(w), "{w}");
        }
    }

    /// The grammar's `keyword` rule and [`KEYWORDS`] list the same words: every listed word is a
    /// grammar keyword, and words that differ from one by a letter (or NuSMV 2.6 keywords that
    /// NuSMV 2.5.4 accepts as names) are not.
    #[test]
    fn grammar_keywords_agree_with_the_table() {
        use crate::syntax::parser::{Rule, SmvParser};
        use pest::Parser;
        let grammar_keyword = |w: &str| SmvParser::parse(Rule::keyword, w).is_ok_and(|mut p| p.next().is_some_and(|p| p.as_str() == w));
        for k in KEYWORDS {
            assert!(grammar_keyword(k), "`{k}` is in KEYWORDS but not a grammar keyword");
            for extra in ["x", "_", "1"] {
                let w = format!("{k}{extra}");
                if KEYWORDS.contains(&w.as_str()) {
                    continue; // `word1`
                }
                assert!(!grammar_keyword(&w) && !is_keyword(&w), "{w}");
            }
        }
        // Every grammar keyword is in the table: try every prefix of every table word plus
        // one letter, and the words NuSMV 2.5.4 does not reserve.
        let mut candidates: Vec<String> = ["PSLWFF", "clock", "P", "W", "ab", "Integer"].iter().map(|s| s.to_string()).collect();
        for k in KEYWORDS {
            for end in 1..k.len() {
                for c in ['A', 'E', 'S', 'a', 'e', 'o', 'r'] {
                    candidates.push(format!("{}{c}", &k[..end]));
                }
            }
        }
        for w in &candidates {
            assert_eq!(grammar_keyword(w), is_keyword(w), "`{w}`: grammar and KEYWORDS disagree");
        }
    }
}
