//! Reader for RSMCheck's CTL files: one formula per line, `#` comment lines and blank lines
//! skipped.
//!
//! The syntax is pyModelChecking's CTL grammar: `true false`, atoms `[A-Za-z_][A-Za-z0-9_]*` (or
//! double-quoted), `not`/`~`/`!`, `and`/`&`, `or`/`|`, `-->`/`->`, path quantifiers `A E` applied
//! to `X φ`, `F φ`, `G φ`, `φ U ψ`, `φ R ψ` (parentheses optional: `E X E blue U black` is
//! `EX E[blue U black]`). Binary operators bind `-->` (right-associative) weaker than `or`, weaker
//! than `and`; pyModelChecking rejects mixing them without parentheses, we accept it.

use crate::ctl::Ctl;
use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::source::{SourceFile, Span};

/// One formula to become a `SPEC`.
#[derive(Clone, Debug)]
pub(crate) struct SpecSource {
    pub formula: Ctl<String>,
    /// The formula as written (for a comment above the `SPEC`).
    pub text: String,
    /// Where it came from, e.g. `example.ctl:3`, or a description for generated specs.
    pub origin: String,
    /// Comment lines to print before this spec (group headings).
    pub heading: Vec<String>,
    /// Each atom with its span in the CTL file (empty spans for generated specs).
    pub atoms: Vec<(String, Span)>,
    pub from_ctl_file: bool,
}

pub(crate) fn read(file: &SourceFile) -> Result<Vec<SpecSource>, Diagnostics> {
    let mut diags = Diagnostics::new();
    let mut specs = Vec::new();
    let mut heading = Vec::new();
    let starts = file.line_starts().to_vec();
    for (i, &start) in starts.iter().enumerate() {
        let start = start as usize;
        let end = starts.get(i + 1).map_or(file.text.len(), |&e| e as usize);
        let line = &file.text[start..end];
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        if let Some(comment) = trimmed.strip_prefix('#') {
            heading.push(comment.trim().to_string());
            continue;
        }
        let tokens = match lex(line, start) {
            Ok(t) => t,
            Err(d) => {
                diags.push(d);
                continue;
            }
        };
        let mut p =
            Parser { tokens: &tokens, pos: 0, atoms: Vec::new(), eol: Span::new(start + line.trim_end().len(), start + line.trim_end().len()), depth: 0 };
        match p.formula() {
            Ok(formula) => specs.push(SpecSource {
                formula,
                text: trimmed.to_string(),
                origin: format!("{}:{}", file.name.rsplit(['/', '\\']).next().unwrap_or(&file.name), i + 1),
                heading: std::mem::take(&mut heading),
                atoms: p.atoms,
                from_ctl_file: true,
            }),
            Err(d) => diags.push(d),
        }
    }
    if diags.has_errors() { Err(diags) } else { Ok(specs) }
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    LParen,
    RParen,
    Not,
    And,
    Or,
    Implies,
    True,
    False,
    /// `A` or `E`
    Quant(bool),
    /// `X F G U R`
    Temporal(char),
    Atom(String),
}

