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
        }
    }

    /// True if the top operator is universal (`AX AF AG A[U]`) or a negated existential, i.e. a
    /// false verdict is explained by a counterexample; otherwise a true verdict has a witness.
    pub fn is_universal(&self) -> bool {
        matches!(self, Ctl::AX(_) | Ctl::AF(_) | Ctl::AG(_) | Ctl::AU(..))
    }
}
