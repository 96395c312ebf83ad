//! Shared test support for the ternary-engine tests.
#![allow(dead_code)]

pub mod ctl;
pub mod random_rks;
pub mod rsm_json;
