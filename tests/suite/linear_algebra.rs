//! Topic `linear_algebra` of the test binary `numerics`: linear algebra against NumPy, its scale invariance, 1-D matmul,
//! kron and tensordot.
//!
//! Each module is one file of tests/, included unchanged (a test is named `linear_algebra::<file>::<test>`).
// Each file keeps its own `mod common;` (tests/common/mod.rs), as when it was a binary alone.
#![allow(clippy::duplicate_mod)]

#[path = "../contract.rs"]
mod contract;
#[path = "../linalg.rs"]
mod linalg;
#[path = "../linalg_scale.rs"]
mod linalg_scale;
