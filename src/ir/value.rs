//! Values and domains of the program's variables: what the front end produces (constant
//! evaluation, typing), lowering keeps, the state-space builders index and the report prints.
//! A value of a variable is stored as the index of the value in its [`Domain`]; procedure
//! variables additionally have [`Value::Exit`].

use crate::ir::VarKind;
use crate::source::Span;

crate::index_type! {
    /// A variable of one state machine (index into `System::vars`, the `*_assign` vectors, a
    /// state's values; the same number in the checked and the lowered program).
    pub struct VarId;
}

crate::index_type! {
    /// A global label of procedure modules (a DEFINE name; index into `LoweredProgram::labels`).
    pub struct LabelId;
}

crate::index_type! {
    /// A state machine of the program: the flat model or one procedure module (index into
    /// `LoweredProgram::systems`).
    pub struct SystemId;
}
crate::index_type! {
    /// A symbolic constant (index into `LoweredProgram::symbols`).
    pub struct SymId;
}
crate::index_type! {
    /// An exit name (index into `LoweredProgram::exit_names`; `EXIT` is 0, [`ExitNameId::EXIT`]).
    pub struct ExitNameId;
}

impl ExitNameId {
    /// The all-`EXIT` exit's name, interned first.
    pub(crate) const EXIT: ExitNameId = ExitNameId::from_u32(0);
}

#[derive(Clone, Debug)]
pub struct Variable {
    /// Qualified name as printed in traces.
    pub name: String,
    pub domain: Domain,
    pub kind: VarKind,
    pub span: Span,
}

/// The shared value table of a wide word variable; domains compare equal when they share it.
#[derive(Clone, Debug, Default)]
pub struct WideValues(pub std::sync::Arc<crate::ir::word_values::WordValues>);

impl PartialEq for WideValues {
    fn eq(&self, other: &WideValues) -> bool {
        std::sync::Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for WideValues {}

/// Largest domain that gets per-value tables (see [`Domain::table_len`]).
pub const MAX_TABLE_DOMAIN: usize = 1 << 16;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Domain {
    /// index 0 = FALSE, 1 = TRUE
    Boolean,
    /// index i = lo + i
    Range { lo: i64, hi: i64 },
    /// index i = `values[i]`; symbolic, integer or mixed
    Enum(Vec<Value>),
    /// `unsigned word[width]` / `signed word[width]`. Up to
    /// [`crate::ir::words::MAX_VAR_WIDTH`] bits, index i = the bit pattern i; wider words
    /// (`wide` is set) number their values in the order they are met
    /// ([`crate::ir::word_values`]), so `len()` (2^width, saturated) counts possible
    /// values, not indices handed out.
    Word { width: u8, signed: bool, wide: Option<WideValues> },
}

// `len` without `is_empty`: nothing asks whether it is empty (an `is_empty` would be dead code
// once the type is `pub(crate)`, tools/visibility/sweep.sh).
#[allow(clippy::len_without_is_empty)]
impl Domain {
    pub fn len(&self) -> usize {
        match self {
            Domain::Boolean => 2,
            Domain::Range { lo, hi } => (hi - lo + 1).max(0) as usize,
            Domain::Enum(v) => v.len(),
            Domain::Word { width, .. } => 1usize.checked_shl(u32::from(*width)).unwrap_or(usize::MAX),
        }
    }
    /// The number of values when it is small enough for per-value tables (`case` tables, the
    /// index of states by value): wide word domains are evaluated instead.
    pub(crate) fn table_len(&self) -> Option<usize> {
        Some(self.len()).filter(|&n| n <= MAX_TABLE_DOMAIN)
    }
    /// The value at an index (not including EXIT).
    pub(crate) fn value(&self, index: usize) -> Value {
        match self {
            Domain::Boolean => Value::Bool(index == 1),
            Domain::Range { lo, .. } => Value::Int(lo + index as i64),
            Domain::Enum(v) => v[index],
            Domain::Word { width, signed, wide } => {
                let bits = match wide {
                    Some(values) => values.0.bits(index).unwrap_or(0),
                    None => index as u64,
                };
                Value::Word { bits, width: *width, signed: *signed }
            }
        }
    }
    /// The index of a value, if it is in the domain.
    pub(crate) fn index_of(&self, value: Value) -> Option<usize> {
        match (self, value) {
            (Domain::Boolean, Value::Bool(b)) => Some(b as usize),
            (Domain::Range { lo, hi }, Value::Int(i)) if (*lo..=*hi).contains(&i) => Some((i - lo) as usize),
            (Domain::Enum(v), x) => v.iter().position(|&y| y == x),
            (Domain::Word { width, signed, wide }, Value::Word { bits, width: w, signed: s }) if *width == w && *signed == s => match wide {
                Some(values) => values.0.index(bits),
                None => usize::try_from(bits).ok(),
            },
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Value {
    Bool(bool),
    Int(i64),
    Sym(SymId),
    /// The implicit value of procedure variables after the module has exited.
    Exit,
    /// An exit name, the value of `EXITED` at a call state.
    ExitName(ExitNameId),
    /// A word value: its bit pattern (only the low `width` bits set), width 1..=64, signedness.
    Word {
        bits: u64,
        width: u8,
        signed: bool,
    },
}

/// Where each assignment and constraint of a `lowering::program::System` is written: the whole `init(x) := e;`
/// (resp. `INIT e`, …) statement. Vectors are parallel to the corresponding `lowering::program::System` fields.
#[derive(Clone, Debug, Default)]
pub struct SystemSpans {
    /// Indexed by `VarId`.
    pub init_assign: Vec<Option<Span>>,
    pub next_assign: Vec<Option<Span>>,
    pub invar_assign: Vec<Option<Span>>,
    /// Parallel to `System::init`, `trans`, `invar`, `fairness`.
    pub init: Vec<Span>,
    pub trans: Vec<Span>,
    pub invar: Vec<Span>,
    pub fairness: Vec<Span>,
}
