//! Test binary `autograd`: reverse-mode autograd (the tape's contract, slices of tracked values,
//! models, gradient accumulation) and forward-mode jacobians.
//!
//! Each module is one file of tests/, included unchanged (a test is named `<file>::<test>`):
//! one binary per topic instead of one per file, so that the library's generic code is
//! instantiated and linked once per topic instead of once per file (Cargo.toml lists them).
// Each file keeps its own `mod common;` (tests/common/mod.rs), as when it was a binary alone.
#![allow(clippy::duplicate_mod)]

#[path = "../autograd.rs"]
mod autograd;
#[path = "../autograd_models.rs"]
mod autograd_models;
#[path = "../autograd_slice.rs"]
mod autograd_slice;
#[path = "../derivative_table.rs"]
mod derivative_table;
#[path = "../grads_accumulate.rs"]
mod grads_accumulate;
#[path = "../jacobian.rs"]
mod jacobian;
