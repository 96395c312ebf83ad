//! Stage 1, parsing: `.smv` text → [`ast::Program`] with byte spans, using the pest grammar in
//! `grammar/smv.pest` and pest's Pratt parser for operator precedence.

pub mod ast;