fn lex(line: &str, base: usize) -> Result<Vec<(Tok, Span)>, Diagnostic> {
    let bytes = line.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let start = i;
        let tok = match c {
            b' ' | b'\t' | b'\r' | b'\n' => {
                i += 1;
                continue;
            }
            b'(' => {
                i += 1;
                Tok::LParen
            }
            b')' => {
                i += 1;
                Tok::RParen
            }
            b'~' | b'!' => {
                i += 1;
                Tok::Not
            }
            b'&' => {
                i += 1;
                Tok::And
            }
            b'|' => {
                i += 1;
                Tok::Or
            }
            b'-' if line[i..].starts_with("-->") => {
                i += 3;
                Tok::Implies
            }
            b'-' if line[i..].starts_with("->") => {
                i += 2;
                Tok::Implies
            }
            b'"' => {
                let close = line[i + 1..].find('"').ok_or_else(|| {
                    Diagnostic::error("E0811", "unterminated quoted atom", Span::new(base + i, base + line.trim_end().len()))
                        .with_help("close the atom with `\"`")
                })?;
                let name = line[i + 1..i + 1 + close].to_string();
                i += close + 2;
                Tok::Atom(name)
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                match &line[start..i] {
                    "A" => Tok::Quant(false),
                    "E" => Tok::Quant(true),
                    w @ ("X" | "F" | "G" | "U" | "R") => Tok::Temporal(w.chars().next().unwrap_or('X')),
                    "not" | "NOT" => Tok::Not,
                    "and" | "AND" => Tok::And,
                    "or" | "OR" => Tok::Or,
                    "true" | "TRUE" => Tok::True,
                    "false" | "FALSE" => Tok::False,
                    w => Tok::Atom(w.to_string()),
                }
            }
            _ => {
                let ch = line[i..].chars().next().unwrap_or('?');
                return Err(Diagnostic::error("E0811", format!("unexpected character `{ch}` in a CTL formula"), Span::new(base + i, base + i + ch.len_utf8()))
                    .with_help("formulas use `A E X F G U`, `not ~ and & or | -->`, `true false`, parentheses and atom names"));
            }
        };
        out.push((tok, Span::new(base + start, base + i)));
    }
    Ok(out)
}

/// A parenthesised part is either a state formula or a path formula (`X φ`, `φ U ψ`, …).
enum Part {
    State(Ctl<String>),
    Path(char, Ctl<String>, Option<Ctl<String>>),
}

struct Parser<'t> {
    tokens: &'t [(Tok, Span)],
    pos: usize,
    atoms: Vec<(String, Span)>,
    eol: Span,
    depth: usize,
}

/// Deeper formulas are rejected (the parser recurses once per level).
const MAX_DEPTH: usize = 128;

