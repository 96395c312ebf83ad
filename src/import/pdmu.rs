//! Reader for PDSolver's `.pdmu` files (Hague & Ong 2010), and the def/use specs of the Java
//! data-flow evaluation (Dubslaff et al. 2024 §7, RSMCheck's `jimple_convert.py`).
//!
//! Sections: `Rules:` with `p g -> q w;` (`w` is up to two symbols, `_` for none), then
//! `Propositions:` with `p g a1 a2 …;` (the head `p<g>` carries the atoms), then `Mu Property:`
//! with a modal μ-calculus formula. The μ-calculus property is not translated (xmv-rs checks CTL);
//! instead each variable `v` with an atom `use__v`, `def__v` or `usedef__v` gets the spec
//! `AG((def__v | usedef__v) -> EF(use__v | usedef__v))`: first the variables the μ-property
//! mentions (RSMCheck's `*_single_usedef.ctl`), then all others (together: `*_usedef.ctl`). The
//! initial configuration is PDSolver's `csinit #` when a rule starts there, otherwise the head of
//! the first rule.

use super::ctl_file::SpecSource;
use super::pds::push_label;
use super::pds_to_rsm::{Pds, Rule};
use crate::ctl::Ctl;
use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::source::{SourceFile, Span};

pub(crate) struct Pdmu {
    pub pds: Pds,
    /// Variables mentioned by the μ-property, in order of first mention.
    pub mu_variables: Vec<String>,
    /// Variables of all `use__`/`def__`/`usedef__` atoms, in order of first occurrence.
    pub variables: Vec<String>,
}

#[derive(Clone, Copy, PartialEq)]
enum Section {
    Preamble,
    Rules,
    Propositions,
}

pub(crate) fn read(file: &SourceFile) -> Result<(Pdmu, Vec<Diagnostic>), Diagnostics> {
    let mut diags = Diagnostics::new();
    let mut pds = Pds::new("PDSolver PDMU");
    let mut variables: Vec<String> = Vec::new();
    let mut mu_variables: Vec<String> = Vec::new();
    let mut section = Section::Preamble;
    let mut stmt: Vec<(&str, Span)> = Vec::new();
    let text = file.text.as_str();
    let mut saw_rules = false;
    let mut pos = 0;
    // Words are maximal runs of non-space characters; `;` ends a statement and is its own word.
    let mut words = Vec::new();
    while pos < text.len() {
        let rest = &text[pos..];
        let Some(c) = rest.chars().next() else { break };
        if c.is_whitespace() {
            pos += c.len_utf8();
            continue;
        }
        if c == ';' {
            words.push((";", Span::new(pos, pos + 1)));
            pos += 1;
            continue;
        }
        let len = rest.find(|d: char| d.is_whitespace() || d == ';').unwrap_or(rest.len());
        words.push((&text[pos..pos + len], Span::new(pos, pos + len)));
        pos += len;
    }
    let mut i = 0;
    while i < words.len() {
        let (w, span) = words[i];
        i += 1;
        match (w, words.get(i).map(|x| x.0)) {
            ("Rules:", _) => {
                section = Section::Rules;
                saw_rules = true;
                continue;
            }
            ("Propositions:", _) => {
                section = Section::Propositions;
                continue;
            }
            ("Mu", Some("Property:")) => {
                let body_start = words.get(i + 1).map_or(text.len(), |x| x.1.start as usize);
                collect_mu_variables(&text[body_start..], &mut mu_variables);
                break;
            }
            _ => {}
        }
        if w != ";" {
            stmt.push((w, span));
            continue;
        }
        let s = std::mem::take(&mut stmt);
        if s.is_empty() {
            continue;
        }
        match section {
            Section::Preamble => diags.push(
                Diagnostic::error("E0831", "statement before the `Rules:` section", s[0].1.to(s[s.len() - 1].1)).with_help("a .pdmu file starts with `Rules:`"),
            ),
            Section::Rules => match rule(&mut pds, &s) {
                Ok(r) => pds.rules.push(r),
                Err(d) => diags.push(d),
            },
            Section::Propositions => {
                if s.len() < 2 {
                    diags.push(
                        Diagnostic::error("E0832", "a proposition line needs a control state and a stack symbol", s[0].1)
                            .with_help("write `state symbol atom1 atom2 …;`"),
                    );
                    continue;
                }
                let h = (pds.state(s[0].0), pds.symbol(s[1].0));
                for &(atom, _) in &s[2..] {
                    push_label(pds.head_labels.entry(h).or_default(), atom);
                    for prefix in ["use__", "def__", "usedef__"] {
                        if let Some(v) = atom.strip_prefix(prefix)
                            && !v.is_empty()
                            && !variables.iter().any(|x| x == v)
                        {
                            variables.push(v.to_string());
                        }
                    }
                }
            }
        }
    }
    if !stmt.is_empty() {
        diags.push(
            Diagnostic::error("E0833", "statement not terminated by `;`", stmt[0].1.to(stmt[stmt.len() - 1].1))
                .with_help("end every rule and proposition line with `;`"),
        );
    }
    if !saw_rules {
        diags.push(
            Diagnostic::error("E0831", "no `Rules:` section", Span::new(0, 0))
                .with_help("a .pdmu file has the sections `Rules:`, `Propositions:` and `Mu Property:`"),
        );
    } else if pds.rules.is_empty() && !diags.has_errors() {
        diags.push(Diagnostic::error("E0831", "the `Rules:` section has no rules", Span::new(0, 0)));
    }
    if diags.has_errors() {
        return Err(diags);
    }
    let init = match (pds.find_state("csinit"), pds.find_symbol("#")) {
        (Some(p), Some(g)) if pds.rules.iter().any(|r| r.from == (p, g)) => {
            pds.notes.push("The initial configuration is PDSolver's `csinit #`.".into());
            (p, g)
        }
        _ => {
            let h = pds.rules[0].from;
            pds.notes.push(format!(
                "There is no rule from `csinit #`; the initial configuration is the head of the first rule, `{} {}`.",
                pds.states[h.0 as usize], pds.symbols[h.1 as usize]
            ));
            h
        }
    };
    pds.initial = init;
    pds.notes.push("The `Mu Property:` (modal mu-calculus) is not translated: xmv-rs checks CTL. The SPECs below are the def/use properties of the Java data-flow evaluation of Dubslaff et al. 2024 (RSMCheck's `*_usedef.ctl`).".into());
    Ok((Pdmu { pds, mu_variables, variables }, Vec::new()))
}

