//! The types of the SMV expression language as NuSMV ≥ 2.5.1 checks them: `boolean`, integers
//! (ranges and integer enumerations), symbolic enumerations, mixed integer-symbolic
//! enumerations, the set versions of each (`{..}`, `a..b`, `union`), and two xmv-rs additions:
//! the `EXIT` value (compatible with every variable of a procedure module) and exit names (the
//! values of `EXITED`). There is no implicit integer↔boolean conversion. Words (`unsigned
//! word[N]`, `signed word[N]`) are a type per width and signedness: two word types are compatible
//! only when both agree (NuSMV 2.5.4), and never with integers or booleans.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    Bool,
    Int,
    Sym,
    IntSym,
    /// The `EXIT` value: compatible with any scalar type.
    Exit,
    /// An exit name (`EXITED`, and the names it is compared with).
    ExitName,
    /// `unsigned word[width]` / `signed word[width]`, width 1..=64.
    Word {
        width: u8,
        signed: bool,
    },
    /// A set of values of the given scalar type.
    Set(Scalar),
    /// A subexpression already reported as wrong: compatible with everything.
    Error,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scalar {
    Bool,
    Int,
    Sym,
    IntSym,
    Exit,
    ExitName,
    Word { width: u8, signed: bool },
}

impl Ty {
    /// The element type: sets give their elements, scalars themselves.
    pub(crate) fn scalar(self) -> Option<Scalar> {
        Some(match self {
            Ty::Bool => Scalar::Bool,
            Ty::Int => Scalar::Int,
            Ty::Sym => Scalar::Sym,
            Ty::IntSym => Scalar::IntSym,
            Ty::Exit => Scalar::Exit,
            Ty::ExitName => Scalar::ExitName,
            Ty::Word { width, signed } => Scalar::Word { width, signed },
            Ty::Set(s) => s,
            Ty::Error => return None,
        })
    }
    pub(crate) fn from_scalar(s: Scalar) -> Ty {
        match s {
            Scalar::Bool => Ty::Bool,
            Scalar::Int => Ty::Int,
            Scalar::Sym => Ty::Sym,
            Scalar::IntSym => Ty::IntSym,
            Scalar::Exit => Ty::Exit,
            Scalar::ExitName => Ty::ExitName,
            Scalar::Word { width, signed } => Ty::Word { width, signed },
        }
    }
    pub(crate) fn is_set(self) -> bool {
        matches!(self, Ty::Set(_))
    }
    pub(crate) fn is_error(self) -> bool {
        self == Ty::Error
    }
    /// Boolean (or already-reported error, or `EXIT`, which a boolean variable may hold).
    pub(crate) fn is_bool(self) -> bool {
        matches!(self, Ty::Bool | Ty::Error | Ty::Exit)
    }
    pub(crate) fn is_int(self) -> bool {
        matches!(self, Ty::Int | Ty::Error)
    }
    /// The width and signedness of a word type.
    pub(crate) fn word(self) -> Option<(u8, bool)> {
        match self {
            Ty::Word { width, signed } => Some((width, signed)),
            _ => None,
        }
    }
    /// The type of a set of values of this type (a set stays a set).
    pub(crate) fn to_set(self) -> Ty {
        match self.scalar() {
            Some(s) => Ty::Set(s),
            None => Ty::Error,
        }
    }
}

/// The common scalar type of two operands of `=`, `union`, `case` branches…, if any.
pub(crate) fn unify_scalar(a: Scalar, b: Scalar) -> Option<Scalar> {
    use Scalar::*;
    match (a, b) {
        _ if a == b => Some(a),
        (Exit, x) | (x, Exit) => Some(x),
        (Int, IntSym) | (IntSym, Int) | (Sym, IntSym) | (IntSym, Sym) => Some(IntSym),
        _ => None,
    }
}

/// Like [`unify_scalar`] but for set-valued unions (`{a, 1}` is an integer-symbolic set).
pub(crate) fn unify_for_union(a: Scalar, b: Scalar) -> Option<Scalar> {
    match (a, b) {
        (Scalar::Int, Scalar::Sym) | (Scalar::Sym, Scalar::Int) => Some(Scalar::IntSym),
        _ => unify_scalar(a, b),
    }
}

/// The common type of two values (scalars or sets); a set wins over a scalar.
pub(crate) fn unify(a: Ty, b: Ty, mixed_ok: bool) -> Option<Ty> {
    if a.is_error() {
        return Some(b);
    }
    if b.is_error() {
        return Some(a);
    }
    let (sa, sb) = (a.scalar()?, b.scalar()?);
    let s = if mixed_ok { unify_for_union(sa, sb)? } else { unify_scalar(sa, sb)? };
    Some(if a.is_set() || b.is_set() { Ty::Set(s) } else { Ty::from_scalar(s) })
}

