//! Turning source names into valid, unique `.smv` identifiers.
//!
//! A source name is kept when it is already an identifier (`[A-Za-z_][A-Za-z0-9_]*`), not a
//! keyword and not taken; otherwise every other character becomes `_`, a leading digit gets a `_`
//! prefix, and a clash gets a numeric suffix (`_2`, `_3`, …). Every change is recorded so the
//! writer can list the mapping in a comment. One [`Namer`] is one namespace.

use crate::syntax::KEYWORDS;
use rustc_hash::FxHashSet;

/// Names the writer avoids besides the reader's keywords ([`crate::syntax::KEYWORDS`]):
/// identifiers with a meaning in the written model (`main`, `pc`, `EXITED`, the `TERMINATION`
/// rules) and words other SMV dialects reserve, so that written models stay portable.
const RESERVED_EXTRA: &[&str] = &["AU", "EU", "EXITED", "W", "cos", "exp", "floor", "ln", "loop", "main", "pc", "pi", "sin", "tan", "trap"];

/// The identifier a name becomes before clash resolution.
pub(crate) fn sanitize(name: &str) -> String {
    let mut out: String = name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect();
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    out
}

#[derive(Clone, Debug)]
pub(crate) struct Namer {
    used: FxHashSet<String>,
    /// `(source name, identifier)` for every name that had to change.
    pub renamed: Vec<(String, String)>,
}

impl Namer {
    /// Renames that the sanitising rule alone does not explain (keywords, clashes).
    pub(crate) fn unusual_renames(&self) -> impl Iterator<Item = &(String, String)> {
        self.renamed.iter().filter(|(src, id)| sanitize(src) != *id)
    }
}

impl Default for Namer {
    fn default() -> Namer {
        Namer::new()
    }
}

impl Namer {
    /// A namespace in which the reserved words are taken.
    pub(crate) fn new() -> Namer {
        Namer { used: KEYWORDS.iter().chain(RESERVED_EXTRA).map(|s| s.to_string()).collect(), renamed: Vec::new() }
    }
    /// A fresh identifier for `source`, recorded in [`Namer::renamed`] if it differs.
    pub(crate) fn fresh(&mut self, source: &str) -> String {
        self.fresh_avoiding(source, None)
    }
    /// Like [`Namer::fresh`], also avoiding the identifiers taken in `outer` (an enclosing
    /// namespace whose names must not be shadowed).
    pub(crate) fn fresh_avoiding(&mut self, source: &str, outer: Option<&Namer>) -> String {
        let base = sanitize(source);
        let mut ident = base.clone();
        let mut k = 2;
        while self.used.contains(&ident) || outer.is_some_and(|o| o.used.contains(&ident)) {
            ident = format!("{base}_{k}");
            k += 1;
        }
        self.used.insert(ident.clone());
        if ident != source {
            self.renamed.push((source.to_string(), ident.clone()));
        }
        ident
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_identifiers_and_fixes_the_rest() {
        let mut n = Namer::new();
        assert_eq!(n.fresh("n1"), "n1");
        assert_eq!(n.fresh("csq<cp#1>"), "csq_cp_1_");
        assert_eq!(n.fresh("9lives"), "_9lives");
        assert_eq!(n.fresh("next"), "next_2");
        assert_eq!(n.fresh("n1"), "n1_2");
        assert_eq!(n.fresh(""), "_");
        assert_eq!(n.renamed.len(), 5);
    }

    /// Every keyword of the reader is avoided (the importer's own list used to miss `IN`,
    /// `MDEFINE`, `CONSTRAINT`, `PREDICATES` and the `…WFF` words).
    #[test]
    fn every_reader_keyword_is_renamed() {
        let mut n = Namer::new();
        for k in KEYWORDS {
            assert_ne!(n.fresh(k), *k, "{k}");
        }
        assert_eq!(n.fresh("IN"), "IN_3");
    }
}
