//! Ternary truth values (Finis 2012 Def. 2.5.1): `T`, `F` and `M` ("maybe", not known yet).
//!
//! `or`/`and`/`not` are Kleene's strong connectives; `join` is the knowledge-base join rule
//! (`T ⋈ T = T`, `F ⋈ F = F`, otherwise `M`).

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Tern {
    F = 0,
    T = 1,
    M = 2,
}

impl Tern {
    pub fn from_bool(b: bool) -> Tern {
        if b { Tern::T } else { Tern::F }
    }
    pub fn is_known(self) -> bool {
        self != Tern::M
    }
    pub fn negate(self) -> Tern {
        match self {
            Tern::T => Tern::F,
            Tern::F => Tern::T,
            Tern::M => Tern::M,
        }
    }
    pub fn or(self, o: Tern) -> Tern {
        match (self, o) {
            (Tern::T, _) | (_, Tern::T) => Tern::T,
            (Tern::F, Tern::F) => Tern::F,
            _ => Tern::M,
        }
    }
    pub fn and(self, o: Tern) -> Tern {
        self.negate().or(o.negate()).negate()
    }
    pub fn join(self, o: Tern) -> Tern {
        if self == o { self } else { Tern::M }
    }
}

#[cfg(test)]
mod tests {
    use super::Tern::{self, *};

    #[test]
    fn kleene_tables() {
        let all = [F, T, M];
        for a in all {
            for b in all {
                assert_eq!(a.and(b), a.negate().or(b.negate()).negate());
                if a.is_known() && b.is_known() {
                    let (x, y) = (a == T, b == T);
                    assert_eq!(a.or(b), Tern::from_bool(x || y));
                    assert_eq!(a.and(b), Tern::from_bool(x && y));
                }
            }
        }
        assert_eq!(M.or(T), T);
        assert_eq!(M.or(F), M);
        assert_eq!(T.join(T), T);
        assert_eq!(T.join(F), M);
        assert_eq!(M.join(M), M);
    }
}
