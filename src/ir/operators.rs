//! The operators of lowered expressions: what the type checker maps the source operators to
//! (`semantics::resolve`, exhaustively), constant evaluation and the evaluators interpret
//! ([`super::ops`], [`super::words`]).

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    Not,
    Neg,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    And,
    Or,
    Xor,
    Xnor,
    Implies,
    Iff,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Add,
    Sub,
    Mul,
    /// truncating toward zero; division by zero is a model-construction error
    Div,
    /// C `%` semantics
    Mod,
    Shl,
    Shr,
    /// set membership: `a in S`
    In,
    /// `a :: b`: word concatenation (the result is unsigned)
    Concat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Builtin {
    Abs,
    Min,
    Max,
    ToInt,
    Bool,
    Count,
    /// `extend`/`resize` of a word to the given width (sign-extending signed words; a signed
    /// word resized to fewer bits keeps its sign bit)
    Resize(u8),
    /// `signed(w)`, `unsigned(w)`: the same bits read with the other signedness
    Signed,
    Unsigned,
    /// `word1(b)`: a boolean as `unsigned word[1]`
    Word1,
    /// `w[high : low]`: bits `low..=high` as an unsigned word
    Select(u8, u8),
}
