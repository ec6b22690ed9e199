//! Test binary `linear_algebra`: linear algebra against NumPy, its scale invariance, 1-D matmul,
//! kron and tensordot.
//!
//! Each module is one file of tests/, included unchanged (a test is named `<file>::<test>`):
//! one binary per topic instead of one per file, so that the library's generic code is
//! instantiated and linked once per topic instead of once per file (Cargo.toml lists them).
// Each file keeps its own `mod common;` (tests/common/mod.rs), as when it was a binary alone.
#![allow(clippy::duplicate_mod)]

#[path = "../contract.rs"]
mod contract;
#[path = "../linalg.rs"]
mod linalg;
#[path = "../linalg_scale.rs"]
mod linalg_scale;
