//! xmv-rs: a model checker for NuSMV models and recursive procedure modules (CTL, LTL and
//! invariants; explicit-state, BDD and recursive-Kripke-structure engines).
//!
//! # Library API
//!
//! [`check_str`], [`check_named`] and [`check_file`] run what `xmv-rs check` runs and return the
//! verdicts, traces and warnings as data ([`Report`]), or the errors as data
//! ([`DiagnosticData`]); [`CheckOptions`] holds the command line's options. These items (the
//! [`api`] module, re-exported here) are the public API, documented and kept stable within a
//! minor version:
//!
//! ```
//! let report = xmv_rs::check_str("MODULE main\nVAR x : boolean;\nASSIGN next(x) := !x;\nSPEC AG EF x\n", &Default::default())
//!     .expect("a well-formed model");
//! assert_eq!(report.specs[0].verdict, xmv_rs::Verdict::True);
//! ```
//!
//! # Everything else
//!
//! The other modules are the pipeline, one stage per module: `syntax` (parse) → `semantics`
//! (resolve and type) → `lowering` (the `LoweredProgram`) → `explicit` / `symbolic` (build the
//! state space) → `check` (the engines) → `report` (NuSMV-style text, JSON, SARIF); `driver`
//! chains them, `import` translates other tools' formats, `lsp` is the language server and
//! `nusmv_mode` NuSMV's own command line; `ir` holds the types
//! that cross stages (values, operators, spec and variable kinds). They are public for the `xmv-rs` binary, the tools and
//! the integration tests, hidden from this documentation, and may change in any release.

#![deny(missing_docs)]
// `pub` only where another target (binary, tests, tools) or the API needs it; everything else is
// `pub(crate)` (docs/architecture.md, "Visibility"). Here rather than in Cargo.toml's `[lints]`,
// which would also apply it to the test-support modules that the test crates share by `#[path]`.
#![warn(unreachable_pub)]
// The internal modules document themselves for developers (`cargo doc --document-private-items`)
// and link to their private items freely.
#![allow(rustdoc::private_intra_doc_links)]
#![cfg_attr(not(test), deny(clippy::unwrap_used))]

pub mod api;
#[doc(hidden)]
pub mod check;
pub(crate) mod cpu_trace;
#[doc(hidden)]
pub mod ctl;
pub(crate) mod deadline;
#[doc(hidden)]
pub mod diagnostics;
#[doc(hidden)]
pub mod driver;
#[doc(hidden)]
pub mod explicit;
#[doc(hidden)]
pub mod frontend;
#[doc(hidden)]
pub mod import;
#[doc(hidden)]
pub mod ir;
#[doc(hidden)]
pub mod lowering;
#[doc(hidden)]
pub mod lsp;
#[doc(hidden)]
pub mod ltl;
#[doc(hidden)]
pub mod nusmv_mode;
#[doc(hidden)]
pub mod par;
#[doc(hidden)]
pub mod progress;
#[doc(hidden)]
pub mod properties;
#[doc(hidden)]
pub mod report;
#[doc(hidden)]
pub mod semantics;
#[doc(hidden)]
pub mod source;
#[doc(hidden)]
pub mod symbolic;
#[doc(hidden)]
pub mod syntax;

pub use api::*;
