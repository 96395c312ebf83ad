//! Reader for PuMoC's pushdown systems (`.pds`).
//!
//! Line-based, as RSMCheck's `pds_to_rsm.py` reads it: `(p <g>)` (or `(p g)`) is the initial
//! configuration, `p <g> --> q <w>` a rule with `|w| ≤ 2` (`< >` pops), `ATOMS a i1, i2, …` a
//! labelling, lines starting with `#` are comments. Labelling: atom `a` holds at every head whose
//! control state or stack symbol is one of the items `i` (or at head `p<g>` written so). The
//! `.pds` files of the Java benchmarks (written by RSMCheck's `jimple_convert.py`) use the
//! reverse layout `ATOMS g a1, a2, …` (stack symbol first, then its atoms); a line whose items are
//! not all states or symbols while its first word is one is read that way, and the output's header
//! says how many lines were.

use super::pds_to_rsm::{Pds, Rule};
use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::source::{SourceFile, Span};

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Word(String),
    Punct(char),
}

fn lex(line: &str, base: usize) -> Vec<(Tok, Span)> {
    let mut out = Vec::new();
    let mut chars = line.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c.is_whitespace() {
            continue;
        }
        if c == '-' && line[i..].starts_with("-->") {
            chars.next();
            chars.next();
            out.push((Tok::Word("-->".into()), Span::new(base + i, base + i + 3)));
            continue;
        }
        if matches!(c, '<' | '>' | '(' | ')' | ',') {
            out.push((Tok::Punct(c), Span::new(base + i, base + i + 1)));
            continue;
        }
        let mut end = i + c.len_utf8();
        while let Some(&(j, d)) = chars.peek() {
            if d.is_whitespace() || matches!(d, '<' | '>' | '(' | ')' | ',') {
                break;
            }
            end = j + d.len_utf8();
            chars.next();
        }
        out.push((Tok::Word(line[i..end].to_string()), Span::new(base + i, base + end)));
    }
    out
}

struct Line<'t> {
    toks: &'t [(Tok, Span)],
    pos: usize,
    eol: Span,
}

impl Line<'_> {
    fn span(&self) -> Span {
        self.toks.get(self.pos).map_or(self.eol, |t| t.1)
    }
    fn found(&self) -> String {
        match self.toks.get(self.pos) {
            None => "the end of the line".into(),
            Some((Tok::Word(w), _)) => format!("`{w}`"),
            Some((Tok::Punct(c), _)) => format!("`{c}`"),
        }
    }
    fn expect_word(&mut self, what: &str) -> Result<(String, Span), Diagnostic> {
        match self.toks.get(self.pos) {
            Some((Tok::Word(w), s)) if w != "-->" => {
                self.pos += 1;
                Ok((w.clone(), *s))
            }
            _ => Err(Diagnostic::error("E0821", format!("expected {what}, found {}", self.found()), self.span())),
        }
    }
    fn eat(&mut self, c: char) -> bool {
        if self.toks.get(self.pos).map(|t| &t.0) == Some(&Tok::Punct(c)) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn expect(&mut self, c: char) -> Result<(), Diagnostic> {
        if self.eat(c) { Ok(()) } else { Err(Diagnostic::error("E0821", format!("expected `{c}`, found {}", self.found()), self.span())) }
    }
    fn at_end(&self) -> bool {
        self.pos >= self.toks.len()
    }
    fn end(&self) -> Result<(), Diagnostic> {
        if self.at_end() {
            Ok(())
        } else {
            Err(Diagnostic::error("E0821", format!("unexpected {} after the end of the line's item", self.found()), self.span()))
        }
    }
}

/// An `ATOMS` line, resolved once all states and symbols are known.
struct AtomsLine {
    key: (String, Span),
    /// Items; a head item `p<g>` has `Some(g)`.
    items: Vec<(String, Option<String>, Span)>,
}