fn rule(pds: &mut Pds, s: &[(&str, Span)]) -> Result<Rule, Diagnostic> {
    let whole = s[0].1.to(s[s.len() - 1].1);
    let arrow = s.iter().position(|w| w.0 == "->").ok_or_else(|| {
        Diagnostic::error("E0832", "a rule needs `->`", whole).with_help("write `state symbol -> state symbol1 symbol2;` (`_` for no symbol)")
    })?;
    if arrow != 2 {
        return Err(Diagnostic::error(
            "E0832",
            format!("the left side of a rule is a control state and one stack symbol, found {} words", arrow),
            if arrow == 0 { s[0].1 } else { s[0].1.to(s[arrow - 1].1) },
        ));
    }
    let rhs = &s[arrow + 1..];
    if rhs.is_empty() {
        return Err(Diagnostic::error("E0832", "the right side of a rule needs a control state", s[arrow].1));
    }
    let push: Vec<&(&str, Span)> = rhs[1..].iter().filter(|w| w.0 != "_").collect();
    if push.len() > 2 {
        return Err(Diagnostic::error(
            "E0823",
            format!("a rule may push at most 2 symbols, this one pushes {}", push.len()),
            push[0].1.to(push[push.len() - 1].1),
        ));
    }
    let from = (pds.state(s[0].0), pds.symbol(s[1].0));
    let to_state = pds.state(rhs[0].0);
    let push = push.iter().map(|w| pds.symbol(w.0)).collect();
    Ok(Rule { from, to_state, push })
}

/// Variables of the `use__`/`def__`/`usedef__` words of the μ-property, as jimple_convert.py
/// extracts them (brackets, `@` and `\` separate words).
fn collect_mu_variables(body: &str, out: &mut Vec<String>) {
    let cleaned: String = body.chars().map(|c| if matches!(c, '[' | ']' | '<' | '>' | '@' | '\\' | ';') { ' ' } else { c }).collect();
    for word in cleaned.split_whitespace() {
        for prefix in ["use__", "def__", "usedef__"] {
            if let Some(v) = word.strip_prefix(prefix)
                && !v.is_empty()
                && !out.iter().any(|x| x == v)
            {
                out.push(v.to_string());
            }
        }
    }
}

impl Pdmu {
    /// `AG((def__v | usedef__v) -> EF(use__v | usedef__v))` for the μ-property's variables, then
    /// for every other variable.
    pub(crate) fn usedef_specs(&self) -> Vec<SpecSource> {
        let mut out = Vec::new();
        let others: Vec<&String> = self.variables.iter().filter(|v| !self.mu_variables.contains(v)).collect();
        for (k, v) in self.mu_variables.iter().chain(others.iter().copied()).enumerate() {
            let atom = |p: &str| Ctl::Atom(format!("{p}{v}"));
            let or = |a: Ctl<String>, b: Ctl<String>| Ctl::Or(Box::new(a), Box::new(b));
            let formula = Ctl::AG(Box::new(Ctl::Implies(
                Box::new(or(atom("def__"), atom("usedef__"))),
                Box::new(Ctl::EF(Box::new(or(atom("use__"), atom("usedef__"))))),
            )));
            let heading = if k == 0 && !self.mu_variables.is_empty() {
                vec!["def/use specs for the variables of the mu-property (RSMCheck's *_single_usedef.ctl)".to_string()]
            } else if k == self.mu_variables.len() {
                vec!["def/use specs for the other variables of the program (with the above: *_usedef.ctl)".to_string()]
            } else {
                Vec::new()
            };
            let text = format!("A G ( ( def__{v} | usedef__{v} ) --> E F ( use__{v} | usedef__{v} ) )");
            let atoms = ["def__", "usedef__", "use__"].iter().map(|p| (format!("{p}{v}"), Span::default())).collect();
            out.push(SpecSource { formula, text, origin: "generated".into(), heading, atoms, from_ctl_file: false });
        }
        out
    }
}
