//! Three-valued truth values `tt`, `??`, `ff` (Dubslaff et al. 2024, §5.1) ordered
//! `ff < ?? < tt`, with `max` for ∨, `min` for ∧ and `comp` for ¬.

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Tv {
    Ff = 0,
    Unknown = 1,
    Tt = 2,
}

impl Tv {
    pub fn from_bool(b: bool) -> Tv {
        if b { Tv::Tt } else { Tv::Ff }
    }
    pub fn comp(self) -> Tv {
        match self {
            Tv::Ff => Tv::Tt,
            Tv::Unknown => Tv::Unknown,
            Tv::Tt => Tv::Ff,
        }
    }
    pub fn is_known(self) -> bool {
        self != Tv::Unknown
    }
}

#[cfg(test)]
mod tests {
    use super::Tv::*;

    #[test]
    fn order_and_complement() {
        assert_eq!(Ff.max(Unknown), Unknown);
        assert_eq!(Tt.min(Unknown), Unknown);
        assert_eq!(Unknown.comp(), Unknown);
        assert_eq!(Tt.comp(), Ff);
    }
}