type PResult<T> = Result<T, Diagnostic>;

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.tokens.get(self.pos).map(|(t, _)| t)
    }
    fn span(&self) -> Span {
        self.tokens.get(self.pos).map_or(self.eol, |(_, s)| *s)
    }
    fn error(&self, expected: &str) -> Diagnostic {
        let found = match self.tokens.get(self.pos) {
            None => "the end of the line".to_string(),
            Some((_, s)) => format!("`{}`", describe(&self.tokens[self.pos].0, *s)),
        };
        Diagnostic::error("E0811", format!("expected {expected}, found {found}"), self.span())
    }
    fn formula(&mut self) -> PResult<Ctl<String>> {
        let f = match self.inner()? {
            Part::State(f) => f,
            Part::Path(..) => {
                return Err(Diagnostic::error("E0812", "a path formula needs a path quantifier", self.tokens.first().map_or(self.eol, |t| t.1))
                    .with_help("write `A` or `E` in front of it (CTL formulas quantify every path operator)"));
            }
        };
        if self.pos < self.tokens.len() {
            return Err(self.error("an operator or the end of the formula"));
        }
        Ok(f)
    }
    /// Contents of parentheses (or a whole line): a path formula or a state formula.
    fn inner(&mut self) -> PResult<Part> {
        if let Some(Tok::Temporal(op @ ('X' | 'F' | 'G'))) = self.peek() {
            let op = *op;
            self.pos += 1;
            let f = self.state()?;
            return Ok(Part::Path(op, f, None));
        }
        let first = self.state()?;
        if let Some(Tok::Temporal(op @ ('U' | 'R'))) = self.peek() {
            let op = *op;
            self.pos += 1;
            let rhs = self.state()?;
            return Ok(Part::Path(op, first, Some(rhs)));
        }
        Ok(Part::State(self.implies(first)?))
    }
    fn implies(&mut self, first: Ctl<String>) -> PResult<Ctl<String>> {
        let lhs = self.or(first)?;
        if self.peek() == Some(&Tok::Implies) {
            self.pos += 1;
            let next = self.state()?;
            let rhs = self.implies(next)?;
            return Ok(Ctl::Implies(Box::new(lhs), Box::new(rhs)));
        }
        Ok(lhs)
    }
    fn or(&mut self, first: Ctl<String>) -> PResult<Ctl<String>> {
        let mut lhs = self.and(first)?;
        while self.peek() == Some(&Tok::Or) {
            self.pos += 1;
            let next = self.state()?;
            lhs = Ctl::Or(Box::new(lhs), Box::new(self.and(next)?));
        }
        Ok(lhs)
    }
    fn and(&mut self, first: Ctl<String>) -> PResult<Ctl<String>> {
        let mut lhs = first;
        while self.peek() == Some(&Tok::And) {
            self.pos += 1;
            lhs = Ctl::And(Box::new(lhs), Box::new(self.state()?));
        }
        Ok(lhs)
    }
    /// A state formula without binary operators at its top (pyModelChecking's `s_formula`).
    fn state(&mut self) -> PResult<Ctl<String>> {
        self.depth += 1;
        let result = self.state_inner();
        self.depth -= 1;
        result
    }
    fn state_inner(&mut self) -> PResult<Ctl<String>> {
        if self.depth > MAX_DEPTH {
            return Err(Diagnostic::error("E0811", format!("formula nested more than {MAX_DEPTH} levels deep"), self.span())
                .with_help("split the formula or remove redundant parentheses and negations"));
        }
        let Some((tok, span)) = self.tokens.get(self.pos).cloned() else {
            return Err(self.error("a formula"));
        };
        self.pos += 1;
        match tok {
            Tok::True => Ok(Ctl::True),
            Tok::False => Ok(Ctl::False),
            Tok::Atom(a) => {
                self.atoms.push((a.clone(), span));
                Ok(Ctl::Atom(a))
            }
            Tok::Not => Ok(Ctl::Not(Box::new(self.state()?))),
            Tok::LParen => {
                let part = self.inner()?;
                self.close()?;
                match part {
                    Part::State(f) => Ok(f),
                    Part::Path(..) => {
                        Err(Diagnostic::error("E0812", "a path formula needs a path quantifier", span)
                            .with_help("write `A` or `E` in front of the parenthesis"))
                    }
                }
            }
            Tok::Quant(exists) => self.quantified(exists),
            _ => {
                self.pos -= 1;
                Err(self.error("a formula"))
            }
        }
    }
    fn close(&mut self) -> PResult<()> {
        if self.peek() == Some(&Tok::RParen) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.error("`)`"))
        }
    }
    /// After `A`/`E`: `X φ`, `F φ`, `G φ`, `φ U ψ`, `φ R ψ` or any of them in parentheses.
    fn quantified(&mut self, exists: bool) -> PResult<Ctl<String>> {
        let (op, lhs, rhs) = match self.peek() {
            Some(Tok::Temporal('X' | 'F' | 'G')) | Some(Tok::LParen) => {
                let paren = self.peek() == Some(&Tok::LParen);
                let part = if paren {
                    self.pos += 1;
                    let p = self.inner()?;
                    self.close()?;
                    p
                } else {
                    self.inner_unary()?
                };
                match part {
                    Part::Path(op, l, r) if !matches!(self.peek(), Some(Tok::Temporal('U' | 'R'))) || !paren => (op, l, r),
                    Part::Path(..) => return Err(self.error("the end of the path formula")),
                    Part::State(first) => self.binary_path(first)?,
                }
            }
            _ => {
                let first = self.state()?;
                self.binary_path(first)?
            }
        };
        Ok(quantify(exists, op, lhs, rhs))
    }
    fn inner_unary(&mut self) -> PResult<Part> {
        let Some(Tok::Temporal(op)) = self.peek().cloned() else {
            return Err(self.error("`X`, `F` or `G`"));
        };
        self.pos += 1;
        Ok(Part::Path(op, self.state()?, None))
    }
    fn binary_path(&mut self, first: Ctl<String>) -> PResult<(char, Ctl<String>, Option<Ctl<String>>)> {
        match self.peek() {
            Some(Tok::Temporal(op @ ('U' | 'R'))) => {
                let op = *op;
                self.pos += 1;
                Ok((op, first, Some(self.state()?)))
            }
            _ => Err(self.error("`U` or `R` (or `X`, `F`, `G` right after the quantifier)")),
        }
    }
}

