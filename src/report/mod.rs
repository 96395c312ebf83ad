//! Stage 6, reports: NuSMV-style verdict lines and traces, JSON output.

pub mod trace;
