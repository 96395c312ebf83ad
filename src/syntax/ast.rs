//! The abstract syntax tree of an `.smv` file, as written: nothing resolved, every node spanned.
//!
//! Produced by [`crate::syntax::parse`], consumed by [`crate::semantics`]. The tree keeps the
//! user's surface syntax (`AG`, `->`, `case`, `SPEC` vs `CTLSPEC`) so diagnostics and printed
//! specifications can quote it; desugaring happens in later stages. Identifiers are kept as
//! strings; dotted names (`a.b[3].c`) are expressions built from [`ExprKind::Dot`] and
//! [`ExprKind::Index`].

pub use crate::ir::{Compute, Extremum, SpecKind, TerminationRule, VarKind};
use crate::source::Span;

/// A whole file.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    pub modules: Vec<Module>,
    /// Top-level `TERMINATION trap;` / `TERMINATION loop;` directives (xmv-rs extension).
    pub termination: Vec<TerminationDirective>,
    /// Modules whose sections were copied into others by `ISA` (see `syntax::isa`).
    pub included: Vec<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TerminationDirective {
    pub rule: TerminationRule,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Module {
    pub name: Ident,
    pub params: Vec<Ident>,
    pub sections: Vec<Section>,
    /// From `MODULE` to the end of the last section.
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Section {
    Var {
        kind: VarKind,
        decls: Vec<VarDecl>,
        span: Span,
    },
    Define {
        defs: Vec<Define>,
        span: Span,
    },
    Constants {
        names: Vec<Ident>,
        span: Span,
    },
    Assign {
        assigns: Vec<Assign>,
        span: Span,
    },
    Init {
        expr: Expr,
        span: Span,
    },
    Trans {
        expr: Expr,
        span: Span,
    },
    Invar {
        expr: Expr,
        span: Span,
    },
    /// `FAIRNESS e` and `JUSTICE e` (equivalent).
    Fairness {
        expr: Expr,
        justice: bool,
        span: Span,
    },
    /// `COMPASSION (p, q)`: parsed, reported as unsupported.
    Compassion {
        p: Expr,
        q: Expr,
        span: Span,
    },
    Spec(Spec),
    /// xmv-rs: `CALL target := condition; …`
    Call {
        calls: Vec<CallDecl>,
        span: Span,
    },
    /// xmv-rs: `EXIT name := condition; …` (named exits of a procedure module).
    Exit {
        exits: Vec<ExitDecl>,
        span: Span,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct VarDecl {
    pub name: Ident,
    pub ty: TypeSpec,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TypeSpec {
    Boolean(Span),
    /// `lo..hi`, bounds are constant expressions.
    Range {
        lo: Expr,
        hi: Expr,
        span: Span,
    },
    /// `{a, b, 3}`: symbolic and/or integer values.
    Enum {
        values: Vec<EnumValue>,
        span: Span,
    },
    /// `array lo..hi of T`
    Array {
        lo: Expr,
        hi: Expr,
        elem: Box<TypeSpec>,
        span: Span,
    },
    /// `name(args)` or `process name(args)`: a module instance.
    Instance {
        module: Ident,
        args: Vec<Expr>,
        process: bool,
        span: Span,
    },
    /// `word[N]`, `unsigned word[N]`, `signed word[N]`; `N` is a constant expression.
    Word {
        signed: bool,
        width: Box<Expr>,
        span: Span,
    },
    /// `real`, `integer`, `clock`: parsed so we can say they are unsupported.
    Unsupported {
        what: String,
        span: Span,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub enum EnumValue {
    Symbol(Ident),
    Int(i64, Span),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Define {
    pub name: Ident,
    pub expr: Expr,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Assign {
    pub kind: AssignKind,
    /// The assigned variable (may be dotted / indexed).
    pub target: Expr,
    pub value: Expr,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssignKind {
    /// `x := e`
    Invariant,
    /// `init(x) := e`
    Init,
    /// `next(x) := e`
    Next,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CallDecl {
    pub target: Ident,
    pub condition: Expr,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ExitDecl {
    pub name: Ident,
    pub condition: Expr,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Spec {
    pub kind: SpecKind,
    /// The keyword as written (`SPEC`, `CTLSPEC`, …).
    pub keyword: Span,
    pub name: Option<Ident>,
    /// The formula; `None` for `PSLSPEC` (its body is not parsed) and `COMPUTE` (see `compute`).
    pub expr: Option<Expr>,
    /// `COMPUTE`: `MIN`/`MAX` and its two formulas.
    pub compute: Option<Compute<Expr>>,
    pub span: Span,
}

impl Spec {
    /// The formulas written: the spec's, or a `COMPUTE`'s two.
    pub(crate) fn formulas(&self) -> impl Iterator<Item = &Expr> {
        self.expr.iter().chain(self.compute.iter().flat_map(|c| [&c.from, &c.to]))
    }

    /// The formulas written, mutably.
    pub(crate) fn formulas_mut(&mut self) -> impl Iterator<Item = &mut Expr> {
        self.expr.iter_mut().chain(self.compute.iter_mut().flat_map(|c| [&mut c.from, &mut c.to]))
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// `TRUE` / `FALSE`
    Bool(bool),
    Int(i64),
    /// A word constant (`0ud8_5`, `0sb4_1010`, `0h_ff`): its bit pattern (the low `width` bits),
    /// width 1..=64 and signedness.
    Word {
        bits: u64,
        width: u8,
        signed: bool,
    },
    /// An identifier: variable, define, parameter, symbolic constant, `self`, `EXIT`, `EXITED`.
    Name(String),
    /// `a.b`
    Dot(Box<Expr>, Ident),
    /// `a[i]`
    Index(Box<Expr>, Box<Expr>),
    /// `w[high : low]`: bit selection from a word (bounds are constant expressions).
    BitSelect(Box<Expr>, Box<Expr>, Box<Expr>),
    Unary(UnaryOp, Box<Expr>),
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// `c ? a : b`
    Ite(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `case c1 : e1; … esac`
    Case(Vec<CaseBranch>),
    /// `{e1, e2, …}`
    Set(Vec<Expr>),
    /// `[e0, e1, …]`: an array DEFINE's body (NuSMV 2.5), the whole body only; elements may be
    /// arrays themselves. Flattening makes it an array of DEFINEs `a[0]`, `a[1]`, ….
    Array(Vec<Expr>),
    /// `lo .. hi` used as a set expression
    Range(Box<Expr>, Box<Expr>),
    /// `next(e)`, `init(e)` (the latter only in assignment targets)
    Next(Box<Expr>),
    Init(Box<Expr>),
    /// Built-in functions: `abs`, `min`, `max`, `toint`, `bool`, `count`, …
    Call(Ident, Vec<Expr>),
    /// Unary CTL operators (`EX`, `AX`, `EF`, `AF`, `EG`, `AG`) and RTCTL's bounded ones
    /// (`EBF 1..3 p`, `ABF`, `EBG`, `ABG`).
    Ctl(CtlOp, Box<Expr>),
    /// `E [ a U b ]` (`universal = false`) and `A [ a U b ]`; with `bound`, RTCTL's
    /// `E [ a BU 1..3 b ]`.
    Until {
        universal: bool,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
        bound: Option<TimeBound>,
    },
    /// LTL operators: parsed only so LTLSPEC can be reported as unsupported.
    Ltl(String, Vec<Expr>),
    /// A parse error already reported; later stages skip it silently.
    Error,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CaseBranch {
    pub condition: Expr,
    pub value: Expr,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    Not,
    Neg,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
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
    Div,
    Mod,
    Shl,
    Shr,
    Union,
    In,
    /// `::` word concatenation.
    Concat,
}

impl BinaryOp {
    /// The operator as NuSMV spells it.
    pub(crate) fn symbol(self) -> &'static str {
        match self {
            BinaryOp::And => "&",
            BinaryOp::Or => "|",
            BinaryOp::Xor => "xor",
            BinaryOp::Xnor => "xnor",
            BinaryOp::Implies => "->",
            BinaryOp::Iff => "<->",
            BinaryOp::Eq => "=",
            BinaryOp::Ne => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Mod => "mod",
            BinaryOp::Shl => "<<",
            BinaryOp::Shr => ">>",
            BinaryOp::Union => "union",
            BinaryOp::In => "in",
            BinaryOp::Concat => "::",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CtlOp {
    EX,
    AX,
    EF,
    AF,
    EG,
    AG,
    /// RTCTL: `EBF lo..hi p`, some path reaches `p` within `lo..hi` steps.
    EBF(TimeBound),
    /// `ABF lo..hi p`: every path reaches `p` within `lo..hi` steps.
    ABF(TimeBound),
    /// `EBG lo..hi p`: some path has `p` at every step of `lo..hi`.
    EBG(TimeBound),
    /// `ABG lo..hi p`: every path has `p` at every step of `lo..hi`.
    ABG(TimeBound),
}

impl CtlOp {
    /// The operator as NuSMV prints it, with its bound (`EBF 1..3`).
    pub(crate) fn spelling(self) -> String {
        let bounded = |name: &str, b: TimeBound| format!("{name} {}..{}", b.lo, b.hi);
        match self {
            CtlOp::EX => "EX".into(),
            CtlOp::AX => "AX".into(),
            CtlOp::EF => "EF".into(),
            CtlOp::AF => "AF".into(),
            CtlOp::EG => "EG".into(),
            CtlOp::AG => "AG".into(),
            CtlOp::EBF(b) => bounded("EBF", b),
            CtlOp::ABF(b) => bounded("ABF", b),
            CtlOp::EBG(b) => bounded("EBG", b),
            CtlOp::ABG(b) => bounded("ABG", b),
        }
    }
}

/// The `lo..hi` of an RTCTL operator as written: integer literals, possibly signed (NuSMV's
/// parser reads `-1..2`; its type checker, and the resolver here, reject it), each within
/// NuSMV's integer range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TimeBound {
    pub lo: i64,
    pub hi: i64,
}