fn quantify(exists: bool, op: char, lhs: Ctl<String>, rhs: Option<Ctl<String>>) -> Ctl<String> {
    let b = Box::new;
    let not = |f: Ctl<String>| Ctl::Not(b(f));
    match (exists, op, rhs) {
        (true, 'X', _) => Ctl::EX(b(lhs)),
        (false, 'X', _) => Ctl::AX(b(lhs)),
        (true, 'F', _) => Ctl::EF(b(lhs)),
        (false, 'F', _) => Ctl::AF(b(lhs)),
        (true, 'G', _) => Ctl::EG(b(lhs)),
        (false, 'G', _) => Ctl::AG(b(lhs)),
        (true, 'U', Some(r)) => Ctl::EU(b(lhs), b(r)),
        (false, 'U', Some(r)) => Ctl::AU(b(lhs), b(r)),
        // φ R ψ ≡ ¬(¬φ U ¬ψ): E[φ R ψ] = ¬A[¬φ U ¬ψ], A[φ R ψ] = ¬E[¬φ U ¬ψ].
        (true, _, Some(r)) => not(Ctl::AU(b(not(lhs)), b(not(r)))),
        (false, _, Some(r)) => not(Ctl::EU(b(not(lhs)), b(not(r)))),
        (_, _, None) => lhs,
    }
}

fn describe(tok: &Tok, _span: Span) -> String {
    match tok {
        Tok::LParen => "(".into(),
        Tok::RParen => ")".into(),
        Tok::Not => "not".into(),
        Tok::And => "and".into(),
        Tok::Or => "or".into(),
        Tok::Implies => "-->".into(),
        Tok::True => "true".into(),
        Tok::False => "false".into(),
        Tok::Quant(e) => {
            if *e {
                "E".into()
            } else {
                "A".into()
            }
        }
        Tok::Temporal(c) => c.to_string(),
        Tok::Atom(a) => a.clone(),
    }
}

/// Prints a formula in `.smv` syntax, atoms mapped through `atom`.
pub(crate) fn to_smv(f: &Ctl<String>, atom: &dyn Fn(&str) -> String) -> String {
    let p = |g: &Ctl<String>| paren(g, atom);
    match f {
        Ctl::True => "TRUE".into(),
        Ctl::False => "FALSE".into(),
        Ctl::Atom(a) => atom(a),
        Ctl::Not(g) => format!("!{}", p(g)),
        Ctl::And(a, b) => format!("{} & {}", p(a), p(b)),
        Ctl::Or(a, b) => format!("{} | {}", p(a), p(b)),
        Ctl::Xor(a, b) => format!("{} xor {}", p(a), p(b)),
        Ctl::Xnor(a, b) => format!("{} xnor {}", p(a), p(b)),
        Ctl::Implies(a, b) => format!("{} -> {}", p(a), p(b)),
        Ctl::Iff(a, b) => format!("{} <-> {}", p(a), p(b)),
        Ctl::EX(g) => format!("EX {}", p(g)),
        Ctl::AX(g) => format!("AX {}", p(g)),
        Ctl::EF(g) => format!("EF {}", p(g)),
        Ctl::AF(g) => format!("AF {}", p(g)),
        Ctl::EG(g) => format!("EG {}", p(g)),
        Ctl::AG(g) => format!("AG {}", p(g)),
        Ctl::EU(a, b) => format!("E [ {} U {} ]", to_smv(a, atom), to_smv(b, atom)),
        Ctl::AU(a, b) => format!("A [ {} U {} ]", to_smv(a, atom), to_smv(b, atom)),
        Ctl::EBF(g, k) => format!("EBF {}..{} {}", k.lo, k.hi, p(g)),
        Ctl::ABF(g, k) => format!("ABF {}..{} {}", k.lo, k.hi, p(g)),
        Ctl::EBG(g, k) => format!("EBG {}..{} {}", k.lo, k.hi, p(g)),
        Ctl::ABG(g, k) => format!("ABG {}..{} {}", k.lo, k.hi, p(g)),
        Ctl::EBU(a, b, k) => format!("E [ {} BU {}..{} {} ]", to_smv(a, atom), k.lo, k.hi, to_smv(b, atom)),
        Ctl::ABU(a, b, k) => format!("A [ {} BU {}..{} {} ]", to_smv(a, atom), k.lo, k.hi, to_smv(b, atom)),
    }
}

