//! LTL formulas as the user writes them (NuSMV 2.5.4's `LTLSPEC` logic), generic over what an
//! atomic proposition is, like [`crate::ctl::Ctl`].
//!
//! The front end produces `Ltl<SpecAtom>` (atoms are maximal non-temporal subformulas); the
//! explicit stage maps atoms to proposition ids (`Ltl<PropId>`); `check::ltl` negates, simplifies
//! and translates them. Future operators `X G F U V`, past operators `Y Z H O S T` (NuSMV's
//! names: `Z` is "not previous not", `T` "triggered", the past dual of `V`).

/// A temporal operator of NuSMV's LTL.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LtlOp {
    /// `X a`: next.
    X,
    /// `G a`: globally.
    G,
    /// `F a`: finally.
    F,
    /// `a U b`: until.
    U,
    /// `a V b`: releases (`!(!a U !b)`).
    V,
    /// `Y a`: previous (false in the first state).
    Y,
    /// `Z a`: not previous not (true in the first state).
    Z,
    /// `H a`: historically.
    H,
    /// `O a`: once.
    O,
    /// `a S b`: since.
    S,
    /// `a T b`: triggered (`!(!a S !b)`).
    T,
}

impl LtlOp {
    /// The operator written `word` (as the parser keeps it), if any.
    pub(crate) fn from_word(word: &str) -> Option<LtlOp> {
        Some(match word {
            "X" => LtlOp::X,
            "G" => LtlOp::G,
            "F" => LtlOp::F,
            "U" => LtlOp::U,
            "V" => LtlOp::V,
            "Y" => LtlOp::Y,
            "Z" => LtlOp::Z,
            "H" => LtlOp::H,
            "O" => LtlOp::O,
            "S" => LtlOp::S,
            "T" => LtlOp::T,
            _ => return None,
        })
    }

    /// `Y Z H O S T`.
    pub fn is_past(self) -> bool {
        matches!(self, LtlOp::Y | LtlOp::Z | LtlOp::H | LtlOp::O | LtlOp::S | LtlOp::T)
    }
}

/// An LTL formula over atoms `A`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ltl<A> {
    True,
    False,
    Atom(A),
    Not(Box<Ltl<A>>),
    And(Box<Ltl<A>>, Box<Ltl<A>>),
    Or(Box<Ltl<A>>, Box<Ltl<A>>),
    Xor(Box<Ltl<A>>, Box<Ltl<A>>),
    Xnor(Box<Ltl<A>>, Box<Ltl<A>>),
    Implies(Box<Ltl<A>>, Box<Ltl<A>>),
    Iff(Box<Ltl<A>>, Box<Ltl<A>>),
    /// A unary temporal operator (`X G F Y Z H O`).
    Unary(LtlOp, Box<Ltl<A>>),
    /// A binary temporal operator (`U V S T`).
    Binary(LtlOp, Box<Ltl<A>>, Box<Ltl<A>>),
}

impl<A> Ltl<A> {
    /// Rebuilds the formula with every atom mapped through `f`.
    pub(crate) fn map_atoms<B>(&self, f: &mut impl FnMut(&A) -> B) -> Ltl<B> {
        use Ltl::*;
        match self {
            True => True,
            False => False,
            Atom(a) => Atom(f(a)),
            Not(a) => Not(Box::new(a.map_atoms(f))),
            Unary(op, a) => Unary(*op, Box::new(a.map_atoms(f))),
            And(a, b) | Or(a, b) | Xor(a, b) | Xnor(a, b) | Implies(a, b) | Iff(a, b) | Binary(_, a, b) => {
                let a = Box::new(a.map_atoms(f));
                let b = Box::new(b.map_atoms(f));
                match self {
                    And(..) => And(a, b),
                    Or(..) => Or(a, b),
                    Xor(..) => Xor(a, b),
                    Xnor(..) => Xnor(a, b),
                    Implies(..) => Implies(a, b),
                    Iff(..) => Iff(a, b),
                    Binary(op, ..) => Binary(*op, a, b),
                    _ => unreachable!("matched above"),
                }
            }
        }
    }

    /// Whether a future operator (`X G F U V`) sits below a past one (`O (F p)`): such specs
    /// have no deterministic past monitor, only the BDD engine's tableau checks them.
    pub fn has_future_below_past(&self) -> bool {
        fn walk<A>(f: &Ltl<A>, below_past: bool) -> bool {
            match f {
                Ltl::True | Ltl::False | Ltl::Atom(_) => false,
                Ltl::Not(a) => walk(a, below_past),
                Ltl::Unary(op, a) => (below_past && !op.is_past()) || walk(a, below_past || op.is_past()),
                Ltl::Binary(op, a, b) => (below_past && !op.is_past()) || walk(a, below_past || op.is_past()) || walk(b, below_past || op.is_past()),
                Ltl::And(a, b) | Ltl::Or(a, b) | Ltl::Xor(a, b) | Ltl::Xnor(a, b) | Ltl::Implies(a, b) | Ltl::Iff(a, b) => {
                    walk(a, below_past) || walk(b, below_past)
                }
            }
        }
        walk(self, false)
    }

    /// Every atom, left to right.
    pub(crate) fn atoms(&self) -> Vec<&A> {
        let mut out = vec![];
        let mut stack = vec![self];
        while let Some(f) = stack.pop() {
            match f {
                Ltl::True | Ltl::False => {}
                Ltl::Atom(a) => out.push(a),
                Ltl::Not(a) | Ltl::Unary(_, a) => stack.push(a),
                Ltl::And(a, b) | Ltl::Or(a, b) | Ltl::Xor(a, b) | Ltl::Xnor(a, b) | Ltl::Implies(a, b) | Ltl::Iff(a, b) | Ltl::Binary(_, a, b) => {
                    stack.push(b);
                    stack.push(a)
                }
            }
        }
        out
    }
}
