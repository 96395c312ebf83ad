//! Kleene's three-valued logic, the one three-valued type of the checkers: `False < Unknown <
//! True` in the truth order, so `or` is the maximum, `and` the minimum, and `negate` swaps
//! `False` and `True`.
//!
//! The RKS engines read `Unknown` as "not known yet" (Finis 2012 Def. 2.5.1, `M`; a context
//! assumption that is either); the ternary engines as `??` (Dubslaff et al. 2024 §5.1).
//! [`Kleene::join`] is the knowledge-base join of Finis' engines (`T ⋈ T = T`, `F ⋈ F = F`,
//! otherwise `Unknown`).

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Kleene {
    False = 0,
    Unknown = 1,
    True = 2,
}

impl Kleene {
    #[inline]
    pub fn from_bool(b: bool) -> Kleene {
        if b { Kleene::True } else { Kleene::False }
    }
    #[inline]
    pub fn is_known(self) -> bool {
        self != Kleene::Unknown
    }
    #[inline]
    pub(crate) fn negate(self) -> Kleene {
        match self {
            Kleene::True => Kleene::False,
            Kleene::False => Kleene::True,
            Kleene::Unknown => Kleene::Unknown,
        }
    }
    #[inline]
    pub(crate) fn or(self, o: Kleene) -> Kleene {
        self.max(o)
    }
    #[inline]
    pub(crate) fn and(self, o: Kleene) -> Kleene {
        self.min(o)
    }
    #[inline]
    pub(crate) fn join(self, o: Kleene) -> Kleene {
        if self == o { self } else { Kleene::Unknown }
    }
}

#[cfg(test)]
mod tests {
    use super::Kleene::{self, False as F, True as T, Unknown as M};

    #[test]
    fn kleene_tables() {
        let all = [F, T, M];
        for a in all {
            for b in all {
                assert_eq!(a.and(b), a.negate().or(b.negate()).negate());
                assert_eq!(a.or(b), b.or(a));
                if a.is_known() && b.is_known() {
                    let (x, y) = (a == T, b == T);
                    assert_eq!(a.or(b), Kleene::from_bool(x || y));
                    assert_eq!(a.and(b), Kleene::from_bool(x && y));
                }
            }
        }
        assert_eq!(M.or(T), T);
        assert_eq!(M.or(F), M);
        assert_eq!(M.and(F), F);
        assert_eq!(T.and(M), M);
        assert_eq!(M.negate(), M);
        assert_eq!(T.negate(), F);
        assert_eq!(T.join(T), T);
        assert_eq!(T.join(F), M);
        assert_eq!(M.join(M), M);
    }
}
