//! Test binary `robustness`: hostile-input regressions, differential property tests against a flat
//! reference, the fuzz target.
//!
//! Each module is one file of tests/, included unchanged (a test is named `<file>::<test>`):
//! one binary per topic instead of one per file, so that the library's generic code is
//! instantiated and linked once per topic instead of once per file (Cargo.toml lists them).
// Each file keeps its own `mod common;` (tests/common/mod.rs), as when it was a binary alone.
#![allow(clippy::duplicate_mod)]

#[path = "../differential.rs"]
mod differential;
#[path = "../fuzz.rs"]
mod fuzz;
#[path = "../soundness.rs"]
mod soundness;
