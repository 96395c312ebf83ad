//! CTL formulas as the user writes them, generic over what an atomic proposition is.
//!
//! The front end produces `Ctl<SpecAtom>` (atoms are state predicates or global labels); the
//! explicit stage maps atoms to dense proposition ids (`Ctl<PropId>`); checkers reduce these to
//! their core operators. Keeping the full operator set here lets reports print what was written.

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ctl<A> {
    True,
    False,
    Atom(A),
    Not(Box<Ctl<A>>),
    And(Box<Ctl<A>>, Box<Ctl<A>>),
    Or(Box<Ctl<A>>, Box<Ctl<A>>),
    Xor(Box<Ctl<A>>, Box<Ctl<A>>),
    Xnor(Box<Ctl<A>>, Box<Ctl<A>>),
    Implies(Box<Ctl<A>>, Box<Ctl<A>>),
    Iff(Box<Ctl<A>>, Box<Ctl<A>>),
    EX(Box<Ctl<A>>),
    AX(Box<Ctl<A>>),
    EF(Box<Ctl<A>>),
    AF(Box<Ctl<A>>),
    EG(Box<Ctl<A>>),
    AG(Box<Ctl<A>>),
    /// `E [ a U b ]`
    EU(Box<Ctl<A>>, Box<Ctl<A>>),
    /// `A [ a U b ]`
    AU(Box<Ctl<A>>, Box<Ctl<A>>),
    /// RTCTL (NuSMV 2.5.4): `EBF lo..hi a`, some path has `a` at some step in `lo..hi`.
    EBF(Box<Ctl<A>>, Bound),
    /// `ABF lo..hi a`: every path has `a` at some step in `lo..hi`.
    ABF(Box<Ctl<A>>, Bound),
    /// `EBG lo..hi a`: some path has `a` at every step in `lo..hi`.
    EBG(Box<Ctl<A>>, Bound),
    /// `ABG lo..hi a`: every path has `a` at every step in `lo..hi`.
    ABG(Box<Ctl<A>>, Bound),
    /// `E [ a BU lo..hi b ]`: some path has `b` at some step in `lo..hi` and `a` before it.
    EBU(Box<Ctl<A>>, Box<Ctl<A>>, Bound),
    /// `A [ a BU lo..hi b ]`: every path has `b` at some step in `lo..hi` and `a` before it.
    ABU(Box<Ctl<A>>, Box<Ctl<A>>, Bound),
}

/// Largest upper bound of an RTCTL operator. The checkers unfold `EBF 0..n p` into `n` steps
/// of `EX` over the shared formula DAG (`crate::check::rewrite`), a few nodes per step, so the
/// bound limits the DAG's size; the resolver reports a larger one (E0222).
pub(crate) const MAX_TIME_BOUND: i64 = 10_000;

/// The checked `lo..hi` of an RTCTL operator: `lo <= hi <= MAX_TIME_BOUND` (steps along a path;
/// step 0 is the current state).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bound {
    pub lo: u32,
    pub hi: u32,
}

impl Bound {
    /// The bound `lo..hi`, or `None` unless `0 <= lo <= hi <= MAX_TIME_BOUND`.
    pub fn new(lo: i64, hi: i64) -> Option<Bound> {
        if !(0 <= lo && lo <= hi && hi <= MAX_TIME_BOUND) {
            return None;
        }
        Some(Bound { lo: u32::try_from(lo).ok()?, hi: u32::try_from(hi).ok()? })
    }
}

impl<A> Ctl<A> {
    /// Rebuilds the formula with every atom mapped through `f`.
    pub fn map_atoms<B>(&self, f: &mut impl FnMut(&A) -> B) -> Ctl<B> {
        use Ctl::*;
        let mut m = |c: &Ctl<A>| Box::new(c.map_atoms(f));
        match self {
            True => True,
            False => False,
            Atom(a) => Atom(f(a)),
            Not(a) => Not(m(a)),
            And(a, b) => {
                let a = m(a);
                And(a, m(b))
            }
            Or(a, b) => {
                let a = m(a);
                Or(a, m(b))
            }
            Xor(a, b) => {
                let a = m(a);
                Xor(a, m(b))
            }
            Xnor(a, b) => {
                let a = m(a);
                Xnor(a, m(b))
            }
            Implies(a, b) => {
                let a = m(a);
                Implies(a, m(b))
            }
            Iff(a, b) => {
                let a = m(a);
                Iff(a, m(b))
            }
            EX(a) => EX(m(a)),
            AX(a) => AX(m(a)),
            EF(a) => EF(m(a)),
            AF(a) => AF(m(a)),
            EG(a) => EG(m(a)),
            AG(a) => AG(m(a)),
            EU(a, b) => {
                let a = m(a);
                EU(a, m(b))
            }
            AU(a, b) => {
                let a = m(a);
                AU(a, m(b))
            }
            EBF(a, k) => EBF(m(a), *k),
            ABF(a, k) => ABF(m(a), *k),
            EBG(a, k) => EBG(m(a), *k),
            ABG(a, k) => ABG(m(a), *k),
            EBU(a, b, k) => {
                let a = m(a);
                EBU(a, m(b), *k)
            }
            ABU(a, b, k) => {
                let a = m(a);
                ABU(a, m(b), *k)
            }
        }
    }

    /// True if the top operator is universal (`AX AF AG A[U]`) or a negated existential, i.e. a
    /// false verdict is explained by a counterexample; otherwise a true verdict has a witness.
    pub fn is_universal(&self) -> bool {
        matches!(self, Ctl::AX(_) | Ctl::AF(_) | Ctl::AG(_) | Ctl::AU(..) | Ctl::ABF(..) | Ctl::ABG(..) | Ctl::ABU(..))
    }
}
