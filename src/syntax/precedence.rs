//! The precedence of expression operators, in one table read by both parsers: the pest path
//! builds its `PrattParser` from [`LEVELS`] ([`crate::syntax::parser::pratt`]), and the fast
//! path ([`crate::syntax::fast`]) takes its binding powers from [`binding_power`], which numbers
//! the levels as pest does (the n-th level, loosest first, binds with power 10·n). Changing a
//! level here changes both parsers alike; `tests/parser_fast_path.rs` holds their trees equal.

/// How an operator of a level combines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fixity {
    Left,
    Right,
    Prefix,
    Postfix,
}

/// Every operator of the expression grammar (each is one `op_…` rule of `grammar/smv.pest`,
/// or `dot_access`, `index`, `bit_select`).
// The operators' names are NuSMV's (`EBF`, `ABG`, …).
#[allow(clippy::upper_case_acronyms)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Operator {
    Implies,
    Iff,
    /// `a ? b : c`
    Ite,
    Or,
    Xor,
    Xnor,
    And,
    /// LTL `U`, `S`, `V`, `T`
    Until,
    Since,
    Releases,
    Triggered,
    /// LTL `X G F Y Z H O`
    Next,
    Globally,
    Finally,
    Yesterday,
    Zesterday,
    Historically,
    Once,
    EX,
    AX,
    EF,
    AF,
    EG,
    AG,
    /// RTCTL `EBF ABF EBG ABG` (with their `lo..hi`)
    EBF,
    ABF,
    EBG,
    ABG,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    In,
    Union,
    Range,
    Shl,
    Shr,
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Neg,
    Concat,
    Not,
    Dot,
    Index,
    BitSelect,
}

use Operator::*;

/// The precedence levels, loosest first.
pub(crate) const LEVELS: &[(Fixity, &[Operator])] = &[
    (Fixity::Right, &[Implies]),
    (Fixity::Left, &[Iff]),
    (Fixity::Right, &[Ite]),
    (Fixity::Left, &[Or, Xor, Xnor]),
    (Fixity::Left, &[And]),
    (Fixity::Left, &[Until, Since, Releases, Triggered]),
    (Fixity::Prefix, &[Next, Globally, Finally, Yesterday, Zesterday, Historically, Once]),
    (Fixity::Prefix, &[EX, AX, EF, AF, EG, AG, EBF, ABF, EBG, ABG]),
    (Fixity::Left, &[Eq, Ne, Lt, Le, Gt, Ge]),
    (Fixity::Left, &[In]),
    (Fixity::Left, &[Union]),
    (Fixity::Left, &[Range]),
    (Fixity::Left, &[Shl, Shr]),
    (Fixity::Left, &[Add, Sub]),
    (Fixity::Left, &[Mul, Div, Mod]),
    (Fixity::Prefix, &[Neg]),
    (Fixity::Left, &[Concat]),
    (Fixity::Prefix, &[Not]),
    (Fixity::Postfix, &[Dot, Index, BitSelect]),
];

/// The level of `op` (0 = loosest).
const fn level(op: Operator) -> usize {
    let mut i = 0;
    while i < LEVELS.len() {
        let ops = LEVELS[i].1;
        let mut j = 0;
        while j < ops.len() {
            if ops[j] as u8 == op as u8 {
                return i;
            }
            j += 1;
        }
        i += 1;
    }
    panic!("every operator is in LEVELS")
}

/// The binding power pest's `PrattParser` gives `op`: 10 · (its level + 1).
pub(crate) const fn binding_power(op: Operator) -> u32 {
    10 * (level(op) as u32 + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_operator_is_on_exactly_one_level() {
        let all: Vec<Operator> = LEVELS.iter().flat_map(|(_, ops)| ops.iter().copied()).collect();
        for (i, a) in all.iter().enumerate() {
            assert!(!all[i + 1..].contains(a), "{a:?} is on two levels");
        }
        assert_eq!(all.len(), BitSelect as usize + 1, "an operator is on no level");
        assert_eq!(binding_power(Implies), 10);
        assert_eq!(binding_power(Dot), 190);
        let right: Vec<Operator> = LEVELS.iter().filter(|(f, _)| *f == Fixity::Right).flat_map(|(_, ops)| ops.iter().copied()).collect();
        assert_eq!(right, [Implies, Ite], "the fast path treats `->` as the only right-associative operator it parses");
    }
}
