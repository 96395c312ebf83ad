//! Stage 2, name resolution and typing: module flattening, DEFINE expansion with cycle detection,
//! scoping of procedure modules, type checking.