/// Operands are parenthesised unless they are atoms, constants, negations or until formulas.
fn paren(f: &Ctl<String>, atom: &dyn Fn(&str) -> String) -> String {
    let s = to_smv(f, atom);
    match f {
        Ctl::True | Ctl::False | Ctl::Atom(_) | Ctl::Not(_) | Ctl::EU(..) | Ctl::AU(..) | Ctl::EBU(..) | Ctl::ABU(..) => s,
        _ => format!("({s})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str) -> String {
        let f = SourceFile::new("t.ctl", text);
        let specs = read(&f).map_err(|d| d.render(&f)).unwrap();
        to_smv(&specs[0].formula, &|a| a.to_string())
    }

    #[test]
    fn rsmcheck_examples() {
        assert_eq!(one("E X E G blue"), "EX (EG blue)");
        assert_eq!(one("E X E blue U black"), "EX E [ blue U black ]");
        assert_eq!(one("A X E blue U red"), "AX E [ blue U red ]");
        assert_eq!(one("E X red or E X E ( blue U black )"), "(EX red) | (EX E [ blue U black ])");
        assert_eq!(one("E G ~a_2"), "EG !a_2");
        assert_eq!(one("E X ( a_6 | a_7 | (~a_10 & a_9)) | a_1"), "(EX ((a_6 | a_7) | (!a_10 & a_9))) | a_1");
        assert_eq!(one("E (~(a_1 | a_2) U a_4)"), "E [ !(a_1 | a_2) U a_4 ]");
        assert_eq!(one("A G ( ( def__x | usedef__x ) --> E F ( use__x | usedef__x ) )"), "AG ((def__x | usedef__x) -> (EF (use__x | usedef__x)))");
        assert_eq!(one("# c\n\ntrue and not false"), "TRUE & !FALSE");
        assert_eq!(one("A (a R b)"), "!E [ !a U !b ]");
    }

    #[test]
    fn errors_point_at_the_token() {
        let f = SourceFile::new("t.ctl", "E G a\nE blue red\nX a\n");
        let d = read(&f).unwrap_err();
        assert_eq!(d.items.len(), 2);
        assert_eq!(f.line_col(d.items[0].primary_span().start), (2, 8));
        assert_eq!(d.items[0].message, "expected `U` or `R` (or `X`, `F`, `G` right after the quantifier), found `red`");
        assert_eq!(d.items[1].code, "E0812");
    }
}

#[cfg(test)]
mod depth_tests {
    use super::*;

    #[test]
    fn deep_nesting_is_an_error_not_a_stack_overflow() {
        let text = format!(
            "{}p{}\n{}p\n{}p\n{}p{}\n",
            "(".repeat(100_000),
            ")".repeat(100_000),
            "~".repeat(100_000),
            "E X ".repeat(100_000),
            "A ( p U ".repeat(100_000),
            ")".repeat(100_000)
        );
        let f = SourceFile::new("deep.ctl", text);
        let d = read(&f).unwrap_err();
        assert_eq!(d.items.len(), 4);
        assert!(d.items.iter().all(|d| d.message == "formula nested more than 128 levels deep"));
    }
}