pub(crate) fn read(file: &SourceFile) -> Result<(Pds, Vec<Diagnostic>), Diagnostics> {
    let mut diags = Diagnostics::new();
    let mut pds = Pds::new("PuMoC PDS");
    let mut initial: Option<((String, String), Span)> = None;
    let mut atoms_lines = Vec::new();
    let starts = file.line_starts().to_vec();
    for (i, &start) in starts.iter().enumerate() {
        let start = start as usize;
        let end = starts.get(i + 1).map_or(file.text.len(), |&e| e as usize);
        let text = &file.text[start..end];
        let trimmed = text.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let toks = lex(text, start);
        let eol = Span::new(start + text.trim_end().len(), start + text.trim_end().len());
        let mut line = Line { toks: &toks, pos: 0, eol };
        let result = (|| -> Result<(), Diagnostic> {
            if line.eat('(') {
                let (p, ps) = line.expect_word("the initial control state")?;
                let angle = line.eat('<');
                let (g, gs) = line.expect_word("the initial stack symbol")?;
                if angle {
                    line.expect('>')?;
                }
                line.expect(')')?;
                line.end()?;
                if let Some((_, first)) = &initial {
                    let (l, _) = file.line_col(first.start);
                    return Err(Diagnostic::error("E0822", "a second initial configuration", ps.to(gs)).with_note(format!("the first one is on line {l}")));
                }
                initial = Some(((p, g), ps.to(gs)));
                return Ok(());
            }
            if matches!(line.toks.first(), Some((Tok::Word(w), _)) if w.eq_ignore_ascii_case("ATOMS")) {
                line.pos = 1;
                let key = line.expect_word("an atom name")?;
                let mut items = Vec::new();
                while !line.at_end() {
                    let (name, s) = line.expect_word("a control state or stack symbol")?;
                    if line.eat('<') {
                        let (g, gs) = line.expect_word("a stack symbol")?;
                        line.expect('>')?;
                        items.push((name, Some(g), s.to(gs)));
                    } else {
                        items.push((name, None, s));
                    }
                    if !line.eat(',') {
                        line.end()?;
                    }
                }
                atoms_lines.push(AtomsLine { key, items });
                return Ok(());
            }
            let (p, _) = line.expect_word("a control state")?;
            line.expect('<')?;
            let (g, _) = line.expect_word("a stack symbol")?;
            line.expect('>')?;
            match line.toks.get(line.pos) {
                Some((Tok::Word(w), _)) if w == "-->" => line.pos += 1,
                _ => {
                    return Err(Diagnostic::error("E0821", format!("expected `-->`, found {}", line.found()), line.span())
                        .with_help("write rules as `p <g> --> q <w>` with at most two symbols in `w`"));
                }
            }
            let (q, _) = line.expect_word("a control state")?;
            line.expect('<')?;
            let mut push = Vec::new();
            let mut push_spans = Vec::new();
            while !line.eat('>') {
                let (w, s) = line.expect_word("a stack symbol or `>`")?;
                push.push(w);
                push_spans.push(s);
            }
            line.end()?;
            if push.len() > 2 {
                return Err(Diagnostic::error(
                    "E0823",
                    format!("a rule may push at most 2 symbols, this one pushes {}", push.len()),
                    push_spans[0].to(push_spans[push.len() - 1]),
                )
                .with_help("split the rule into several rules through fresh control states"));
            }
            let from = (pds.state(&p), pds.symbol(&g));
            let to_state = pds.state(&q);
            let push = push.iter().map(|w| pds.symbol(w)).collect();
            pds.rules.push(Rule { from, to_state, push });
            Ok(())
        })();
        if let Err(d) = result {
            diags.push(d);
        }
    }
    match initial {
        Some(((p, g), _)) => {
            pds.initial = (pds.state(&p), pds.symbol(&g));
        }
        None => diags.push(
            Diagnostic::error("E0822", "no initial configuration", Span::new(0, 0))
                .with_help("add a line `(state <symbol>)` naming the initial control state and stack symbol"),
        ),
    }
    if diags.has_errors() {
        return Err(diags);
    }
    let warnings = resolve_atoms(&mut pds, atoms_lines);
    Ok((pds, warnings))
}

fn resolve_atoms(pds: &mut Pds, lines: Vec<AtomsLine>) -> Vec<Diagnostic> {
    let mut warnings = Vec::new();
    let mut reversed = 0usize;
    for AtomsLine { key: (key, key_span), items } in lines {
        let known = |pds: &Pds, (name, g, _): &(String, Option<String>, Span)| match g {
            Some(g) => pds.find_state(name).is_some() && pds.find_symbol(g).is_some(),
            None => pds.find_state(name).is_some() || pds.find_symbol(name).is_some(),
        };
        let all_known = items.iter().all(|it| known(pds, it));
        let key_state = pds.find_state(&key);
        let key_symbol = pds.find_symbol(&key);
        if !all_known && (key_state.is_some() || key_symbol.is_some()) {
            reversed += 1;
            for (atom, _, _) in &items {
                if let Some(p) = key_state {
                    push_label(&mut pds.state_labels[p as usize], atom);
                }
                if let Some(g) = key_symbol {
                    push_label(&mut pds.symbol_labels[g as usize], atom);
                }
            }
            continue;
        }
        for item @ (name, g, span) in &items {
            if !known(pds, item) {
                warnings.push(
                    Diagnostic::warning("W0821", format!("`{name}` is neither a control state nor a stack symbol of a rule"), *span)
                        .with_note(format!("atom `{key}` holds nowhere for this item")),
                );
                let _ = key_span;
                continue;
            }
            match g {
                Some(g) => {
                    let h = (pds.find_state(name).unwrap_or(0), pds.find_symbol(g).unwrap_or(0));
                    push_label(pds.head_labels.entry(h).or_default(), &key);
                }
                None => {
                    if let Some(p) = pds.find_state(name) {
                        push_label(&mut pds.state_labels[p as usize], &key);
                    }
                    if let Some(s) = pds.find_symbol(name) {
                        push_label(&mut pds.symbol_labels[s as usize], &key);
                    }
                }
            }
        }
    }
    if reversed > 0 {
        pds.notes.push(format!(
            "{reversed} `ATOMS` lines were read as `ATOMS <state or symbol> <atoms>` (the layout of RSMCheck's jimple_convert.py), because their items are not control states or stack symbols."
        ));
    }
    warnings
}

pub(crate) fn push_label(labels: &mut Vec<String>, atom: &str) {
    if !labels.iter().any(|l| l == atom) {
        labels.push(atom.to_string());
    }
}
