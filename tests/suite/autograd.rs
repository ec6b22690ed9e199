//! Topic `autograd` of the test binary `training`: reverse-mode autograd (the tape's contract, slices of tracked values,
//! models, gradient accumulation) and forward-mode jacobians.
//!
//! Each module is one file of tests/, included unchanged (a test is named `autograd::<file>::<test>`).
// Each file keeps its own `mod common;` (tests/common/mod.rs), as when it was a binary alone.
#![allow(clippy::duplicate_mod)]
// The file tests/autograd.rs is the module `autograd` of this topic `autograd`.
#![allow(clippy::module_inception)]

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
