//! Stage 3, lowering: constant propagation and `case`-to-table compilation, producing the
//! [`program::LoweredProgram`] the state-space builder consumes.

pub mod program;
