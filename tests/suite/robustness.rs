//! Topic `robustness` of the test binary `tensors`: hostile-input regressions, differential property tests against a flat
//! reference, the fuzz target.
//!
//! Each module is one file of tests/, included unchanged (a test is named `robustness::<file>::<test>`).
// Each file keeps its own `mod common;` (tests/common/mod.rs), as when it was a binary alone.
#![allow(clippy::duplicate_mod)]

#[path = "../differential.rs"]
mod differential;
#[path = "../fuzz.rs"]
mod fuzz;
#[path = "../soundness.rs"]
mod soundness;