impl fmt::Display for Scalar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Scalar::Word { width, signed } = self {
            return write!(f, "{} word[{width}]", if *signed { "signed" } else { "unsigned" });
        }
        f.write_str(match self {
            Scalar::Bool => "boolean",
            Scalar::Int => "integer",
            Scalar::Sym => "symbolic",
            Scalar::IntSym => "integer-symbolic",
            Scalar::Exit => "EXIT",
            Scalar::ExitName => "exit name",
            Scalar::Word { .. } => "word",
        })
    }
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Set(s) => write!(f, "set of {s}"),
            Ty::Error => f.write_str("error"),
            t => write!(f, "{}", t.scalar().map_or(Scalar::Bool, |s| s)),
        }
    }
}

/// "a boolean", "an integer", "a set of …".
pub(crate) fn with_article(t: Ty) -> String {
    let s = t.to_string();
    let vowel = s.starts_with(['a', 'e', 'i', 'o', 'u', 'E']);
    format!("{} {s}", if vowel { "an" } else { "a" })
}

/// How to turn a value of type `from` into one of type `to`, when both are words or one is.
pub(crate) fn conversion_help(from: Ty, to: Ty) -> Option<String> {
    match (from.word(), to.word()) {
        (Some((wf, sf)), Some((wt, st))) => {
            let mut steps = vec![];
            if wf != wt {
                steps.push(if wf < wt {
                    format!("widen with `extend(…, {})` or `resize(…, {wt})`", wt - wf)
                } else {
                    format!("narrow with `resize(…, {wt})` or a bit selection `…[{} : 0]`", wt - 1)
                });
            }
            if sf != st {
                steps.push(format!("reinterpret with `{}(…)`", if st { "signed" } else { "unsigned" }));
            }
            Some(format!("words of different widths or signedness do not mix: {}", steps.join(", then ")))
        }
        (Some((w, s)), None) if to.is_int() => {
            let _ = s;
            Some(format!(
                "words and integers do not mix (NuSMV 2.5.4): convert the word with `toint(…)`, or write the integer as a word constant (`0{}d{w}_…`)",
                if s { 's' } else { 'u' }
            ))
        }
        (None, Some((w, s))) if from.is_int() => Some(format!(
            "words and integers do not mix (NuSMV 2.5.4): write the integer as a word constant (`0{}d{w}_…`, `{}const(…, {w})`), or convert the word with `toint(…)`",
            if s { 's' } else { 'u' },
            if s { "sw" } else { "uw" }
        )),
        (Some(_), None) | (None, Some(_)) if from.is_bool() || to.is_bool() => {
            Some("words and booleans do not mix: use `word1(b)` for a boolean as `unsigned word[1]`, or `bool(w)` of an `unsigned word[1]`".into())
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unification_rules() {
        assert_eq!(unify(Ty::Int, Ty::Bool, false), None);
        assert_eq!(unify(Ty::Int, Ty::IntSym, false), Some(Ty::IntSym));
        assert_eq!(unify(Ty::Sym, Ty::Int, false), None);
        assert_eq!(unify(Ty::Sym, Ty::Int, true), Some(Ty::IntSym));
        assert_eq!(unify(Ty::Exit, Ty::Bool, false), Some(Ty::Bool));
        assert_eq!(unify(Ty::Set(Scalar::Int), Ty::Int, false), Some(Ty::Set(Scalar::Int)));
        assert_eq!(unify(Ty::Error, Ty::Sym, false), Some(Ty::Sym));
        let (u8w, s8w, u4w) = (Ty::Word { width: 8, signed: false }, Ty::Word { width: 8, signed: true }, Ty::Word { width: 4, signed: false });
        assert_eq!(unify(u8w, u8w, false), Some(u8w));
        assert_eq!(unify(u8w, s8w, true), None);
        assert_eq!(unify(u8w, u4w, true), None);
        assert_eq!(unify(u8w, Ty::Int, true), None);
        assert_eq!(unify(Ty::Set(Scalar::Word { width: 8, signed: false }), u8w, false), Some(Ty::Set(Scalar::Word { width: 8, signed: false })));
        assert_eq!(u8w.to_string(), "unsigned word[8]");
        assert_eq!(with_article(u8w), "an unsigned word[8]");
    }
}
